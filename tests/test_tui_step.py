"""The step screen (`sentinel step`) driven by the pilot over a real paused session."""

from __future__ import annotations

import aiohttp
import pytest
from helpers.runs import RISE, SENDER
from helpers.tui import wait_until
from textual.widgets import Static

from sentinel.agents import BUILTIN_AGENTS
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.scenario import load_scenario
from sentinel.run.stepper import Stepper
from sentinel.tui.step import StepApp

SIZE = (160, 40)


def text_of(app, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


async def test_the_verdict_flips_when_the_target_event_fires(tmp_path):
    app = StepApp(Stepper(load_scenario(RISE), load_config()))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.step is not None)
        assert "eval_sql verdict: false" in text_of(app, "#verdict")
        assert app.query_one("#verdict").has_class("false")
        assert "at    60: price_waypoint" in text_of(app, "#side")
        assert app.stepper.url in text_of(app, "#step-head")
        await pilot.press("n")
        assert "eval_sql verdict: TRUE (1)" in text_of(app, "#verdict")
        assert app.query_one("#verdict").has_class("true")
        head = text_of(app, "#step-head")
        assert "sim 60.00 s" in head and "fired at 60: price_waypoint(symbol=CHPX" in head
        changes = text_of(app, "#changes-list")
        assert "Rows this step changed (3)" in changes
        assert "current_prices changed CHPX\n  price: 488.4 → 540.0" in changes
        assert changes.count("price_waypoints inserted") == 2 and "symbol='CHPX', t=60.0, price=540.0" in changes
        assert "Pending events (0)" in text_of(app, "#side")
        await pilot.press("n")  # nothing left: a warning, not a crash
        assert app.step.sim == 60
        await pilot.press("q")
    assert app.return_code == 0


async def test_advance_by_a_chosen_amount_and_jump_to_condition_at(tmp_path):
    stepper = Stepper(load_scenario(SENDER), load_config())
    app = StepApp(stepper)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.step is not None)
        await pilot.press("a")
        await pilot.press("backspace", "backspace", *"25", "enter")
        assert app.step.sim == 25 and app.step.action == "advanced 25 s"
        assert "emails inserted em0024\n  id='em0024', folder='inbox'" in text_of(app, "#changes-list")
        assert "inbox_count" in text_of(app, "#side") and "84 → 85" in text_of(app, "#side")
        await pilot.press("a", "escape")  # cancelled: nothing moves
        assert app.step.sim == 25
        await pilot.press("c")
        assert app.step.sim == 70 and "TRUE" in text_of(app, "#verdict")
        await pilot.press("c")  # already there: condition_at is not in the past yet
        await pilot.press("a", "enter")  # the last amount again
        assert app.step.sim == 95
        await pilot.press("c")  # now it is: a warning, and the clock stays
        assert app.step.sim == 95
        url = stepper.url
        await pilot.press("q")
    async with aiohttp.ClientSession() as http:  # quitting closed the session's site
        with pytest.raises(aiohttp.ClientConnectionError):
            await http.get(url)


async def test_an_attached_agent_sees_the_pages_and_its_report_freezes_the_world(tmp_path):
    app = StepApp(Stepper(load_scenario(RISE), load_config()), BUILTIN_AGENTS["eager"])
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.stepper.contact_sim is not None)
        await pilot.press("n")
        assert "contacted at sim 0.00 s" in text_of(app, "#step-head")
        assert app.step.sim == 0 and "Agent (" in text_of(app, "#side")
        await pilot.press("q")
    assert not app.stepper.agent_running


INVITE = REPO_ROOT / "scenarios" / "verified" / "microlendar" / "invite_destination.yaml"


@pytest.mark.slow
async def test_the_screen_follows_the_attached_agent_and_grades_its_report(tmp_path):
    """The oracle on microlendar-invite_destination: once the clock passes 180 s it opens the
    Hawaii invitation, accepts it and reports; the screen shows those requests, the verdict of
    the state they left, and PASS, as a headless run grades it."""
    app = StepApp(Stepper(load_scenario(INVITE), load_config()), BUILTIN_AGENTS["oracle"])
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.step is not None and app.stepper.agent_running)
        assert "Agent requests since the step before" in text_of(app, "#changes-list")
        # the oracle's first look at the schedule is its baseline (then it waits for a change)
        await wait_until(pilot, lambda: any("watching" in line for line in app.agent_output)
                         and sum("/schedule" in r for r in app.stepper.requests_since_step) >= 1, timeout=60)
        await pilot.press("a", "backspace", "backspace", *"185", "enter")  # past 180 s: Hawaii has arrived
        await wait_until(pilot, lambda: app.stepper.contact_sim is not None, timeout=90)
        await wait_until(pilot, lambda: "graded PASS" in text_of(app, "#verdict"), timeout=30)
        verdict = text_of(app, "#verdict")
        assert "eval_sql verdict: TRUE (1)" in verdict and app.query_one("#verdict").has_class("true")
        accepted = next(s for s in app.stepper.steps if any("/rsvp" in r for r in s.requests))
        assert accepted.action == "agent request" and accepted.verdict.truthy
        assert any(change.table == "event_attendees" for change in accepted.changes)
        reported = app.stepper.steps[-1]
        assert reported.action == "agent reported"
        assert reported.grade is not None
        assert reported.grade[0]
        assert any(r.startswith("GET /contact") for r in reported.requests)
        assert "GET /contact" in text_of(app, "#changes-list")
        assert "contacted at sim 185.00 s" in text_of(app, "#step-head")
        await pilot.press("q")
    assert not app.stepper.agent_running
