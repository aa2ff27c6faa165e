"""`sentinel run` (scenarios headless with an agent) and `sentinel grade` (the tables of a
finished run): both print the same grade tables."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from sentinel import api
from sentinel.cli.display import PlainLines, RichProgress, grade_tables, make_console, print_results
from sentinel.core.bus import Bus
from sentinel.core.config import SESSIONS_PER_CORE
from sentinel.core.suites import mixed_suites
from sentinel.outputs.export import grade_csv, grade_json
from sentinel.outputs.junit import write_junit
from sentinel.outputs.results import finished_sessions
from sentinel.outputs.sentinelbench import grade_report
from sentinel.run.options import add_run_options, from_args


def add_commands(subparsers) -> None:
    run = subparsers.add_parser("run", help="run scenarios headless with an agent")
    add_run_options(run)  # every RunOptions field (docs/protocol.md#options)
    run.add_argument("--ci", action="store_true", help="plain progress lines and results/<run>/junit.xml; "
                                                       "exit 1 on infrastructure errors")
    run.add_argument("--fail-under", type=parse_rate, metavar="RATE",
                     help="exit 1 if the success rate is under RATE (0.8 or 80%%)")
    run.set_defaults(func=cmd_run)

    grade = subparsers.add_parser("grade", help="tables of a finished run")
    grade.add_argument("run", help="run name (under the results folder) or a path")
    grade.add_argument("--config", type=Path)
    grade.add_argument("--allow-mixed", action="store_true",
                       help="grade results of different suites or suite digests together (refused otherwise)")
    grade.add_argument("--format", choices=("table", "json", "csv", "sentinelbench"), default="table",
                       help="output format (sentinelbench: the original SentinelBench's grade table and summary)")
    grade.set_defaults(func=cmd_grade)


def prepare(args: argparse.Namespace) -> tuple[Any, Any]:
    """The run the options describe, with the config's notices (ignored keys and why) printed."""
    config, plan = api.prepare_run(from_args(args))
    for notice in config.notices:
        print(f"sentinel: {notice}", file=sys.stderr)
    sessions = len(plan.jobs())
    if plan.admission and 0 < plan.concurrency < sessions:
        print(f"sentinel: {sessions} sessions, up to {plan.concurrency} in the first wave ({SESSIONS_PER_CORE} per "
              f"core), then more as this machine holds them on time; --concurrency N to choose", file=sys.stderr)
    return config, plan


def cmd_run(args: argparse.Namespace) -> int:
    config, plan = prepare(args)
    bus = Bus()
    console = make_console()
    plain = args.ci or not sys.stdout.isatty()
    bus.subscribe(PlainLines() if plain else RichProgress(console))
    outcome = api.execute(config, plan, bus, stop_on_signals=True)
    summary = outcome.summary
    print_results(console, list(outcome.results), summary, plan.name, outcome.run_dir, outcome.wall_s)
    if args.ci:
        junit = write_junit(outcome.run_dir / "junit.xml", list(outcome.results), plan.name,
                            {"agent": plan.agent, "speed": plan.speed, "trials": plan.trials})
        print(f"junit: {junit}")
    if outcome.interrupted:
        print("sentinel: run interrupted; finished sessions are kept, continue with --resume", file=sys.stderr)
        return 130
    rate = summary.overall.rate
    if args.fail_under is not None and rate < args.fail_under:
        print(f"sentinel: success rate {rate:.1%} is under --fail-under {args.fail_under:.1%}", file=sys.stderr)
        return 1
    return 1 if args.ci and summary.infra_errors else 0


def parse_rate(text: str) -> float:
    """A success rate for --fail-under: a fraction (0.8) or a percentage (80%)."""
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a rate (write 0.8 or 80%)") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not between 0 and 1 (or 0% and 100%)")
    return value


def cmd_grade(args: argparse.Namespace) -> int:
    outcome = api.grade(args.run, config=args.config, allow_mixed=args.allow_mixed)
    results, summary = list(outcome.results), outcome.summary
    labels = mixed_suites((r.suite, r.suite_digest) for r in results)
    print(f"suite: {'; '.join(labels)}" + ("  (MIXED: these results did not all run the same scenario files)"
                                           if len(labels) > 1 else ""), file=sys.stderr)
    if args.format == "sentinelbench":
        sys.stdout.write(grade_report(finished_sessions(api.find_run_dir(api.get_config(args.config), args.run))))
    elif args.format == "json":
        sys.stdout.write(grade_json(outcome.name, results, summary))
    elif args.format == "csv":
        sys.stdout.write(grade_csv(outcome.name, results, summary))
    else:
        console = make_console()
        for table in grade_tables(results, summary, f"Run {outcome.name}"):
            console.print(table)
    return 0
