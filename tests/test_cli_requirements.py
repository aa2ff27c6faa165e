"""A built-in agent whose requirement is missing (Playwright not importable, no Chromium) stops
the run before any session: one line naming what to install, exit code 2, no results written.
The same check guards `sentinel run`, `sentinel tui`, `sentinel step` and the API."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sentinel import api
from sentinel.agents import BROWSER_AGENTS, BUILTIN_AGENTS, missing_requirement
from sentinel.core.errors import SentinelError

SCRIPT = Path(sys.executable).with_name("sentinel")  # the console script pip installed beside python
CLI = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "sentinel.cli"]


def sentinel(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


def no_playwright(tmp_path: Path) -> str:
    """A PYTHONPATH on which `import playwright` fails, as where the [browser] extra is missing."""
    stub = tmp_path / "stub" / "playwright"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text("raise ImportError('No module named playwright')\n")
    return str(stub.parent)


def assert_stopped_before_any_session(done: subprocess.CompletedProcess, cwd: Path, *words: str) -> str:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sentinel: --agent "), done.stderr
    assert all(word in lines[0] for word in words), lines[0]
    assert "Traceback" not in done.stdout + done.stderr
    assert not (cwd / "results").exists()  # no run folder, no session result
    return lines[0]


@pytest.mark.parametrize("agent", BROWSER_AGENTS)
@pytest.mark.slow
def test_run_without_chromium_stops_with_one_line(tmp_path, agent):
    done = sentinel(tmp_path, "run", "--ci", "--agent", agent, "--env", "micromail", "--speed", "50",
                    SENTINEL_CHROMIUM="/nonexistent")
    line = assert_stopped_before_any_session(done, tmp_path, agent, "Chromium", "/nonexistent", "SENTINEL_CHROMIUM",
                                             "apt-get install chromium")
    assert done.stdout == "" and len(line) < 300


@pytest.mark.slow
def test_run_without_playwright_names_the_browser_extra(tmp_path):
    done = sentinel(tmp_path, "run", "--ci", "--agent", "browser-wait_for", "--env", "micromail",
                    PYTHONPATH=no_playwright(tmp_path))
    assert_stopped_before_any_session(done, tmp_path, "Playwright", "pip install 'sentinel-bench[browser]'")


@pytest.mark.slow
def test_a_chromium_that_is_not_a_program_is_missing_too(tmp_path):
    folder = tmp_path / "chromium"
    folder.mkdir()
    done = sentinel(tmp_path, "run", "--ci", "--agent", "browser-sleep", "--task", "micromail-sender_arrives",
                    SENTINEL_CHROMIUM=str(folder))
    assert_stopped_before_any_session(done, tmp_path, "Chromium", str(folder))


@pytest.mark.slow
def test_the_dashboard_stops_before_its_screen_opens(tmp_path):
    done = sentinel(tmp_path, "tui", "--agent", "browser-wait_for", "--env", "micromail",
                    SENTINEL_CHROMIUM="/nonexistent", TERM="xterm-256color")
    assert_stopped_before_any_session(done, tmp_path, "Chromium", "/nonexistent")


@pytest.mark.slow
def test_agents_without_a_browser_run_without_chromium(tmp_path):
    done = sentinel(tmp_path, "run", "--ci", "--agent", "oracle", "--task", "micromail-sender_arrives",
                    "--speed", "50", SENTINEL_CHROMIUM="/nonexistent", PYTHONPATH=no_playwright(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "passed: 1/1" in done.stdout and (tmp_path / "results").is_dir()


def test_the_api_refuses_the_run_before_it_is_planned(tmp_path, monkeypatch):
    monkeypatch.setenv("SENTINEL_CHROMIUM", str(tmp_path / "none"))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SentinelError, match="needs Chromium"):
        api.prepare_run(agent="browser-sleep", envs=["micromail"])
    with pytest.raises(SentinelError, match="needs Chromium"):
        api.run(agent="browser-wait_for", tasks=["micromail-sender_arrives"], speed=50)
    assert not (tmp_path / "results").exists()


def test_only_the_browser_agents_have_a_requirement(monkeypatch, tmp_path):
    monkeypatch.setenv("SENTINEL_CHROMIUM", str(tmp_path / "none"))
    assert [name for name in BUILTIN_AGENTS if missing_requirement(name)] == list(BROWSER_AGENTS)
    assert missing_requirement("blind:420") is None and missing_requirement("custom") is None


def test_a_machine_with_chromium_and_playwright_misses_nothing(monkeypatch, tmp_path):
    program = tmp_path / "chromium"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("SENTINEL_CHROMIUM", str(program))
    assert [missing_requirement(name) for name in BROWSER_AGENTS] == [None, None]
