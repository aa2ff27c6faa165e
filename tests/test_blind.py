"""The blind agent: acts at a fixed sim time without watching, through real sessions."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from helpers.runs import TEST_SCENARIOS

from sentinel.agents import blind_command, builtin_command, parse_blind
from sentinel.core.config import load_config
from sentinel.core.errors import SentinelError
from sentinel.core.scenario import load_scenario, scenario_files
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner

SPEED = 20.0  # condition_at 60 sim s = 3 wall s: room enough to tell early, on time and late apart


def test_blind_names_parse_to_their_command():
    assert parse_blind("blind:420") == 420.0 and parse_blind("oracle") is None
    assert builtin_command("blind:42.5") == blind_command(42.5)
    assert builtin_command("blind:42.5")[-2:] == ["--at", "42.5"]
    for bad in ("blind", "blind:", "blind:soon", "blind:-1", "blind:9999", "blind:nan"):
        with pytest.raises(SentinelError, match="blind"):
            parse_blind(bad)


@pytest.mark.slow
async def test_blind_passes_only_by_luck_of_its_time(tmp_path):
    base = load_config()
    config = replace(base, results_dir=tmp_path / "results", scenarios_dir=TEST_SCENARIOS,
                     timing=replace(base.timing, reaction_window_s=2.0, startup_timeout_s=10, term_grace_s=1))
    scenarios = tuple(load_scenario(p) for p in scenario_files(TEST_SCENARIOS, "microhood"))
    times = (20, 75, 200)  # before the condition (sim 60), within a minute of it, long after
    reports = await asyncio.gather(*(
        Runner(config, RunPlan(name=f"b{t}", agent=f"blind:{t}", command=builtin_command(f"blind:{t}"),
                               speed=SPEED, scenarios=scenarios)).run() for t in times))
    outcome = {t: {r.scenario_id.split("-")[1]: r for r in report.results}
               for t, report in zip(times, reports, strict=True)}
    early, timely, late = outcome[20], outcome[75], outcome[200]
    assert not early["rise"].success and early["rise"].early_by_s > 0
    assert timely["rise"].success
    assert timely["rise"].on_time
    assert timely["rise_buy"].on_time  # it bought blindly
    assert 75 <= timely["rise"].contact_at <= 120
    assert late["rise_buy"].success
    assert late["rise_buy"].on_time is False
    assert late["rise_buy"].contact_at >= 200
    for t in times:  # blind never checks the no-op's condition: it reports, so it always fails
        noop = outcome[t]["rise_noop"]
        assert not noop.success
        assert noop.on_time is None
        assert noop.contact_at >= t
    log = (config.results_dir / "b75" / "microhood" / "rise" / "agent.log").read_text()
    assert "acting at sim 75 s" in log and "checking nothing" in log
