"""Step mode without a screen: real sessions with a paused clock, moved by hand."""

from __future__ import annotations

import asyncio
import sys
import time

import aiohttp
import pytest
from helpers.runs import RISE, RISE_NOOP, SENDER

from sentinel.agents import BUILTIN_AGENTS
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.errors import SentinelError
from sentinel.core.scenario import load_scenario
from sentinel.run.stepper import Stepper, diff_tables


@pytest.fixture
async def open_stepper():
    made: list[Stepper] = []

    async def build(path):
        stepper = Stepper(load_scenario(path), load_config())
        made.append(stepper)
        return stepper, await stepper.open()

    yield build
    for stepper in made:
        await stepper.close()


async def test_firing_the_target_event_flips_the_verdict_and_shows_the_rows_it_changed(open_stepper):
    stepper, opened = await open_stepper(RISE)
    assert opened.sim == 0
    assert not opened.verdict.truthy
    assert opened.changes == ()
    assert stepper.pending == [(60.0, "price_waypoint(symbol=CHPX, price=540, ramp_s=0)")]
    step = await stepper.fire_next()
    assert step.sim == 60
    assert step.verdict.truthy
    assert step.verdict_text == "TRUE (1)"
    assert step.fired == ("at 60: price_waypoint(symbol=CHPX, price=540, ramp_s=0)",)
    price = next(c for c in step.changes if c.table == "current_prices")
    assert price.kind == "changed" and price.key == "CHPX"
    assert price.columns == (("price", 488.4, 540.0),)  # its start price at sim 0, then the new waypoint
    assert {c.table for c in step.changes if c.kind == "inserted"} == {"price_waypoints"}
    assert stepper.pending == []
    with pytest.raises(SentinelError, match="no events left"):
        await stepper.fire_next()


async def test_an_arriving_mail_is_an_inserted_row_and_moves_the_measures_off_their_baselines(open_stepper):
    stepper, opened = await open_stepper(SENDER)
    inbox = {m.name: m for m in opened.measures}["inbox_count"]
    assert inbox.now == inbox.baseline
    step = await stepper.fire_next()
    (inserted,) = step.changes
    assert (inserted.table, inserted.kind, inserted.key) == ("emails", "inserted", "em0024")
    assert dict((c, after) for c, _, after in inserted.columns)["origin"] == "event"
    assert {m.name: m for m in step.measures}["inbox_count"].now == inbox.baseline + 1


async def test_advance_fires_every_event_due_and_refuses_nonsense(open_stepper):
    stepper, _ = await open_stepper(SENDER)
    quiet = await stepper.advance(10)
    assert quiet.sim == 10
    assert quiet.fired == ()
    assert quiet.changes == ()
    step = await stepper.advance(60)  # events at 18, 40 and 70
    assert step.sim == 70 and [f.split(":")[0] for f in step.fired] == ["at 18", "at 40", "at 70"]
    assert step.verdict.truthy and len([c for c in step.changes if c.table == "emails"]) == 3
    with pytest.raises(SentinelError, match="positive"):
        await stepper.advance(0)


async def test_jump_to_condition_at_lands_on_it_and_says_why_when_it_cannot(open_stepper):
    stepper, _ = await open_stepper(SENDER)
    step = await stepper.jump_to_condition()
    assert step.sim == stepper.scenario.condition_at == 70 and step.verdict.truthy
    await stepper.advance(1)
    with pytest.raises(SentinelError, match="already past condition_at"):
        await stepper.jump_to_condition()
    noop, opened = await open_stepper(RISE_NOOP)
    with pytest.raises(SentinelError, match="no-op"):
        await noop.jump_to_condition()


async def test_the_url_serves_the_app_at_the_stepped_moment_without_moving_the_clock(open_stepper):
    stepper, _ = await open_stepper(SENDER)
    await stepper.jump_to_condition()
    async with aiohttp.ClientSession() as http:
        async with http.get(stepper.url) as page:
            assert page.status == 200 and "Inbox" in await page.text()
        async with http.get(stepper.session.task_url) as page:  # /start does not restart the clock
            assert page.status == 200
    assert stepper.now == 70


async def test_an_attached_agent_reports_and_the_frozen_world_refuses_further_steps(open_stepper):
    stepper, _ = await open_stepper(RISE)
    await stepper.attach_agent(BUILTIN_AGENTS["eager"])  # reports at once
    for _ in range(200):
        if stepper.contact_sim is not None:
            break
        await asyncio.sleep(0.05)
    assert stepper.contact_sim == 0
    with pytest.raises(SentinelError, match="froze at contact"):
        await stepper.fire_next()
    work_dir = stepper._work_dir
    await stepper.close()
    assert not stepper.agent_running and not work_dir.exists()


def test_diff_tables_keys_rows_by_primary_key_or_rowid():
    before = {"t": {("a",): {"id": "a", "n": 1}, ("b",): {"id": "b", "n": 2}},
              "log": {("rowid", 1): {"line": "x"}}}
    after = {"t": {("a",): {"id": "a", "n": 5}, ("c",): {"id": "c", "n": 3}},
             "log": {("rowid", 1): {"line": "x"}, ("rowid", 2): {"line": "y"}}}
    changes = [(c.table, c.kind, c.key, c.columns) for c in diff_tables(before, after)]
    assert changes == [
        ("log", "inserted", "rowid 2", (("line", None, "y"),)),
        ("t", "changed", "a", (("n", 1, 5),)),
        ("t", "deleted", "b", (("id", "b", None), ("n", 2, None))),
        ("t", "inserted", "c", (("id", None, "c"), ("n", None, 3))),
    ]


INVITE = REPO_ROOT / "scenarios" / "verified" / "microlendar" / "invite_destination.yaml"


async def test_the_attached_agents_requests_are_steps_and_its_report_is_graded_as_a_run(open_stepper):
    stepper, _ = await open_stepper(INVITE)
    seen: list = []
    stepper.on_step = seen.append
    await stepper.attach_agent(BUILTIN_AGENTS["oracle"])
    limit = time.monotonic() + 60
    # the oracle's first look at the schedule (from /start's redirect) is its baseline; its watch then
    # waits for the page to change from that copy (a request the log shows once it is answered), so
    # whether the wait is already open or still to come, the move below is seen
    while sum("/microlendar/schedule" in r for r in stepper.requests_since_step) < 1:
        assert time.monotonic() < limit, "the oracle never looked at the schedule"
        await asyncio.sleep(0.05)
    moved = await stepper.advance(185)
    assert moved.requests
    assert not moved.verdict.truthy
    assert stepper.grade is None
    while stepper.grade is None:
        assert time.monotonic() < limit + 60, "the oracle never reported"
        await asyncio.sleep(0.05)
    assert stepper.grade == (True, "reported 5.000 wall s after the condition held")
    rsvp = next(s for s in stepper.steps if any(r.startswith("POST /microlendar/event/ev0071/rsvp")
                                                for r in s.requests))
    assert rsvp.action == "agent request"
    assert rsvp.verdict.truthy
    assert rsvp.sim == 185
    assert stepper.steps[-1].action == "agent reported" and seen[-1] is stepper.steps[-1]
    with pytest.raises(SentinelError, match="froze at contact"):
        await stepper.advance(1)


ARRIVES = REPO_ROOT / "scenarios" / "verified" / "micromail" / "sender_arrives.yaml"
MCP_WATCHER = REPO_ROOT / "tests" / "agents" / "mcp_watch.py"


async def test_an_mcp_agent_can_be_stepped_and_its_report_is_graded(open_stepper):
    stepper, _ = await open_stepper(ARRIVES)
    watcher = [sys.executable, str(MCP_WATCHER), "/micromail/folder/inbox", "Priya Shah", "Priya wrote."]
    await stepper.attach_agent(watcher)  # a command of yours: the session serves it MCP, as in a run
    limit = time.monotonic() + 60
    while not any("/micromail/folder/inbox" in r for r in stepper.requests_since_step):  # its first look
        assert time.monotonic() < limit, "the agent never read the inbox through its MCP tools"
        await asyncio.sleep(0.05)
    await stepper.jump_to_condition()
    while stepper.grade is None:
        assert time.monotonic() < limit + 60, "the agent never reported"
        await asyncio.sleep(0.05)
    assert stepper.grade[0], stepper.grade[1]
