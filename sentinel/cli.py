"""The `sentinel` command: one thin function per subcommand.

Input errors (bad config, bad scenario, unknown agent, port in use) end with one clear line
and exit code 2; never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
import shlex
import signal
import sys
from datetime import datetime
from pathlib import Path

from rich.console import Console

from sentinel.agents import BUILTIN_AGENTS, MODEL_AGENTS
from sentinel.bus import Bus
from sentinel.config import Config, check_speed, load_config
from sentinel.display import PlainLines, RichProgress, grade_tables
from sentinel.errors import SentinelError
from sentinel.export import grade_csv, grade_json
from sentinel.harness import check_command
from sentinel.junit import write_junit
from sentinel.runner import RunPlan, Runner, load_results
from sentinel.scenario import Scenario, ScenarioError, load_scenario, scenario_files
from sentinel.summary import summarize


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sentinel", description="Benchmark runner for long-running monitoring agents.")
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
    grade.add_argument("--format", choices=("table", "json", "csv"), default="table", help="output format")
    grade.set_defaults(func=cmd_grade)

    listing = sub.add_parser("list", help="list scenarios")
    listing.add_argument("--env", action="append")
    listing.add_argument("--config", type=Path)
    listing.set_defaults(func=cmd_list)

    validate = sub.add_parser("validate", help="check scenario files")
    validate.add_argument("paths", nargs="*", type=Path, help="scenario files or folders (default: all)")
    validate.add_argument("--config", type=Path)
    validate.set_defaults(func=cmd_validate)

    serve = sub.add_parser("serve", help="browse environments filled with their whole catalog")
    serve.add_argument("env", nargs="*", help="environment names (default: all)")
    serve.add_argument("--port", type=int, default=8400, help="port of the first environment (next ones count up)")
    serve.add_argument("--config", type=Path)
    serve.set_defaults(func=cmd_serve)
    for module in COMMAND_MODULES:
        importlib.import_module(module).add_commands(sub)
    return parser


# Feature packages that bring their own subcommands: each module has add_commands(subparsers)
# and imports anything heavy (Textual, ...) inside its command functions, not at import time.
COMMAND_MODULES: tuple[str, ...] = ("sentinel.report.commands", "sentinel.tui.commands", "sentinel.sweep")


def add_selection(parser: argparse.ArgumentParser) -> None:
    """The options shared by every command that runs scenarios (DESIGN §7)."""
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--agent", help=f"a built-in agent: {', '.join(BUILTIN_AGENTS)}")
    who.add_argument("--cmd", help="an agent command (a shell string with __TASK_URL__, __TASK_PROMPT__, __BASE_DIR__)")
    parser.add_argument("--config", type=Path, help="a sentinel.toml or eval_config.yaml")
    parser.add_argument("--speed", type=float, help="sim seconds per wall second (default from config)")
    parser.add_argument("--env", action="append", help="only this environment (repeatable, or comma separated)")
    parser.add_argument("--task", action="append", help="only this scenario id or short id (repeatable)")
    parser.add_argument("--concurrency", type=int, help="sessions at once (default: all selected)")
    parser.add_argument("--run", dest="run_name", help="run name: results go to results/<name>/")
    parser.add_argument("--resume", action="store_true", help="continue a run: keep finished sessions")
    parser.add_argument("--trials", type=int, default=1, metavar="K",
                        help="run each scenario K times, as separate sessions at once (shows pass@k, pass^k)")
    parser.add_argument("--model", help="chat model for the sleep / wait_for agents (and SENTINEL_MODEL for --cmd); "
                                        "endpoint from OPENAI_BASE_URL, key from OPENAI_API_KEY")
    parser.add_argument("--meter", action="store_true",
                        help="measure model usage with a local proxy per session instead of trusting costs.json")


def _split(values: list[str] | None) -> list[str]:
    return [v.strip() for item in values or [] for v in item.split(",") if v.strip()]


def select_scenarios(config: Config, envs: list[str] | None, tasks: list[str] | None) -> list[Scenario]:
    wanted_envs = _split(envs)
    files = []
    for env in wanted_envs or [None]:
        if env and not (config.scenarios_dir / env).is_dir():
            raise SentinelError(f"--env {env}: no scenarios folder {config.scenarios_dir / env}")
        files += scenario_files(config.scenarios_dir, env)
    scenarios = []
    for path in files:
        try:
            scenarios.append(load_scenario(path))
        except ScenarioError as exc:
            raise SentinelError(f"{exc.problems[0]} (run `sentinel validate` for every problem)") from None
    wanted_tasks = _split(tasks)
    if wanted_tasks:
        chosen = [s for s in scenarios if s.id in wanted_tasks or s.short_id in wanted_tasks]
        missing = set(wanted_tasks) - {s.id for s in chosen} - {s.short_id for s in chosen}
        if missing:
            raise SentinelError(f"--task: no scenario {', '.join(sorted(missing))}")
        scenarios = chosen
    if not scenarios:
        raise SentinelError("no scenarios selected")
    return scenarios


def resolve_agent(args: argparse.Namespace, config: Config) -> tuple[str, str | list[str]]:
    if args.cmd:
        command: str | list[str] = args.cmd
        name = "custom"
    elif args.agent:
        if args.agent not in BUILTIN_AGENTS:
            raise SentinelError(f"--agent {args.agent}: unknown; built-in agents are {', '.join(BUILTIN_AGENTS)} "
                                f"(use --cmd for your own)")
        return args.agent, BUILTIN_AGENTS[args.agent]
    elif config.agent_cmd:
        command, name = config.agent_cmd, "custom"
    else:
        raise SentinelError("no agent: pass --agent NAME, --cmd COMMAND, or set agent.cmd in the config")
    check_agent_command(command)
    return name, command


MAX_TRIALS = 100

SHELL_WORDS = {"cd", "exec", "export", "set", ".", "source", "eval", "if", "for", "while", "("}


def check_agent_command(command: str | list[str]) -> None:
    """Fail early, with one line, when the agent's program does not exist."""
    if isinstance(command, list):
        check_command(command)
        return
    try:
        parts = shlex.split(command)
    except ValueError as exc:
        raise SentinelError(f"agent command {command!r}: cannot be parsed ({exc})") from None
    if not parts:
        raise SentinelError("agent command is empty")
    program = parts[0]
    if "=" not in program and "__" not in program and program not in SHELL_WORDS:
        check_command([program])


def plan_from_args(args: argparse.Namespace) -> tuple[Config, RunPlan]:
    config = load_config(args.config)
    speed = check_speed(args.speed) if args.speed is not None else config.speed
    if args.concurrency is not None and args.concurrency < 0:
        raise SentinelError("--concurrency must be 0 (all at once) or more")
    trials = getattr(args, "trials", 1)
    if not 1 <= trials <= MAX_TRIALS:
        raise SentinelError(f"--trials must be between 1 and {MAX_TRIALS}")
    agent, command = resolve_agent(args, config)
    model = getattr(args, "model", None)
    if model and agent in BUILTIN_AGENTS and agent not in MODEL_AGENTS:
        raise SentinelError(f"--model: the {agent} agent uses no model; --model is for {', '.join(MODEL_AGENTS)} "
                            f"and --cmd agents")
    scenarios = select_scenarios(config, args.env, args.task)
    name = args.run_name or f"{agent}-{datetime.now():%Y%m%d-%H%M%S}"
    if "/" in name or name.startswith("."):
        raise SentinelError(f"--run {name}: a run name is a plain folder name")
    plan = RunPlan(name=name, agent=agent, command=command, speed=speed, scenarios=tuple(scenarios),
                   concurrency=args.concurrency if args.concurrency is not None else config.concurrency,
                   resume=args.resume, trials=trials, model=model, meter=getattr(args, "meter", False))
    return config, plan


def cmd_run(args: argparse.Namespace) -> int:
    config, plan = plan_from_args(args)
    bus = Bus()
    console = make_console()
    plain = args.ci or not sys.stdout.isatty()
    bus.subscribe(PlainLines() if plain else RichProgress(console))
    runner = Runner(config, plan, bus)
    report = asyncio.run(_run_with_interrupt(runner))
    assert report.summary is not None
    for table in grade_tables(report.results, report.summary, f"Run {plan.name}"):
        console.print(table)
    print(f"results: {report.run_dir}  wall time: {report.wall_s:.1f} s  "
          f"passed: {report.summary.overall.passed}/{report.summary.overall.total}")
    if args.ci:
        junit = write_junit(report.run_dir / "junit.xml", report.results, plan.name,
                            {"agent": plan.agent, "speed": plan.speed, "trials": plan.trials})
        print(f"junit: {junit}")
    if runner.stopping:
        print("sentinel: run interrupted; finished sessions are kept, continue with --resume", file=sys.stderr)
        return 130
    rate = report.summary.overall.rate
    if args.fail_under is not None and rate < args.fail_under:
        print(f"sentinel: success rate {rate:.1%} is under --fail-under {args.fail_under:.1%}", file=sys.stderr)
        return 1
    return 1 if args.ci and report.summary.infra_errors else 0


def parse_rate(text: str) -> float:
    """A success rate for --fail-under: a fraction (0.8) or a percentage (80%)."""
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a rate (write 0.8 or 80%)") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not between 0 and 1 (or 0% and 100%)")
    return value


async def _run_with_interrupt(runner: Runner):
    """Ctrl-C stops the agents cleanly and keeps every finished result."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, runner.stop)
    try:
        return await runner.run()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


def find_run_dir(config: Config, run: str) -> Path:
    for candidate in (Path(run), config.results_dir / run):
        if (candidate / "run.json").exists() or list(candidate.glob("*/*/result.json")):
            return candidate
    raise SentinelError(f"{run}: no such run (looked in {run} and {config.results_dir / run})")


def cmd_grade(args: argparse.Namespace) -> int:
    config = load_config(args.config)
    run_dir = find_run_dir(config, args.run)
    results = load_results(run_dir)
    if not results:
        raise SentinelError(f"{run_dir}: no finished sessions yet")
    summary = summarize(results)
    if args.format == "json":
        sys.stdout.write(grade_json(run_dir.name, results, summary))
    elif args.format == "csv":
        sys.stdout.write(grade_csv(run_dir.name, results, summary))
    else:
        console = make_console()
        for table in grade_tables(results, summary, f"Run {run_dir.name}"):
            console.print(table)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    config = load_config(args.config)
    console = make_console()
    from rich.table import Table

    table = Table(title="Scenarios")
    for column in ("id", "activity", "criteria", "condition_at", "events"):
        table.add_column(column)
    bad = 0
    for env in _split(args.env) or [None]:
        for path in scenario_files(config.scenarios_dir, env):
            try:
                s = load_scenario(path)
            except ScenarioError:
                bad += 1
                continue
            table.add_row(s.id, s.taxonomy.activity, s.taxonomy.criteria,
                          "no-op" if s.condition_at is None else f"{s.condition_at:g}", str(len(s.events)))
    console.print(table)
    if bad:
        print(f"{bad} scenario file(s) could not be loaded; run `sentinel validate`", file=sys.stderr)
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from sentinel.validate import validate_all

    config = load_config(args.config)
    split: list[str] = []
    checked, problems = asyncio.run(validate_all(config, args.paths or None, summary=split))
    for problem in problems:
        print(problem)
    for line in split:
        print(line, file=sys.stderr)
    status = f"{checked} scenario file(s) checked, {len(problems)} problem(s)"
    print(status, file=sys.stderr if problems else sys.stdout)
    return 1 if problems else 0


def cmd_serve(args: argparse.Namespace) -> int:
    from sentinel.serve import serve

    config = load_config(args.config)
    return asyncio.run(serve(config, args.env, args.port))


if __name__ == "__main__":
    sys.exit(main())
