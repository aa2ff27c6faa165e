"""The commands `sentinel tui`, `sentinel step` and `sentinel play`: the screens of sentinel/tui/.

Textual is imported inside the command functions only, so `sentinel run` never loads it.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from sentinel import api
from sentinel.cli.display import make_console, print_results
from sentinel.cli.runs import prepare
from sentinel.core.config import Config
from sentinel.core.errors import SentinelError
from sentinel.core.scenario import Scenario, ScenarioError, load_scenario, scenario_files
from sentinel.run.options import add_run_options, add_suite_option

PLAY_STARTUP_TIMEOUT_S = 1800.0  # a person may take a while to open the task URL


def add_commands(sub) -> None:
    tui = sub.add_parser("tui", help="run scenarios inside a live dashboard")
    add_run_options(tui)
    tui.set_defaults(func=cmd_tui)

    step = sub.add_parser("step", help="step one scenario by hand: paused clock, verdict after each step")
    step.add_argument("scenario", help="scenario id, short id, or scenario file")
    who = step.add_mutually_exclusive_group()
    who.add_argument("--agent", help="attach a built-in agent (it sees the pages; time moves only by your steps)")
    who.add_argument("--cmd", help="attach an agent command")
    step.add_argument("--model", help="as for `sentinel run`: the attached agent's chat model (SENTINEL_MODEL)")
    step.add_argument("--agent-browser", action="store_true",
                      help="as for `sentinel run`: lend the attached agent a headless Chromium (SENTINEL_CDP_URL)")
    step.add_argument("--config", type=Path, help="a sentinel.toml or eval_config.yaml")
    add_suite_option(step)
    step.set_defaults(func=cmd_step)

    play = sub.add_parser("play", help="play one scenario yourself in a browser, graded like an agent")
    play.add_argument("scenario", help="scenario id or short id")
    play.add_argument("--config", type=Path, help="a sentinel.toml or eval_config.yaml")
    add_suite_option(play)
    play.add_argument("--speed", type=float, help="sim seconds per wall second (default from config)")
    play.add_argument("--run", dest="run_name", help="run name: the result goes to results/<name>/")
    play.add_argument("--resume", action="store_true", help="add this session to an existing run")
    play.add_argument("--startup-timeout", type=float, default=PLAY_STARTUP_TIMEOUT_S,
                      help=f"wall seconds you have to open the task URL (default {PLAY_STARTUP_TIMEOUT_S:g})")
    play.set_defaults(func=cmd_play)


def find_scenario(config: Config, wanted: str) -> Scenario:
    """A scenario by file path, full id or short id; files that do not load are skipped."""
    path = Path(wanted)
    if path.suffix in (".yaml", ".yml", ".json") or path.is_file():
        if not path.is_file():
            raise SentinelError(f"{wanted}: no such scenario file")
        try:
            return load_scenario(path)
        except ScenarioError as exc:
            raise SentinelError(f"{exc.problems[0]} (run `sentinel validate` for every problem)") from None
    found = []
    for candidate in scenario_files(config.scenarios_dir):
        try:
            scenario = load_scenario(candidate)
        except ScenarioError:
            continue
        if wanted in (scenario.id, scenario.short_id):
            found.append(scenario)
    if not found:
        raise SentinelError(f"{wanted}: no such scenario (see `sentinel list`)")
    if len(found) > 1:
        raise SentinelError(f"{wanted}: ambiguous, it names {', '.join(s.id for s in found)}; give the full id")
    return found[0]


def cmd_tui(args: argparse.Namespace) -> int:
    from sentinel.run.ray_backend import import_ray
    from sentinel.run.runner_process import RunnerProcess
    from sentinel.tui.dashboard import DashboardApp
    from sentinel.tui.state import RunState

    config, plan = prepare(args)
    if config.backend == "ray":
        import_ray()  # a missing extra is said here, before the screen opens
    # The sessions run in a process of their own, so drawing never delays their events
    # (sentinel/run/runner_process.py says why and how).
    runner = RunnerProcess(config, plan)
    app = DashboardApp(RunState.for_plan(plan, config), runner, freeze_heap=True)
    app.run()
    code = app.return_code or 0
    if runner.output:
        print(runner.output, end="" if runner.output.endswith("\n") else "\n", file=sys.stderr)
    if app.error:
        raise SentinelError(app.error)
    if app.report is not None and app.report.summary is not None:
        print_results(make_console(), app.report.results, app.report.summary, plan.name, app.report.run_dir,
                      app.report.wall_s)
    if runner.stopping:
        print("sentinel: run stopped; finished sessions are kept, continue with --resume", file=sys.stderr)
    return code


def cmd_step(args: argparse.Namespace) -> int:
    from sentinel.run.stepper import Stepper
    from sentinel.session.browser import check_agent_browser
    from sentinel.tui.step import StepApp

    config = api.with_suite(api.get_config(args.config), args.suite)
    scenario = find_scenario(config, args.scenario)
    command = api.resolve_agent(config, agent=args.agent, cmd=args.cmd)[1] if (args.agent or args.cmd) else None
    if args.agent_browser:
        check_agent_browser()  # a missing Chromium: one line before the screen opens
    app = StepApp(Stepper(scenario, config, model=args.model, agent_browser=args.agent_browser), command)
    app.run()
    code = app.return_code or 0
    if app.error:
        raise SentinelError(app.error)
    return code


def cmd_play(args: argparse.Namespace) -> int:
    from sentinel.core.bus import Bus
    from sentinel.run.options import RunOptions
    from sentinel.run.runner import Runner
    from sentinel.tui.play import PlayApp
    from sentinel.tui.state import RunState, result_text

    config = api.with_suite(api.get_config(args.config), args.suite)
    if not args.startup_timeout > 0:
        raise SentinelError("--startup-timeout must be a positive number of seconds")
    config = replace(config, timing=replace(config.timing, startup_timeout_s=args.startup_timeout))
    scenario = find_scenario(config, args.scenario)
    config, plan = api.prepare_run(RunOptions(person=True, config=config, speed=args.speed, run_name=args.run_name,
                                              resume=args.resume, scenarios=(scenario,)))
    runner = Runner(config, plan, Bus())
    result_path = plan.jobs()[0].dir_in(runner.run_dir) / "result.json"
    app = PlayApp(RunState.for_plan(plan, config), runner, str(result_path), freeze_heap=True)
    app.run()
    code = app.return_code or 0
    if app.error:
        raise SentinelError(app.error)
    if app.report is not None and app.report.results:
        print(f"{scenario.id}: {result_text(app.report.results[0])}")
        print(f"result: {result_path}")
    return code

