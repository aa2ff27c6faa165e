"""Session: verdicts (derived tables written first, eval_sql read on a read-only connection),
and pages that bring every session of a run up to date."""

from __future__ import annotations

import asyncio

from sentinel.core.clock import ManualTime, SimClock
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.scenario import load_scenario
from sentinel.core.scheduler import DueBoard
from sentinel.envs import get_environment
from sentinel.session.live import Session

HOOD = "scenarios/verified/microhood/price_target.yaml"  # eval_sql reads current_prices, which only finalize writes


async def test_verdict_writes_the_derived_tables_before_reading_eval_sql(env_session):
    live = await env_session(HOOD)
    assert await live.world.fetch_value("SELECT COUNT(*) FROM current_prices") == 0
    before = await live.session.verdict()
    assert not before.truthy and before.error is None
    assert await live.world.fetch_value("SELECT COUNT(*) FROM current_prices") > 0
    await live.advance_to(live.session.scenario.condition_at + 1)
    assert (await live.session.verdict()).truthy


async def test_finish_keeps_the_final_verdict(env_session):
    live = await env_session(HOOD)
    await live.advance_to(live.session.scenario.condition_at + 1)
    final = await live.session.finish()
    assert final.exists()
    assert live.session.final_verdict is not None
    assert live.session.final_verdict.truthy


async def test_a_page_of_one_session_applies_the_events_due_in_another(aiohttp_client, tmp_path):
    wall = ManualTime(1000.0)  # the loop's own timers are never due: only pages can apply events
    board = DueBoard(wall)
    scenario = load_scenario(REPO_ROOT / "scenarios/verified/micromail/attachment_name.yaml")
    sessions = [Session(scenario, get_environment("micromail"), load_config(), out_dir=tmp_path / name, speed=1.0,
                        clock=SimClock(1.0, wall=wall), board=board) for name in ("a", "b")]
    try:
        for session in sessions:
            await session.setup()
            session.open_start()
            session.page_served()  # the held clock runs from now
        await asyncio.sleep(0)  # each scheduler aims its timer and tells the board
        a, b = sessions
        first = b.scheduler.next_due()
        wall.advance(first.at + 0.5)
        response = await (await aiohttp_client(a.app)).get("/micromail/folder/inbox")
        assert response.status == 200
        assert [fired.event for fired in b.scheduler.fired] == [first]  # applied by a's page
    finally:
        for session in sessions:
            await session.abort()
