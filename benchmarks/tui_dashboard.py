"""How long the dashboard takes per frame with 100 sessions running.

Drives the real DashboardApp (headless, through Textual's pilot) with the bus messages of 100
simulated sessions at speed 50 (sentinel/tui/simulate.py: events, agent output, requests,
contacts and grades), one frame per refresh tick (0.25 s of the run): the messages of that
tick are applied, the view refreshed, and the screen repainted. Prints, per frame, the time
to apply the messages and update the widgets, and the CPU time of the whole frame (update,
layout and paint: what the screen takes from the process, the runner's thread included), as
milliseconds and as a share of the tick; then the CPU time a key (filter, cursor move)
takes until the screen has handled it and painted the result.

    python benchmarks/tui_dashboard.py [--sessions 100] [--seconds 45] [--size 160x48]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from sentinel.summary import percentile
from sentinel.tui.base import REFRESH_S
from sentinel.tui.dashboard import DashboardApp
from sentinel.tui.simulate import START_WALL, SimulatedRun
from sentinel.tui.state import RunState


async def measure(sessions: int, seconds: float, size: tuple[int, int]) -> None:
    simulated = SimulatedRun(sessions)
    now = [START_WALL]
    state = RunState(simulated.rows(), speed=simulated.speed, deadline_wall_s=simulated.deadline_wall_s,
                     run_name="bench", agent="simulated", now=lambda: now[0])
    app = DashboardApp(state)
    messages = simulated.messages(START_WALL + seconds + 1)
    update_ms, cpu_ms, per_frame = [], [], []
    async with app.run_test(size=size) as pilot:
        done = 0
        for tick in range(int(seconds / REFRESH_S)):
            now[0] = START_WALL + tick * REFRESH_S
            began, began_cpu = time.perf_counter(), time.process_time()
            count = 0
            while done < len(messages) and messages[done].wall <= now[0]:
                state.apply(messages[done])
                done += 1
                count += 1
            app.refresh_view()
            updated = time.perf_counter()
            await pilot.pause()  # layout and paint (the pilot waits until the process is idle)
            update_ms.append((updated - began) * 1000)
            cpu_ms.append((time.process_time() - began_cpu) * 1000)
            per_frame.append(count)
        keys = {}
        for key in ("f", "f", "f", "f", "down", "down", "end", "home"):
            began = time.process_time()
            await pilot.press(key)
            keys.setdefault(key, []).append((time.process_time() - began) * 1000)
    budget = REFRESH_S * 1000
    print(f"dashboard: {sessions} sessions, {len(cpu_ms)} frames of {budget:.0f} ms, {len(messages)} messages "
          f"(median {statistics.median(per_frame):.0f}, max {max(per_frame)} per frame), terminal {size[0]}x{size[1]}")
    for name, values in (("apply + update widgets", update_ms), ("CPU of the whole frame", cpu_ms)):
        p50, p95 = percentile(values, 50), percentile(values, 95)
        print(f"  {name:24} p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  max {max(values):6.1f} ms  "
              f"(p50 {p50 / budget:.0%} of a tick, p95 {p95 / budget:.0%})")
    for key, values in keys.items():
        print(f"  key {key!r:8} {statistics.median(values):6.1f} ms of CPU until handled and painted")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=45.0, help="simulated run time (wall seconds)")
    parser.add_argument("--size", default="160x48", help="terminal columns x rows")
    args = parser.parse_args()
    columns, rows = (int(v) for v in args.size.split("x"))
    asyncio.run(measure(args.sessions, args.seconds, (columns, rows)))


if __name__ == "__main__":
    main()
