"""`sentinel sweep`: one agent over a ladder of speed factors, to measure the horizon effect.

An agent acts in wall time, so the speed factor sets the horizon: at speed 4 a condition at
sim 400 s comes 100 wall seconds after the start, at 0.25 it comes after 27 minutes. A sweep
runs the same selection once per speed (slowest last) and prints success, reaction time and
cost per rung, so how cost and success change with the horizon is measured, not assumed.

    sentinel sweep --agent wait_for --model gpt-4o-mini --speeds 4,2,1,0.5,0.25 --run ladder

Results: results/<name>/speed-<s>/ is an ordinary run per rung (`sentinel grade
results/<name>/speed-1`), and results/<name>/sweep.json holds the table. `--resume` continues
every rung. The rungs run one after another: a full 4 … 0.25 ladder takes about 80 minutes.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict, dataclass, replace

from rich.table import Table

from sentinel import api
from sentinel.cli.display import PlainLines, RichProgress, make_console
from sentinel.cli.runs import prepare
from sentinel.core.bus import Bus
from sentinel.core.config import check_speed
from sentinel.core.errors import SentinelError
from sentinel.core.files import write_json_atomic
from sentinel.outputs.formatting import dollars, seconds
from sentinel.run.options import add_run_options

DEFAULT_SPEEDS = "4,2,1,0.5,0.25"


@dataclass(frozen=True)
class Rung:
    speed: float
    horizon_s: float  # wall seconds of the longest possible condition time at this speed
    passed: int
    total: int
    infra_errors: int
    reaction_p50: float | None
    reaction_p90: float | None
    tokens_median: float | None
    cost_median: float | None
    cost_total: float | None
    wall_s: float

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0


def add_commands(subparsers) -> None:
    sweep = subparsers.add_parser("sweep", help="run one agent at several speed factors; success, reaction "
                                                "and cost per speed")
    add_run_options(sweep)
    sweep.add_argument("--speeds", default=DEFAULT_SPEEDS,
                       help=f"comma-separated speed factors, run in this order (default {DEFAULT_SPEEDS})")
    sweep.add_argument("--ci", action="store_true", help="plain progress lines")
    sweep.set_defaults(func=cmd_sweep)


def parse_speeds(text: str) -> list[float]:
    try:
        speeds = [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise SentinelError(f"--speeds {text!r}: expected numbers separated by commas, like 4,2,1") from None
    if not speeds:
        raise SentinelError("--speeds: give at least one speed factor")
    if len(set(speeds)) != len(speeds):
        raise SentinelError(f"--speeds {text!r}: a speed appears twice")
    return [check_speed(s, where="--speeds") for s in speeds]


def cmd_sweep(args: argparse.Namespace) -> int:
    if args.speed is not None:
        raise SentinelError("sweep: give the speed factors with --speeds (a list), not --speed")
    speeds = parse_speeds(args.speeds)
    config, base = prepare(args)
    sweep_dir = config.results_dir / base.name
    rung_config = replace(config, results_dir=sweep_dir)
    console = make_console()
    plain = args.ci or not sys.stdout.isatty()
    rungs: list[Rung] = []
    for speed in speeds:
        bus = Bus()
        bus.subscribe(PlainLines() if plain else RichProgress(console))
        outcome = api.execute(rung_config, replace(base, name=f"speed-{speed:g}", speed=speed), bus,
                              stop_on_signals=True)
        rungs.append(rung_of(speed, outcome, config.timing.max_condition_at))
        write_json_atomic(sweep_dir / "sweep.json", {
            "agent": base.agent, "model": base.model, "scenarios": [s.id for s in base.scenarios],
            "rungs": [{**asdict(r), "rate": round(r.rate, 4)} for r in rungs]})
        if outcome.interrupted:
            print("sentinel: sweep interrupted; continue it with --resume", file=sys.stderr)
            console.print(sweep_table(rungs, base.agent))
            return 130
    console.print(sweep_table(rungs, base.agent))
    print(f"results: {sweep_dir}")
    return 1 if args.ci and any(r.infra_errors for r in rungs) else 0


def rung_of(speed: float, outcome: api.RunOutcome, max_condition_at: float) -> Rung:
    summary = outcome.summary
    return Rung(speed=speed, horizon_s=round(max_condition_at / speed, 1), passed=summary.overall.passed,
                total=summary.overall.total, infra_errors=summary.infra_errors,
                reaction_p50=summary.reaction_p50, reaction_p90=summary.reaction_p90,
                tokens_median=summary.tokens_median, cost_median=summary.cost_median,
                cost_total=summary.cost_total, wall_s=round(outcome.wall_s or 0.0, 1))


def sweep_table(rungs: list[Rung], agent: str) -> Table:
    table = Table(title=f"Speed sweep of {agent}")
    for column in ("speed", "horizon (wall)", "success", "reaction p50", "reaction p90", "tokens median",
                   "× first rung", "cost median", "cost total", "wall time"):
        table.add_column(column, justify="right")
    reference = rungs[0].tokens_median if rungs else None
    for r in rungs:
        ratio = f"{r.tokens_median / reference:.2f}" if reference and r.tokens_median is not None else "—"
        table.add_row(f"{r.speed:g}", f"{r.horizon_s:g} s", f"{r.passed}/{r.total} ({r.rate:.0%})",
                      seconds(r.reaction_p50), seconds(r.reaction_p90), f"{r.tokens_median or 0:g}", ratio,
                      dollars(r.cost_median), dollars(r.cost_total), f"{r.wall_s:g} s")
    return table
