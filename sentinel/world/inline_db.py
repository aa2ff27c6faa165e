"""An aiosqlite connection that runs every statement on the event loop's own thread.

aiosqlite hands each statement to a worker thread and back: two thread wake-ups per statement.
A session's statements are tiny (an event inserts a row or two in a database without fsync,
tens of microseconds), while each hand-off waits for the operating system to schedule a thread;
on a machine busy with a hundred agents that wait was ~10 ms a hop at p50 and an event took
several hops, which is where most event lateness came from (benchmarks/lateness_probe.py).
Running the statement in place costs only the statement.

`InlineConnection` keeps aiosqlite's whole API (execute, cursors, executemany, total_changes,
`_execute(fn, ...)`), so the world, the environments and their views use it unchanged; what
changes is that awaiting a statement never leaves the event loop's thread, so a coroutine that
only reads and writes the database runs without interruption.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import aiosqlite


class InlineConnection(aiosqlite.Connection):
    def __init__(self, connector: Callable[[], sqlite3.Connection], iter_chunk_size: int = 64) -> None:
        super().__init__(connector, iter_chunk_size)  # the worker thread is created, never started

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        return fn(*args, **kwargs)

    async def _connect(self) -> InlineConnection:
        if self._connection is None:
            self._connection = self._connector()
        return self

    def __await__(self) -> Generator[Any, None, InlineConnection]:
        return self._connect().__await__()

    def stop(self) -> None:
        """Close the sqlite3 connection (there is no thread to stop)."""
        self._running = False
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def connect(database: str | Path, **kwargs: Any) -> InlineConnection:
    """Like aiosqlite.connect: `db = await connect(path, isolation_level=None)`."""
    return InlineConnection(lambda: sqlite3.connect(str(database), **kwargs))
