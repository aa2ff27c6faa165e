"""The virtual clock's driver (`--clock virtual`, docs/model-time.md#the-virtual-clock): a
session's time moves only by charged model time and by its agent's waits.

The session's edges report what its agent has open (sentinel/core/virtual_time.py's Activity):
every request of the agent to its site is work while it runs (`working`), except the moments it
is blocked waiting (`until`: the long-poll of sentinel/web/waiting.py, the site's /sleep); the
MCP server's tools other than its two waits are work (`ToolsWatch`); a model call in flight or a
charge being moved through is thinking (SessionThinking.busy). When the session is quiet (no work,
no thinking, at least one wait open and every one idle), the driver moves the clock with the
scheduler to the next stop (the first wake, event, page step or the kill time), firing each event
at its own sim time; every open wait is then woken to look again, and the next jump waits until
all of them are idle once more. So an agent that waits sees exactly the moments a watcher on the
wall clock would, and none of the wall time.

A wait that is not the agent's own (a lent browser's live refresh script) blocks without being
counted: it never lets the clock jump while the agent is busy in its own process. When the clock
reaches the kill time the driver sets `reached_end`; the runner ends the session there.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sentinel.core.clock import SimClock
from sentinel.core.scheduler import Scheduler
from sentinel.core.virtual_time import Activity
from sentinel.session.thinking import SessionThinking
from sentinel.world.state import World

BLOCK_WALL_S = 3600.0  # a blocked wait looks again at least this often (nothing moves it otherwise)
SAFETY_WALL_S = 0.5  # the driver looks again this often even when nothing told it to
WAIT_TOOLS = frozenset({"sleep", "wait_for_change"})  # MCP tools that wait through the site (not work)

_counted: contextvars.ContextVar[bool] = contextvars.ContextVar("counted", default=False)


class VirtualTime:
    """A session's virtual clock driver and its TimeWaits (sentinel/web/keys.py)."""

    def __init__(self, clock: SimClock, scheduler: Callable[[], Scheduler], thinking: SessionThinking,
                 kill_at: float):
        self.clock = clock
        self._scheduler = scheduler  # the session's, once it is set up
        self.kill_at = kill_at
        self.activity = Activity(lambda: thinking.busy)
        thinking.on_settled = self.poke
        self.reached_end = asyncio.Event()  # sim time reached kill_at
        self.jumps = 0
        self._poke = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # --- TimeWaits: what the site reports --------------------------------------------
    @contextmanager
    def working(self) -> Iterator[None]:
        token = _counted.set(True)
        self.activity.work_began()
        try:
            yield
        finally:
            self.activity.work_ended()
            _counted.reset(token)
            self.poke()

    async def until(self, world: World, since: tuple[int, int, int], until_sim: float,
                    step_s: float | None) -> None:
        if not _counted.get():  # not the agent's own request: block, never let the clock jump
            await world.wait_for_change(since, BLOCK_WALL_S)
            return
        wait = self.activity.wait_began(until_sim, step_s)
        wait.idle = True
        self.activity.work_ended()
        self.poke()
        try:
            await world.wait_for_change(since, BLOCK_WALL_S)
        finally:
            self.activity.wait_ended(wait)
            self.activity.work_began()

    # --- what the MCP server reports ---------------------------------------------------
    def tool_began(self, name: str) -> None:
        if name not in WAIT_TOOLS:
            self.activity.work_began()

    def tool_ended(self, name: str) -> None:
        if name not in WAIT_TOOLS:
            self.activity.work_ended()
            self.poke()

    # --- the driver -------------------------------------------------------------------
    def poke(self) -> None:
        """Something the driver's decision depends on has changed: look again."""
        self._poke.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._drive(), name="virtual clock")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _drive(self) -> None:
        clock = self.clock
        while not clock.frozen:
            try:
                await asyncio.wait_for(self._poke.wait(), SAFETY_WALL_S)
            except TimeoutError:
                pass
            self._poke.clear()
            if clock.held or not clock.started or clock.frozen or not self.activity.quiet():
                continue
            now = clock.now()
            if now >= self.kill_at:
                self.reached_end.set()
                continue
            await self._jump(now)

    async def _jump(self, now: float) -> None:
        """Move the clock to the next stop; every open wait looks again before the next jump."""
        scheduler = self._scheduler()
        event = scheduler.next_due()
        stop = self.activity.next_stop(now, event.at if event else None, self.kill_at)
        for wait in self.activity.waits:
            wait.idle = False  # woken by the clock's change below; idle again once it has looked
        self.jumps += 1
        await scheduler.advance_by(stop - now)
        if self.clock.now() >= self.kill_at:
            self.reached_end.set()


class ToolsWatch:
    """What the MCP server tells its session (its ToolWatch): the agent's requests and tool calls
    end its thinking (SessionThinking), and, on the virtual clock, a tool other than a wait is work."""

    def __init__(self, thinking: SessionThinking, virtual: VirtualTime | None = None):
        self.thinking = thinking
        self.virtual = virtual

    def agent_acts(self) -> None:
        self.thinking.agent_acts()

    async def tool_starts(self, name: str) -> None:
        if self.virtual is not None:
            self.virtual.tool_began(name)
        await self.thinking.tool_starts()

    def tool_answered(self, name: str) -> None:
        self.thinking.tool_answered()
        if self.virtual is not None:
            self.virtual.tool_ended(name)
