"""SimClock: sim seconds as a function of wall time.

States: not started (sim time 0) → [held at sim 0] → running (sim = offset + (wall − wall_base) × speed) →
frozen (sim time fixed for good, at contact or at the end of the session). A running clock can
also be paused (step mode) and advanced by hand. A clock started `held` stays at sim 0 until
`release()`: the session holds it from the agent's /start until its first page is rendered, so
time spent queued behind other sessions' pages is never charged; the release is the start
(started_wall) every wall figure counts from. The wall time source is injected, so tests use
a ManualTime and never sleep.

A virtual clock (`virtual=True`, `--clock virtual`: docs/model-time.md#the-virtual-clock) never
runs by itself: once started it stays paused and moves only by `advance` (the session's charges
of model time and its waits jump it: sentinel/session/virtual.py). `speed` is then nominal, 1.

Listeners registered with `on_change` are called whenever the mapping from wall to sim time
changes (start, pause, resume, advance, freeze), so a scheduler waiting on a timer can re-aim it.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class ManualTime:
    """A wall clock that moves only when told: `ManualTime(0.0)`, then `.advance(5)`."""

    def __init__(self, start: float = 0.0):
        self.value = start

    def __call__(self) -> float:
        return self.value

    def advance(self, seconds: float) -> None:
        self.value += seconds


class SimClock:
    def __init__(self, speed: float, wall: Callable[[], float] = time.monotonic, virtual: bool = False):
        if speed <= 0:
            raise ValueError("speed must be > 0")
        self.speed = speed
        self.virtual = virtual  # time moves only when advanced
        self.wall = wall
        self.started_wall: float | None = None  # wall time of start()
        self.frozen_at: float | None = None  # sim time the world froze at
        self.frozen_wall: float | None = None
        self._base_wall = 0.0  # wall time at which sim time was _base_sim
        self._base_sim = 0.0
        self._paused = False
        self._held = False
        self._listeners: list[Callable[[], None]] = []

    # --- state ---
    @property
    def started(self) -> bool:
        return self.started_wall is not None

    @property
    def frozen(self) -> bool:
        return self.frozen_at is not None

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def held(self) -> bool:
        return self._held

    @property
    def movable(self) -> bool:
        """Started, not frozen and on the clock: time passes by itself (running) or, on a virtual
        clock, whenever the session advances it."""
        return self.started and not self.frozen and not self._held and (self.virtual or not self._paused)

    @property
    def running(self) -> bool:
        return self.started and not self.frozen and not self._paused and not self._held

    def now(self) -> float:
        """Current sim time in seconds."""
        if self.frozen_at is not None:
            return self.frozen_at
        if not self.started or self._paused or self._held:
            return self._base_sim
        return self._base_sim + (self.wall() - self._base_wall) * self.speed

    def wall_elapsed(self) -> float:
        """Wall seconds since start() (0 before)."""
        if self.started_wall is None or self._held:
            return 0.0
        return self.wall() - self.started_wall

    def wall_for(self, sim_t: float) -> float | None:
        """The wall time at which sim time reaches sim_t, or None while paused or frozen."""
        if not self.running:
            return None
        return self._base_wall + (sim_t - self._base_sim) / self.speed

    def nominal_wall(self, sim_t: float) -> float | None:
        """Wall time of sim_t on the undisturbed timeline start + t / speed (for reports)."""
        if self.started_wall is None:
            return None
        return self.started_wall + sim_t / self.speed

    # --- transitions ---
    def start(self, paused: bool = False, held: bool = False) -> bool:
        """Start the clock (held: at sim 0 until release()); return False if already started."""
        if self.started:
            return False
        self.started_wall = self._base_wall = self.wall()
        self._paused = paused or self.virtual
        self._held = held
        self._changed()
        return True

    def release(self) -> bool:
        """Let a held clock run from sim 0 now, counting wall time from this moment; return
        False if it was not held."""
        if not self._held:
            return False
        self.started_wall = self._base_wall = self.wall()
        self._held = False
        self._changed()
        return True

    def pause(self) -> None:
        if self.running:
            self._base_sim = self.now()
            self._paused = True
            self._changed()

    def resume(self) -> None:
        if self._paused and not self.frozen and not self.virtual:
            self._base_wall = self.wall()
            self._paused = False
            self._changed()

    def advance(self, sim_seconds: float) -> None:
        """Move a paused clock forward by sim_seconds."""
        if not self._paused or self.frozen:
            raise RuntimeError("only a paused clock can be advanced by hand")
        self._base_sim += max(0.0, sim_seconds)
        self._changed()

    def advance_to(self, sim_t: float) -> None:
        self.advance(sim_t - self.now())

    def freeze(self) -> float:
        """Fix sim time for good (contact or end of session); return the frozen time."""
        if self.frozen_at is None:
            self.release()  # a held clock freezes at sim 0, its start and its end the same moment
            self.frozen_at = self.now()
            self.frozen_wall = self.wall()
            self._changed()
        return self.frozen_at

    # --- listeners ---
    def on_change(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()
