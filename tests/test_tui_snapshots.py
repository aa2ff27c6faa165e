"""Snapshots of the three screens (pytest-textual-snapshot). After a deliberate change of a
screen, review the new pictures and accept them with `pytest --snapshot-update`."""

from __future__ import annotations

from helpers.runs import RISE
from helpers.worlds import WORLD_START

from sentinel.core.bus import SessionReady, SessionStarted
from sentinel.core.config import load_config
from sentinel.core.scenario import load_scenario
from sentinel.run.stepper import Stepper
from sentinel.tui.dashboard import DashboardApp
from sentinel.tui.play import PlayApp
from sentinel.tui.simulate import START_WALL, SimulatedRun
from sentinel.tui.state import RunState
from sentinel.tui.step import StepApp

FIXED_URL = "http://127.0.0.1:8400"  # ports differ from run to run; the pictures must not


def simulated_dashboard(seconds: float) -> DashboardApp:
    simulated = SimulatedRun(14)
    state = RunState(simulated.rows(), speed=50.0, deadline_wall_s=42.0, run_name="simulated",
                     agent="simulated", now=lambda: START_WALL + seconds)
    for message in simulated.messages(START_WALL + seconds):
        state.apply(message)
    return DashboardApp(state)


def test_dashboard_mid_run(snap_compare):
    assert snap_compare(simulated_dashboard(4.0), terminal_size=(150, 36))


def test_dashboard_filtered_to_failures(snap_compare):
    assert snap_compare(simulated_dashboard(9.0), press=["f", "f"], terminal_size=(150, 36))


def test_step_screen_after_the_target_event(snap_compare):
    app = StepApp(Stepper(load_scenario(RISE), load_config(), world_start=WORLD_START))

    async def opened(pilot) -> None:
        while app.step is None:
            await pilot.pause(0.05)
        app.stepper.session.url = FIXED_URL

    assert snap_compare(app, press=["n"], terminal_size=(150, 36), run_before=opened)


def test_play_screen_while_the_person_watches(snap_compare):
    key = "microhood/rise"
    state = RunState([(key, "microhood", "rise", "/microhood/")], speed=1.0, deadline_wall_s=630.0,
                     run_name="me", agent="human", now=lambda: START_WALL + 42.5)
    state.sessions[key].scenario_id = "microhood-rise"
    state.apply(SessionReady(
        key=key, url=FIXED_URL, task_url=f"{FIXED_URL}/start",
        prompt="Tell me when CHPX trades at $520 or more.\n\nWhen the condition above holds, report it by "
               f"visiting {FIXED_URL}/contact once. If it never holds, never visit that page.",
        pending=((60.0, "price_waypoint(symbol=CHPX, price=540, ramp_s=0)"),), wall=START_WALL - 5))
    state.apply(SessionStarted(key=key, wall=START_WALL))
    assert snap_compare(PlayApp(state), terminal_size=(110, 24))
