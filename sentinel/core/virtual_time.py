"""The virtual clock's rule for when, and how far, a session's time may jump (issue #43, groundwork).

On `--clock virtual` sim time moves only by charged model time and by waits. A wait is any
request of the agent that asks for time to pass: a long-poll GET of its site, the MCP `sleep`
and `wait_for_change` tools, the site's own sim-time sleep. The clock may jump only while the
session is quiet: no request of its agent is doing work (a page render, a form, a tool that is
not a wait), no model call is in flight, and at least one wait is open and idle (blocked on time,
not re-reading its page after a change). An agent with nothing open is working in its own process,
so its world stands still.

When quiet, the clock jumps to the first of: the earliest wake time of an open wait, the next
event of the timeline, the next page step of a wait on a page that follows time by itself (its
numbers move with no event: a price curve), and the session's kill time. It stops there so the
waits can look again: a wait whose page changed answers (and the session is no longer quiet), the
others go back to idle and the next jump is computed from the new moment.

Pure: `Activity` is plain bookkeeping that the session's edges (site, MCP server, meter) report to;
the session's driver asks `quiet()` and `next_stop(...)` and moves the clock with its scheduler.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import count


@dataclass(eq=False)
class Wait:
    """One open wait: it wakes at `wake_sim` at the latest (inf: only on a change); `steps_s` is the
    page step of a watched page that follows time (None: its page changes only by events)."""

    wake_sim: float
    steps_s: float | None = None
    idle: bool = False  # blocked on time; False while it (re)reads its page
    ident: int = field(default_factory=count().__next__)


class Activity:
    """What a session's agent has open right now, as its edges report it."""

    def __init__(self, calls_in_flight: Callable[[], bool] = lambda: False):
        self._calls_in_flight = calls_in_flight
        self.work = 0
        self.waits: list[Wait] = []

    def work_began(self) -> None:
        self.work += 1

    def work_ended(self) -> None:
        self.work = max(0, self.work - 1)

    def wait_began(self, wake_sim: float, steps_s: float | None = None) -> Wait:
        if steps_s is not None and not (math.isfinite(steps_s) and steps_s > 0):
            raise ValueError(f"a page step must be a positive number of sim seconds, not {steps_s!r}")
        wait = Wait(wake_sim=wake_sim, steps_s=steps_s)
        self.waits.append(wait)
        return wait

    def wait_ended(self, wait: Wait) -> None:
        if wait in self.waits:
            self.waits.remove(wait)

    def quiet(self) -> bool:
        """Whether the clock may jump: no work, no model call, and every open wait idle (one at least)."""
        return (self.work == 0 and not self._calls_in_flight() and bool(self.waits)
                and all(wait.idle for wait in self.waits))

    def next_stop(self, now: float, next_event_at: float | None, kill_at: float) -> float:
        """Where a jump from sim `now` stops: the first wake, event, page step or the kill time (never
        before `now`)."""
        stops = [kill_at]
        if next_event_at is not None:
            stops.append(next_event_at)
        for wait in self.waits:
            stops.append(wait.wake_sim)
            if wait.steps_s is not None:
                stops.append(next_step(now, wait.steps_s))
        return max(now, min(stops))


def next_step(now: float, step_s: float) -> float:
    """The first multiple of step_s strictly after now (a page stepped in sim time changes only there)."""
    return (math.floor(now / step_s + 1e-9) + 1) * step_s
