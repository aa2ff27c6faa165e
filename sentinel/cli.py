"""The `sentinel` command: one thin function per subcommand, each parsing its options and
calling sentinel.api (the CLI calls the API, never the reverse).

Input errors (bad config, bad scenario, unknown agent, port in use) end with one clear line
and exit code 2; never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from sentinel import api
from sentinel.core.bus import Bus
from sentinel.core.config import SESSIONS_PER_CORE
from sentinel.core.errors import SentinelError
from sentinel.core.grading import Result
from sentinel.core.suites import mixed_suites
from sentinel.core.summary import Summary
from sentinel.display import PlainLines, RichProgress, grade_tables
from sentinel.outputs.export import grade_csv, grade_json
from sentinel.outputs.junit import write_junit
from sentinel.outputs.results import finished_sessions
from sentinel.outputs.sentinelbench import grade_report
from sentinel.run.options import add_run_options, add_suite_option, from_args


def make_console() -> Console:
    """A console that does not squeeze tables when output goes to a file or a CI log."""
    return Console() if sys.stdout.isatty() else Console(width=160)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except SentinelError as exc:
        print(f"sentinel: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sentinel: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # a disk, a folder or a port the system refused: one line, no traceback
        where = f": {exc.filename}" if exc.filename else ""
        print(f"sentinel: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sentinel",
                                     description="Benchmark runner for long-running monitoring agents.")
    sub = parser.add_subparsers(dest="command")

    run = sub.add_parser("run", help="run scenarios headless with an agent")
    add_run_options(run)  # every RunOptions field (docs/protocol.md#options)
    run.add_argument("--ci", action="store_true", help="plain progress lines and results/<run>/junit.xml; "
                                                       "exit 1 on infrastructure errors")
    run.add_argument("--fail-under", type=parse_rate, metavar="RATE",
                     help="exit 1 if the success rate is under RATE (0.8 or 80%%)")
    run.set_defaults(func=cmd_run)

    grade = sub.add_parser("grade", help="tables of a finished run")
    grade.add_argument("run", help="run name (under the results folder) or a path")
    grade.add_argument("--config", type=Path)
    grade.add_argument("--allow-mixed", action="store_true",
                       help="grade results of different suites or suite digests together (refused otherwise)")
    grade.add_argument("--format", choices=("table", "json", "csv", "sentinelbench"), default="table",
                       help="output format (sentinelbench: the original SentinelBench's grade table and summary)")
    grade.set_defaults(func=cmd_grade)

    listing = sub.add_parser("list", help="list scenarios")
    listing.add_argument("--env", action="append")
    listing.add_argument("--config", type=Path)
    add_suite_option(listing)
    listing.set_defaults(func=cmd_list)

    validate = sub.add_parser("validate", help="check scenario files")
    validate.add_argument("paths", nargs="*", type=Path, help="scenario files or folders (default: the suite's)")
    validate.add_argument("--config", type=Path)
    add_suite_option(validate)
    validate.set_defaults(func=cmd_validate)

    gen = sub.add_parser("generate", help="draw fresh validated scenarios from an environment's kinds")
    gen.add_argument("--env", required=True, help="the environment (its kinds: sentinel/envs/<env>/kinds.py)")
    gen.add_argument("--kind", help="only this kind (default: every kind of the environment in turn)")
    gen.add_argument("--seed", type=int, required=True, help="the same seed and catalog give the same files")
    gen.add_argument("--count", type=int, required=True, help="how many scenario files to write")
    gen.add_argument("--out", type=Path, required=True, help="folder for the files (<id>.yaml)")
    gen.add_argument("--knob", action="append", default=[], metavar="NAME=VALUE",
                     help="difficulty knob: decoys, near_miss, hold_s, density, earliest, latest (repeatable)")
    gen.add_argument("--force", action="store_true", help="overwrite files that exist in --out")
    gen.add_argument("--config", type=Path)
    gen.set_defaults(func=cmd_generate)

    serve = sub.add_parser("serve", help="browse environments filled with their whole catalog")
    serve.add_argument("env", nargs="*", help="environment names (default: all)")
    serve.add_argument("--port", type=int, default=8400, help="port of the first environment (next ones count up)")
    serve.add_argument("--config", type=Path)
    serve.set_defaults(func=cmd_serve)
    add_report(sub)
    add_evidence(sub)
    for module in COMMAND_MODULES:
        importlib.import_module(module).add_commands(sub)
    return parser


# Feature packages that bring their own subcommands: each module has add_commands(subparsers)
# and imports anything heavy (Textual, ...) inside its command functions, not at import time.
COMMAND_MODULES: tuple[str, ...] = ("sentinel.tui.commands", "sentinel.sweep", "sentinel.mcp.commands")


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


def print_results(console: Console, results: list[Result], summary: Summary, name: str, run_dir: Path,
                  wall_s: float | None) -> None:
    """A finished run's tables and its one-line footer (`sentinel run` and `sentinel tui`)."""
    for table in grade_tables(results, summary, f"Run {name}"):
        console.print(table)
    passed = f"{summary.overall.passed}/{summary.overall.total}"
    suites = "; ".join(mixed_suites((r.suite, r.suite_digest) for r in results))
    print(f"results: {run_dir}  wall time: {wall_s or 0:.1f} s  passed: {passed}  suite: {suites}")


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


def cmd_list(args: argparse.Namespace) -> int:
    from rich.table import Table

    listing = api.list_scenarios(args.env, config=args.config, suite=args.suite)
    table = Table(title="Scenarios")
    for column in ("id", "activity", "criteria", "condition_at", "events"):
        table.add_column(column)
    for s in listing.scenarios:
        table.add_row(s.id, s.taxonomy.activity, s.taxonomy.criteria,
                      "no-op" if s.condition_at is None else f"{s.condition_at:g}", str(len(s.events)))
    make_console().print(table)
    if listing.unreadable:
        print(f"{len(listing.unreadable)} scenario file(s) could not be loaded; run `sentinel validate`",
              file=sys.stderr)
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    checked = api.validate(args.paths or None, config=args.config, suite=args.suite)
    for problem in checked.problems:
        print(problem)
    for line in checked.split:
        print(line, file=sys.stderr)
    status = f"{checked.checked} scenario file(s) checked, {len(checked.problems)} problem(s)"
    print(status, file=sys.stdout if checked.ok else sys.stderr)
    return 0 if checked.ok else 1


def cmd_generate(args: argparse.Namespace) -> int:
    made = api.generate(args.env, args.seed, args.count, args.out, kind=args.kind, knobs=args.knob,
                        force=args.force, config=args.config)
    for line in made.acceptance:
        print(line)
    print(f"{len(made.files)} scenario file(s) written to {args.out}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from sentinel.serve import serve

    config = api.get_config(args.config)
    return asyncio.run(serve(config, args.env, args.port))



def add_report(subparsers) -> None:
    report = subparsers.add_parser("report", help="write a self-contained HTML report of one or more runs")
    report.add_argument("runs", nargs="+", metavar="RUN", help="run names (under the results folder) or paths")
    report.add_argument("--out", type=Path, help="where to write the HTML (default: RUN/report.html, or "
                                                 "report-A-vs-B.html beside the runs when comparing)")
    report.add_argument("--config", type=Path)
    report.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    path = api.report(args.runs, out=args.out, config=args.config)
    print(f"report: {path}")
    return 0


def add_evidence(subparsers) -> None:
    """show, export and regrade: what the agents saw, and their grades again (docs/evidence.md)."""
    show = subparsers.add_parser("show", help="the page a session's agent had been served at a sim moment")
    show.add_argument("run", help="run name (under the results folder) or a path")
    show.add_argument("scenario", help="scenario id or short id")
    show.add_argument("--at", type=float, metavar="SIM_S", help="sim seconds (default: the report's moment)")
    show.add_argument("--trial", type=int, default=1)
    show.add_argument("--html", type=Path, metavar="FILE", help="also write the page as served to FILE")
    show.add_argument("--config", type=Path)
    show.set_defaults(func=cmd_show)
    export = subparsers.add_parser("export", help="write a run's sessions as ATIF trajectories")
    export.add_argument("run", help="run name (under the results folder) or a path")
    export.add_argument("--format", choices=api.EXPORT_FORMATS, default="atif")
    export.add_argument("--out", type=Path, required=True, help="folder for the files (one per session)")
    export.add_argument("--config", type=Path)
    export.set_defaults(func=cmd_export)
    regrade = subparsers.add_parser("regrade", help="grade a run again from its stored worlds; print what changed")
    regrade.add_argument("run", help="run name (under the results folder) or a path")
    regrade.add_argument("--write", action="store_true", help="store the new grades (default: change nothing)")
    regrade.add_argument("--config", type=Path)
    regrade.set_defaults(func=cmd_regrade)


def cmd_show(args: argparse.Namespace) -> int:
    shown = api.show(args.run, args.scenario, at_sim=args.at, trial=args.trial, config=args.config)
    print("\n".join(shown.lines()))
    if args.html:
        args.html.write_bytes(shown.html)
        print(f"page as served: {args.html}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    files = api.export(args.run, args.out, format=args.format, config=args.config)
    print(f"{len(files)} {args.format} file(s) written to {args.out}")
    return 0


def cmd_regrade(args: argparse.Namespace) -> int:
    regraded = api.regrade(args.run, write=args.write, config=args.config)
    changed = [r for r in regraded if r.changed]
    for item in changed + [r for r in regraded if r.after is None]:
        print(item.line())
    done = sum(r.after is not None for r in regraded)
    stored = "new grades stored" if args.write and changed else "nothing rewritten"
    print(f"{done} session(s) regraded, {len(changed)} changed verdict(s); {stored}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
