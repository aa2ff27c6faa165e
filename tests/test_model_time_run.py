"""Model time on the wall clock, wired end to end (docs/model-time.md): a session's clock paused
while its agent thinks and charged the policy's sim time, seen at the metering proxy, at the MCP
server and in the rule-based agents' decisions; the option, config key and resume rule; the first
page before /start; and the figures result.json records."""

from __future__ import annotations

import asyncio
import sys
import time
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest
from helpers.fake_openai import FakeOpenAI, Reply
from helpers.runs import make_config

from sentinel.agents import BUILTIN_AGENTS
from sentinel.core.clock import ManualTime, SimClock
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.errors import SentinelError
from sentinel.core.grading import Outcome, Verdict, judge
from sentinel.core.model_time import ModelTime, resolve_model_time
from sentinel.core.scenario import load_scenario
from sentinel.core.scheduler import Scheduler
from sentinel.envs import get_environment
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner
from sentinel.session.live import Session
from sentinel.session.proxy import METERED_FILE, MeteringProxy
from sentinel.session.thinking import SessionThinking

SENDER_ARRIVES = REPO_ROOT / "scenarios" / "verified" / "micromail" / "sender_arrives.yaml"
INBOX = "/micromail/folder/inbox"
THINKER = Path(__file__).parent / "agents" / "mcp_watch.py"


async def manual_session(tmp_path, policy: str) -> tuple[Session, ManualTime]:
    """sender_arrives (new mail at sim 13, 29, 50) on a clock whose wall time moves by hand."""
    wall = ManualTime(1000.0)
    scenario = load_scenario(SENDER_ARRIVES)
    session = Session(scenario, get_environment("micromail"), load_config(), out_dir=tmp_path / "s", speed=1.0,
                      clock=SimClock(1.0, wall=wall), model_time=ModelTime.parse(policy))
    await session.setup()
    return session, wall


async def test_a_call_pauses_the_clock_and_its_charge_fires_events_at_their_own_times(tmp_path, aiohttp_client):
    session, wall = await manual_session(tmp_path, "fixed:2")
    try:
        client = await aiohttp_client(session.app)
        session.clock.start()
        wall.advance(12.0)
        await session.catch_up()
        source = session.thinking.call_began()
        assert session.clock.paused and session.clock.now() == 12.0
        wall.advance(30.0)  # thirty wall seconds of thinking: nothing moves, pages still read
        page = await client.get(INBOX)
        assert page.status == 200 and session.clock.now() == 12.0 and not session.scheduler.fired
        assert session.thinking.paused_wall_s() == 30.0
        session.thinking.call_ended(source)
        await session.thinking.settled()
        assert session.clock.running and session.clock.now() == 14.0  # charged 2 sim s, not 30
        (fired,) = session.scheduler.fired
        assert fired.event.at == 13 and fired.sim_at_fire == 13.0 and fired.lateness_ms == 0
        assert session.thinking.thinking.as_record() == {"model_calls": 1, "paused_wall_s": 30.0,
                                                         "charged_sim_s": 2.0}
    finally:
        await session.abort()


async def test_the_stepper_s_pause_and_the_report_s_freeze_are_never_undone(tmp_path):
    session, wall = await manual_session(tmp_path, "measured")
    try:
        session.clock.start(paused=True)  # as the stepper starts it
        source = session.thinking.call_began()
        wall.advance(5.0)
        session.thinking.call_ended(source)
        await session.thinking.settled()
        assert session.clock.paused and session.clock.now() == 0.0
        assert session.thinking.thinking.as_record() == {"model_calls": 0, "paused_wall_s": 0.0, "charged_sim_s": 0.0}
        session.clock.resume()
        wall.advance(3.0)
        source = session.thinking.call_began()
        await session.contact()  # the report lands while a call is in flight
        wall.advance(4.0)
        session.thinking.call_ended(source)
        await session.thinking.settled()
        assert session.clock.frozen and session.clock.now() == 3.0
    finally:
        await session.abort()


async def test_mcp_gaps_end_at_the_next_request_and_parallel_calls_are_one_gap(tmp_path):
    wall = ManualTime(0.0)
    clock = SimClock(1.0, wall=wall)
    scheduler = Scheduler(clock, [], lambda event: asyncio.sleep(0), 720)
    thinking = SessionThinking(ModelTime.parse("fixed:3"), clock, lambda: scheduler, wall)
    clock.start()
    await thinking.tool_starts()
    await thinking.tool_starts()  # two calls in flight at once
    thinking.tool_answered()
    assert clock.running  # one still in flight: not thinking yet
    thinking.tool_answered()
    assert clock.paused
    wall.advance(2.0)
    thinking.agent_acts()  # a page of the site, or any MCP request
    await thinking.settled()
    assert clock.running and clock.now() == 3.0 and thinking.thinking.model_calls == 1


async def test_the_proxy_charges_a_slow_call_by_its_wall_time_and_answers_decisions_itself(tmp_path, fake_server):
    fake = FakeOpenAI([Reply(content="thought hard", delay_s=0.4)])
    clock = SimClock(20.0)
    scheduler = Scheduler(clock, [], lambda event: asyncio.sleep(0), 720)
    thinking = SessionThinking(ModelTime.parse("measured"), clock, lambda: scheduler)
    proxy = MeteringProxy(await fake_server(fake), tmp_path / METERED_FILE, watch=thinking)
    url = await proxy.start()
    clock.start()
    body = {"model": "fake", "messages": [{"role": "user", "content": "hi"}], "tools": [{"type": "function"}]}
    try:
        async with aiohttp.ClientSession() as client:
            before = clock.now()
            async with client.post(f"{url}/chat/completions", json=body) as answer:
                assert answer.status == 200
            await thinking.settled()
            after = clock.now()
            async with client.post(f"{url}/sentinel/decision", json={"kind": "planner"}) as answer:
                assert answer.status == 200 and (await answer.json()) == {"charged": True}
            await thinking.settled()
    finally:
        await proxy.stop()
    record = thinking.thinking.as_record()
    assert record["model_calls"] == 2 and record["paused_wall_s"] >= 0.4
    assert record["charged_sim_s"] == pytest.approx(record["paused_wall_s"])
    assert after - before < 0.4 + 0.3 * 20  # the call cost its 0.4 s at speed 1, not 8 sim s at speed 20
    assert len(fake.requests) == 1 and proxy.usage.decisions == 1  # the decision never left the proxy


def test_the_policy_is_an_option_and_a_config_key_with_one_line_errors(tmp_path):
    from sentinel.api import prepare_run

    _, plan = prepare_run(agent="oracle", envs=["micromail"], model_time="fixed:2")
    assert plan.model_time == ModelTime("fixed", 2.0) and plan.proxied
    path = tmp_path / "mine.toml"
    path.write_text('[run]\nmodel_time = "free"\n')
    assert load_config(path).model_time == ModelTime("free")
    path.write_text('[run]\nmodel_time = "slow"\n')
    with pytest.raises(SentinelError, match=r"run\.model_time: 'slow' is not a policy") as caught:
        load_config(path)
    assert "\n" not in str(caught.value)
    assert load_config().model_time is None  # unset: the clock's own default
    assert resolve_model_time("wall", None) == ModelTime("wall")
    assert resolve_model_time("virtual", None) == ModelTime("fixed", 2.0)
    with pytest.raises(SentinelError, match="cannot run on --clock virtual"):
        resolve_model_time("virtual", "wall")


def test_a_session_that_ended_before_the_condition_never_speaks_of_it_as_held():
    scenario = load_scenario(SENDER_ARRIVES)
    outcome = Outcome(contact_sim=None, contact_wall_s=None, speed=20, completion_s=120, end_sim=0.0)
    _, detail, _, _ = judge(scenario, Verdict(value=1), outcome)
    assert detail == "never reported; the session ended at sim 0.0 s, before the condition was due at sim 50.0 s"


def thinker(think_s: float, first: str = "/start") -> list[str]:
    return [sys.executable, str(THINKER), INBOX, "Priya Shah", "Priya Shah's email has arrived.",
            "--think", str(think_s), "--first", first]


def plan_of(name: str, command, policy: str, agent: str = "custom") -> RunPlan:
    return RunPlan(name=name, agent=agent, command=command, speed=20.0, scenarios=(load_scenario(SENDER_ARRIVES),),
                   model_time=ModelTime.parse(policy))


@pytest.mark.slow
async def test_a_thinking_mcp_agent_is_on_time_whatever_its_latency_under_fixed_model_time(tmp_path):
    config = make_config(tmp_path)
    config = replace(config, timing=replace(config.timing, startup_timeout_s=60, reaction_window_s=30))
    plans = [plan_of("fixed-fast", thinker(0.2), "fixed:2"), plan_of("fixed-slow", thinker(3.0), "fixed:2"),
             plan_of("wall-slow", thinker(3.0), "wall"),
             plan_of("trap", thinker(0.0, first=INBOX), "wall"),  # reads the inbox before /start
             plan_of("rules", BUILTIN_AGENTS["wait_for"], "fixed:2", agent="wait_for")]
    started = time.monotonic()
    reports = await asyncio.gather(*(Runner(config, plan).run() for plan in plans))
    fast, slow, wall, trap, rules = (report.results[0] for report in reports)
    print({r.agent + ":" + name: (r.reaction_sim_s, r.model_calls, r.paused_wall_s, r.charged_sim_s)
           for r, name in zip((fast, slow, wall, trap, rules), ("fast", "slow", "wall", "trap", "rules"), strict=True)},
          f"{time.monotonic() - started:.1f} wall s")
    for result in (fast, slow):
        assert result.success and result.on_time, result
        assert result.charged_sim_s == pytest.approx(2.0 * (result.model_calls or 0))
    assert fast.reaction_sim_s is not None and slow.reaction_sim_s is not None
    assert abs(fast.reaction_sim_s - slow.reaction_sim_s) < 1.0
    assert slow.paused_wall_s is not None and slow.paused_wall_s >= 3.0 * (slow.model_calls or 0) * 0.9
    assert wall.success and wall.reaction_sim_s is not None and wall.reaction_sim_s >= 50, wall
    assert wall.paused_wall_s == 0 and wall.charged_sim_s == 0 and (wall.model_calls or 0) >= 2
    assert trap.success and trap.on_time and trap.ended_by == "agent_exit", trap
    assert rules.success and rules.on_time and (rules.model_calls or 0) >= 2, rules
    assert rules.charged_sim_s == pytest.approx(2.0 * (rules.model_calls or 0))
