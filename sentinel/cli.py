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
from sentinel.agents import builtin_names
from sentinel.core.bus import Bus
from sentinel.core.config import SESSIONS_PER_CORE
from sentinel.core.errors import SentinelError
from sentinel.display import PlainLines, RichProgress, grade_tables
from sentinel.outputs.export import grade_csv, grade_json
from sentinel.outputs.junit import write_junit
from sentinel.outputs.results import finished_sessions
from sentinel.outputs.sentinelbench import grade_report


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
    add_selection(run)
    run.add_argument("--ci", action="store_true", help="plain progress lines and results/<run>/junit.xml; "
                                                       "exit 1 on infrastructure errors")
    run.add_argument("--fail-under", type=parse_rate, metavar="RATE",
                     help="exit 1 if the success rate is under RATE (0.8 or 80%%)")
    run.set_defaults(func=cmd_run)

    grade = sub.add_parser("grade", help="tables of a finished run")
    grade.add_argument("run", help="run name (under the results folder) or a path")
    grade.add_argument("--config", type=Path)
    grade.add_argument("--format", choices=("table", "json", "csv", "sentinelbench"), default="table",
                       help="output format (sentinelbench: the original SentinelBench's grade table and summary)")
    grade.set_defaults(func=cmd_grade)

    listing = sub.add_parser("list", help="list scenarios")
    listing.add_argument("--env", action="append")
    listing.add_argument("--config", type=Path)
    listing.set_defaults(func=cmd_list)

    validate = sub.add_parser("validate", help="check scenario files")
    validate.add_argument("paths", nargs="*", type=Path, help="scenario files or folders (default: all)")
    validate.add_argument("--config", type=Path)
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
    for module in COMMAND_MODULES:
        importlib.import_module(module).add_commands(sub)
    return parser


# Feature packages that bring their own subcommands: each module has add_commands(subparsers)
# and imports anything heavy (Textual, ...) inside its command functions, not at import time.
COMMAND_MODULES: tuple[str, ...] = ("sentinel.tui.commands", "sentinel.sweep")


def add_selection(parser: argparse.ArgumentParser) -> None:
    """The options shared by every command that runs scenarios (DESIGN §7)."""
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--agent", help=f"a built-in agent: {builtin_names()}")
    who.add_argument("--cmd", help="an agent command (a shell string with __TASK_URL__, __TASK_PROMPT__, __BASE_DIR__)")
    parser.add_argument("--config", type=Path, help="a sentinel.toml or eval_config.yaml")
    parser.add_argument("--speed", type=float, help="sim seconds per wall second (default from config)")
    parser.add_argument("--env", action="append", help="only this environment (repeatable, or comma separated)")
    parser.add_argument("--task", action="append", help="only this scenario id or short id (repeatable)")
    parser.add_argument("--concurrency", type=int,
                        help=f"sessions at once; 0: all (default: all, up to {SESSIONS_PER_CORE} per CPU core)")
    parser.add_argument("--run", dest="run_name", help="run name: results go to results/<name>/")
    parser.add_argument("--resume", action="store_true", help="continue a run: keep finished sessions")
    parser.add_argument("--trials", type=int, default=1, metavar="K",
                        help="run each scenario K times, as separate sessions at once (shows pass@k, pass^k)")
    parser.add_argument("--scenarios-dir", type=Path, metavar="DIR",
                        help="run the scenarios of this folder (a generated set) instead of scenarios/")
    parser.add_argument("--variants", action="store_true",
                        help="with --seed: each trial of a scenario that is a known kind runs its own "
                             "generated variant")
    parser.add_argument("--seed", type=int, help="with --variants: the seed the trials' variants are drawn from")
    parser.add_argument("--model", help="chat model for the sleep / wait_for agents (and SENTINEL_MODEL for --cmd); "
                                        "endpoint from OPENAI_BASE_URL, key from OPENAI_API_KEY")
    parser.add_argument("--sandbox", action="store_true",
                        help="run each agent under bubblewrap: the system read-only, its own folder, a private /tmp, "
                             "the loopback network; no repository, scenarios or results")
    parser.add_argument("--meter", action="store_true",
                        help="measure model usage with a local proxy per session instead of trusting costs.json")
    parser.add_argument("--backend", choices=("local", "ray"),
                        help="where sessions run: local (this process, the default) or ray (a Ray cluster; "
                             "the [ray] extra)")
    parser.add_argument("--address", help="with --backend ray: the cluster's HOST:PORT or auto "
                                          "(default: sentinel.toml [ray] address, else a local Ray for the run)")
    parser.add_argument("--session-cpus", type=float, metavar="N",
                        help="with --backend ray: CPUs Ray reserves per session (default: sentinel.toml [ray])")
    parser.add_argument("--session-memory", type=float, metavar="MB",
                        help="with --backend ray: memory Ray reserves per session (default: sentinel.toml [ray])")


def selection(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of sentinel.api.prepare_run from the options of add_selection."""
    return dict(agent=args.agent, cmd=args.cmd, envs=args.env, tasks=args.task, speed=args.speed,
                trials=args.trials, run_name=args.run_name, concurrency=args.concurrency, resume=args.resume,
                model=args.model, meter=args.meter, sandbox=args.sandbox, config=args.config,
                backend=args.backend, address=args.address, session_cpus=args.session_cpus,
                session_memory_mb=args.session_memory, scenarios_dir=args.scenarios_dir, variants=args.variants,
                seed=args.seed)


def prepare(args: argparse.Namespace) -> tuple[Any, Any]:
    """The run the options describe, with the config's notices (ignored keys and why) printed."""
    config, plan = api.prepare_run(**selection(args))
    for notice in config.notices:
        print(f"sentinel: {notice}", file=sys.stderr)
    sessions = len(plan.jobs())
    if args.concurrency is None and config.concurrency is None and 0 < plan.concurrency < sessions:
        print(f"sentinel: {sessions} sessions, {plan.concurrency} at a time ({SESSIONS_PER_CORE} per core of this "
              f"machine: more polling agents would starve each other of CPU); --concurrency N to choose",
              file=sys.stderr)
    return config, plan


def cmd_run(args: argparse.Namespace) -> int:
    config, plan = prepare(args)
    bus = Bus()
    console = make_console()
    plain = args.ci or not sys.stdout.isatty()
    bus.subscribe(PlainLines() if plain else RichProgress(console))
    outcome = api.execute(config, plan, bus, stop_on_signals=True)
    summary = outcome.summary
    for table in grade_tables(list(outcome.results), summary, f"Run {plan.name}"):
        console.print(table)
    print(f"results: {outcome.run_dir}  wall time: {outcome.wall_s or 0:.1f} s  "
          f"passed: {summary.overall.passed}/{summary.overall.total}")
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
    outcome = api.grade(args.run, config=args.config)
    results, summary = list(outcome.results), outcome.summary
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

    listing = api.list_scenarios(args.env, config=args.config)
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
    checked = api.validate(args.paths or None, config=args.config)
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


if __name__ == "__main__":
    sys.exit(main())
