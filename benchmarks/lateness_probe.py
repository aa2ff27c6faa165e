"""Where event lateness is born: one oracle run in this process, with probes.

Runs `sentinel run --agent oracle` in-process over the given environments and prints, for the
time sessions run:
- timer lag: a probe timer armed every 5 ms with loop.call_at, fired how late (the event
  loop's own delay, before any event is applied);
- event lateness (events.jsonl: scheduled to applied), split (--split) into how late the
  apply began, by the event's timer or by a page's catch-up, and how long the apply took;
- with --callbacks MS: every loop callback timed, those over MS counted by what they ran;
- CPU: this process (its main thread and its other threads) and the whole machine, in cores.

    python benchmarks/lateness_probe.py [--trials 5] [--speed 50] [--split] [--callbacks 3]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sentinel import api  # noqa: E402
from sentinel.core.bus import Bus, SessionGraded  # noqa: E402
from sentinel.core.summary import percentile  # noqa: E402

PROBE_S = 0.005
TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(path: str) -> float:
    """utime + stime, in seconds, of a /proc stat file."""
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


class Probe:
    def __init__(self) -> None:
        self.lags: list[float] = []
        self.running = True

    def arm(self, loop: asyncio.AbstractEventLoop) -> None:
        due = loop.time() + PROBE_S

        def fire() -> None:
            self.lags.append((loop.time() - due) * 1000)
            if self.running:
                self.arm(loop)
        loop.call_at(due, fire)


def fmt(values: list[float]) -> str:
    if not values:
        return "—"
    return f"p50 {percentile(values, 50):7.2f}  p99 {percentile(values, 99):7.2f}  max {max(values):7.2f} ms"


def instrument(enter: list[float], caught: list[float], applies: list[float]) -> None:
    """Record, for every event applied, how late the apply began (by its timer, or by a page's
    catch-up) and how long the apply itself took."""
    from sentinel.session.live import Session
    apply = Session._apply_in_transaction

    async def timed_apply(self, event):
        due = self.clock.wall_for(event.at)
        if due is not None:
            task = asyncio.current_task()
            by_timer = task is not None and task.get_name().startswith("scheduler")
            (enter if by_timer else caught).append((self.clock.wall() - due) * 1000)
        began = time.perf_counter()
        await apply(self, event)
        applies.append((time.perf_counter() - began) * 1000)
    Session._apply_in_transaction = timed_apply


def suspended_at(coro) -> str:
    """Where a coroutine waits now (its innermost sentinel frame): the step that just ran ended there."""
    where = ""
    while coro is not None and getattr(coro, "cr_frame", None) is not None:
        code = coro.cr_frame.f_code
        if "sentinel" in code.co_filename:
            where = f" → {code.co_name}:{coro.cr_frame.f_lineno}"
        coro = coro.cr_await
    return where


def watch_callbacks(slow: collections.Counter, durations: list[float], over_ms: float) -> None:
    """Time every callback the event loop runs; count those over over_ms by what they ran."""
    run = asyncio.events.Handle._run

    def timed(handle):
        began = time.perf_counter()
        try:
            return run(handle)
        finally:
            ms = (time.perf_counter() - began) * 1000
            durations.append(ms)
            if ms > over_ms:
                callback = handle._callback
                owner = getattr(callback, "__self__", None)
                coro = getattr(owner, "get_coro", lambda: None)()
                name = getattr(coro, "__qualname__", None) or getattr(callback, "__qualname__", repr(callback))
                slow[name + suspended_at(coro)] += 1
    asyncio.events.Handle._run = timed


async def main(args: argparse.Namespace) -> int:
    import json
    enter: list[float] = []
    caught: list[float] = []
    applies: list[float] = []
    if args.split:
        instrument(enter, caught, applies)
    slow: collections.Counter = collections.Counter()
    durations: list[float] = []
    if args.callbacks:
        watch_callbacks(slow, durations, args.callbacks)
    config, plan = api.prepare_run(agent=args.agent, envs=[args.env], trials=args.trials, speed=args.speed,
                                   run_name=f"probe-{os.getpid()}", concurrency=args.concurrency)
    bus = Bus()
    graded = [0, 0]

    def count(message) -> None:
        if isinstance(message, SessionGraded):
            graded[0] += 1
            graded[1] += message.result.success
    bus.subscribe(count)
    probe = Probe()
    loop = asyncio.get_running_loop()
    probe.arm(loop)
    cpu0, thread0 = cpu_of("/proc/self/stat"), cpu_of(f"/proc/self/task/{os.getpid()}/stat")
    busy0, total0 = machine_busy()
    wall0 = time.monotonic()
    outcome = await api.execute_async(config, plan, bus)
    wall = time.monotonic() - wall0
    probe.running = False
    cpu, thread = cpu_of("/proc/self/stat") - cpu0, cpu_of(f"/proc/self/task/{os.getpid()}/stat") - thread0
    busy, total = machine_busy()
    cores = os.cpu_count() or 1
    lateness = []
    for events in outcome.run_dir.glob("*/*/events.jsonl"):
        lateness += [json.loads(line)["lateness_ms"] for line in events.read_text().splitlines() if line]
    print(f"sessions {len(outcome.results)}  passed {graded[1]}  run wall {wall:.1f} s  "
          f"load avg {os.getloadavg()[0]:.1f}")
    print(f"timer lag (probe)  {fmt(probe.lags)}")
    print(f"event lateness     {fmt(lateness)}")
    if args.split:
        print(f"  by its timer: began late   {fmt(enter)}  ({len(enter)} events)")
        print(f"  by a page's catch-up: late {fmt(caught)}  ({len(caught)} events)")
        print(f"  apply itself     {fmt(applies)}")
    if args.callbacks:
        print(f"loop callbacks     {fmt(durations)}  ({len(durations)} callbacks)")
        for name, count in slow.most_common(12):
            print(f"  {count:6} over {args.callbacks:g} ms: {name}")
    print(f"CPU: this process {cpu / wall:.2f} cores (main thread {thread / wall:.2f}, other threads "
          f"{(cpu - thread) / wall:.2f}); machine {cores * (busy - busy0) / (total - total0):.2f} of {cores} cores")
    if not args.keep:
        shutil.rmtree(outcome.run_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", default="oracle")
    parser.add_argument("--env", default="micromail,microhood")
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--speed", type=float, default=50)
    parser.add_argument("--concurrency", type=int, default=0)
    parser.add_argument("--split", action="store_true", help="time the apply start and every database hop")
    parser.add_argument("--callbacks", type=float, default=0, metavar="MS",
                        help="time every loop callback; list what ran longer than MS")
    parser.add_argument("--keep", action="store_true", help="keep the run folder")
    sys.exit(asyncio.run(main(parser.parse_args())))
