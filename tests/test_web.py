"""The shared web layer through the app factory: /start, /contact, live refresh, ETags, errors."""

from __future__ import annotations

import asyncio

import pytest

from sentinel.core.clock import ManualTime, SimClock
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.scenario import load_scenario
from sentinel.envs import get_environment
from sentinel.session.live import Session

RISE = "tests/data/scenarios/microhood/rise.yaml"


async def test_start_starts_the_clock_once_and_redirects(env_session):
    live = await env_session(RISE, paused=False)
    session = live.session
    assert not session.clock.started
    response = await live.client.get("/start", allow_redirects=False)
    assert response.status == 302 and response.headers["Location"] == "/microhood/"
    assert session.clock.started and session.started.is_set()
    first_start = session.clock.started_wall
    again = await live.client.get("/start", allow_redirects=False)
    assert again.status == 302 and session.clock.started_wall == first_start
    session.clock.freeze()


async def test_contact_records_once_freezes_and_takes_a_message(env_session):
    live = await env_session(RISE)
    await live.advance_to(45.5)
    page = await live.client.get("/contact")
    assert page.status == 200 and 'name="message"' in await page.text()
    contact = live.session.contact_record
    assert contact is not None
    assert contact.sim == 45.5
    assert live.clock.frozen
    await live.client.get("/contact")
    assert live.session.contact_record is contact  # only the first visit counts
    posted = await live.client.post("/contact", data={"message": "CHPX crossed"})
    assert posted.status == 200 and "report was sent" in await posted.text()
    assert contact.message == "CHPX crossed"
    assert await live.session.scheduler.fire_due() == []  # the world is frozen


async def test_contact_message_that_is_too_long_is_refused(env_session):
    live = await env_session(RISE)
    response = await live.client.post("/contact", data={"message": "x" * 10_001})
    assert response.status == 400 and "too long" in await response.text()
    assert live.session.contact_record.message is None


async def test_live_refresh_is_counted_apart_and_never_contacts(env_session):
    live = await env_session(RISE)
    await live.client.get("/microhood/", headers={"X-Live-Refresh": "1"})
    await live.client.get("/contact", headers={"X-Live-Refresh": "1"})
    assert live.session.contact_record is None
    await live.client.get("/microhood/")
    await live.client.get("/static/style.css")
    stats = live.session.stats
    assert stats.requests == 1
    assert stats.live_requests == 2
    assert stats.bytes_sent > 1000
    assert [r["path"] for r in stats.log] == ["/microhood/", "/contact", "/microhood/", "/static/style.css"]


async def test_unchanged_page_answers_304_to_a_conditional_get(env_session):
    live = await env_session(RISE)
    first = await live.client.get("/microhood/news")
    tag = first.headers["ETag"]
    again = await live.client.get("/microhood/news", headers={"If-None-Match": tag})
    assert again.status == 304 and again.headers["ETag"] == tag
    other = await live.client.get("/microhood/news", headers={"If-None-Match": '"stale"'})
    assert other.status == 200


async def test_unknown_page_is_a_404_inside_the_environment(env_session):
    live = await env_session(RISE)
    response = await live.client.get("/microhood/no/such/page")
    text = await response.text()
    assert response.status == 404
    assert "MicroHood" in text
    assert "Not found" in text


async def test_only_web_static_is_served(env_session):
    live = await env_session(RISE)
    assert (await live.client.get("/static/live.js")).status == 200
    for path in ("/static/../sentinel.toml", "/static/%2e%2e/sentinel.toml", "/static/", "/sentinel.toml",
                 "/results/", "/state.db"):
        response = await live.client.get(path)
        assert response.status in (403, 404), path


async def test_no_page_reveals_grading(env_session):
    live = await env_session(RISE)
    for path in ("/microhood/", "/microhood/stock/CHPX", "/contact"):
        text = await (await live.client.get(path)).text()
        for secret in ("eval_sql", "condition_at", "current_prices", "540"):
            assert secret not in text, (path, secret)


# --- docs/protocol.md#sessions: the first page at sim 0 under load; no stale page from a late timer ----

MAIL = "scenarios/verified/micromail/body_phrase.yaml"  # em0269 "Proof ready for approval" arrives at 37 s
FIRST_EVENT_SUBJECT = "Proof ready for approval"


async def _manual_sessions(aiohttp_client, tmp_path, count: int, wall):
    """count sessions of MAIL on one shared ManualTime wall clock, as a runner builds them."""
    scenario = load_scenario(REPO_ROOT / MAIL)
    built = []
    for n in range(count):
        session = Session(scenario, get_environment("micromail"), load_config(), out_dir=tmp_path / f"s{n}",
                          speed=1.0, clock=SimClock(1.0, wall), key=f"micromail/body_phrase.t{n}")
        await session.setup()
        built.append((session, await aiohttp_client(session.app)))
    return built


async def test_first_page_shows_sim_zero_when_many_sessions_start_together(aiohttp_client, tmp_path):
    wall = ManualTime(1000.0)
    sessions = await _manual_sessions(aiohttp_client, tmp_path, 8, wall)
    try:
        starts = await asyncio.gather(*(c.get("/start", allow_redirects=False) for _, c in sessions))
        assert all(r.status == 302 for r in starts)
        for session, client in sessions:  # pages served one after another: each waits 40 s more
            wall.advance(40.0)  # later than the first event (37 s) had the clock run from /start
            html = await (await client.get(starts[0].headers["Location"])).text()
            assert "Inbox" in html and FIRST_EVENT_SUBJECT not in html
            assert session.stats.log[-1]["sim"] == 0.0 and session.clock.started_wall == wall.value
            assert session.clock.running and session.scheduler.fired == []
        wall.advance(38.0)  # now the event is due for every session
        for _, client in sessions:
            assert FIRST_EVENT_SUBJECT in await (await client.get("/micromail/folder/inbox")).text()
    finally:
        for session, _ in sessions:
            await session.abort()


async def test_a_late_timer_never_shows_a_stale_page(aiohttp_client, tmp_path):
    wall = ManualTime(50.0)
    [(session, client)] = await _manual_sessions(aiohttp_client, tmp_path, 1, wall)
    try:
        first = await client.get("/start")  # follows the redirect: the first page releases the clock
        assert first.status == 200 and session.clock.running
        wall.advance(39.5)  # the scheduler's timer (real time) has not fired: it is 2.5 s late
        assert session.scheduler.fired == []
        html = await (await client.get("/micromail/folder/inbox")).text()
        assert FIRST_EVENT_SUBJECT in html
        [fired] = session.scheduler.fired
        assert fired.event.at == 37 and fired.lateness_ms == pytest.approx(2500.0)
        wall.advance(10.0)  # a POST reads the world too: the 82 s event is not due, nothing more fires
        await client.post("/contact", data={"message": "x"})
        assert len(session.scheduler.fired) == 1 and session.contact_record.sim == pytest.approx(49.5)
    finally:
        await session.abort()
