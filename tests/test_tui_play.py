"""The play screen (`sentinel play`): the test acts as the person, through HTTP."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from helpers.runs import SPEED, make_config
from helpers.runs import plan as make_plan
from helpers.tui import FakeBrowser, wait_until
from textual.widgets import Static

from sentinel.core.bus import Bus
from sentinel.outputs.results import load_results
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner
from sentinel.tui.play import PlayApp
from sentinel.tui.state import RunState

pytestmark = pytest.mark.slow

SIZE = (120, 32)


def play_plan(scenario_id: str, name: str = "me") -> RunPlan:
    scenario = next(s for s in make_plan("eager").scenarios if s.id == scenario_id)
    return RunPlan(name=name, agent="human", command=None, speed=SPEED, scenarios=(scenario,))


def screen(app: PlayApp) -> str:
    names = ("play-head", "play-task", "play-result")
    return "\n".join(str(app.query_one(f"#{name}", Static).render()) for name in names)


async def test_a_person_plays_a_contact_through_http_and_is_graded_like_an_agent(tmp_path, monkeypatch):
    opened = []
    monkeypatch.setattr("webbrowser.get", lambda: FakeBrowser(opened))
    config = make_config(tmp_path)
    plan = play_plan("microhood-rise")
    app = PlayApp(RunState.for_plan(plan, config), Runner(config, plan, Bus()), "results/me/microhood/rise/result.json")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.task_url is not None)
        shown = screen(app)
        assert "Tell me when CHPX trades at $520" in shown and app.view.task_url in shown
        assert "not started" in shown and "price_waypoint" not in shown  # never the script
        await pilot.press("o")
        assert opened == [app.view.task_url]
        async with aiohttp.ClientSession() as browser:
            async with browser.get(app.view.task_url) as page:  # the person opens the task
                assert page.status == 200
            await wait_until(pilot, lambda: "Sim clock  " in screen(app) and "wall s from now" in screen(app))
            await asyncio.sleep(70 / SPEED)  # and watches until CHPX has crossed
            async with browser.get(app.view.url + "/contact") as page:
                assert page.status == 200
            await wait_until(pilot, lambda: "Reported: the world is frozen" in screen(app))
            assert app.view.result is None  # the session waits for the person's message
            async with browser.post(app.view.url + "/contact", data={"message": "CHPX is at $520"}) as page:
                assert page.status == 200
        await wait_until(pilot, lambda: app.view.result is not None)
        await pilot.pause(0.3)
        shown = screen(app)
        assert "PASS, reaction" in shown and "Contact    at sim" in shown
        assert "result.json" in shown
        await pilot.press("q")
    assert app.return_code == 0
    (result,) = load_results(config.results_dir / "me")
    assert result.agent == "human"
    assert result.ended_by == "contact"
    assert result.success
    assert result.reaction_s is not None and result.requests >= 3
    assert result.contact_message == "CHPX is at $520"


async def test_closing_the_screen_after_the_report_finishes_the_session_graded(tmp_path):
    config = make_config(tmp_path)
    plan = play_plan("microhood-rise", "done")
    app = PlayApp(RunState.for_plan(plan, config), Runner(config, plan, Bus()))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.task_url is not None)
        async with aiohttp.ClientSession() as browser:
            async with browser.get(app.view.task_url) as page:
                assert page.status == 200
            async with browser.get(app.view.url + "/contact") as page:  # at once: too early
                assert page.status == 200
        await wait_until(pilot, lambda: "Reported: the world is frozen" in screen(app))
        await pilot.press("q")  # no message: the person is done
        await wait_until(pilot, lambda: not app.is_running)
    assert app.return_code == 0
    (result,) = load_results(config.results_dir / "done")
    assert result.ended_by == "contact"
    assert not result.success
    assert not result.is_infra_error
    assert result.contact_message is None


async def test_quitting_before_the_person_reports_stops_the_session_for_resume(tmp_path):
    config = make_config(tmp_path)
    plan = play_plan("microhood-rise", "gone")
    app = PlayApp(RunState.for_plan(plan, config), Runner(config, plan, Bus()))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.task_url is not None)
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)
    assert app.return_code == 130
    (result,) = load_results(config.results_dir / "gone")
    assert result.is_infra_error and result.ended_by == "stopped"
