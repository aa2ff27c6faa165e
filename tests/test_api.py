"""The Python API: run a selection from code, get result objects, load a run, write a report."""

from __future__ import annotations

import pytest
from helpers.runs import write_test_config

from sentinel import api
from sentinel.core.bus import Bus, SessionGraded
from sentinel.core.errors import SentinelError
from sentinel.core.grading import Result


@pytest.mark.slow
def test_run_from_code_with_trials_then_load_and_report(tmp_path):
    config = write_test_config(tmp_path)
    outcome = api.run(agent="eager", tasks=["rise", "rise_buy"], speed=200, trials=2, run_name="code",
                      config=config)
    assert outcome.name == "code" and outcome.run_dir == tmp_path / "results" / "code"
    assert all(isinstance(r, Result) for r in outcome.results)
    assert [(r.scenario_id, r.trial) for r in outcome.results] == [
        ("microhood-rise", 1), ("microhood-rise", 2), ("microhood-rise_buy", 1), ("microhood-rise_buy", 2)]
    assert not any(r.success for r in outcome.results)  # eager reports before the condition
    assert outcome.summary.trials == 2 and outcome.summary.pass_k[1].pass_at == 0.0
    assert set(outcome.by_scenario()) == {"microhood-rise", "microhood-rise_buy"}
    loaded = api.load("code", config=config)
    assert loaded.results == outcome.results and loaded.summary == outcome.summary
    page = api.report([outcome.run_dir], config=config)
    assert page == outcome.run_dir / "report.html" and "microhood-rise_buy" in page.read_text()


@pytest.mark.slow
async def test_run_async_inside_a_running_loop_publishes_on_the_bus(tmp_path):
    bus = Bus()
    graded = []
    bus.subscribe(lambda m: graded.append(m.key) if isinstance(m, SessionGraded) else None)
    outcome = await api.run_async(agent="eager", tasks=["rise"], speed=200, run_name="aio",
                                  config=write_test_config(tmp_path), bus=bus)
    assert graded == ["microhood/rise"] and len(outcome.results) == 1


def test_bad_choices_raise_the_cli_messages(tmp_path):
    config = write_test_config(tmp_path)
    with pytest.raises(SentinelError, match="unknown; built-in agents are"):
        api.run(agent="psychic", config=config)
    with pytest.raises(SentinelError, match="no scenario nope"):
        api.run(agent="eager", tasks=["nope"], config=config)
    with pytest.raises(SentinelError, match="agent or cmd"):
        api.run(agent="eager", cmd="true", config=config)
    with pytest.raises(SentinelError, match="no such run"):
        api.load("missing", config=config)


@pytest.mark.slow
def test_grade_list_and_validate_from_code(tmp_path):
    config = write_test_config(tmp_path)
    api.run(agent="eager", tasks=["rise"], speed=200, run_name="g", config=config)
    graded = api.grade("g", config=config)
    assert [r.scenario_id for r in graded.results] == ["microhood-rise"] and graded.summary.overall.total == 1
    (tmp_path / "results" / "empty").mkdir()
    (tmp_path / "results" / "empty" / "run.json").write_text("{}")
    with pytest.raises(SentinelError, match="no finished sessions yet"):
        api.grade("empty", config=config)
    listing = api.list_scenarios(["microhood"], config=config)
    assert "microhood-rise" in {s.id for s in listing.scenarios} and listing.unreadable == ()
    checked = api.validate([s.path for s in listing.scenarios], config=config)
    assert checked.ok and checked.checked == len(listing.scenarios)
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: x\n")
    found = api.validate([bad], config=config)
    assert not found.ok
    assert found.checked == 1
    assert all(p.file == str(bad) for p in found.problems)


def test_prepare_run_checks_choices_and_accepts_a_loaded_config(tmp_path):
    loaded = api.get_config(write_test_config(tmp_path))
    config, plan = api.prepare_run(agent="eager", envs=["microhood"], tasks=["rise,rise_buy"], speed=50,
                                   run_name="p", config=loaded)
    assert config is loaded
    assert plan.name == "p"
    assert plan.speed == 50
    assert [s.short_id for s in plan.scenarios] == ["rise", "rise_buy"]
    with pytest.raises(SentinelError, match="--trials must be between 1 and 100"):
        api.prepare_run(agent="eager", trials=0, config=loaded)
    with pytest.raises(SentinelError, match="a run name is a plain folder name"):
        api.prepare_run(agent="eager", run_name="../x", config=loaded)
    with pytest.raises(SentinelError, match="the eager agent uses no model"):
        api.prepare_run(agent="eager", model="gpt", config=loaded)
