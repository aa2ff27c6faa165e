"""Full garbage collections at moments when no event falls due.

A full collection holds the interpreter for 10-50 ms over a run's heap, and every session's
timers wait for it (the heap that lives as long as the run is frozen at the start line,
sentinel/run/runner.py, but sessions of later waves and a dashboard keep adding to what is left).
So during a run the interpreter's own full collections are off, and the runner makes them
itself when they are due and the DueBoard says no event falls due for a while; if no such
moment comes, it collects anyway once ten times as much is due.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator

from sentinel.core.scheduler import DueBoard

QUIET_S = 0.08  # a full collection fits before the next event
CHECK_S = 0.05
OVERDUE = 10  # collect regardless once this many times the usual amount is due
NEVER = 1 << 30  # a threshold the interpreter's count of younger collections never reaches


class _Settings:
    """The collector's thresholds belong to the process, and runners may overlap in one (tests,
    the Python API): the first run to start turns full collections off, the last to end turns
    them back on as they were."""
    runs = 0
    saved: tuple[int, int, int] = gc.get_threshold()


@contextlib.asynccontextmanager
async def collections_between_events(board: DueBoard) -> AsyncIterator[None]:
    if _Settings.runs == 0:
        _Settings.saved = gc.get_threshold()
    _Settings.runs += 1
    young, middle, full = _Settings.saved
    gc.set_threshold(young, middle, NEVER)
    task = asyncio.create_task(_collect_when_quiet(board, full), name="full collections")
    try:
        yield
    finally:
        task.cancel()
        _Settings.runs -= 1
        if _Settings.runs == 0:
            gc.set_threshold(*_Settings.saved)


async def _collect_when_quiet(board: DueBoard, due: int) -> None:
    while True:
        await asyncio.sleep(CHECK_S)
        pending = gc.get_count()[2]  # collections of the middle generation since the last full one
        if pending >= due * OVERDUE or (pending >= due and board.quiet_for() >= QUIET_S):
            gc.collect()
