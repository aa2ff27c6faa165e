"""Real runs of the small test scenarios (tests/data/scenarios): a config and a plan that finish
in seconds, and a look at the agent processes a run left behind."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sentinel.agents import BUILTIN_AGENTS
from sentinel.core.config import REPO_ROOT, Config, load_config
from sentinel.core.scenario import load_scenario, scenario_files
from sentinel.run.plan import RunPlan

TEST_SCENARIOS = REPO_ROOT / "tests" / "data" / "scenarios"
SPEED = 200.0  # condition_at 60 sim s = 0.3 wall s; deadline 600/200 + 2 = 5 wall s
RISE = TEST_SCENARIOS / "microhood" / "rise.yaml"
RISE_NOOP = TEST_SCENARIOS / "microhood" / "rise_noop.yaml"
SENDER = REPO_ROOT / "tests" / "data" / "env_scenarios" / "micromail" / "sender_waves.yaml"


def make_config(tmp_path: Path) -> Config:
    """The repository's config with results under tmp_path, the small test scenarios and short
    timings (a 2 s reaction window, 10 s to start, 1 s of grace after SIGTERM)."""
    config = load_config()
    return replace(config, results_dir=tmp_path / "results", scenarios_dir=TEST_SCENARIOS,
                   timing=replace(config.timing, reaction_window_s=2.0, startup_timeout_s=10, term_grace_s=1))


def write_test_config(folder: Path) -> Path:
    """The same as a sentinel.toml, for runs of the `sentinel` command: results under folder, the
    small test scenarios, a 2 s reaction window (a no-op session at speed 200 lasts 600/200 + 2 = 5 s)."""
    path = folder / "test.toml"
    path.write_text(f'[run]\nresults_dir = "{folder / "results"}"\nscenarios_dir = "{TEST_SCENARIOS}"\n'
                    '[timing]\nreaction_window_s = 2\nstartup_timeout_s = 10\nterm_grace_s = 1\n')
    return path


def plan(agent: str, name: str = "r", resume: bool = False, command=None) -> RunPlan:
    """A run of the test scenarios of microhood with a built-in agent (or command) at SPEED."""
    scenarios = tuple(load_scenario(p) for p in scenario_files(TEST_SCENARIOS, "microhood"))
    return RunPlan(name=name, agent=agent, command=command or BUILTIN_AGENTS[agent], speed=SPEED,
                   scenarios=scenarios, resume=resume)


def processes_working_in(folder: Path) -> list[int]:
    """Live (non-zombie) processes whose working folder is inside folder: agents of this test."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if str(proc.joinpath("cwd").readlink()).startswith(str(folder / "results")) and \
                    proc.joinpath("stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                found.append(int(proc.name))
        except OSError:
            continue
    return found
