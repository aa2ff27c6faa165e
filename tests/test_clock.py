"""SimClock with a ManualTime wall clock: no real sleeping anywhere."""

import pytest

from sentinel.core.clock import ManualTime, SimClock


def test_not_started_clock_stays_at_zero():
    wall = ManualTime(100.0)
    clock = SimClock(speed=4, wall=wall)
    wall.advance(50)
    assert clock.now() == 0.0 and not clock.started


def test_scaled_time_runs_speed_times_wall():
    wall = ManualTime(100.0)
    clock = SimClock(speed=4, wall=wall)
    assert clock.start() is True
    wall.advance(2.5)
    assert clock.now() == pytest.approx(10.0)
    assert clock.wall_elapsed() == pytest.approx(2.5)
    assert clock.start() is False  # a second start changes nothing
    assert clock.now() == pytest.approx(10.0)


def test_slow_speed_runs_slower_than_wall():
    wall = ManualTime()
    clock = SimClock(speed=0.25, wall=wall)
    clock.start()
    wall.advance(8)
    assert clock.now() == pytest.approx(2.0)


def test_wall_for_maps_sim_time_to_wall_time():
    wall = ManualTime(10.0)
    clock = SimClock(speed=50, wall=wall)
    clock.start()
    assert clock.wall_for(100) == pytest.approx(12.0)
    assert clock.nominal_wall(100) == pytest.approx(12.0)


def test_freeze_fixes_time_for_good():
    wall = ManualTime()
    clock = SimClock(speed=2, wall=wall)
    clock.start()
    wall.advance(3)
    assert clock.freeze() == pytest.approx(6.0)
    wall.advance(100)
    assert clock.now() == pytest.approx(6.0)
    assert clock.freeze() == pytest.approx(6.0)  # idempotent
    assert clock.wall_for(10) is None


def test_pause_resume_and_advance():
    wall = ManualTime()
    clock = SimClock(speed=10, wall=wall)
    clock.start(paused=True)
    wall.advance(5)
    assert clock.now() == 0.0
    clock.advance(30)
    assert clock.now() == pytest.approx(30.0)
    clock.advance_to(45)
    assert clock.now() == pytest.approx(45.0)
    clock.resume()
    wall.advance(1)
    assert clock.now() == pytest.approx(55.0)
    clock.pause()
    wall.advance(10)
    assert clock.now() == pytest.approx(55.0)


def test_advance_requires_a_paused_clock():
    clock = SimClock(speed=1, wall=ManualTime())
    clock.start()
    with pytest.raises(RuntimeError):
        clock.advance(5)


def test_listeners_hear_every_change():
    """Each listener is called once per change, after it (it reads the new state), and never for
    a call that changes nothing."""
    wall = ManualTime()
    clock = SimClock(speed=2, wall=wall)
    changes, again = [], []
    clock.on_change(lambda: changes.append((clock.now(), clock.running, clock.frozen)))
    clock.on_change(lambda: again.append(clock.now()))
    clock.start(paused=True)
    clock.advance(5)
    clock.resume()
    clock.resume()  # already running: no change
    wall.advance(3)
    clock.pause()
    clock.pause()  # already paused: no change
    clock.resume()
    clock.freeze()
    clock.freeze()  # frozen for good: no change
    assert clock.start() is False  # started already: no change
    assert changes == [(0.0, False, False), (5.0, False, False), (5.0, True, False), (11.0, False, False),
                       (11.0, True, False), (11.0, False, True)]
    assert again == [now for now, _, _ in changes]


def test_speed_must_be_positive():
    with pytest.raises(ValueError):
        SimClock(speed=0)


def test_held_clock_stays_at_zero_until_released_and_counts_wall_from_the_release():
    wall = ManualTime(10.0)
    clock = SimClock(speed=50, wall=wall)
    heard = []
    clock.on_change(lambda: heard.append(clock.now()))
    assert clock.start(held=True)
    assert clock.started
    assert clock.held
    assert not clock.running
    wall.advance(3)  # queued behind other sessions' pages: not charged
    assert clock.now() == 0.0
    assert clock.wall_elapsed() == 0.0
    assert clock.wall_for(100) is None
    assert clock.release() is True
    assert clock.running
    assert clock.started_wall == 13.0
    assert clock.release() is False  # only once
    wall.advance(0.5)
    assert clock.now() == pytest.approx(25.0) and clock.wall_elapsed() == pytest.approx(0.5)
    assert clock.wall_for(100) == pytest.approx(15.0) and clock.nominal_wall(100) == pytest.approx(15.0)
    assert heard == [0.0, 0.0]  # start and release both re-aim a waiting scheduler


def test_held_clock_frozen_before_any_page_ends_at_sim_zero():
    wall = ManualTime()
    clock = SimClock(speed=10, wall=wall)
    clock.start(held=True)
    wall.advance(4)
    assert clock.freeze() == 0.0 and clock.frozen_wall == clock.started_wall == 4.0
    assert not clock.held
