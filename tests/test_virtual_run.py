"""Whole runs on the virtual clock (`--clock virtual`, docs/model-time.md#the-virtual-clock): the
oracle passes on time with the same sim time for every request and report in two runs; an agent
that waits in its own process is ended at its wall cap and told why; the options, config key and
resume rule refuse what has no meaning there, in one line."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from helpers.runs import RISE, RISE_NOOP, SENDER, make_config

from sentinel.agents import BUILTIN_AGENTS
from sentinel.api import prepare_run
from sentinel.core.config import load_config
from sentinel.core.errors import SentinelError
from sentinel.core.model_time import ModelTime
from sentinel.core.scenario import load_scenario
from sentinel.outputs.regrade import regrade_run, write_regrades
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner

SCENARIOS = (RISE, RISE_NOOP, SENDER)
# opens its task, then waits in its own process: on the virtual clock its world never moves
STILL_AGENT = [sys.executable, "-c", "import os, time, urllib.request; "
               "urllib.request.urlopen(os.environ['SENTINEL_TASK_URL']).read(); time.sleep(60)"]


def virtual_plan(name: str, agent: str = "oracle", command=None, scenarios=SCENARIOS) -> RunPlan:
    return RunPlan(name=name, agent=agent, command=command or BUILTIN_AGENTS[agent], speed=1.0,
                   scenarios=tuple(load_scenario(p) for p in scenarios), clock="virtual",
                   model_time=ModelTime("fixed", 2.0))


def timelines(run_dir: Path) -> dict[str, list]:
    """Per session: its report's sim time and the sim time of every request it made."""
    found = {}
    for result in sorted(run_dir.rglob("result.json")):
        record = json.loads(result.read_text())
        requests = [(r["method"], r["path"], r["sim"])
                    for r in map(json.loads, (result.parent / "requests.jsonl").read_text().splitlines())]
        found[record["scenario_id"]] = [record["contact_at"], requests]
    return found


async def test_the_oracle_passes_on_time_with_the_same_sim_times_in_two_runs(tmp_path):
    config = make_config(tmp_path)
    reports = [await Runner(config, virtual_plan(f"v{n}")).run() for n in (1, 2)]
    for report in reports:
        assert [r.success for r in report.results] == [True] * len(SCENARIOS)
        normal = [r for r in report.results if r.on_time is not None]
        assert normal and all(r.on_time for r in normal)
        assert all(r.reaction_s is None and r.reaction_sim_s is not None for r in normal)
    first, second = (timelines(config.results_dir / f"v{n}") for n in (1, 2))
    assert first == second and len(first) == len(SCENARIOS)
    run = json.loads((config.results_dir / "v1" / "run.json").read_text())
    assert run["clock"] == "virtual" and run["model_time"] == "fixed:2"
    events = [json.loads(line) for line in (config.results_dir / "v1" / "micromail" / "sender_waves" /
                                            "events.jsonl").read_text().splitlines()]
    assert events and all(e["sim_at_fire"] == pytest.approx(e["at"]) for e in events)
    # graded again with an eval_sql that now fails and then holds again: still no wall reaction
    scenarios = {s.id: s for s in map(load_scenario, SCENARIOS)}
    failing = {**scenarios, "microhood-rise": replace(scenarios["microhood-rise"], eval_sql="SELECT 0")}
    (changed,) = [r for r in regrade_run(config.results_dir / "v1", failing, 60.0) if r.changed]
    assert not changed.after.success
    write_regrades(config.results_dir / "v1", [changed])
    (back,) = [r for r in regrade_run(config.results_dir / "v1", scenarios, 60.0) if r.changed]
    assert back.after.success and back.after.reaction_s is None and "(virtual clock)" in back.after.detail


async def test_an_agent_that_waits_in_its_own_process_is_ended_at_its_wall_cap_and_told_why(tmp_path):
    config = make_config(tmp_path)
    config = replace(config, timing=replace(config.timing, virtual_wall_cap_s=2.0))
    plan = virtual_plan("still", agent="still", command=STILL_AGENT, scenarios=(RISE,))
    report = await Runner(config, plan).run()
    (result,) = report.results
    assert not result.success and result.ended_by == "deadline"
    assert "wall cap (2 wall s)" in result.detail and "waits through its site" in result.detail


async def test_resume_refuses_another_clock(tmp_path):
    config = make_config(tmp_path)
    await Runner(config, virtual_plan("r", scenarios=(RISE,))).run()
    wall = replace(virtual_plan("r", scenarios=(RISE,)), clock="wall", resume=True)  # the same but its clock
    with pytest.raises(SentinelError, match="was run with --clock virtual"):
        await Runner(config, wall).run()


@pytest.mark.parametrize(("changes", "message"), [
    ({"clock": "virtual", "speed": 10.0}, "--speed has no meaning on --clock virtual"),
    ({"clock": "virtual", "person": True}, "a person plays on the wall clock"),
    ({"clock": "virtual", "model_time": "wall"}, "cannot run on --clock virtual"),
    ({"clock": "sundial"}, "is not a clock"),
])
def test_what_has_no_meaning_on_the_virtual_clock_is_refused_in_one_line(changes, message):
    with pytest.raises(SentinelError, match=message) as caught:
        prepare_run(agent="oracle", envs=["micromail"], **changes)
    assert "\n" not in str(caught.value)


def test_the_clock_is_an_option_and_a_config_key(tmp_path):
    _, plan = prepare_run(agent="oracle", envs=["micromail"], clock="virtual")
    assert plan.clock == "virtual" and plan.model_time == ModelTime("fixed", 2.0) and plan.speed == 1.0
    assert plan.load_speed == 0.0  # the machine's delay costs no sim time there
    path = tmp_path / "mine.toml"
    path.write_text('[run]\nclock = "virtual"\nmodel_time = "free"\n')
    _, plan = prepare_run(agent="oracle", envs=["micromail"], config=path)
    assert plan.clock == "virtual" and plan.model_time == ModelTime("free")
    path.write_text('[run]\nclock = "sundial"\n')
    with pytest.raises(SentinelError, match="clock") as caught:
        load_config(path)
    assert "\n" not in str(caught.value)
