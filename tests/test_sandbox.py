"""Agents kept in their place (docs/protocol.md#agents): hostile agents run as real subprocesses through the
runner, with and without --sandbox (bubblewrap), and nothing they start outlives the session."""

from __future__ import annotations

import shutil
import sys
import uuid
from dataclasses import replace
from pathlib import Path

import pytest
from helpers.runs import TEST_SCENARIOS

from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.errors import SentinelError
from sentinel.core.scenario import load_scenario
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner
from sentinel.session.sandbox import BWRAP_MISSING, Sandbox, sandboxed

AGENTS = Path(__file__).parent / "agents"
# The repository (and with it a virtual environment inside it) is hidden in the sandbox, so the
# hostile agents run on the base interpreter, their code handed over with -c.
BASE_PYTHON = str(Path(sys.base_prefix) / "bin" / "python3")
needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


def config_for(tmp_path: Path, **run):
    config = load_config()
    return replace(config, results_dir=tmp_path / "results", scenarios_dir=TEST_SCENARIOS,
                   timing=replace(config.timing, reaction_window_s=1.0, startup_timeout_s=5, term_grace_s=1),
                   **run)


def hostile(name: str, *args: str) -> list[str]:
    return [BASE_PYTHON, "-c", (AGENTS / f"{name}.py").read_text(), *args]


async def run_one(tmp_path: Path, command: list[str], *, sandbox: bool, **run):
    config = config_for(tmp_path, **run)
    scenario = load_scenario(TEST_SCENARIOS / "microhood" / "rise.yaml")
    plan = RunPlan(name="h", agent="custom", command=command, speed=200.0, scenarios=(scenario,), sandbox=sandbox)
    report = await Runner(config, plan).run()
    folder = config.results_dir / "h" / "microhood" / "rise"
    return report.results[0], folder


def processes_with(token: str) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and token.encode() in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


@needs_bwrap
@pytest.mark.slow
async def test_a_sandboxed_agent_finds_no_answers_and_its_session_completes(tmp_path):
    config = config_for(tmp_path)
    secrets = [str(REPO_ROOT / "scenarios"), str(REPO_ROOT / "catalogs"), str(config.results_dir), str(TEST_SCENARIOS)]
    result, folder = await run_one(tmp_path, hostile("snoop", *secrets), sandbox=True)
    log = (folder / "agent.log").read_text()
    assert "SNOOPED" in log
    assert [line for line in log.splitlines() if line.startswith("FOUND") and str(REPO_ROOT) in line] == []
    assert result.infra_error is None
    assert result.ended_by == "agent_exit"
    assert not result.success


@pytest.mark.slow
async def test_without_the_sandbox_the_same_agent_sees_the_repository(tmp_path):
    """The control: the snoop really looks (so the test above can fail)."""
    _, folder = await run_one(tmp_path, hostile("snoop", str(REPO_ROOT / "scenarios")), sandbox=False)
    assert f"FOUND {REPO_ROOT / 'scenarios'}" in (folder / "agent.log").read_text()


@pytest.mark.parametrize("sandbox", [False, pytest.param(True, marks=needs_bwrap)])
@pytest.mark.slow
async def test_a_setsid_grandchild_does_not_outlive_its_session(tmp_path, sandbox):
    token = f"sentinel-test-{uuid.uuid4().hex}"
    result, folder = await run_one(tmp_path, hostile("setsid_sleeper", token), sandbox=sandbox)
    assert "started a setsid grandchild" in (folder / "agent.log").read_text()
    assert result.ended_by == "agent_exit" and result.infra_error is None
    assert processes_with(token) == []


@pytest.mark.slow
async def test_what_an_agent_leaves_is_kept_up_to_a_cap(tmp_path):
    result, folder = await run_one(tmp_path, hostile("filler"), sandbox=False, agent_files_cap_bytes=2_500_000)
    kept = sorted(p.name for p in (folder / "agent").glob("fill-*.bin"))
    assert len(kept) == 2 and result.infra_error is None
    assert "over the 2,500,000-byte cap" in (folder / "agent" / "copy_errors.txt").read_text()


@needs_bwrap
def test_the_sandbox_hides_folders_but_keeps_what_a_builtin_agent_needs(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    args = sandboxed(["true"], Sandbox(work_dir=work, hidden=(REPO_ROOT, REPO_ROOT / "scenarios"),
                                       readable=(REPO_ROOT / "sentinel",)))
    assert args.count("--tmpfs") == 2  # /tmp and the repository; scenarios is gone with it
    package = str(REPO_ROOT / "sentinel")
    assert args[args.index("--ro-bind", 4):][:3] == ["--ro-bind", package, package]
    assert args[-2:] == ["--", "true"] and args[args.index("--chdir") + 1] == str(work.resolve())


def test_missing_bubblewrap_is_one_clear_line(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap anywhere on it
    with pytest.raises(SentinelError) as caught:
        sandboxed(["true"], Sandbox(work_dir=tmp_path, hidden=()))
    assert str(caught.value) == BWRAP_MISSING and "bubblewrap" in BWRAP_MISSING


@needs_bwrap
def test_the_sandbox_hides_an_installed_wheels_data_inside_its_readable_package(tmp_path):
    """An installed wheel keeps its scenarios inside the package, inside sys.prefix: both stay
    readable for a built-in agent, the bundled data under them stays hidden, the scenario file shows."""
    prefix = tmp_path / "venv"
    package = prefix / "lib" / "sentinel"
    data = package / "_data"
    scenario = data / "scenarios" / "micromail" / "one.yaml"
    scenario.parent.mkdir(parents=True)
    scenario.write_text("id: one\n")
    work = tmp_path / "work"
    work.mkdir()
    args = sandboxed(["true"], Sandbox(work_dir=work, hidden=(data, data / "scenarios"),
                                       readable=(package, prefix, scenario)))
    mounts = [(args[i], args[i + 1]) for i in range(len(args) - 1) if args[i] in ("--tmpfs", "--ro-bind")]
    assert mounts[2:] == [("--ro-bind", str(prefix)), ("--ro-bind", str(package)), ("--tmpfs", str(data)),
                          ("--ro-bind", str(scenario))]
