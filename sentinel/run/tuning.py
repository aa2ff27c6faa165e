"""How a run tunes the event loop it runs on, so that the world's timers keep their millisecond
with many sessions at once (docs/timing.md says what each measure bought):

- a short GIL switch interval: every session's database thread hands results back to the loop,
  and a long interval queues those hand-offs (and so event writes) for milliseconds;
- the loop's thread at a real-time priority where the system allows it, so a machine busy with
  agents delays the agents, not the timers (sentinel/session/priority.py), and its off-loop work
  (asyncio.to_thread) on threads started up front and raised just below it;
- threads of their own that start the agents (they outlive every agent: sentinel/session/spawn.py);
- full garbage collections only at moments when no event falls due (sentinel/session/collector.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from sentinel.core.scheduler import DueBoard
from sentinel.session.collector import collections_between_events
from sentinel.session.priority import realtime, worker_pool

GIL_SWITCH_S = 0.0001
SPAWNERS = 2  # threads that start agents: each start waits there until the child reaches exec


@dataclass(frozen=True)
class TunedLoop:
    realtime: bool  # the loop's thread runs at a real-time priority
    spawner: ThreadPoolExecutor  # the threads that start agents


@contextlib.contextmanager
def short_switch_interval() -> Iterator[None]:
    previous = sys.getswitchinterval()
    sys.setswitchinterval(GIL_SWITCH_S)
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


@contextlib.asynccontextmanager
async def tuned_loop(board: DueBoard) -> AsyncIterator[TunedLoop]:
    """The running loop tuned for a run, restored when the run ends."""
    with short_switch_interval(), realtime() as raised, _worker_threads(raised) as spawner:
        async with collections_between_events(board):
            yield TunedLoop(raised, spawner)


@contextlib.contextmanager
def _worker_threads(raised: bool) -> Iterator[ThreadPoolExecutor]:
    spawner = worker_pool(SPAWNERS)
    pool = worker_pool() if raised else None
    loop = asyncio.get_running_loop()
    if pool is not None:
        loop.set_default_executor(pool)
    try:
        yield spawner
    finally:
        spawner.shutdown(wait=False)
        if pool is not None:
            pool.shutdown(wait=False)
            loop.set_default_executor(ThreadPoolExecutor(thread_name_prefix="asyncio"))
