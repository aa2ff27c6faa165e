"""Fires a scenario's timeline events when the sim clock reaches them.

The pure part, `fire_due`, applies every event whose time has come and logs its scheduled
and actual times; tests drive it with a ManualTime clock. The driver, `run`, sleeps exactly
until the next event is due (no polling tick) and re-aims whenever the clock changes
(start, pause, advance, freeze).

A DueBoard, shared by the schedulers of one process, knows when each one's next event falls
due, so that whatever runs next on the event loop (a page request of any session) can apply
every event due anywhere before doing its own work: a timer is one callback among many, and
in a burst of page renders it would otherwise wait for the whole burst.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from sentinel.core.clock import SimClock
from sentinel.core.scenario import Event


@dataclass(frozen=True)
class FiredEvent:
    event: Event
    scheduled_wall_s: float  # wall seconds after clock start at which it was due: at / speed
    actual_wall_s: float  # wall seconds after clock start at which it was applied
    sim_at_fire: float

    @property
    def lateness_ms(self) -> float:
        return (self.actual_wall_s - self.scheduled_wall_s) * 1000.0

    def as_record(self) -> dict:
        return {
            "index": self.event.index, "at": self.event.at, "type": self.event.type,
            "fields": dict(self.event.fields), "scheduled_wall_s": round(self.scheduled_wall_s, 6),
            "actual_wall_s": round(self.actual_wall_s, 6), "sim_at_fire": round(self.sim_at_fire, 6),
            "lateness_ms": round(self.lateness_ms, 3),
        }


class DueBoard:
    """When each running scheduler's next event falls due, on one wall clock shared with the
    schedulers' SimClocks. `fire_due` costs one comparison while nothing is due."""

    def __init__(self, wall: Callable[[], float] = time.monotonic):
        self.wall = wall
        self._due: dict[Scheduler, float] = {}
        self._soonest = math.inf

    def aim(self, scheduler: Scheduler, due_wall: float | None) -> None:
        """Record when the scheduler's next event falls due (None: nothing to fire on time)."""
        if due_wall is None:
            if self._due.pop(scheduler, None) is not None:
                self._soonest = min(self._due.values(), default=math.inf)
            return
        previous = self._due.get(scheduler)
        self._due[scheduler] = due_wall
        if due_wall <= self._soonest:
            self._soonest = due_wall
        elif previous is not None and previous <= self._soonest:
            self._soonest = min(self._due.values())

    def quiet_for(self) -> float:
        """Wall seconds until the next event of any scheduler falls due (inf if none)."""
        return self._soonest - self.wall()

    async def quiet_moment(self, need_s: float, most_s: float) -> None:
        """Wait (at most most_s) until no event falls due for need_s: a moment for work that holds
        the loop a few ms, such as building a session of a later wave, to run without making an
        event of a running session late. No wait while no clock runs."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + most_s
        while self.quiet_for() < need_s and loop.time() < give_up:
            await asyncio.sleep(min(max(self.quiet_for(), 0.0) + 0.0005, give_up - loop.time()))

    async def fire_due(self) -> None:
        """Apply every event due by now, in every scheduler on the board that is not already
        applying (a busy one is being served by its own task)."""
        now = self.wall()
        if now < self._soonest:
            return
        for scheduler in [s for s, due in self._due.items() if due <= now]:
            if not scheduler.busy:
                await scheduler.fire_due()


class Scheduler:
    def __init__(self, clock: SimClock, events: Sequence[Event],
                 apply: Callable[[Event], Awaitable[None]], timeline_end: float,
                 on_fired: Callable[[FiredEvent], None] | None = None, board: DueBoard | None = None,
                 hold_s: float = 0.0):
        self.clock = clock
        self.hold_s = hold_s  # see run()
        self._held: Event | None = None
        self.board = board
        self.pending: list[Event] = sorted(
            (e for e in events if 0 < e.at <= timeline_end), key=lambda e: (e.at, e.index))
        self.fired: list[FiredEvent] = []
        self._apply = apply
        self._on_fired = on_fired
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        clock.on_change(self._wake.set)

    def next_due(self) -> Event | None:
        return self.pending[0] if self.pending else None

    @property
    def busy(self) -> bool:
        """Applying events right now (its lock is held)."""
        return self._lock.locked()

    def _aim_board(self) -> None:
        if self.board is not None:
            event = self.next_due()
            self.board.aim(self, None if event is None or self.clock.frozen else self.clock.wall_for(event.at))

    async def fire_due(self) -> list[FiredEvent]:
        """Apply, in order, every pending event whose time is ≤ the clock's sim time."""
        if not self.pending or self.pending[0].at > self.clock.now():
            return []  # the common case on a page request: nothing due, no lock taken
        async with self._lock:
            return await self._fire_due_now()

    async def _fire_due_now(self, by_hand: bool = False) -> list[FiredEvent]:
        """fire_due's work, with the lock held. by_hand: the clock was moved to each event's own
        time (advance_by), so it fired when due and its lateness is 0."""
        fired: list[FiredEvent] = []
        while self.pending and self.pending[0].at <= self.clock.now() and self.clock.started:
            event = self.pending.pop(0)
            await self._apply(event)
            actual = self.clock.wall_elapsed()
            record = FiredEvent(event=event, scheduled_wall_s=actual if by_hand else self._due_wall_s(event),
                                actual_wall_s=actual, sim_at_fire=self.clock.now())
            self.fired.append(record)
            fired.append(record)
            if self._on_fired:
                self._on_fired(record)
        self._aim_board()
        return fired

    def _due_wall_s(self, event: Event) -> float:
        """Wall seconds after clock start at which the event fell due: at / speed on an undisturbed
        timeline, and on the clock's present mapping once a model-time pause has shifted it."""
        due = self.clock.wall_for(event.at)
        if due is None or self.clock.started_wall is None:
            return event.at / self.clock.speed
        return due - self.clock.started_wall

    async def advance_by(self, sim_s: float) -> list[FiredEvent]:
        """Move a paused clock sim_s forward, firing each event due in that span at its own sim
        time, in order (the charge of a model call: sentinel/session/thinking.py). The lock is held
        throughout, so no other caller fires an event at a later time than its own."""
        async with self._lock:
            target = self.clock.now() + max(0.0, sim_s)
            fired = await self._fire_due_now(by_hand=True)
            while self.pending and self.pending[0].at <= target and not self.clock.frozen:
                self.clock.advance_to(self.pending[0].at)
                fired += await self._fire_due_now(by_hand=True)
            if not self.clock.frozen:
                self.clock.advance_to(target)
            self._aim_board()
            return fired

    async def fire_next(self) -> FiredEvent | None:
        """Step mode: move a paused clock to the next event and fire it (and its twins)."""
        event = self.next_due()
        if event is None:
            return None
        if event.at > self.clock.now():
            self.clock.advance_to(event.at)
        fired = await self.fire_due()
        return fired[0] if fired else None

    async def run(self) -> None:
        """Fire events on time until none is left or the clock is frozen.

        The timer is one loop.call_at that wakes this task directly: one loop iteration from
        expiry to the apply (a wait_for on an event took three, each behind whatever else the
        loop had queued). With hold_s, it wakes that much before the event is due and holds the
        loop (a plain sleep) until it is: a page render of another session that would start in
        between, and take a few ms under load, cannot make the event late."""
        loop = asyncio.get_running_loop()
        try:
            while self.pending and not self.clock.frozen:
                self._wake.clear()
                await self.fire_due()
                event = self.next_due()
                if event is None or self.clock.frozen:
                    break
                due_wall = self.clock.wall_for(event.at)
                self._aim_board()
                timer = None
                lead = self.hold_s if event is not self._held else 0.0  # once per event, whatever the clock
                if due_wall is not None:
                    timer = loop.call_at(loop.time() + max(0.0, due_wall - self.clock.wall() - lead), self._wake.set)
                try:
                    await self._wake.wait()
                finally:
                    if timer is not None:
                        timer.cancel()
                if lead and due_wall is not None and self.clock.wall_for(event.at) == due_wall:
                    self._held = event
                    remaining = due_wall - self.clock.wall()
                    if 0 < remaining <= lead:
                        time.sleep(remaining)
        finally:
            if self.board is not None:
                self.board.aim(self, None)
