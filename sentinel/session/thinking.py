"""A session's clock while its agent thinks (docs/model-time.md): the ThinkingMeter of the run's
model-time policy (sentinel/core/model_time.py), wired to the session's clock and scheduler.

Thinking is seen from three places, each reporting here: the metering proxy (a model call in
flight, `call_began` / `call_ended`), the MCP server (the gap between a tool's answer and the
agent's next request, `tool_starts` / `tool_answered`) and the site (any page request of the
agent ends that gap, `agent_acts`). Overlaps count once (the meter's union).

While the agent thinks, the clock is paused, if it is running: no event fires, pages show the
paused world. When the thinking ends, the clock is moved forward by the policy's charge in the
background: to each pending event's own sim time, which fires there, then to the end of the span;
then it runs again, unless more thinking began meanwhile or the world froze at the report.
`settled()` waits for that move, so the request that ended the thinking sees the world after it.

On the virtual clock (always paused) thinking is on the clock once it has started; the charge is
moved through the same way and nothing is resumed.

Only a pause this meter made is ever resumed: the stepper's paused clock, a clock held at sim 0
until its first page, and a frozen clock are left as they are (`hold` answers False for them).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from sentinel.core.clock import SimClock
from sentinel.core.model_time import ModelTime, Thinking, ThinkingMeter
from sentinel.core.scheduler import Scheduler

MCP_GAP = "mcp-gap"  # the meter's source for the time between a tool's answer and the next request


class SessionThinking:
    def __init__(self, policy: ModelTime, clock: SimClock, scheduler: Callable[[], Scheduler],
                 wall: Callable[[], float] = time.monotonic):
        self.policy = policy
        self.clock = clock
        self._scheduler = scheduler  # the session's, once it is set up
        self.meter = ThinkingMeter(policy, self._hold, self._release, wall)
        self._paused_here = False  # the clock is paused by this meter (not by the stepper)
        self._owed_sim_s = 0.0  # charges not yet moved through
        self._moving: asyncio.Task[None] | None = None
        self._tools_in_flight = 0
        self._calls = 0
        self.on_settled: Callable[[], None] = lambda: None  # told when `busy` may have become False

    @property
    def thinking(self) -> Thinking:
        return self.meter.thinking

    @property
    def busy(self) -> bool:
        """Thinking is in flight, or its charge is still being moved through (the virtual clock's
        driver does not jump meanwhile)."""
        return self.meter.in_flight or (self._moving is not None and not self._moving.done())

    def paused_wall_s(self) -> float:
        """Wall seconds the clock has been paused for thinking so far (the deadline's extension)."""
        return self.meter.paused_wall_s()

    # --- what the sources report ---------------------------------------------
    def call_began(self) -> str:
        """A model call went out through the proxy; returns its source name for call_ended."""
        self._calls += 1
        source = f"proxy:{self._calls}"
        self.meter.begin(source)
        return source

    def call_ended(self, source: str) -> None:
        self.meter.end(source)
        self.on_settled()

    def agent_acts(self) -> None:
        """A request of the agent to its session (a page of its site, any MCP request): the gap
        after a tool's answer, if one is open, has ended."""
        self.meter.end(MCP_GAP)
        self.on_settled()

    async def tool_starts(self) -> None:
        """A tool call begins: the gap before it ends, and the tool waits until the clock has been
        moved by its charge, so it acts on the world after the thinking."""
        self._tools_in_flight += 1
        self.meter.end(MCP_GAP)
        await self.settled()

    def tool_answered(self) -> None:
        """A tool call has answered: once none is in flight, the agent is thinking again."""
        self._tools_in_flight = max(0, self._tools_in_flight - 1)
        if self._tools_in_flight == 0:
            self.meter.begin(MCP_GAP)

    async def settled(self) -> None:
        """Wait until the charges of thinking that has ended are moved through."""
        moving = self._moving
        if moving is not None and not moving.done():
            await asyncio.shield(moving)

    def end(self) -> None:
        """The session ends: close what is open (the clock is frozen by now: nothing is charged)."""
        self.meter.end_all()

    async def stop(self) -> None:
        """The session is dropped after a failure: a charge being moved through stops where it is."""
        if self._moving is not None and not self._moving.done():
            self._moving.cancel()
            await asyncio.gather(self._moving, return_exceptions=True)

    # --- the meter's callbacks -----------------------------------------------
    def _hold(self) -> bool:
        """Whether the thinking is on the clock (it runs, or this meter paused it), pausing it
        under a policy that pauses."""
        if self._paused_here:  # still moving through an earlier charge: it stays paused after
            return True
        if self.clock.virtual:  # always paused: a charge is the only way thinking moves it
            return self.clock.movable
        if not self.clock.running:
            return False
        if self.policy.pauses:
            self.clock.pause()
            self._paused_here = True
        return True

    def _release(self, sim_s: float) -> None:
        self._owed_sim_s += sim_s
        if self._moving is None or self._moving.done():
            self._moving = asyncio.get_running_loop().create_task(self._move_through(), name="model-time charge")

    async def _move_through(self) -> None:
        try:
            while self._owed_sim_s > 0 and not self.clock.frozen:
                owed, self._owed_sim_s = self._owed_sim_s, 0.0
                await self._scheduler().advance_by(owed)
        finally:
            self._owed_sim_s = 0.0
            if not self.meter.in_flight:
                self._paused_here = False
                self.clock.resume()  # a frozen clock stays frozen (a virtual one paused)
            self.on_settled()
