"""The virtual clock's jump rule (sentinel/core/virtual_time.py): when a session is quiet, and where a jump stops."""

import math

import pytest

from sentinel.core.virtual_time import Activity, next_step


def test_a_session_with_nothing_open_is_not_quiet_its_agent_works_in_its_own_process():
    assert not Activity().quiet()


def test_an_idle_wait_alone_makes_the_session_quiet():
    activity = Activity()
    wait = activity.wait_began(wake_sim=30.0)
    assert not activity.quiet()  # it is still reading its page
    wait.idle = True
    assert activity.quiet()
    activity.wait_ended(wait)
    assert not activity.quiet()


def test_work_or_a_model_call_in_flight_keeps_the_clock_where_it_is():
    thinking = [False]
    activity = Activity(calls_in_flight=lambda: thinking[0])
    activity.wait_began(wake_sim=30.0).idle = True
    activity.work_began()
    assert not activity.quiet()
    activity.work_ended()
    assert activity.quiet()
    thinking[0] = True
    assert not activity.quiet()


def test_one_wait_rereading_its_page_holds_the_others():
    activity = Activity()
    activity.wait_began(wake_sim=30.0).idle = True
    activity.wait_began(wake_sim=math.inf)
    assert not activity.quiet()


def test_a_jump_stops_at_the_first_wake_event_or_kill_time():
    activity = Activity()
    activity.wait_began(wake_sim=30.0)
    activity.wait_began(wake_sim=math.inf)
    assert activity.next_stop(now=10.0, next_event_at=50.0, kill_at=660.0) == 30.0
    assert activity.next_stop(now=10.0, next_event_at=20.0, kill_at=660.0) == 20.0
    assert activity.next_stop(now=10.0, next_event_at=None, kill_at=25.0) == 25.0


def test_a_wait_on_a_page_that_follows_time_stops_at_each_page_step():
    activity = Activity()
    activity.wait_began(wake_sim=math.inf, steps_s=5.0)
    assert activity.next_stop(now=12.0, next_event_at=None, kill_at=660.0) == 15.0
    assert activity.next_stop(now=15.0, next_event_at=None, kill_at=660.0) == 20.0  # strictly after now


def test_a_jump_never_goes_back_in_time():
    activity = Activity()
    activity.wait_began(wake_sim=5.0)  # its wake time has passed: it answers where the clock is
    assert activity.next_stop(now=10.0, next_event_at=None, kill_at=660.0) == 10.0


# 0.7 / 0.1 is 6.999… in floating point: the next step is still 0.8, strictly after now
@pytest.mark.parametrize(("now", "step", "expected"), [
    (0.0, 1.0, 1.0), (0.9, 1.0, 1.0), (2.5, 0.5, 3.0), (59.0, 60.0, 60.0), (0.7, 0.1, 0.8),
])
def test_next_step_is_the_first_multiple_after_now(now, step, expected):
    assert next_step(now, step) == pytest.approx(expected)


def test_a_page_step_must_be_positive():
    with pytest.raises(ValueError, match="positive"):
        Activity().wait_began(wake_sim=1.0, steps_s=0.0)
