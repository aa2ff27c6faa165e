"""The dashboard (`sentinel tui`): its bus-fed state, and the Textual app driven by the pilot
over real runs of the small test scenarios."""

from __future__ import annotations

import webbrowser

import pytest
from helpers.runs import make_config, processes_working_in
from helpers.runs import plan as make_plan
from helpers.tui import FakeBrowser, wait_until
from textual.widgets import Static

from sentinel.core.bus import Bus
from sentinel.outputs.results import finished_result
from sentinel.run.runner import Runner
from sentinel.run.runner_process import RunnerProcess
from sentinel.tui.dashboard import DashboardApp
from sentinel.tui.simulate import START_WALL, SimulatedRun
from sentinel.tui.state import CONTACTED, GRADED, RUNNING, WAITING, RunState
from sentinel.tui.textview import TextView

SIZE = (160, 40)


def cells(app: DashboardApp) -> dict[str, list[str]]:
    return app.rows.texts()


def text_of(app, selector: str) -> str:
    widget = app.query_one(selector)
    return widget.plain if isinstance(widget, TextView) else str(app.query_one(selector, Static).render())


# --- the state, without Textual ---------------------------------------------------------

def test_messages_move_a_session_through_its_states_and_clock():
    simulated = SimulatedRun(5, speed=50.0)
    now = [START_WALL]
    state = RunState(simulated.rows(), speed=50.0, deadline_wall_s=42.0, now=lambda: now[0])
    key = simulated.key(0)  # condition_at 60: contact at 1.2 wall s after start, + 0.2 s
    view = state.sessions[key]

    def at(wall: float):
        now[0] = wall
        for message in simulated.messages(wall):
            if message.wall > at.done:
                state.apply(message)
        at.done = wall
    at.done = 0.0

    at(START_WALL)
    assert view.state == WAITING
    assert view.url
    assert len(view.pending) == 24
    at(START_WALL + 0.5)
    assert view.state == RUNNING and view.sim_now(now[0], 50.0) == pytest.approx(15.0)
    at(START_WALL + 1.0)
    assert len(view.fired) == 1
    assert len(view.pending) == 23
    assert view.pending[0][0] == 60
    assert view.requests == 1 and list(view.output) == ["[agent] look 1", "[agent] look 2"]
    at(START_WALL + 1.62)
    assert view.state == CONTACTED and view.sim_now(now[0] + 5, 50.0) == view.contact_sim == pytest.approx(70)
    at(START_WALL + 1.7)
    assert view.state == GRADED
    assert view.mark == "pass"
    assert view.result.reaction_s == pytest.approx(0.2)
    assert key in state.take_dirty() and state.take_dirty() == set()
    totals = state.totals()
    assert (totals.passed, totals.failed, totals.infra_errors) == (1, 0, 0)
    assert totals.running + totals.waiting == 4 and totals.reaction_p50 == pytest.approx(0.2)
    assert totals.cost_usd == pytest.approx(0.001) and 0 < totals.wall_left_s <= 42.0


def test_filters_pick_sessions_by_state_and_text():
    simulated = SimulatedRun(10)
    state = RunState(simulated.rows(), speed=50.0, deadline_wall_s=42.0, now=lambda: START_WALL + 3)
    for message in simulated.messages(START_WALL + 3):
        state.apply(message)
    graded = {v.key for v in state.sessions.values() if v.state == GRADED}
    assert graded and len(graded) < 10
    assert {v.key for v in state.visible("active")} == set(state.sessions) - graded
    assert {v.key for v in state.visible("passed")} | {v.key for v in state.visible("failed")} == graded
    assert [v.key for v in state.visible("all", "NOOP")] == [simulated.key(4), simulated.key(9)]


# --- the app over real runs ---------------------------------------------------------------
# With a Runner in the app's process (as `sentinel play` has), or a RunnerProcess (as
# `sentinel tui` has): its stop keys then cross into the child process.

@pytest.mark.slow
async def test_rows_update_as_a_real_run_progresses_and_keys_filter_them(tmp_path):
    config = make_config(tmp_path)
    plan = make_plan("oracle", "tui")
    app = DashboardApp(RunState.for_plan(plan, config), Runner(config, plan, Bus()))
    async with app.run_test(size=SIZE) as pilot:
        first = cells(app)
        assert sorted(first) == ["microhood/rise", "microhood/rise_buy", "microhood/rise_noop"]
        await wait_until(pilot, lambda: cells(app)["microhood/rise_noop"][2] == RUNNING)
        await wait_until(pilot, lambda: cells(app)["microhood/rise"][4] == "pass")
        assert "passed 1" in text_of(app, "#summary") or "passed 2" in text_of(app, "#summary")
        await wait_until(pilot, lambda: all(row[2] == GRADED for row in cells(app).values()))
        assert [row[4] for row in cells(app).values()] == ["pass", "pass", "pass"]
        await wait_until(pilot, lambda: "finished in" in text_of(app, "#summary"))  # after the canary stops
        assert "passed 3" in text_of(app, "#summary")
        assert float(cells(app)["microhood/rise"][3]) >= 60  # the sim clock froze at contact
        detail = text_of(app, "#detail")
        assert "Tell me when CHPX" in detail
        assert "Fired events (1)" in detail
        assert "[oracle]" in detail
        await pilot.press("f")  # active: nothing is left running
        assert cells(app) == {} and "filter active" in text_of(app, "#summary")
        await pilot.press("f", "f")  # passed
        assert len(cells(app)) == 3
        await pilot.press("f", "slash", *"buy", "enter")  # all, then search
        assert list(cells(app)) == ["microhood/rise_buy"]
        await pilot.press("slash", "escape")
        assert len(cells(app)) == 3
        await pilot.press("q")
    assert app.return_code == 0 and app.report is not None
    assert [r.success for r in app.report.results] == [True, True, True]


@pytest.mark.slow
async def test_quitting_mid_run_stops_agents_keeps_finished_results_and_resume_continues(tmp_path):
    config = make_config(tmp_path)
    plan = make_plan("oracle", "tui")
    app = DashboardApp(RunState.for_plan(plan, config), RunnerProcess(config, plan))
    async with app.run_test(size=SIZE) as pilot:
        # Under load the no-op may still be starting when the first one passes; it
        # lasts until its deadline, so waiting for both is never a race.
        await wait_until(
            pilot,
            lambda: cells(app)["microhood/rise"][4] == "pass"
            and cells(app)["microhood/rise_noop"][2] == RUNNING,
        )
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)
    assert app.return_code == 130
    run_dir = config.results_dir / "tui"
    assert finished_result(run_dir / "microhood" / "rise").success
    assert finished_result(run_dir / "microhood" / "rise_noop") is None  # stopped: resume runs it again
    assert not processes_working_in(tmp_path)
    kept = [key for key, view in app.state.sessions.items() if view.mark == "pass"]
    assert "microhood/rise" in kept and "microhood/rise_noop" not in kept
    resumed = await Runner(config, make_plan("oracle", name="tui", resume=True)).run()
    assert resumed.skipped == len(kept) and all(r.success for r in resumed.results)


@pytest.mark.slow
async def test_keys_stop_one_session_and_open_its_url(tmp_path, monkeypatch):
    opened = []
    lynx = webbrowser.GenericBrowser("lynx")  # a text browser would take over the terminal
    lynx.open = lambda url, new=0: opened.append(f"lynx {url}")
    browsers = [lynx]
    monkeypatch.setattr("webbrowser.get", lambda: browsers[0])
    config = make_config(tmp_path)
    plan = make_plan("silent", "tui")  # every session lasts until its deadline
    app = DashboardApp(RunState.for_plan(plan, config), RunnerProcess(config, plan))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: all(row[2] == RUNNING for row in cells(app).values()))
        await pilot.press("down")  # the second row: rise_buy
        assert app.selected_key() == "microhood/rise_buy"
        await pilot.press("o")
        assert opened == []
        browsers[0] = FakeBrowser(opened)
        await pilot.press("o")
        view = app.state.sessions["microhood/rise_buy"]
        assert opened == [f"{view.url}/microhood/"]
        await pilot.press("s")
        await wait_until(pilot, lambda: cells(app)["microhood/rise_buy"][4] == "error")
        assert "stopped" in app.state.sessions["microhood/rise_buy"].result.detail
        assert cells(app)["microhood/rise"][2] == RUNNING  # the others go on
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)
    assert app.return_code == 130


@pytest.mark.slow
async def test_a_run_that_cannot_start_ends_the_app_with_its_reason(tmp_path):
    config = make_config(tmp_path)
    (config.results_dir / "tui").mkdir(parents=True)
    (config.results_dir / "tui" / "run.json").write_text("{}")
    plan = make_plan("oracle", "tui")
    app = DashboardApp(RunState.for_plan(plan, config), RunnerProcess(config, plan))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: not app.is_running)
    assert app.return_code == 2 and "pass --resume" in app.error


async def test_a_hundred_sessions_fit_in_the_table_and_their_rows_follow_the_messages():
    simulated = SimulatedRun(100)
    now = [START_WALL + 1]
    state = RunState(simulated.rows(), speed=50.0, deadline_wall_s=42.0, now=lambda: now[0])
    app = DashboardApp(state)
    async with app.run_test(size=SIZE) as pilot:
        for wall in (START_WALL + 1, START_WALL + 12):
            now[0] = wall
            for message in simulated.messages(wall):
                if message.wall > wall - 11:
                    state.apply(message)
            app.refresh_view()
            await pilot.pause()
        rows = cells(app)
        assert len(rows) == 100
        expected = {v.key: [v.state, v.mark] for v in state.sessions.values()}
        assert {k: [r[2], r[4].replace(" (kept)", "")] for k, r in rows.items()} == expected
        assert sum(1 for r in rows.values() if r[2] == GRADED) > 50
