"""The scheduler with a manual clock: events fire in order, exactly when due, never after freeze."""

import asyncio
import time

import pytest

from sentinel.core.clock import ManualTime, SimClock
from sentinel.core.scenario import Event
from sentinel.core.scheduler import DueBoard, Scheduler


def make(events, speed=10.0, end=720):
    wall = ManualTime(1000.0)
    clock = SimClock(speed, wall=wall)
    applied = []

    async def apply(event):
        applied.append((event.at, event.type, clock.now()))

    return wall, clock, applied, Scheduler(clock, events, apply, end)


EVENTS = [Event(at=0, type="preload", index=0), Event(at=20, type="b", index=2),
          Event(at=10, type="a", index=1), Event(at=20, type="c", index=3),
          Event(at=800, type="late", index=4)]


async def test_fires_due_events_in_order_and_logs_times():
    wall, clock, applied, scheduler = make(EVENTS)
    assert [e.type for e in scheduler.pending] == ["a", "b", "c"]  # preload and past-the-end dropped
    clock.start()
    assert await scheduler.fire_due() == []
    wall.advance(0.999)  # sim 9.99
    assert await scheduler.fire_due() == []
    wall.advance(0.0011)  # sim 10.001
    fired = await scheduler.fire_due()
    assert [f.event.type for f in fired] == ["a"]
    assert fired[0].scheduled_wall_s == pytest.approx(1.0)
    assert fired[0].actual_wall_s == pytest.approx(1.0001)
    assert fired[0].lateness_ms == pytest.approx(0.1, abs=1e-6)
    wall.advance(5)
    fired = await scheduler.fire_due()
    assert [f.event.type for f in fired] == ["b", "c"]  # equal times keep authored order
    assert scheduler.pending == []
    assert [a[1] for a in applied] == ["a", "b", "c"]


async def test_nothing_fires_before_start():
    wall, clock, applied, scheduler = make(EVENTS)
    wall.advance(100)
    assert await scheduler.fire_due() == []


async def test_frozen_clock_fires_only_what_was_due():
    wall, clock, applied, scheduler = make(EVENTS)
    clock.start()
    wall.advance(1.5)  # sim 15
    clock.freeze()
    wall.advance(100)
    fired = await scheduler.fire_due()
    assert [f.event.type for f in fired] == ["a"]
    assert [e.type for e in scheduler.pending] == ["b", "c"]


async def test_fire_next_steps_a_paused_clock():
    wall, clock, applied, scheduler = make(EVENTS)
    clock.start(paused=True)
    first = await scheduler.fire_next()
    assert first.event.type == "a" and clock.now() == pytest.approx(10)
    await scheduler.fire_next()
    assert [a[1] for a in applied] == ["a", "b", "c"]  # both events at 20 fire together
    assert await scheduler.fire_next() is None


async def test_run_sleeps_until_due_with_the_real_clock():
    """The driver with the real monotonic clock at high speed: fires all, on time."""
    applied = []
    clock = SimClock(speed=1000)

    async def apply(event):
        applied.append(event.type)

    scheduler = Scheduler(clock, [Event(at=20, type="x", index=1), Event(at=50, type="y", index=2)], apply, 720)
    task = asyncio.create_task(scheduler.run())
    await asyncio.sleep(0)
    clock.start()  # wakes the driver, which then waits exactly until each event is due
    await asyncio.wait_for(task, 2)
    assert applied == ["x", "y"]
    assert all(f.lateness_ms >= -1 for f in scheduler.fired)


@pytest.mark.parametrize("hold_s", [0.0, 0.1])
@pytest.mark.slow
async def test_a_held_loop_keeps_an_event_on_time_behind_a_long_callback(hold_s):
    """Another session's page render that starts just before an event is due (here a callback
    that blocks the loop for 0.2 s, 0.04 s before) makes the event late by the rest of it,
    unless the scheduler woke hold_s early and held the loop until the event's time."""
    clock = SimClock(speed=1.0)
    scheduler = Scheduler(clock, [Event(at=0.3, type="x", index=1)], _noop_apply, 720, hold_s=hold_s)
    task = asyncio.create_task(scheduler.run())
    await asyncio.sleep(0)
    clock.start()
    loop = asyncio.get_running_loop()
    loop.call_later(0.26, time.sleep, 0.2)  # the long render, started 40 ms before the event
    await asyncio.wait_for(task, 5)
    lateness = scheduler.fired[0].lateness_ms
    if hold_s:
        assert 0 <= lateness < 60, lateness  # held: on time (a busy CI loop may wake it a little late)
    else:
        assert lateness >= 150, lateness  # the contrast: behind the whole render


async def _noop_apply(event):
    pass


async def test_run_waits_while_paused_and_reaims_on_advance():
    applied = []
    clock = SimClock(speed=1)

    async def apply(event):
        applied.append(event.at)

    scheduler = Scheduler(clock, [Event(at=300, type="x", index=1)], apply, 720)
    clock.start(paused=True)
    task = asyncio.create_task(scheduler.run())
    await asyncio.sleep(0.01)
    assert applied == []
    clock.advance(300)
    await asyncio.wait_for(task, 1)
    assert applied == [300]


async def test_the_board_lets_any_caller_fire_what_is_due_in_every_scheduler():
    wall = ManualTime(1000.0)
    board = DueBoard(wall)
    applied = []

    def scheduler(name, events):
        clock = SimClock(10.0, wall=wall)

        async def apply(event):
            applied.append((name, event.type))
        return clock, Scheduler(clock, events, apply, 720, board=board)

    clock_a, a = scheduler("a", [Event(at=10, type="a1", index=1), Event(at=30, type="a2", index=2)])
    clock_b, b = scheduler("b", [Event(at=20, type="b1", index=1)])
    clock_a.start()
    clock_b.start()
    runs = [asyncio.create_task(s.run()) for s in (a, b)]
    await asyncio.sleep(0)  # each run() aims its timer and puts its next event on the board
    wall.advance(1.5)  # sim 15: a1 is due; the loop's own timers are not (wall time is manual)
    await board.fire_due()
    assert applied == [("a", "a1")]
    await board.fire_due()  # nothing more due: no second apply
    wall.advance(1.6)  # sim 31: a2 and b1 are due
    await board.fire_due()
    assert sorted(applied[1:]) == [("a", "a2"), ("b", "b1")]
    assert a.pending == b.pending == []
    for task in runs:  # with nothing pending, each run() ends and takes itself off the board
        task.cancel()
    await asyncio.gather(*runs, return_exceptions=True)
    wall.advance(100)
    await board.fire_due()
    assert len(applied) == 3


async def test_the_board_skips_a_frozen_scheduler():
    wall = ManualTime(0.0)
    board = DueBoard(wall)
    clock = SimClock(10.0, wall=wall)
    applied = []

    async def apply(event):
        applied.append(event.type)
    scheduler = Scheduler(clock, [Event(at=10, type="a", index=1)], apply, 720, board=board)
    clock.start()
    run = asyncio.create_task(scheduler.run())
    await asyncio.sleep(0)
    clock.freeze()  # the agent reported at sim 0: the event must never apply
    await asyncio.sleep(0)
    wall.advance(5)
    await board.fire_due()
    assert applied == []
    await run


async def test_a_quiet_moment_comes_after_the_next_event_and_never_later_than_asked():
    """Building a session of a later wave waits for a gap between the running sessions' events."""
    board = DueBoard(time.monotonic)
    loop = asyncio.get_running_loop()
    began = loop.time()
    await board.quiet_moment(0.01, 5.0)
    assert loop.time() - began < 0.5  # no clock runs: no wait
    clock = SimClock(speed=1.0, wall=time.monotonic)
    fired = []

    async def apply(event):
        fired.append(loop.time())
    scheduler = Scheduler(clock, [Event(at=0.1, type="x", index=1)], apply, 720, board=board)
    clock.start()
    task = asyncio.create_task(scheduler.run())
    await asyncio.sleep(0)
    await board.quiet_moment(0.2, 5.0)  # the event is due in 0.1 s: too close, so wait until it has fired
    assert fired and loop.time() >= fired[0]
    await task
    board.aim(object(), time.monotonic())  # due now and never fired: the wait gives up at its limit
    began = loop.time()
    await board.quiet_moment(0.05, 0.2)
    assert 0.2 - 0.01 <= loop.time() - began < 2
