"""Memory and CPU of one browser-agent session, with 1, 5, 10 and 20 sessions at once.

Runs `browser-wait_for` (rule-based) on one MicroMail scenario as N simultaneous trials, for
each N, while a sampler thread reads /proc once a second. A session's footprint is its agent's
whole process tree: the Python agent, Playwright's driver and Chromium with its zygotes,
renderers and utility processes.

- memory: PSS (proportional set size: shared pages split among the processes that map them,
  so N sessions' PSS add up to what they really take) and RSS (shared pages counted in every
  process, an upper bound), summed over the tree; mean over the session's samples, and peak;
- CPU: user + system time of every process of the tree (the last reading of each), over the
  session's wall time: the share of one core the session kept busy.

The scenario is a no-op (its condition never holds), so every session watches for its whole
length; the reaction window is cut to 5 s so each rung lasts 600/speed + 5 wall seconds.

    python benchmarks/browser_resources.py [--sessions 1,5,10,20] [--speed 20] [--task sender_noop]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import threading
import time
from dataclasses import dataclass, field, replace
from datetime import datetime

from sentinel.agents import BUILTIN_AGENTS
from sentinel.core.config import load_config
from sentinel.core.scenario import load_scenario
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner

AGENT = "browser-wait_for"
AGENT_MARK = b"--browser\x00chromium"  # in the command line of every browser agent
TICKS = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


@dataclass
class Session:
    """What the sampler saw of one agent's process tree."""
    first: float
    last: float
    pss_kb: list[int] = field(default_factory=list)
    rss_kb: list[int] = field(default_factory=list)
    processes: list[int] = field(default_factory=list)
    cpu_ticks: dict[int, int] = field(default_factory=dict)  # the last reading of each process

    @property
    def cpu_share(self) -> float:
        wall = self.last - self.first
        return sum(self.cpu_ticks.values()) / TICKS / wall if wall > 0 else 0.0


def read_proc() -> tuple[dict[int, int], dict[int, bytes]]:
    """Parent and command line of every process."""
    parents, commands = {}, {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                parents[int(entry.name)] = int(stat.read().rsplit(b")", 1)[1].split()[1])
            with open(f"/proc/{entry.name}/cmdline", "rb") as cmdline:
                commands[int(entry.name)] = cmdline.read()
        except (OSError, ValueError, IndexError):
            continue
    return parents, commands


def tree(root: int, parents: dict[int, int]) -> list[int]:
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def memory_kb(pid: int) -> tuple[int, int]:
    """(PSS, RSS) of one process, in kB."""
    pss = rss = 0
    with open(f"/proc/{pid}/smaps_rollup", "rb") as rollup:
        for line in rollup:
            if line.startswith(b"Pss:"):
                pss = int(line.split()[1])
            elif line.startswith(b"Rss:"):
                rss = int(line.split()[1])
    return pss, rss


def cpu_ticks(pid: int) -> int:
    with open(f"/proc/{pid}/stat", "rb") as stat:
        fields = stat.read().rsplit(b")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime


class Sampler(threading.Thread):
    def __init__(self, interval_s: float = 1.0):
        super().__init__(daemon=True)
        self.interval_s = interval_s
        self.sessions: dict[int, Session] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        me = os.getpid()
        while not self.stop.wait(self.interval_s):
            parents, commands = read_proc()
            mine = set(tree(me, parents))
            for agent in (pid for pid in mine if AGENT_MARK in commands.get(pid, b"")):
                self.sample(agent, parents)

    def sample(self, agent: int, parents: dict[int, int]) -> None:
        now = time.monotonic()
        session = self.sessions.setdefault(agent, Session(now, now))
        session.last = now
        pss = rss = 0
        pids = tree(agent, parents)
        for pid in pids:
            try:
                one_pss, one_rss = memory_kb(pid)
                session.cpu_ticks[pid] = cpu_ticks(pid)
            except (OSError, ValueError, IndexError):
                continue  # it ended between the listing and the reading
            pss, rss = pss + one_pss, rss + one_rss
        if len(pids) >= 4:  # Chromium is up (agent, driver, browser, children): a steady reading
            session.pss_kb.append(pss)
            session.rss_kb.append(rss)
            session.processes.append(len(pids))


@dataclass(frozen=True)
class Rung:
    sessions: int
    passed: int
    pss_mb: float  # mean per session
    pss_peak_mb: float
    rss_mb: float
    processes: float
    cpu_share: float  # of one core, per session
    wall_s: float


def run_rung(count: int, speed: float, task: str) -> Rung:
    config = load_config()
    config = replace(config, timing=replace(config.timing, reaction_window_s=5.0))
    scenario = load_scenario(config.scenarios_dir / "micromail" / f"{task}.yaml")
    plan = RunPlan(name=f"browser-resources-{count}-{datetime.now():%Y%m%d-%H%M%S}", agent=AGENT,
                   command=BUILTIN_AGENTS[AGENT], speed=speed, scenarios=(scenario,), trials=count)
    sampler = Sampler()
    sampler.start()
    began = time.monotonic()
    report = asyncio.run(Runner(config, plan).run())
    sampler.stop.set()
    sampler.join()
    seen = [s for s in sampler.sessions.values() if s.pss_kb]
    if not seen:
        raise SystemExit("the sampler saw no browser session")
    return Rung(sessions=count, passed=sum(r.success for r in report.results),
                pss_mb=statistics.mean(statistics.mean(s.pss_kb) for s in seen) / 1024,
                pss_peak_mb=max(max(s.pss_kb) for s in seen) / 1024,
                rss_mb=statistics.mean(statistics.mean(s.rss_kb) for s in seen) / 1024,
                processes=statistics.mean(statistics.mean(s.processes) for s in seen),
                cpu_share=statistics.mean(s.cpu_share for s in seen), wall_s=time.monotonic() - began)


def print_table(rungs: list[Rung]) -> None:
    cores = os.cpu_count() or 1
    print(f"\n{AGENT}, rule-based; {cores} cores; per session, means over the sessions of each rung\n")
    print("| sessions at once | passed | PSS mean | PSS peak | RSS mean | processes | CPU (one core) | "
          "sessions per core by CPU | all sessions' PSS |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rungs:
        per_core = 1 / r.cpu_share if r.cpu_share > 0 else float("inf")
        print(f"| {r.sessions} | {r.passed}/{r.sessions} | {r.pss_mb:.0f} MB | {r.pss_peak_mb:.0f} MB | "
              f"{r.rss_mb:.0f} MB | {r.processes:.0f} | {r.cpu_share:.1%} | {per_core:.0f} | "
              f"{r.pss_mb * r.sessions / 1024:.2f} GB |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", default="1,5,10,20", help="comma-separated numbers of sessions at once")
    parser.add_argument("--speed", type=float, default=20.0)
    parser.add_argument("--task", default="sender_noop", help="a MicroMail scenario (a no-op watches longest)")
    args = parser.parse_args()
    rungs = []
    for count in (int(n) for n in args.sessions.split(",")):
        print(f"{count} session(s) at once, speed {args.speed:g} …", flush=True)
        rungs.append(run_rung(count, args.speed, args.task))
        print(f"  {rungs[-1]}", flush=True)
    print_table(rungs)


if __name__ == "__main__":
    main()
