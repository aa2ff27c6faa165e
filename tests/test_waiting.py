"""The site's change notification (sentinel.web.waiting): a conditional GET that waits until its
page changes, through the real app. The clock is paused unless a test runs it, so a wait ends
only by what the test does."""

from __future__ import annotations

import asyncio

import pytest

MAIL = "scenarios/verified/micromail/body_phrase.yaml"  # em0269 "Proof ready for approval" arrives at 37 s
HOOD = "tests/data/scenarios/microhood/rise.yaml"  # CHPX price follows a curve: no write at all
INBOX = "/micromail/folder/inbox"


async def first_tag(live, path=INBOX) -> str:
    return (await live.client.get(path)).headers["ETag"]


def waiting_get(live, tag: str, seconds: str, path=INBOX):
    headers = {"If-None-Match": tag, "X-Wait-Change": seconds}
    return asyncio.ensure_future(live.client.get(path, headers=headers))


async def still_waiting(task: asyncio.Future) -> bool:
    """True if the request has not been answered within a moment (it may only be slower, never
    falsely answered, on a busy machine)."""
    done, _ = await asyncio.wait({task}, timeout=0.3)
    return not done


async def test_a_waiting_read_is_answered_when_an_event_changes_the_page(env_session):
    live = await env_session(MAIL)
    waiting = waiting_get(live, await first_tag(live), "600")
    assert await still_waiting(waiting)
    await live.advance_to(37)
    answer = await waiting
    assert answer.status == 200 and "Proof ready for approval" in await answer.text()


async def test_a_change_the_page_does_not_show_keeps_it_waiting(env_session):
    live = await env_session(MAIL)
    tag = await first_tag(live)
    waiting = waiting_get(live, tag, "600")
    assert await still_waiting(waiting)
    version = live.world.version
    async with live.world.write() as db:  # a row no page shows: the version moves, the inbox stays
        await db.execute("INSERT INTO session_meta(key, value) VALUES ('test', 'x')")
    assert live.world.version != version
    assert await still_waiting(waiting)
    await live.advance_to(37)
    assert (await waiting).status == 200


async def test_the_wait_ends_at_its_timeout_with_a_304(env_session):
    live = await env_session(MAIL)
    tag = await first_tag(live)
    immediate = await live.client.get(INBOX, headers={"If-None-Match": tag, "X-Wait-Change": "0"})
    assert immediate.status == 304
    live.clock.speed = 200.0  # 10 sim s of waiting: 50 wall ms
    live.clock.resume()
    answer = await asyncio.wait_for(waiting_get(live, tag, "10"), timeout=30)
    assert answer.status == 304 and answer.headers["ETag"] == tag
    assert live.clock.now() >= 10


async def test_a_frozen_world_ends_every_wait(env_session):
    live = await env_session(MAIL)
    waiting = waiting_get(live, await first_tag(live), "600")
    assert await still_waiting(waiting)
    live.clock.freeze()  # the agent reported, or the session ended
    assert (await asyncio.wait_for(waiting, timeout=30)).status == 304


async def test_a_page_that_follows_time_is_looked_at_again_while_waiting(env_session):
    live = await env_session(HOOD)
    page = "/microhood/stock/CHPX"
    tag = await first_tag(live, page)
    live.clock.speed = 50.0
    live.clock.resume()  # the price moves along its curve with no write
    answer = await asyncio.wait_for(waiting_get(live, tag, "300", page), timeout=30)
    assert answer.status == 200 and answer.headers["ETag"] != tag


@pytest.mark.parametrize("value", ["soon", "-5", "nan", "inf"])
async def test_a_bad_wait_is_a_400_with_one_line(env_session, value):
    live = await env_session(MAIL)
    answer = await live.client.get(INBOX, headers={"If-None-Match": await first_tag(live), "X-Wait-Change": value})
    text = await answer.text()
    assert answer.status == 400 and "X-Wait-Change must be a number of sim seconds" in text
    assert "Traceback" not in text


async def test_without_an_etag_the_header_is_a_plain_read(env_session):
    """With nothing to compare with (no If-None-Match) X-Wait-Change asks no wait: on a paused
    clock, where a wait would never end, the answer comes at once and is the page a plain GET
    gives; the header's value is not even read (no 400 for garbage)."""
    live = await env_session(MAIL)
    plain = await live.client.get(INBOX)
    answer = await asyncio.wait_for(live.client.get(INBOX, headers={"X-Wait-Change": "600"}), timeout=10)
    assert answer.status == 200
    assert answer.headers["ETag"] == plain.headers["ETag"]
    assert await answer.text() == await plain.text()
    garbage = await asyncio.wait_for(live.client.get(INBOX, headers={"X-Wait-Change": "soon"}), timeout=10)
    assert garbage.status == 200


TUBE = "scenarios/verified/microtube/like_followed_upload.yaml"


async def test_a_page_whose_visit_writes_does_not_wake_its_own_wait(env_session):
    """Watching a video records it (a GET side effect). The wait's re-checks only look, so the
    visit is recorded once, by the reader's own read, and the waiting request sleeps."""
    live = await env_session(TUBE)
    home = await (await live.client.get("/microtube/")).text()
    page = "/microtube/watch/" + home.split('href="/microtube/watch/', 1)[1].split('"', 1)[0]
    tag = await first_tag(live, page)
    version = live.world.version
    waiting = waiting_get(live, tag, "600", page)
    assert await still_waiting(waiting)
    assert live.world.version == version  # no write since the reader's read: nothing re-ran the visit
    live.clock.freeze()
    assert (await asyncio.wait_for(waiting, timeout=30)).status == 304
