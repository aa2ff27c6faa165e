"""Play mode (`sentinel play`) end to end: a person's report keeps its message.

The person is an HTTP client on a real play session (a Runner with the plan `sentinel play`
prepares): the world freezes at the first GET of /contact, the site goes on serving so the
form's POST adds the message, and result.json holds that message and the verdict of the state
at the first contact.
"""

from __future__ import annotations

import asyncio
import re
import time

import aiohttp
import pytest
from helpers.runs import SPEED, make_config

from sentinel import api
from sentinel.core.bus import Bus, EventFired, SessionReady
from sentinel.core.config import REPO_ROOT
from sentinel.core.grading import open_read_only, verdict_on
from sentinel.core.scenario import load_scenario
from sentinel.outputs.results import load_results
from sentinel.run.options import RunOptions
from sentinel.run.runner import Runner

pytestmark = pytest.mark.slow

SCENARIO = REPO_ROOT / "scenarios" / "verified" / "microhub" / "open_issues_threshold.yaml"
OPEN = re.compile(r"([\d,]+) Open")


def play_runner(tmp_path, name: str) -> tuple[Runner, list]:
    config, plan = api.prepare_run(RunOptions(person=True, config=make_config(tmp_path), speed=SPEED,
                                              run_name=name, scenarios=(load_scenario(SCENARIO),)))
    bus = Bus()
    seen: list = []
    bus.subscribe(seen.append)
    return Runner(config, plan, bus), seen


async def ready(seen: list, timeout: float = 30.0) -> SessionReady:
    limit = time.monotonic() + timeout
    while time.monotonic() < limit:
        for message in seen:
            if isinstance(message, SessionReady):
                return message
        await asyncio.sleep(0.02)
    raise AssertionError("the play session never became ready")


async def open_issues(browser: aiohttp.ClientSession, url: str) -> int:
    async with browser.get(url + "/microhub/issues") as page:
        found = OPEN.search(await page.text())
    assert found, "the issues page shows no open count"
    return int(found.group(1).replace(",", ""))


async def test_a_person_reports_then_sends_the_message_and_the_grade_is_of_the_first_contact(tmp_path):
    runner, seen = play_runner(tmp_path, "me")
    run = asyncio.create_task(runner.run())
    session = await ready(seen)
    async with aiohttp.ClientSession() as browser:
        async with browser.get(session.task_url) as page:  # opening the task starts the clock
            assert page.status == 200
        limit = time.monotonic() + 20
        while await open_issues(browser, session.url) < 8:  # the person watches until 8 are open
            assert time.monotonic() < limit, "8 open issues never showed"
            await asyncio.sleep(0.02)
        contact_url = session.url + "/contact"
        async with browser.get(contact_url) as page:
            assert page.status == 200 and 'name="message"' in await page.text()
        # while the person types, sim time would reach the new issue at 280 s: the world stays frozen
        await asyncio.sleep(200 / SPEED)
        assert not run.done(), "the session ended before the person could send the message"
        assert await open_issues(browser, session.url) == 8
        async with browser.post(contact_url, data={"message": "8 open issues now"}) as page:
            assert page.status == 200 and "Your report was sent" in await page.text()
    report = await asyncio.wait_for(run, 30)
    (result,) = report.results
    assert result.ended_by == "contact"
    assert result.success
    assert result.verdict == 1
    assert result.contact_message == "8 open issues now"
    assert 110 <= result.contact_at < 280
    (on_disk,) = load_results(runner.run_dir)
    assert on_disk.contact_message == "8 open issues now" and on_disk.success
    fired_at = [m.record["at"] for m in seen if isinstance(m, EventFired)]
    assert 110 in fired_at and 280 not in fired_at  # nothing happened after the contact
    state = open_read_only(runner.run_dir / "microhub" / "open_issues_threshold" / "state.db")
    try:
        assert verdict_on(state, "SELECT COUNT(*) FROM issues WHERE state = 'open'").value == 8
    finally:
        state.close()


async def test_a_report_without_a_message_ends_after_the_grace(tmp_path):
    runner, seen = play_runner(tmp_path, "quiet")
    runner.message_grace_s = 0.5
    run = asyncio.create_task(runner.run())
    session = await ready(seen)
    async with aiohttp.ClientSession() as browser:
        async with browser.get(session.task_url) as page:
            assert page.status == 200
        async with browser.get(session.url + "/contact") as page:  # at once: too early
            assert page.status == 200
    report = await asyncio.wait_for(run, 30)
    (result,) = report.results
    assert result.ended_by == "contact"
    assert not result.success
    assert result.contact_message is None
    assert result.infra_error is None


async def test_stopping_after_the_report_keeps_the_report(tmp_path):
    """A person who closes the play screen after reporting (a stop) is graded on the report."""
    runner, seen = play_runner(tmp_path, "closed")
    run = asyncio.create_task(runner.run())
    session = await ready(seen)
    async with aiohttp.ClientSession() as browser:
        async with browser.get(session.task_url) as page:
            assert page.status == 200
        async with browser.get(session.url + "/contact") as page:
            assert page.status == 200
    runner.stop()
    report = await asyncio.wait_for(run, 30)
    (result,) = report.results
    assert result.ended_by == "contact"
    assert result.infra_error is None
    assert result.contact_at is not None
