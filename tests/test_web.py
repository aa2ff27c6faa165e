"""The shared web layer through the app factory: /start, /contact, live refresh, ETags, errors."""

from __future__ import annotations

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
    assert contact is not None and contact.sim == 45.5 and live.clock.frozen
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
    assert stats.requests == 1 and stats.live_requests == 2 and stats.bytes_sent > 1000
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
    assert response.status == 404 and "MicroHood" in text and "Not found" in text


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
