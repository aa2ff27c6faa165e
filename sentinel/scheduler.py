"""Fires a scenario's timeline events when the sim clock reaches them.

The pure part, `fire_due`, applies every event whose time has come and logs its scheduled
and actual times; tests drive it with a ManualTime clock. The driver, `run`, sleeps exactly
until the next event is due (no polling tick) and re-aims whenever the clock changes
(start, pause, advance, freeze).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from sentinel.clock import SimClock
from sentinel.scenario import Event


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


class Scheduler:
    def __init__(self, clock: SimClock, events: Sequence[Event],
                 apply: Callable[[Event], Awaitable[None]], timeline_end: float,
                 on_fired: Callable[[FiredEvent], None] | None = None):
        self.clock = clock
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

    async def fire_due(self) -> list[FiredEvent]:
        """Apply, in order, every pending event whose time is ≤ the clock's sim time."""
        fired: list[FiredEvent] = []
        if not self.pending or self.pending[0].at > self.clock.now():
            return fired  # the common case on a page request: nothing due, no lock taken
        async with self._lock:
            while self.pending and self.pending[0].at <= self.clock.now() and self.clock.started:
                event = self.pending.pop(0)
                await self._apply(event)
                record = FiredEvent(
                    event=event,
                    scheduled_wall_s=event.at / self.clock.speed,
                    actual_wall_s=self.clock.wall_elapsed(),
                    sim_at_fire=self.clock.now(),
                )
                self.fired.append(record)
                fired.append(record)
                if self._on_fired:
                    self._on_fired(record)
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
        loop had queued)."""
        loop = asyncio.get_running_loop()
        while self.pending and not self.clock.frozen:
            self._wake.clear()
            await self.fire_due()
            event = self.next_due()
            if event is None or self.clock.frozen:
                break
            due_wall = self.clock.wall_for(event.at)
            timer = None
            if due_wall is not None:
                timer = loop.call_at(loop.time() + max(0.0, due_wall - self.clock.wall()), self._wake.set)
            try:
                await self._wake.wait()
            finally:
                if timer is not None:
                    timer.cancel()
