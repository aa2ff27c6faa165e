"""An agent is started the same way by a run and by the stepper (sentinel/session/launch.py): a
real agent process writes down what it was given, once under each, and the two must match."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.scenario import load_scenario
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner
from sentinel.run.stepper import Stepper

AGENTS = Path(__file__).parent / "agents"
RISE = REPO_ROOT / "tests" / "data" / "scenarios" / "microhood" / "rise.yaml"
SPEED = 200.0
MODEL = "stand-in-model"
DUMPED_WITHIN_S = 30.0


def dumping_agent(out: Path) -> list[str]:
    """An agent command that writes its variables and its filled-in placeholders to out."""
    return [sys.executable, str(AGENTS / "dump_env.py"), str(out), "__TASK_URL__", "__BASE_DIR__", "__CDP_URL__",
            "__MCP_URL__"]


@pytest.fixture
def stand_in_chromium(tmp_path, monkeypatch):
    """SENTINEL_CHROMIUM names a program that announces a DevTools port as Chromium does: a lent
    browser's variables can be checked where no Chromium is installed."""
    program = tmp_path / "chromium"
    program.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{AGENTS / "fake_chromium.py"}" "$@"\n')
    program.chmod(0o755)
    monkeypatch.setenv("SENTINEL_CHROMIUM", str(program))


def config_in(folder: Path):
    config = load_config()
    return replace(config, results_dir=folder / "results",
                   timing=replace(config.timing, reaction_window_s=2.0, startup_timeout_s=10, term_grace_s=1))


async def dumped(path: Path) -> dict:
    limit = time.monotonic() + DUMPED_WITHIN_S
    while not path.exists():
        assert time.monotonic() < limit, "the agent never wrote what it was given"
        await asyncio.sleep(0.05)
    return json.loads(path.read_text())


async def given_in_a_run(folder: Path, agent: str = "custom", **plan_fields) -> dict:
    out = folder / "run.json"
    plan = RunPlan(name="launch", agent=agent, command=dumping_agent(out), speed=SPEED,
                   scenarios=(load_scenario(RISE),), **plan_fields)
    await Runner(config_in(folder), plan).run()
    return await dumped(out)


async def given_when_stepped(folder: Path, agent: str | None = None, **stepper_fields) -> dict:
    out = folder / "step.json"
    stepper = Stepper(load_scenario(RISE), config_in(folder), speed=SPEED, **stepper_fields)
    try:
        await stepper.open()
        await stepper.attach_agent(dumping_agent(out), agent=agent)
        return await dumped(out)
    finally:
        await stepper.close()


def own_variables(given: dict) -> dict[str, str]:
    """The variables the launch gave (not those the test process itself has)."""
    return {name: value for name, value in given["environ"].items() if name not in os.environ}


async def test_a_stepped_agent_gets_every_variable_a_run_gives_it(tmp_path, stand_in_chromium):
    run = await given_in_a_run(tmp_path, model=MODEL, agent_browser=True)
    stepped = await given_when_stepped(tmp_path, model=MODEL, agent_browser=True)
    ran, step = own_variables(run), own_variables(stepped)
    assert sorted(step) == sorted(ran)
    for name, value in (("SENTINEL_SPEED", f"{SPEED:g}"), ("SENTINEL_MODEL", MODEL),
                        ("SENTINEL_EVIDENCE_CAP_BYTES", str(load_config().evidence_cap_bytes))):
        assert ran[name] == value, name
        assert step[name] == value, name
    for name in ("SENTINEL_MCP_URL", "SENTINEL_CDP_URL", "SENTINEL_CDP_WS_URL"):
        assert ran[name].startswith(("http://127.0.0.1:", "ws://127.0.0.1:")), name
        assert step[name].startswith(("http://127.0.0.1:", "ws://127.0.0.1:")), name


async def test_the_placeholders_carry_the_same_values_as_the_variables(tmp_path, stand_in_chromium):
    for given in (await given_in_a_run(tmp_path, agent_browser=True),
                  await given_when_stepped(tmp_path, agent_browser=True)):
        variables = given["environ"]
        task_url, base_dir, cdp_url, mcp_url = given["argv"]
        assert task_url == variables["SENTINEL_TASK_URL"]
        assert Path(variables["SENTINEL_COSTS_FILE"]) == Path(base_dir) / "costs.json"
        assert cdp_url == variables["SENTINEL_CDP_URL"]
        assert mcp_url == variables["SENTINEL_MCP_URL"]


async def test_a_page_reading_agent_is_lent_nothing_stepped_or_run(tmp_path):
    run = own_variables(await given_in_a_run(tmp_path, agent="silent"))
    stepped = own_variables(await given_when_stepped(tmp_path, agent="silent"))
    assert sorted(stepped) == sorted(run)
    lent = {"SENTINEL_MCP_URL", "SENTINEL_CDP_URL", "SENTINEL_CDP_WS_URL", "SENTINEL_MODEL", "OPENAI_BASE_URL"}
    assert not lent & set(run)
    assert stepped["SENTINEL_SPEED"] == run["SENTINEL_SPEED"] == f"{SPEED:g}"
