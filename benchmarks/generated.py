"""Generated scenarios are proved the way authored ones are (issue 23).

Generates COUNT scenarios of one environment with SEED (`sentinel generate`), then runs over
them `oracle` (must pass all, every normal task on time), `eager` (must pass no normal task),
`silent` (must pass exactly the no-ops) and `blind:T` at a ladder of times (on time at most 15%
of normal tasks at its best time), each strategy as one run, and prints one table (the same
table as benchmarks/guessing.py) with a verdict line per rule.

    python benchmarks/generated.py --env micromail --count 100 --seed 1 --speed 50 [--concurrency 25]
                                   [--waiters-concurrency 0] [--ladder 30:630:60] [--keep DIR]

The oracle runs --concurrency sessions at once (it reads pages all the time); eager, silent and
blind barely use the CPU and run --waiters-concurrency at once (default: all).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from guessing import Row, best_blind, blind_name, ladder, print_table, tally  # noqa: E402

from sentinel import api  # noqa: E402
from sentinel.agents import builtin_command  # noqa: E402
from sentinel.core.config import check_speed, load_config  # noqa: E402
from sentinel.core.errors import SentinelError  # noqa: E402
from sentinel.core.scenario import load_scenario  # noqa: E402
from sentinel.run.plan import RunPlan  # noqa: E402
from sentinel.run.runner import Runner  # noqa: E402


def run_strategies(folder: Path, agents: list[str], speed: float, concurrency: int,
                   waiters_concurrency: int = 0) -> dict[str, list]:
    """One run per agent; the oracle (which reads pages all the time) at `concurrency` sessions at
    once, the others (which sleep, or report at once) at `waiters_concurrency` (0: all at once)."""
    config = load_config(None)
    scenarios = tuple(load_scenario(p) for p in sorted(folder.glob("*.yaml")))
    stamp = f"{datetime.now():%Y%m%d-%H%M%S}"
    found: dict[str, list] = {}
    for agent in agents:
        command = builtin_command(agent)
        assert command is not None
        plan = RunPlan(name=f"gen-{stamp}-{agent.replace(':', '')}", agent=agent, command=command, speed=speed,
                       scenarios=scenarios, concurrency=concurrency if agent == "oracle" else waiters_concurrency)
        report = asyncio.run(Runner(config, plan).run())
        print(f"  {agent:12} {report.run_dir}  {report.wall_s:6.1f} s", flush=True)
        found[agent] = report.results
    return found


def verdicts(rows: list[Row]) -> list[str]:
    by = {r.agent: r for r in rows}
    out = []
    if "oracle" in by:
        o = by["oracle"]
        ok = o.passed == o.normal and o.on_time == o.normal and o.noop_passed == o.noops
        out.append(f"oracle passes all, every normal task on time: {'yes' if ok else 'NO'} "
                   f"({o.on_time}/{o.normal} on time, {o.noop_passed}/{o.noops} no-ops)")
    if "eager" in by:
        out.append(f"eager passes no normal task: {'yes' if by['eager'].passed == 0 else 'NO'} ({by['eager'].passed})")
    if "silent" in by:
        s = by["silent"]
        ok = s.passed == 0 and s.noop_passed == s.noops
        out.append(f"silent passes exactly the no-ops: {'yes' if ok else 'NO'}")
    best = best_blind(rows)
    if best is not None:
        out.append(f"blind at its best ({best.agent}) on time {best.on_time_share:.1%}: "
                   f"{'yes' if best.on_time_share <= 0.15 else 'NO'} (≤ 15%)")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="generated.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", required=True)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--speed", type=float, default=50.0)
    parser.add_argument("--concurrency", type=int, default=25)
    parser.add_argument("--waiters-concurrency", type=int, default=0,
                        help="sessions at once for eager, silent and blind, which barely use the CPU (0: all)")
    parser.add_argument("--ladder", type=ladder, default=ladder("30:630:60"))
    parser.add_argument("--keep", type=Path, help="generate into this folder (kept) instead of a temporary one")
    args = parser.parse_args(argv)
    try:
        check_speed(args.speed)
        folder = args.keep or Path(tempfile.mkdtemp(prefix="sentinel-generated-"))
        made = api.generate(args.env, args.seed, args.count, folder, force=True)
        for line in made.acceptance:
            print(line)
        agents = ["oracle", "eager", "silent", *(blind_name(t) for t in args.ladder)]
        print(f"running {len(agents)} strategies on {len(made.files)} generated scenarios at speed {args.speed:g} …")
        results = run_strategies(folder, agents, args.speed, args.concurrency, args.waiters_concurrency)
    except SentinelError as exc:
        print(f"generated.py: {exc}", file=sys.stderr)
        return 2
    rows = [tally(agent, found) for agent, found in results.items()]
    print_table(rows)
    print()
    for line in verdicts(rows):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
