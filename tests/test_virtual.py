"""The virtual clock's driver (sentinel/session/virtual.py) on a real session and its site: a
wait jumps the clock to the next event or its own end, and nothing jumps while the agent works,
its model thinks, or only a live refresh is listening."""

from __future__ import annotations

import asyncio

import pytest

from sentinel.core.model_time import ModelTime
from sentinel.core.protocol import SIM_TIME_HEADER
from sentinel.web.request_checks import LIVE_HEADER

MAIL = "scenarios/verified/micromail/sender_arrives.yaml"  # new mail at 13, 29, 50, 76, … sim s
INBOX = "/micromail/folder/inbox"
HOOD = "scenarios/verified/microhood/buy_at_threshold.yaml"


async def started(env_session, source: str = MAIL, **options):
    """A virtual session whose agent has opened /start (the clock has started at sim 0)."""
    live = await env_session(source, virtual=True, **options)
    await live.page("/start")
    assert live.clock.started and live.clock.now() == 0.0
    return live


def fired_at(live) -> list[float]:
    """The sim times at which the session's events fired, each asserted to be its own time."""
    fired = live.session.scheduler.fired
    assert all(f.sim_at_fire == pytest.approx(f.event.at) for f in fired)
    return [f.event.at for f in fired]


async def etag_of(live, path: str) -> str:
    return (await live.client.get(path)).headers["ETag"]


async def wait_on(live, path: str, wait_s: float, live_refresh: bool = False):
    headers = {"If-None-Match": await etag_of(live, path), "X-Wait-Change": str(wait_s)}
    if live_refresh:
        headers[LIVE_HEADER] = "1"
    return await live.client.get(path, headers=headers)


async def stays_put(live, wall_s: float = 1.2) -> float:
    """The sim time after wall_s wall seconds (longer than the driver's own look-again interval),
    asserting it has not moved meanwhile."""
    before = live.clock.now()
    await asyncio.sleep(wall_s)
    assert live.clock.now() == before
    return before


async def test_a_long_poll_jumps_to_the_event_that_changes_its_page(env_session):
    live = await started(env_session)
    answer = await wait_on(live, INBOX, 600)
    assert answer.status == 200
    assert live.clock.now() == pytest.approx(13.0)  # the first new mail, fired at its own time
    assert fired_at(live) == [13.0]
    answer = await wait_on(live, INBOX, 5)  # nothing changes within 5 sim s: the wait times out
    assert answer.status == 304 and live.clock.now() == pytest.approx(18.0)


async def test_a_sleep_jumps_through_the_events_to_its_end(env_session):
    live = await started(env_session)
    answer = await live.client.get("/sleep", params={"seconds": "60"})
    assert answer.status == 200 and float(answer.headers[SIM_TIME_HEADER]) == pytest.approx(60.0)
    assert "Slept 60 sim s" in await answer.text()
    assert fired_at(live) == [13.0, 29.0, 50.0]
    assert (await live.verdict()) == 1  # the awaited mail is in


async def test_the_clock_stays_while_the_agent_works_and_jumps_once_it_waits(env_session):
    live = await started(env_session)
    watch = live.session.tool_watch  # as the MCP server reports two tool calls made side by side
    await watch.tool_starts("read_page")  # a tool other than a wait is work
    await watch.tool_starts("sleep")
    sleeping = asyncio.create_task(live.client.get("/sleep", params={"seconds": "30"}))
    await stays_put(live)
    assert not sleeping.done()
    watch.tool_answered("read_page")  # the sleep is still in flight: no thinking gap yet
    answer = await asyncio.wait_for(sleeping, 10)
    assert float(answer.headers[SIM_TIME_HEADER]) == pytest.approx(30.0)


async def test_a_model_call_in_flight_holds_the_clock_and_its_charge_moves_it(env_session):
    live = await started(env_session, model_time=ModelTime("fixed", 2.0))
    thinking = live.session.thinking
    source = thinking.call_began()
    sleeping = asyncio.create_task(live.client.get("/sleep", params={"seconds": "30"}))
    await stays_put(live)
    thinking.call_ended(source)
    answer = await asyncio.wait_for(sleeping, 10)
    assert float(answer.headers[SIM_TIME_HEADER]) == pytest.approx(30.0)
    record = thinking.thinking.as_record()
    assert record["model_calls"] == 1 and record["charged_sim_s"] == 2.0


async def test_a_live_refresh_alone_never_moves_the_clock(env_session):
    live = await started(env_session)
    waiting = asyncio.create_task(wait_on(live, INBOX, 600, live_refresh=True))
    await stays_put(live)
    assert not waiting.done()
    waiting.cancel()


async def test_a_clock_read_answers_at_once_and_is_logged_apart(env_session):
    live = await started(env_session)
    requests = live.session.stats.requests
    answer = await live.client.get("/sleep", params={"seconds": "0"})
    assert float(answer.headers[SIM_TIME_HEADER]) == 0.0
    assert live.session.stats.requests == requests and live.session.stats.log[-1]["live"]


async def test_the_clock_stops_at_the_kill_time_and_says_so(env_session):
    live = await started(env_session)
    sleeping = asyncio.create_task(live.client.get("/sleep", params={"seconds": "3600"}))
    virtual = live.session.virtual
    await asyncio.wait_for(virtual.reached_end.wait(), 20)
    assert live.clock.now() == pytest.approx(live.session.config.timing.kill_at)
    assert not sleeping.done()  # the wait never passes the kill time: the runner ends the session there
    live.clock.freeze()  # as the session's end does: the open wait answers at the frozen moment
    answer = await asyncio.wait_for(sleeping, 10)
    assert float(answer.headers[SIM_TIME_HEADER]) == pytest.approx(live.session.config.timing.kill_at)


async def test_a_page_that_follows_time_wakes_its_waiter_at_a_page_step(env_session):
    live = await started(env_session, HOOD)
    path = live.session.environment.start_page
    answer = await wait_on(live, path, 600)
    assert answer.status == 200
    now = live.clock.now()  # prices follow time: the page is looked at once a sim second
    assert 0 < now < 600 and now == round(now)


async def test_a_sleep_before_start_starts_the_session(env_session):
    live = await env_session(MAIL, virtual=True)
    answer = await live.client.get("/sleep", params={"seconds": "20"})
    assert live.session.started.is_set()
    assert float(answer.headers[SIM_TIME_HEADER]) == pytest.approx(20.0)


@pytest.mark.parametrize("seconds", ["soon", "-3", "nan", "inf", ""])
async def test_a_sleep_of_garbage_is_a_400(env_session, seconds):
    live = await env_session(MAIL, virtual=True)
    answer = await live.client.get("/sleep", params={"seconds": seconds})
    assert answer.status == 400 and "seconds must be a number of sim seconds" in await answer.text()
    assert live.clock.now() == 0.0
