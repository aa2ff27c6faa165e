"""Session.verdict(): derived tables written first, eval_sql read on a read-only connection."""

from __future__ import annotations

HOOD = "scenarios/microhood/price_target.yaml"  # eval_sql reads current_prices, which only finalize writes


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
    assert final.exists() and live.session.final_verdict is not None and live.session.final_verdict.truthy
