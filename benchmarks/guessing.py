"""What guessing earns: agents that never look at a page, run over the suite.

Runs `eager` (reports at once), `silent` (never reports), `deadline` (reports just before the
time limit) and `blind:T` (acts on the solution's steps and reports at sim T without watching)
for every T on a ladder (default every 30 sim s from 30 to 630), each strategy as one run with all
its sessions at once, at a high speed (default 50). Then prints one table: per strategy, the
share of normal tasks passed (success), the share passed on time (within on_time_s of
condition_at, docs/protocol.md#on-time), the no-ops passed, and the best blind time. The
validity rules (docs/environments.md#validity-rules) ask that `blind` at its best time be on time
in at most 15% of normal tasks and that `deadline` pass at most the passive share; the table
says whether the suite keeps to that.

`--suite verified,paper` runs the same strategies over both bundled suites and adds a table that
sets them side by side: on the paper suite a timer that never looks (`blind:T`) passes many tasks,
which is the measured reason the verified suite exists (docs/paper-suite.md#guessing).

    python benchmarks/guessing.py [--speed 50] [--ladder 30:630:30] [--env micromail,microhood]
                                  [--agents eager,silent,deadline] [--also oracle] [--batch 1]
                                  [--suite verified|paper|verified,paper]
    python benchmarks/guessing.py --runs results/<run> results/<run> ...   # tabulate finished runs

Runs go through the runner as `sentinel run` makes them (RunPlan + Runner), named
guess-<stamp>-<agent>, in the configured results folder.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sentinel.agents import builtin_command, parse_blind
from sentinel.core.config import check_speed, load_config
from sentinel.core.errors import SentinelError
from sentinel.core.files import read_json
from sentinel.core.grading import Result
from sentinel.core.scenario import load_scenario, scenario_files
from sentinel.core.suites import SUITES, suite_dir
from sentinel.outputs.results import load_results
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner

GUESSERS = ("eager", "silent", "deadline")
BLIND_ON_TIME_LIMIT = 0.15  # docs/environments.md#validity-rules: blind at its best time, at most this share on time


@dataclass(frozen=True)
class Row:
    agent: str
    normal: int
    passed: int  # normal tasks passed
    on_time: int  # normal tasks passed on time
    noops: int
    noop_passed: int
    passive: int  # normal passive tasks (deadline's allowance)
    infra_errors: int

    @property
    def success_share(self) -> float:
        return self.passed / self.normal if self.normal else 0.0

    @property
    def on_time_share(self) -> float:
        return self.on_time / self.normal if self.normal else 0.0


def tally(agent: str, results: list[Result]) -> Row:
    normal = [r for r in results if r.is_normal]
    noops = [r for r in results if not r.is_normal]
    return Row(agent=agent, normal=len(normal), passed=sum(r.success for r in normal),
               on_time=sum(bool(r.on_time) for r in normal), noops=len(noops),
               noop_passed=sum(r.success for r in noops), passive=sum(r.activity == "passive" for r in normal),
               infra_errors=sum(r.is_infra_error for r in results))


def ladder(text: str) -> list[float]:
    """"START:STOP:STEP" (STOP included) or a comma list of sim seconds."""
    try:
        if ":" in text:
            start, stop, step = (float(part) for part in text.split(":"))
            if step <= 0 or stop < start:
                raise ValueError
            count = int((stop - start) / step + 1e-9) + 1
            times = [start + i * step for i in range(count)]
        else:
            times = [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: write START:STOP:STEP (30:630:30) or a list (60,420)") from None
    for t in times:
        try:
            parse_blind(f"blind:{t:g}")  # the same bounds as --agent blind:SIM_S
        except SentinelError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return times


def blind_name(sim_s: float) -> str:
    return f"blind:{sim_s:g}"


def run_all(agents: list[str], speed: float, envs: list[str] | None, batch: int,
            config_path: Path | None = None, suite: str | None = None) -> dict[str, list[Result]]:
    config = load_config(config_path)
    if suite is not None:
        config = config.with_overrides(scenarios_dir=suite_dir(suite))
    selected: list[str | None] = list(envs) if envs else [None]
    scenarios = tuple(load_scenario(p) for env in selected for p in scenario_files(config.scenarios_dir, env))
    if not scenarios:
        raise SentinelError("no scenarios selected")
    stamp = f"{datetime.now():%Y%m%d-%H%M%S}"
    results: dict[str, list[Result]] = {}

    async def one(agent: str) -> None:
        command = builtin_command(agent)
        if command is None:
            raise SentinelError(f"{agent}: not a built-in agent")
        plan = RunPlan(name=f"guess-{stamp}-{suite or 'suite'}-{agent.replace(':', '')}", agent=agent, command=command,
                       speed=speed,
                       scenarios=scenarios)
        report = await Runner(config, plan).run()
        print(f"  {agent:12} {report.run_dir}  {report.wall_s:5.1f} s", flush=True)
        results[agent] = report.results

    async def everything() -> None:
        for start in range(0, len(agents), batch):
            await asyncio.gather(*(one(agent) for agent in agents[start:start + batch]))

    print(f"running {len(agents)} strategies on {len(scenarios)} scenarios of {config.scenarios_dir} at speed "
          f"{speed:g} …", flush=True)
    asyncio.run(everything())
    return {agent: results[agent] for agent in agents}


def read_runs(run_dirs: list[Path]) -> dict[str, list[Result]]:
    found = {}
    for run_dir in run_dirs:
        info = read_json(run_dir / "run.json")
        agent = info.get("agent") if isinstance(info, dict) else None
        results = load_results(run_dir)
        if not results:
            raise SentinelError(f"{run_dir}: no finished sessions")
        found[agent or run_dir.name] = results
    return found


def best_blind(rows: list[Row]) -> Row | None:
    """The blind time that earns most: most on time, then most passed, then the earliest."""
    blind = [r for r in rows if parse_blind(r.agent) is not None]
    return max(blind, key=lambda r: (r.on_time, r.passed, -(parse_blind(r.agent) or 0)), default=None)


def share(count: int, total: int) -> str:
    return f"{count:>3}/{total:<3} {count / total:6.1%}" if total else "    —       "


def print_table(rows: list[Row], suite: str = "") -> None:
    print(f"\nWhat guessing earns{f' on the {suite} suite' if suite else ''} "
          "(normal tasks: success and on time; no-ops: passed)")
    print(f"{'strategy':14} {'success':>14} {'on time':>14} {'no-ops passed':>14}  notes")
    for row in rows:
        notes = f"{row.infra_errors} infrastructure error(s)" if row.infra_errors else ""
        print(f"{row.agent:14} {share(row.passed, row.normal):>14} {share(row.on_time, row.normal):>14} "
              f"{share(row.noop_passed, row.noops):>14}  {notes}")
    best = best_blind(rows)
    if best is not None:
        verdict = "within" if best.on_time_share <= BLIND_ON_TIME_LIMIT else "OVER"
        print(f"\nbest blind time: {best.agent} — on time {best.on_time}/{best.normal} ({best.on_time_share:.1%}), "
              f"success {best.passed}/{best.normal} ({best.success_share:.1%}); {verdict} the "
              f"{BLIND_ON_TIME_LIMIT:.0%} limit of docs/environments.md#validity-rules")
        most = max((r for r in rows if parse_blind(r.agent) is not None), key=lambda r: (r.passed, r.on_time))
        if most is not best:
            print(f"most successes blind: {most.agent} — "
                  f"success {most.passed}/{most.normal} ({most.success_share:.1%})")
    deadline = next((r for r in rows if r.agent == "deadline"), None)
    if deadline is not None and deadline.normal:
        verdict = "within" if deadline.passed <= deadline.passive else "OVER"
        print(f"deadline passes {deadline.passed} normal tasks; the passive share is {deadline.passive}: {verdict}")


def print_side_by_side(tables: dict[str, list[Row]]) -> None:
    """One line per strategy: its success and on-time shares on each suite (normal tasks)."""
    suites = list(tables)
    print("\nThe suites side by side (normal tasks: success / on time)")
    print(f"{'strategy':14} " + " ".join(f"{name + ' success':>18} {name + ' on time':>18}" for name in suites))
    for index, row in enumerate(tables[suites[0]]):
        cells = []
        for name in suites:
            other = tables[name][index]
            cells.append(f"{share(other.passed, other.normal):>18} {share(other.on_time, other.normal):>18}")
        print(f"{row.agent:14} " + " ".join(cells))
    for name in suites:
        best = max(tables[name], key=lambda r: (r.passed, r.on_time)) if tables[name] else None
        blind = [r for r in tables[name] if parse_blind(r.agent) is not None]
        top = max(blind, key=lambda r: (r.passed, r.on_time), default=None)
        if top is not None and best is not None:
            print(f"{name}: the best timer ({top.agent}) passes {top.passed}/{top.normal} normal tasks "
                  f"({top.success_share:.1%}), {top.on_time}/{top.normal} on time ({top.on_time_share:.1%})")


def suites_arg(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [n for n in names if n not in SUITES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"{text!r}: expected {', '.join(SUITES)} or both, comma separated")
    return names


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="guessing.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--speed", type=float, default=50.0)
    parser.add_argument("--ladder", type=ladder, default=ladder("30:630:30"),
                        help="blind times in sim s: START:STOP:STEP or a comma list (default 30:630:30)")
    parser.add_argument("--agents", default=",".join(GUESSERS),
                        help="the other guessers (default eager,silent,deadline)")
    parser.add_argument("--also", default="", help="more built-in agents to show beside them, e.g. oracle")
    parser.add_argument("--env", help="environments (comma list; default all)")
    parser.add_argument("--batch", type=int, default=1, help="strategy runs at once (each runs all its sessions at "
                                                              "once; default 1)")
    parser.add_argument("--config", type=Path, help="a sentinel.toml (results and scenarios folders, on_time_s)")
    parser.add_argument("--runs", nargs="+", type=Path, help="tabulate these finished runs instead of running")
    parser.add_argument("--suite", type=suites_arg, help="bundled suites to run: verified, paper, or verified,paper "
                                                         "(a table each and one side by side; default: the config's)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.runs:
            results = read_runs(args.runs)
        else:
            check_speed(args.speed)
            if args.batch < 1:
                raise SentinelError("--batch must be 1 or more")
            agents = [a for a in (args.also + "," + args.agents).split(",") if a.strip()]
            agents += [blind_name(t) for t in args.ladder]
            unknown = [a for a in agents if builtin_command(a) is None]
            if unknown:
                raise SentinelError(f"not built-in agents: {', '.join(unknown)}")
            envs = [e for e in (args.env or "").split(",") if e] or None
            per_suite = {suite: run_all(agents, args.speed, envs, args.batch, args.config, suite)
                         for suite in (args.suite or [None])}
    except SentinelError as exc:
        print(f"guessing.py: {exc}", file=sys.stderr)
        return 2
    if args.runs:
        per_suite = {None: results}
    tables = {suite or "": [tally(agent, found) for agent, found in results.items()]
              for suite, results in per_suite.items()}
    for suite, rows in tables.items():
        print_table(rows, suite)
    if len(tables) > 1:
        print_side_by_side(tables)
    return 0


if __name__ == "__main__":
    sys.exit(main())
