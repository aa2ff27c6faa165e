"""World: what an environment's events and views see of one session.

It bundles the session's database connection, its catalog, its clock and the world's start
moment, plus the few helpers every environment needs (item times, self-created ids, a write
transaction, the one-line status shown after a POST).

Reads (fetch_all/fetch_one/fetch_value) take one of two paths. Inside a write transaction they
run on the writer connection (aiosqlite's thread), so they see the transaction's own
uncommitted rows. Everywhere else, when the session gave the World a page reader (a read-only
sqlite3 connection on the same WAL database), they run directly on the event loop's thread:
a page's queries on these small databases take microseconds, far less than a hop to
aiosqlite's thread and back, so a page costs no thread hop at all once the world is current.
The reader sees committed rows only; the version below counts commits, so a page rendered
while another task's write was still open is never reused after that write commits.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite

from sentinel.core.catalog import Catalog
from sentinel.core.clock import SimClock

ORIGINS = ("preload", "event", "self")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class WriteReentered(RuntimeError):
    """world.write() called inside a write transaction of the same task (it would deadlock)."""


class World:
    def __init__(self, env_name: str, db: aiosqlite.Connection, catalog: Catalog,
                 clock: SimClock, world_start: datetime, reader: sqlite3.Connection | None = None):
        self.env_name = env_name
        self.db = db
        self.reader = reader  # read-only, on the loop's thread (open_page_reader); None: reads use db
        self.catalog = catalog
        self.clock = clock
        self.world_start = world_start.astimezone(UTC).replace(microsecond=0)
        self.self_persona = catalog.self_persona()
        self._flash: str | None = None  # status line for the next page ("Message sent")
        self._touches = 0  # changes pages show that are not database rows (the flash line)
        self._commits = 0  # write transactions ended: when the page reader sees their rows
        self._write_lock = asyncio.Lock()
        self._writer: asyncio.Task | None = None  # the task inside write(), to refuse re-entry
        self._self_ids = 0
        self._change = asyncio.Event()  # set (and replaced) whenever the version may have moved
        self._clock_turns = 0  # changes of the clock's course (start, pause, resume, advance, freeze)
        clock.on_change(self._clock_turned)  # a frozen, resumed or advanced clock ends waits

    # --- version ---
    @property
    def version(self) -> tuple[int, int, int]:
        """Changes whenever anything a page shows may have changed, bar time itself: every row
        written through the session's connection (events, agent actions, finalize: SQLite's own
        count, so no write can forget to bump it), every write transaction's end (the moment the
        page reader sees its rows) and every change of the flash line."""
        return (self.db.total_changes, self._commits, self._touches)

    @property
    def flash(self) -> str | None:
        return self._flash

    @flash.setter
    def flash(self, value: str | None) -> None:
        if value != self._flash:
            self._touches += 1
            self._notify()
        self._flash = value

    # --- change notification ---
    def _notify(self) -> None:
        changed, self._change = self._change, asyncio.Event()
        changed.set()

    def _clock_turned(self) -> None:
        self._clock_turns += 1
        self._notify()

    async def wait_for_change(self, since: tuple[int, int, int], timeout_s: float) -> bool:
        """Wait until the version differs from `since` (True), or timeout_s wall seconds pass or the
        clock changes course (False: the waiter works out again how long to wait). Nothing polls:
        every write transaction's end, flash change and clock change wakes the waiters, who look
        again. A waiter costs nothing while the world is quiet."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(0.0, timeout_s)
        turns = self._clock_turns
        while self.version == since and not self.clock.frozen:
            if self._clock_turns != turns:
                return False
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            try:
                await asyncio.wait_for(self._change.wait(), remaining)
            except TimeoutError:
                return self.version != since
        return True

    # --- time ---
    def now(self) -> float:
        """Current sim time in seconds."""
        return self.clock.now()

    def now_dt(self) -> datetime:
        """The world's current date-time: start moment + sim seconds."""
        return self.world_start + timedelta(seconds=self.now())

    def created_at(self, sim_t: float | None = None) -> str:
        """ISO time of an item that arrives at sim_t (default: now)."""
        t = self.now() if sim_t is None else sim_t
        return iso(self.world_start + timedelta(seconds=t))

    def preload_created_at(self, age_minutes: float) -> str:
        """ISO time of a preloaded item that is age_minutes old at the start."""
        return iso(self.world_start - timedelta(minutes=age_minutes))

    # --- ids and writes ---
    async def next_self_id(self, table: str, prefix: str = "u-") -> str:
        """A fresh id for an agent-created row: u-1, u-2, ... (unique within the table)."""
        while True:
            self._self_ids += 1
            candidate = f"{prefix}{self._self_ids}"
            async with self.db.execute(f"SELECT 1 FROM {table} WHERE id = ?", (candidate,)) as cur:
                if await cur.fetchone() is None:
                    return candidate

    async def insert(self, table: str, values: dict[str, Any], *, origin: str, at: float | None = None,
                     age_minutes: float = 0.0) -> None:
        """INSERT one row with the common columns filled in (docs/environments.md#time and #grading-tables):
        origin "preload": arrived_at 0, created_at = start − age_minutes;
        origin "event":   arrived_at = at (the event's time, so a replay writes the same row);
        origin "self":    arrived_at = now (an agent's action). Values are parameters; the table
        and column names come from code and must be plain identifiers."""
        if origin not in ORIGINS:
            raise ValueError(f"origin must be one of {ORIGINS}, not {origin!r}")
        if origin == "preload":
            arrived, created = 0.0, self.preload_created_at(age_minutes)
        else:
            arrived = self.now() if at is None else float(at)
            created = self.created_at(arrived)
        row = {**values, "arrived_at": arrived, "created_at": values.get("created_at", created),
               "origin": origin}
        names = [table, *row]
        bad = [n for n in names if not _NAME.match(n)]
        if bad:
            raise ValueError(f"not a plain SQL name: {bad[0]!r}")
        columns = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        await self.db.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", tuple(row.values()))

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction; concurrent handlers of one session take turns.

        Not re-entrant: code already inside a write (an event's `apply`, a `finalize`, a view
        called from an action) uses `world.db` directly. Re-entering raises WriteReentered
        instead of waiting forever on the lock its own caller holds."""
        task = asyncio.current_task()
        if task is not None and task is self._writer:
            raise WriteReentered("world.write() re-entered while this task's write transaction is open "
                                 "(an event's apply or finalize runs inside one already: use world.db)")
        async with self._write_lock:
            self._writer = task
            try:
                try:
                    await self.db.execute("BEGIN")
                except BaseException:  # cancelled (a client went away): the BEGIN may still run
                    await asyncio.shield(self._rollback())
                    raise
                try:
                    yield self.db
                except BaseException:
                    await asyncio.shield(self._rollback())
                    raise
                else:
                    await self.db.execute("COMMIT")
            finally:
                self._writer = None
                self._commits += 1
                self._notify()

    async def _rollback(self) -> None:
        """End the open transaction, if any. Statements run in order on the connection's one thread,
        so a ROLLBACK queued now runs after a BEGIN that a cancelled caller had queued, and no
        transaction is ever left open for the next writer (or for grading) to trip over."""
        try:
            await self.db.execute("ROLLBACK")
        except sqlite3.OperationalError:
            pass  # no transaction was open (the BEGIN itself failed)

    def _page_reader(self) -> sqlite3.Connection | None:
        """The loop-thread reader, unless this task is inside a write (it must see its own rows)."""
        if self.reader is None or (self._writer is not None and self._writer is asyncio.current_task()):
            return None
        return self.reader

    async def fetch_all(self, sql: str, params: tuple | dict = ()) -> list[aiosqlite.Row]:
        reader = self._page_reader()
        if reader is not None:
            with closing(reader.execute(sql, params)) as cur:
                return cur.fetchall()
        async with self.db.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def fetch_one(self, sql: str, params: tuple | dict = ()) -> aiosqlite.Row | None:
        reader = self._page_reader()
        if reader is not None:
            with closing(reader.execute(sql, params)) as cur:  # closed: no read snapshot outlives the call
                return cur.fetchone()
        async with self.db.execute(sql, params) as cur:
            return await cur.fetchone()

    async def fetch_value(self, sql: str, params: tuple | dict = ()) -> Any:
        row = await self.fetch_one(sql, params)
        return None if row is None else row[0]

    def close_reader(self) -> None:
        if self.reader is not None:
            self.reader.close()
            self.reader = None

    async def set_meta(self, key: str, value: Any) -> None:
        await self.db.execute(
            "INSERT INTO session_meta(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, str(value)))


def open_page_reader(db_path: Path) -> sqlite3.Connection:
    """A read-only connection to a session's WAL database for pages (World.reader): autocommit,
    rows by name like aiosqlite's, and refusing any write (query_only) besides the read-only open."""
    reader = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, isolation_level=None)
    reader.row_factory = sqlite3.Row
    reader.execute("PRAGMA query_only = 1")
    return reader


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str) -> datetime:
    """The datetime of an ISO text such as 2026-03-02T09:00:00Z (fromisoformat: fast, unlike strptime)."""
    return datetime.fromisoformat(text)
