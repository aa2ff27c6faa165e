"""Rendered pages reused on the world's version (sentinel.web.cache), through the real app."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing

from sentinel.web.keys import PAGE_CACHE

MAIL = "scenarios/verified/micromail/body_phrase.yaml"  # em0269 "Proof ready for approval" arrives at 37 s
HOOD = "tests/data/scenarios/microhood/rise.yaml"
INBOX = "/micromail/folder/inbox"


def cache_of(live):
    return live.session.app[PAGE_CACHE]


async def test_unchanged_page_answers_304_without_rendering(env_session):
    live = await env_session(MAIL)
    cache = cache_of(live)
    first = await live.client.get(INBOX)
    tag, body = first.headers["ETag"], await first.read()
    assert cache.renders == 1
    for _ in range(3):
        again = await live.client.get(INBOX, headers={"If-None-Match": tag})
        assert again.status == 304 and again.headers["ETag"] == tag
    plain = await live.client.get(INBOX)
    assert plain.status == 200
    assert await plain.read() == body
    assert plain.headers["ETag"] == tag
    assert cache.renders == 1 and cache.hits == 4


async def test_a_fired_event_or_a_new_clock_step_renders_again(env_session):
    live = await env_session(MAIL)
    cache = cache_of(live)
    tag = (await live.client.get(INBOX)).headers["ETag"]
    await live.advance_to(0.9)  # within the first whole second: the page cannot differ
    assert (await live.client.get(INBOX, headers={"If-None-Match": tag})).status == 304
    await live.advance_to(37)  # the event writes a row: a new version
    page = await live.client.get(INBOX, headers={"If-None-Match": tag})
    assert page.status == 200 and "Proof ready for approval" in await page.text()
    renders = cache.renders
    await live.advance_to(97)  # no event between 37 and 82: only time moved, "just now" → "1 min ago"
    later = await live.client.get(INBOX)
    assert cache.renders == renders + 1 and "1 min ago" in await later.text()


async def test_opening_a_message_after_live_refreshes_still_marks_it_read(env_session):
    live = await env_session(MAIL)
    await live.advance_to(37)
    message = "/micromail/message/em0269"
    for _ in range(2):
        refreshed = await live.client.get(message, headers={"X-Live-Refresh": "1"})
        assert refreshed.status == 200
    assert await live.world.fetch_value("SELECT is_read FROM emails WHERE id = 'em0269'") == 0
    opened = await live.client.get(message, headers={"If-None-Match": refreshed.headers["ETag"]})
    assert opened.status == 200
    assert await live.world.fetch_value("SELECT is_read FROM emails WHERE id = 'em0269'") == 1


async def test_a_status_line_shows_once_then_the_page_is_reused(env_session):
    live = await env_session(MAIL)
    await live.advance_to(37)
    before = await live.client.get(INBOX)
    assert "Marked as read" not in await before.text()
    await live.post("/micromail/message/em0269/read", {"state": "read", "next": INBOX})
    shown = await live.client.get(INBOX)
    assert "Marked as read" in await shown.text()
    gone = await live.client.get(INBOX, headers={"If-None-Match": shown.headers["ETag"]})
    assert gone.status == 200 and "Marked as read" not in await gone.text()
    assert (await live.client.get(INBOX, headers={"If-None-Match": gone.headers["ETag"]})).status == 304


async def test_pages_that_follow_time_continuously_are_never_cached(env_session):
    live = await env_session(HOOD)
    cache = cache_of(live)
    first = await (await live.client.get("/microhood/")).text()
    await live.advance_to(0.5)
    second = await (await live.client.get("/microhood/")).text()
    assert cache.renders == 0 and cache.hits == 0
    assert first != second  # interpolated prices moved within half a sim second


async def test_a_page_read_while_an_event_is_being_written_is_not_reused_after_it_commits(env_session):
    """Pages read committed rows on the loop's thread while the event's transaction is open on the
    writer: that page shows the world before the event, and the commit must end its cache key."""
    live = await env_session(MAIL)
    event = next(e for e in live.session.scenario.timeline if e.at == 37)
    writing, commit = asyncio.Event(), asyncio.Event()

    async def slow_event() -> None:
        async with live.world.write():
            await live.session.environment.event_types[event.type].apply(live.world, event)
            writing.set()
            await commit.wait()

    task = asyncio.create_task(slow_event())
    await writing.wait()
    before = await live.client.get(INBOX)
    tag = before.headers["ETag"]
    assert "Proof ready for approval" not in await before.text()
    commit.set()
    await task
    after = await live.client.get(INBOX, headers={"If-None-Match": tag})
    assert after.status == 200 and "Proof ready for approval" in await after.text()


async def test_the_finished_database_is_one_file_out_of_wal_mode(env_session):
    live = await env_session(MAIL)
    await live.client.get(INBOX)
    final = await live.session.finish()
    assert sorted(p.name for p in final.parent.glob("state.db*")) == ["state.db"]
    with closing(sqlite3.connect(f"file:{final}?mode=ro", uri=True)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
