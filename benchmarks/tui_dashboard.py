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

With --live it drives the app `sentinel tui` runs, with its runner: real sessions (the oracle
over MicroMail and MicroHood, --trials 5 at speed 50: 100 sessions) in the runner's own process
(a RunnerProcess, as `sentinel tui` has; --in-thread puts the runner in a thread of this
process instead, as before), the dashboard in this one, its heap frozen as `sentinel tui` does.
A key is pressed every 0.3 s throughout the run (cursor moves, filters, a search typed and
cleared), each chosen so that it changes the screen, and each is timed from the press to the
first paint that shows its effect (wall time, p50 / p95 / max); at the end the event lateness
of the run's events.jsonl is printed, measured while the dashboard ran, and the CPU of the
screen's thread and of the runner (its process, or its thread). Compare the lateness with
`python benchmarks/lateness_probe.py --trials 5` run just before or after (the same sessions
without the dashboard).

    python benchmarks/tui_dashboard.py --live [--trials 5] [--speed 50] [--in-thread]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import time
from collections.abc import Callable

from lateness_probe import cpu_of  # a sibling script: one reader of /proc stat files
from textual._compositor import CompositorUpdate

from sentinel.core.summary import percentile
from sentinel.tui.base import REFRESH_S
from sentinel.tui.dashboard import DashboardApp
from sentinel.tui.simulate import START_WALL, SimulatedRun
from sentinel.tui.state import FILTERS, RunState


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


KEY_EVERY_S = 0.3


def next_key(app: DashboardApp, pressed: int) -> tuple[str, Callable[[], bool]]:
    """The key to press next and the test that the screen shows its effect. Every key changes
    the screen (a cursor move never runs into an end of the list, a filter or search always
    changes the summary), so the paint it waits for is that key's and not an unrelated tick's."""
    if app.typing is not None:
        return "escape", lambda: app.typing is None and "search:" not in str(app._shown["#summary"][0])
    rows = app.rows
    count = len(rows.texts())
    kind = pressed % 4
    if kind in (1, 2) and count >= 2:
        target = rows.cursor + 1 if rows.cursor < count - 1 else rows.cursor - 1
        key = "down" if target > rows.cursor else "up"

        def moved() -> bool:
            selected = rows.selected_key
            detail = app._shown.get("#detail")
            return rows.cursor == target and selected is not None and detail is not None and \
                str(detail[0]).startswith(app.state.sessions[selected].scenario_id or selected)
        return key, moved
    if kind == 3:  # open the search box; the next key closes it
        return "slash", lambda: app.typing is not None and "search:" in str(app._shown["#summary"][0])
    wanted = FILTERS[(FILTERS.index(app.state_filter) + 1) % len(FILTERS)]
    return "f", lambda: app.state_filter == wanted and f"filter {wanted}" in str(app._shown["#summary"][0])


class KeyTimer:
    """Times a key from the moment the terminal driver hands it over until the first paint that
    shows its effect. (Pilot.press waits until the process is idle, which it never is while the
    runner works in another thread, so it cannot time this.) The app runs headless, which skips
    turning each paint into terminal escape codes: the paint hook does that work too (into a
    string that is thrown away), so a paint costs what it costs in a terminal."""

    def __init__(self, app: DashboardApp):
        self.app = app
        self.handled: list[float] = []
        self.shown: Callable[[], bool] | None = None
        self.shown_at: float | None = None
        self.seen = asyncio.Event()
        check, display = app._check_bindings, app._display

        async def checked(key: str, priority: bool = False) -> bool:
            result = await check(key, priority)
            if result:
                self.handled.append(time.perf_counter())
            return result

        def painted(screen, renderable) -> None:
            if isinstance(renderable, CompositorUpdate):
                renderable.render_segments(app.console)
            display(screen, renderable)
            if self.shown is not None and self.shown_at is None and self.shown():
                self.shown_at = time.perf_counter()
                self.seen.set()
        app._check_bindings = checked  # type: ignore[method-assign]
        app._display = painted  # type: ignore[method-assign]

    async def press(self, key: str, shown: Callable[[], bool], timeout: float = 5.0) -> float | None:
        """Milliseconds from the key to the paint that shows it; None if none did in time."""
        from textual import events
        self.shown, self.shown_at = shown, None
        self.seen.clear()
        began = time.perf_counter()
        assert self.app._driver is not None
        character = {"slash": "/"}.get(key, key if len(key) == 1 else None)
        self.app._driver.send_message(events.Key(key, character))
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.seen.wait(), timeout)  # no polling: it would load the thread
        return None if self.shown_at is None else (self.shown_at - began) * 1000


def cpu_s(stat: str) -> float | None:
    """CPU seconds of a thread or process from its /proc stat file; None once it is gone."""
    with contextlib.suppress(OSError):
        return cpu_of(stat)
    return None


def runner_stat(app: DashboardApp) -> str | None:
    """The /proc stat file of the runner: its process, or (in a thread) its thread."""
    process = getattr(app.runner, "_process", None)
    if process is not None:
        return f"/proc/{process.pid}/stat"
    thread = app._thread
    return None if thread is None or thread.native_id is None else f"/proc/self/task/{thread.native_id}/stat"


async def measure_live(trials: int, speed: float, size: tuple[int, int], in_thread: bool) -> None:
    import json
    import shutil

    from sentinel import api
    from sentinel.core.bus import Bus
    from sentinel.run.ray_backend import make_runner
    from sentinel.run.runner_process import RunnerProcess

    config, plan = api.prepare_run(agent="oracle", envs=["micromail,microhood"], trials=trials, speed=speed,
                                   run_name=f"tui-live-{os.getpid()}")
    runner = make_runner(config, plan, Bus()) if in_thread else RunnerProcess(config, plan)
    app = DashboardApp(RunState.for_plan(plan, config), runner, freeze_heap=True)  # as `sentinel tui`
    key_ms: list[float] = []
    unpainted: list[str] = []  # keys whose effect no paint showed within the timeout
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        keys = KeyTimer(app)
        began, screen_cpu = time.monotonic(), time.thread_time()
        runner_cpu: float | None = None
        pressed = 0
        while app.running or time.monotonic() - began < 2:
            stat = runner_stat(app) if app.running else None
            runner_cpu = (cpu_s(stat) if stat else None) or runner_cpu
            key, shown = next_key(app, pressed)
            ms = await keys.press(key, shown)
            pressed += 1
            if ms is None:
                unpainted.append(f"{key} at {time.monotonic() - began:.1f} s")
            else:
                key_ms.append(ms)
            await asyncio.sleep(KEY_EVERY_S)
        wall = time.monotonic() - began
        screen_cpu = time.thread_time() - screen_cpu
    report = app.report
    assert report is not None, app.error
    lateness = [json.loads(line)["lateness_ms"] for events in report.run_dir.glob("*/*/events.jsonl")
                for line in events.read_text().splitlines() if line.strip()]
    passed = sum(r.success for r in report.results)
    print(f"dashboard over {len(report.results)} real sessions ({passed} passed), run {wall:.1f} s, "
          f"terminal {size[0]}x{size[1]}, load avg {os.getloadavg()[0]:.1f}")
    print(f"  key press → repaint   p50 {percentile(key_ms, 50):6.1f} ms  p95 {percentile(key_ms, 95):6.1f} ms  "
          f"max {max(key_ms):6.1f} ms  ({len(key_ms)} keys; goal p95 ≤ 100 ms)")
    if unpainted:
        print(f"  keys no repaint showed within 5 s: {', '.join(unpainted)}")
    print(f"  event lateness        p50 {percentile(lateness, 50):6.2f} ms  p99 {percentile(lateness, 99):6.2f} ms  "
          f"max {max(lateness):6.1f} ms  ({len(lateness)} events)")
    where = "thread" if in_thread else "process"
    print(f"  CPU                   the screen's thread {screen_cpu / wall:.2f} cores, the runner's {where} "
          f"{(runner_cpu or 0) / wall:.2f} cores (its last reading)")
    shutil.rmtree(report.run_dir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=45.0, help="simulated run time (wall seconds)")
    parser.add_argument("--size", default="160x48", help="terminal columns x rows")
    parser.add_argument("--live", action="store_true", help="real sessions run by the app's runner")
    parser.add_argument("--trials", type=int, default=5, help="with --live: trials of the 20 scenarios")
    parser.add_argument("--speed", type=float, default=50, help="with --live: speed factor")
    parser.add_argument("--in-thread", action="store_true",
                        help="with --live: the runner in a thread of this process, not its own process")
    args = parser.parse_args()
    columns, rows = (int(v) for v in args.size.split("x"))
    if args.live:
        asyncio.run(measure_live(args.trials, args.speed, (columns, rows), args.in_thread))
    else:
        asyncio.run(measure(args.sessions, args.seconds, (columns, rows)))


if __name__ == "__main__":
    main()
