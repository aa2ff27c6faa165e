"""The oracle waits for watched pages to change instead of re-reading them on a timer.

Polling was the cause of the oracle's rare failures under load: a hundred oracles re-reading
their pages five times a wall second kept two cores busy doing nothing, so the one oracle whose
condition had just come true waited for the CPU and acted after a short-lived target was gone
(MicroMail attachment_name: recalled 107 sim s after it arrives; MicroChat file_shared: deleted
110 sim s after). Waiting with the site's long-poll makes its requests follow the world's
changes, not the wall clock: that is what these runs check, with real processes."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from helpers.runs import make_config

from sentinel.agents import BUILTIN_AGENTS
from sentinel.core.paths import DATA
from sentinel.core.scenario import load_scenario
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner

pytestmark = pytest.mark.slow

NOOP = DATA.scenarios / "verified" / "micromail" / "sender_noop.yaml"  # 15 inbox changes, never the awaited sender
SPEED = 50.0  # 630 sim s of watching in 12.6 wall s


def agent_requests(run_dir, agent: str) -> list[dict]:
    lines = (run_dir / "micromail" / "sender_noop" / "requests.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


async def run(tmp_path, agent: str):
    config = replace(make_config(tmp_path), scenarios_dir=DATA.scenarios / "verified")
    scenario = load_scenario(NOOP)
    plan = RunPlan(name=agent, agent=agent, command=BUILTIN_AGENTS[agent], speed=SPEED, scenarios=(scenario,))
    report = await Runner(config, plan).run()
    return report.results[0], config.results_dir / agent, scenario


async def test_a_watching_oracle_reads_once_per_change_of_its_page(tmp_path):
    result, run_dir, scenario = await run(tmp_path, "oracle")
    assert result.success and result.ended_by == "deadline"
    changes = sum(1 for e in scenario.events if e.at > 0 and e.at < 630)  # each new mail changes the inbox
    reads = [r for r in agent_requests(run_dir, "oracle") if r["path"] == "/micromail/folder/inbox"]
    # about one read per change (17 on a quiet machine), plus the first reads and the waits that end
    # at their timeout (120 sim s each); some slack for changes that come while a read is answered.
    # Polling at 0.2 wall s read it about 60 times in the same 12.6 wall s.
    assert len(reads) <= 2 * (changes + 1) + 630 // 120, len(reads)


async def test_the_polling_oracle_reads_on_a_timer_whatever_changes(tmp_path):
    """The contrast (oracle-poll, kept to measure polling): reads grow with wall time."""
    result, run_dir, scenario = await run(tmp_path, "oracle-poll")
    assert result.success
    reads = [r for r in agent_requests(run_dir, "oracle-poll") if r["path"] == "/micromail/folder/inbox"]
    changes = sum(1 for e in scenario.events if e.at > 0 and e.at < 630)
    assert len(reads) > changes + 1 + 630 // 120 + 1  # more than waiting needs, however busy the machine


async def test_a_relative_watch_counts_from_the_start_page_without_reading_it_again(tmp_path):
    """MicroScholar papers_more (five papers more than at the start) reported 9.7 wall s late at a
    hundred sessions: the oracle read its start page, then read the same page again to take the
    watch's first value, and under load that second read came after the first new papers, so it
    counted five from too high. The watch now takes its first value from the page it holds."""
    config = replace(make_config(tmp_path), scenarios_dir=DATA.scenarios / "verified")
    scenario = load_scenario(DATA.scenarios / "verified" / "microscholar" / "papers_more.yaml")
    first_change = min(e.at for e in scenario.events if e.type == "new_paper")  # sim 8
    plan = RunPlan(name="rel", agent="oracle", command=BUILTIN_AGENTS["oracle"], speed=20.0, scenarios=(scenario,))
    report = await Runner(config, plan).run()
    assert report.results[0].success and report.results[0].on_time
    lines = (config.results_dir / "rel" / "microscholar" / "papers_more" / "requests.jsonl").read_text().splitlines()
    early = [r for r in map(json.loads, lines) if r["path"] == "/microscholar/" and r["sim"] < first_change]
    assert len(early) == 1, early  # the start page only; the watch waits for its first change
