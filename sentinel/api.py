"""Sentinel from Python: the entry points the `sentinel` command itself calls.

    from sentinel import api

    outcome = api.run(agent="oracle", envs=["microhood"], speed=50, run_name="hood-oracle")
    print(outcome.summary.overall.rate, outcome.summary.reaction_p50)
    for result in outcome.results:            # sentinel.core.grading.Result, frozen dataclasses
        print(result.scenario_id, result.success, result.reaction_s)
    api.report([outcome.run_dir])             # the HTML report; returns its path
    checked = api.validate()                  # every scenario file; checked.problems lists what is wrong

Every function checks its choices as the CLI does and raises sentinel.core.errors.SentinelError
with the same one-line messages. `run` starts its own event loop; from code that already runs
one (a notebook, an async app) await `run_async` instead. `config` is a sentinel.toml or
eval_config.yaml path, or a loaded sentinel.core.config.Config (default: the repository's).
"""

from __future__ import annotations

import asyncio
import shlex
import signal
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from sentinel.agents import MODEL_AGENTS, builtin_command, builtin_names, missing_requirement
from sentinel.checks.validate import Problem
from sentinel.core.bus import Bus
from sentinel.core.config import BACKENDS, Config, check_speed, load_config, sessions_at_once
from sentinel.core.errors import SentinelError
from sentinel.core.grading import Result
from sentinel.core.model_time import resolve_model_time
from sentinel.core.scenario import Scenario, ScenarioError, load_scenario, scenario_files
from sentinel.core.suites import mixed_suites, suite_dir
from sentinel.core.summary import Summary, summarize
from sentinel.outputs.results import load_results
from sentinel.outputs.run_folder import refuse_existing_run
from sentinel.run.options import RunOptions
from sentinel.run.plan import RunPlan
from sentinel.run.ray_backend import make_runner
from sentinel.run.runner import Runner
from sentinel.session.browser import check_agent_browser
from sentinel.session.harness import check_command
from sentinel.session.sandbox import bwrap_program

MAX_TRIALS = 100
SHELL_WORDS = {"cd", "exec", "export", "set", ".", "source", "eval", "if", "for", "while", "("}

ConfigSource = str | Path | Config | None


@dataclass(frozen=True)
class RunOutcome:
    """A finished (or loaded) run: its folder, every session's result, and the aggregates."""
    name: str
    run_dir: Path
    results: tuple[Result, ...]
    summary: Summary
    wall_s: float | None = None  # None for a run loaded from disk
    interrupted: bool = False  # stopped early (Ctrl-C with stop_on_signals): finished sessions are kept

    def by_scenario(self) -> dict[str, list[Result]]:
        """Results grouped by scenario id (several per scenario with repeated trials)."""
        grouped: dict[str, list[Result]] = {}
        for result in self.results:
            grouped.setdefault(result.scenario_id, []).append(result)
        return grouped


@dataclass(frozen=True)
class Validation:
    """What `validate` found: how many scenario files it checked and every problem."""
    checked: int
    problems: tuple[Problem, ...]
    split: tuple[str, ...] = ()  # the suite's passive/active/noop and absolute/relative split, as lines

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class ScenarioList:
    """The scenarios of a selection, and the files that could not be loaded."""
    scenarios: tuple[Scenario, ...]
    unreadable: tuple[Path, ...]


def get_config(config: ConfigSource = None) -> Config:
    """A Config as it is given, or loaded from a path (default: the bundled sentinel.toml)."""
    if isinstance(config, Config):
        return config
    return load_config(Path(config) if config is not None else None)


# --- running ------------------------------------------------------------------------------

def prepare_run(options: RunOptions | None = None, /, **changes: Any) -> tuple[Config, RunPlan]:
    """Check a run's choices and return the config and the plan `execute` runs. The choices are
    a RunOptions (sentinel.run.options: one field per `sentinel run` option), its fields given
    as keywords, or both (keywords change the object's fields). envs / tasks select scenarios
    as --env / --task do (default: all; items may be comma separated). backend "ray" places the
    sessions on a Ray cluster (address, or a local Ray for the run), each reserving session_cpus
    and session_memory_mb (default: sentinel.toml [ray]). scenarios_dir runs the scenarios of
    another folder (a generated set: its files directly in it, or one folder per environment).
    variants with seed gives each trial of a scenario whose short id is a kind of its
    environment its own generated variant of that kind. person runs no agent process: a person
    plays at the task URL (`sentinel play`)."""
    o = (options or RunOptions()).but(**changes)
    if o.agent and o.cmd:
        raise SentinelError("pass agent or cmd, not both")
    if o.sandbox:
        bwrap_program()  # missing bubblewrap: one clear line before anything starts
    if o.agent_browser:
        check_agent_browser()  # likewise a missing Chromium
    loaded = with_backend(get_config(o.config), o.backend, o.address, o.session_cpus, o.session_memory_mb)
    loaded = with_suite(loaded, o.suite, o.scenarios_dir)
    if o.variants and o.seed is None:
        raise SentinelError("--variants needs --seed S (the variants of trial t are drawn from S and t)")
    clock = o.clock or loaded.clock
    if clock == "virtual" and o.person:
        raise SentinelError("a person plays on the wall clock: on --clock virtual nothing would move the world "
                            "while they read")
    if clock == "virtual" and o.speed is not None:
        raise SentinelError("--speed has no meaning on --clock virtual: its time moves only while the agent "
                            "waits or thinks (docs/model-time.md#the-virtual-clock)")
    speed = 1.0 if clock == "virtual" else check_speed(o.speed) if o.speed is not None else loaded.speed
    model_time = resolve_model_time(clock, o.model_time if o.model_time is not None else
                                    str(loaded.model_time) if loaded.model_time is not None else None)
    if o.concurrency is not None and o.concurrency < 0:
        raise SentinelError("--concurrency must be 0 (all at once) or more")
    if not 1 <= o.trials <= MAX_TRIALS:
        raise SentinelError(f"--trials must be between 1 and {MAX_TRIALS}")
    name, command = ("human", None) if o.person else resolve_agent(loaded, agent=o.agent, cmd=o.cmd)
    if o.model and builtin_command(name) is not None and name not in MODEL_AGENTS:
        raise SentinelError(f"--model: the {name} agent uses no model; --model is for {', '.join(MODEL_AGENTS)} "
                            f"and --cmd agents")
    scenarios = list(o.scenarios) or select_scenarios(loaded, list(o.envs), list(o.tasks))
    run_name = o.run_name or f"{name}-{datetime.now():%Y%m%d-%H%M%S}"
    check_run_name(run_name)
    drawn = {}
    if o.variants and o.seed is not None:
        drawn = variants_for(loaded, scenarios, run_name, o.seed, o.trials, o.resume)
    asked = o.concurrency if o.concurrency is not None else loaded.concurrency
    if asked is None and loaded.backend != "local":
        asked = 0  # a cluster places sessions by the resources each reserves
    plan = RunPlan(name=run_name, agent=name, command=command, speed=speed, scenarios=tuple(scenarios),
                   concurrency=sessions_at_once(asked, len(scenarios) * o.trials), admission=asked is None,
                   resume=o.resume, trials=o.trials, model=o.model, meter=o.meter, model_time=model_time, clock=clock,
                   sandbox=o.sandbox, agent_browser=o.agent_browser, variants=drawn,
                   variant_seed=o.seed if o.variants else None)
    return loaded, plan


def variants_for(config: Config, scenarios: list[Scenario], run_name: str, seed: int, trials: int,
                 resume: bool) -> dict[str, tuple[Scenario, ...]]:
    """--variants: a generated variant per trial of each scenario that is a kind, written under
    results/<run>/variants/ (drawn again identically on --resume)."""
    from sentinel.checks.drafts import trial_variants

    run_dir = config.results_dir / run_name
    refuse_existing_run(run_dir, resume)  # before any variant is drawn into it
    drawn = run_coroutine(trial_variants(config, scenarios, seed, trials, run_dir / "variants"))
    if not drawn:
        raise SentinelError("--variants: none of the selected scenarios is a kind of its environment "
                            "(`sentinel generate --help`; docs/scenarios.md#generated-scenarios)")
    return drawn


def run_coroutine(coro):
    """Run a coroutine to its end from sync code, also when called inside a running loop
    (run_async → prepare_run): then in a thread of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def execute_async(config: Config, plan: RunPlan, bus: Bus | None = None, *,
                        stop_on_signals: bool = False) -> RunOutcome:
    """Run a prepared plan. With stop_on_signals, SIGINT / SIGTERM stop the agents cleanly and
    keep every finished result (the outcome says interrupted)."""
    runner = make_runner(config, plan, bus)
    report = await (_until_interrupted(runner) if stop_on_signals else runner.run())
    assert report.summary is not None
    return RunOutcome(plan.name, report.run_dir, tuple(report.results), report.summary, report.wall_s,
                      interrupted=runner.stopping)


def execute(config: Config, plan: RunPlan, bus: Bus | None = None, *, stop_on_signals: bool = False) -> RunOutcome:
    """execute_async in its own event loop."""
    return asyncio.run(execute_async(config, plan, bus, stop_on_signals=stop_on_signals))


async def run_async(options: RunOptions | None = None, /, *, bus: Bus | None = None,
                    stop_on_signals: bool = False, **changes: Any) -> RunOutcome:
    """Run a selection of scenarios with an agent: the choices of prepare_run (a RunOptions and/or
    its fields as keywords, e.g. agent="oracle", envs=["micromail"], backend="ray"); bus receives
    the run's messages as they happen."""
    loaded, plan = prepare_run(options, **changes)
    return await execute_async(loaded, plan, bus, stop_on_signals=stop_on_signals)


def run(options: RunOptions | None = None, /, *, bus: Bus | None = None, stop_on_signals: bool = False,
        **changes: Any) -> RunOutcome:
    """run_async in its own event loop (same arguments)."""
    return asyncio.run(run_async(options, bus=bus, stop_on_signals=stop_on_signals, **changes))


async def _until_interrupted(runner: Runner):
    """Ctrl-C stops the agents cleanly and keeps every finished result."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, runner.stop)
    try:
        return await runner.run()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


def with_suite(config: Config, suite: str | None = None, scenarios_dir: str | Path | None = None) -> Config:
    """The config reading the scenarios of a bundled suite (--suite) or of a folder (--scenarios-dir)."""
    if suite is not None and scenarios_dir is not None:
        raise SentinelError("pass --suite or --scenarios-dir, not both")
    if suite is not None:
        return replace(config, scenarios_dir=suite_dir(suite))
    if scenarios_dir is not None:
        if not Path(scenarios_dir).is_dir():
            raise SentinelError(f"--scenarios-dir {scenarios_dir}: not a folder")
        return replace(config, scenarios_dir=Path(scenarios_dir))
    return config


def with_backend(config: Config, backend: str | None, address: str | None, session_cpus: float | None,
                 session_memory_mb: float | None) -> Config:
    """The config with the backend options of a run applied (each None keeps the config's)."""
    if backend is None and address is None and session_cpus is None and session_memory_mb is None:
        if config.backend == "ray":
            from sentinel.run.ray_backend import import_ray

            import_ray()
        return config
    if backend is not None and backend not in BACKENDS:
        raise SentinelError(f"--backend {backend}: expected one of {', '.join(BACKENDS)}")
    backend = backend or config.backend
    if backend != "ray" and (address or session_cpus is not None or session_memory_mb is not None):
        raise SentinelError("--address, --session-cpus and --session-memory go with --backend ray")
    if session_cpus is not None and not session_cpus > 0:
        raise SentinelError("--session-cpus must be a positive number of CPUs")
    if session_memory_mb is not None and session_memory_mb < 0:
        raise SentinelError("--session-memory must be 0 (none reserved) or a number of MB")
    ray = config.ray.__class__(
        address=address or config.ray.address,
        num_cpus=session_cpus if session_cpus is not None else config.ray.num_cpus,
        memory_mb=session_memory_mb if session_memory_mb is not None else config.ray.memory_mb,
        max_retries=config.ray.max_retries)
    if backend == "ray":
        from sentinel.run.ray_backend import import_ray

        import_ray()  # not installed: one clear line before anything starts
    return replace(config, backend=backend, ray=ray)


# --- finished runs ------------------------------------------------------------------------

def load(run_name: str | Path, config: ConfigSource = None) -> RunOutcome:
    """A run already on disk, by name (under the results folder) or path."""
    run_dir = find_run_dir(get_config(config), str(run_name))
    results = load_results(run_dir)
    return RunOutcome(run_dir.name, run_dir, tuple(results), summarize(results))


def grade(run_name: str | Path, config: ConfigSource = None, allow_mixed: bool = False) -> RunOutcome:
    """`sentinel grade`: a run on disk that has at least one finished session. Results of
    different suites or suite digests (a run resumed after its scenario files changed) are
    refused unless allow_mixed."""
    outcome = load(run_name, config)
    if not outcome.results:
        raise SentinelError(f"{outcome.run_dir}: no finished sessions yet")
    labels = mixed_suites((r.suite, r.suite_digest) for r in outcome.results)
    if len(labels) > 1 and not allow_mixed:
        raise SentinelError(f"{outcome.run_dir}: its results ran different suites or scenario files "
                            f"({'; '.join(labels)}); pass --allow-mixed to grade them together")
    return outcome


def report(run_dirs: list[str | Path], out: str | Path | None = None, config: ConfigSource = None) -> Path:
    """Write the HTML report of one run (or a comparison of several); return its path."""
    from sentinel.outputs.report import write_report

    loaded = get_config(config)
    dirs = [find_run_dir(loaded, str(d)) for d in run_dirs]
    return write_report(dirs, loaded, Path(out) if out else None)


def find_run_dir(config: Config, run: str) -> Path:
    for candidate in (Path(run), config.results_dir / run):
        if (candidate / "run.json").exists() or list(candidate.glob("*/*/result.json")):
            return candidate
    raise SentinelError(f"{run}: no such run (looked in {run} and {config.results_dir / run})")


# --- scenarios ----------------------------------------------------------------------------

async def validate_async(paths: list[str | Path] | None = None, config: ConfigSource = None,
                         suite: str | None = None) -> Validation:
    """Check scenario files (default: every one of the suite, `verified` unless suite says `paper`)."""
    from sentinel.checks.validate import validate_all

    if paths and suite is not None:
        raise SentinelError("pass scenario files or --suite, not both")
    files = [Path(p) for p in paths] if paths else None
    split: list[str] = []
    checked, problems = await validate_all(with_suite(get_config(config), suite), files, summary=split)
    return Validation(checked, tuple(problems), tuple(split))


def validate(paths: list[str | Path] | None = None, config: ConfigSource = None,
             suite: str | None = None) -> Validation:
    """validate_async in its own event loop."""
    return asyncio.run(validate_async(paths, config, suite))


# --- generated scenarios ------------------------------------------------------------------

@dataclass(frozen=True)
class Generated:
    """What `generate` wrote: the files and, per kind, how many draws were accepted."""
    files: tuple[Path, ...]
    acceptance: tuple[str, ...]  # one line per kind: "micromail attachment_name: 3 of 4 draws accepted (75%)"


def generate(env: str, seed: int, count: int, out: str | Path, kind: str | None = None,
             knobs: list[str] | None = None, force: bool = False, config: ConfigSource = None) -> Generated:
    """`sentinel generate`: draw `count` validated scenarios of `env` (optionally one kind) with
    `seed` and write them to `out` (existing files only with force). knobs: ["decoys=4", ...]."""
    from sentinel.checks.drafts import generate_set, write_set
    from sentinel.core.kinds import parse_knobs

    loaded = get_config(config)
    overrides = parse_knobs(knobs or [])
    if count < 1:
        raise SentinelError("--count must be at least 1")
    generation = run_coroutine(generate_set(loaded, env, seed, count, kind, overrides))
    files = write_set(generation, Path(out), force)
    return Generated(tuple(files), tuple(generation.acceptance_lines()))


def list_scenarios(envs: list[str] | None = None, config: ConfigSource = None,
                   suite: str | None = None) -> ScenarioList:
    """`sentinel list`: the scenarios of the given environments (default: all) of a suite (default:
    verified), skipping files that do not load (they are named in `unreadable`; `validate` says why)."""
    loaded = with_suite(get_config(config), suite)
    scenarios: list[Scenario] = []
    unreadable: list[Path] = []
    wanted: list[str | None] = [*split_items(envs)] or [None]
    for env in wanted:
        for path in scenario_files(loaded.scenarios_dir, env):
            try:
                scenarios.append(load_scenario(path))
            except ScenarioError:
                unreadable.append(path)
    return ScenarioList(tuple(scenarios), tuple(unreadable))


def select_scenarios(config: Config, envs: list[str] | None, tasks: list[str] | None) -> list[Scenario]:
    """The scenarios of a run's selection; every scenario must load."""
    wanted_envs: list[str | None] = [*split_items(envs)] or [None]
    flat = flat_scenario_files(config.scenarios_dir)  # a generated set: files directly in the folder
    files = list(flat)
    for env in wanted_envs if not flat else []:
        if env and not (config.scenarios_dir / env).is_dir():
            raise SentinelError(f"--env {env}: no scenarios folder {config.scenarios_dir / env}")
        files += scenario_files(config.scenarios_dir, env)
    scenarios = []
    for path in files:
        try:
            scenarios.append(load_scenario(path))
        except ScenarioError as exc:
            raise SentinelError(f"{exc.problems[0]} (run `sentinel validate` for every problem)") from None
    if flat and wanted_envs != [None]:
        scenarios = [s for s in scenarios if s.environment in wanted_envs]
    wanted_tasks = split_items(tasks)
    if wanted_tasks:
        chosen = [s for s in scenarios if s.id in wanted_tasks or s.short_id in wanted_tasks]
        missing = set(wanted_tasks) - {s.id for s in chosen} - {s.short_id for s in chosen}
        if missing:
            raise SentinelError(f"--task: no scenario {', '.join(sorted(missing))}")
        scenarios = chosen
    if not scenarios:
        raise SentinelError("no scenarios selected")
    return scenarios


def flat_scenario_files(folder: Path) -> list[Path]:
    """Scenario files lying directly in a folder (a generated set), sorted."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in (".yaml", ".yml", ".json"))


def split_items(values: list[str] | None) -> list[str]:
    """Repeated options whose items may also be comma separated: ["a,b", "c"] → [a, b, c]."""
    return [v.strip() for item in values or [] for v in item.split(",") if v.strip()]


# --- agents -------------------------------------------------------------------------------

def resolve_agent(config: Config, agent: str | None = None,
                  cmd: str | list[str] | None = None) -> tuple[str, str | list[str]]:
    """(agent name, command): a built-in agent, your command, or the config's agent.cmd."""
    if cmd:
        command: str | list[str] = cmd
        name = "custom"
    elif agent:
        builtin = builtin_command(agent)
        if builtin is None:
            raise SentinelError(f"--agent {agent}: unknown; built-in agents are {builtin_names()} "
                                f"(use --cmd for your own)")
        missing = missing_requirement(agent)  # before any session starts: one line, what to install
        if missing:
            raise SentinelError(missing)
        return agent, builtin
    elif config.agent_cmd:
        command, name = config.agent_cmd, "custom"
    else:
        raise SentinelError("no agent: pass --agent NAME, --cmd COMMAND, or set agent.cmd in the config")
    check_agent_command(command)
    return name, command


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


def check_run_name(name: str) -> None:
    if "/" in name or name.startswith("."):
        raise SentinelError(f"--run {name}: a run name is a plain folder name")


# --- evidence: what the agent saw, exports, grading again (docs/evidence.md) ---------------

def run_scenarios(config: Config, run_dir: Path) -> dict[str, Scenario]:
    """The scenarios a run's sessions may name, by id (its generated variants too)."""
    from sentinel.outputs.report.data import scenario_index

    return scenario_index(config, (run_dir,))


def session_folder(run_dir: Path, scenario: str, trial: int = 1) -> tuple[Path, Result]:
    """The folder and result of one finished session, by scenario id or short id."""
    from sentinel.outputs.results import finished_sessions

    sessions = [(f, r) for f, r in finished_sessions(run_dir)
                if scenario in (r.scenario_id, r.scenario_id.split("-", 1)[-1])]
    if not sessions:
        raise SentinelError(f"{run_dir.name}: no finished session of {scenario}")
    for folder, result in sessions:
        if result.trial == trial:
            return folder, result
    raise SentinelError(f"{run_dir.name}: {scenario} has no trial {trial} (trials: "
                        f"{', '.join(str(r.trial) for _, r in sessions)})")


def show(run_name: str | Path, scenario: str, at_sim: float | None = None, trial: int = 1,
         config: ConfigSource = None):
    """`sentinel show`: the page the session's agent had last been served at `at_sim` (default:
    its report), as sentinel.outputs.evidence.ShownPage."""
    from sentinel.outputs.evidence import show_page

    run_dir = find_run_dir(get_config(config), str(run_name))
    folder, result = session_folder(run_dir, scenario, trial)
    return show_page(folder, result, at_sim)


def regrade(run_name: str | Path, write: bool = False, config: ConfigSource = None):
    """`sentinel regrade`: every session's grade derived again from its stored world and records
    with this tree's grading; a list of sentinel.outputs.regrade.Regraded. With write, the new
    grades replace the stored ones."""
    from sentinel.outputs.regrade import regrade_run, write_regrades

    loaded = get_config(config)
    run_dir = find_run_dir(loaded, str(run_name))
    regraded = regrade_run(run_dir, run_scenarios(loaded, run_dir), loaded.timing.on_time_s)
    if not regraded:
        raise SentinelError(f"{run_dir}: no finished sessions yet")
    if write:
        write_regrades(run_dir, regraded)
    return regraded


EXPORT_FORMATS = ("atif",)


def export(run_name: str | Path, out: str | Path, format: str = "atif", config: ConfigSource = None) -> list[Path]:
    """`sentinel export`: one ATIF trajectory file per finished session in `out`; the files."""
    from sentinel.outputs.atif import write_trajectories
    from sentinel.outputs.results import finished_sessions

    if format not in EXPORT_FORMATS:
        raise SentinelError(f"--format {format}: expected one of {', '.join(EXPORT_FORMATS)}")
    loaded = get_config(config)
    run_dir = find_run_dir(loaded, str(run_name))
    sessions = finished_sessions(run_dir)
    if not sessions:
        raise SentinelError(f"{run_dir}: no finished sessions yet")
    prompts = {sid: s.prompt for sid, s in run_scenarios(loaded, run_dir).items()}
    return write_trajectories(sessions, prompts, Path(out))
