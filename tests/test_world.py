"""World: the write transaction refuses re-entry instead of hanging, and still serialises tasks."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime

import aiosqlite
import pytest

from sentinel.core.catalog import Catalog
from sentinel.core.clock import SimClock
from sentinel.core.config import load_config
from sentinel.world.state import World, WriteReentered, open_page_reader


@pytest.fixture
async def world():
    db = await aiosqlite.connect(":memory:", isolation_level=None)
    await db.execute("CREATE TABLE t (v INTEGER)")
    yield World("micromail", db, Catalog(load_config().catalogs_dir, "micromail"), SimClock(1.0),
                datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    await db.close()


async def count(world: World) -> int:
    return await world.fetch_value("SELECT COUNT(*) FROM t")


async def test_reentering_write_raises_a_clear_error_and_rolls_the_outer_write_back(world):
    async def apply_that_writes_again() -> None:  # what a careless event's apply would do
        async with world.write() as db:
            await db.execute("INSERT INTO t VALUES (1)")
            async with world.write():
                pass

    with pytest.raises(WriteReentered, match=r"re-entered.*use world\.db"):
        await asyncio.wait_for(apply_that_writes_again(), timeout=5)
    assert await count(world) == 0
    async with world.write() as db:  # the lock was released: the next write works
        await db.execute("INSERT INTO t VALUES (2)")
    assert await count(world) == 1


async def test_writes_of_different_tasks_take_turns(world):
    order: list[str] = []

    async def writer(name: str) -> None:
        async with world.write() as db:
            order.append(f"{name} in")
            await db.execute("INSERT INTO t VALUES (1)")
            await asyncio.sleep(0)  # yield inside the transaction: the other task must wait
            order.append(f"{name} out")

    await asyncio.wait_for(asyncio.gather(writer("a"), writer("b")), timeout=5)
    assert order == ["a in", "a out", "b in", "b out"] and await count(world) == 2


async def test_a_writer_cancelled_at_any_await_leaves_no_transaction_open(world):
    """A handler cancelled because its client went away (100 spamming agents found this): whether the
    cancel lands on BEGIN, inside the body or on COMMIT, the next writer and grading find no
    transaction left open."""
    async def writer(pause: float) -> None:
        async with world.write() as db:
            await asyncio.sleep(pause)
            await db.execute("CREATE TABLE IF NOT EXISTS t (x)")

    for delay in (0, 0.0001, 0.001, 0.005, 0.02):
        task = asyncio.create_task(writer(0.01))
        await asyncio.sleep(delay)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        async with world.write() as db:  # would fail "cannot start a transaction within a transaction"
            await db.execute("SELECT 1")
        assert not world.db.in_transaction


@pytest.fixture
async def wal_world(tmp_path):
    """A World as a session builds it: a WAL file database with a read-only page reader."""
    path = tmp_path / "state.db"
    db = await aiosqlite.connect(path, isolation_level=None)
    db.row_factory = aiosqlite.Row
    await db.execute("PRAGMA journal_mode = WAL")
    await db.execute("CREATE TABLE t (v INTEGER)")
    world = World("micromail", db, Catalog(load_config().catalogs_dir, "micromail"), SimClock(1.0),
                  datetime(2026, 3, 2, 9, 0, tzinfo=UTC), reader=open_page_reader(path))
    yield world
    world.close_reader()
    await db.close()


async def test_reads_outside_a_write_run_on_the_page_reader_without_a_thread_hop(wal_world):
    async with wal_world.write() as db:
        await db.execute("INSERT INTO t VALUES (7)")
    calls: list[str] = []
    wal_world.reader.set_trace_callback(calls.append)
    row = await wal_world.fetch_one("SELECT v FROM t")
    assert row["v"] == 7 and calls == ["SELECT v FROM t"]  # by name, like aiosqlite rows
    assert [r["v"] for r in await wal_world.fetch_all("SELECT v FROM t")] == [7]


async def test_a_read_inside_a_write_sees_its_own_uncommitted_rows(wal_world):
    async with wal_world.write() as db:
        await db.execute("INSERT INTO t VALUES (1)")
        assert await count(wal_world) == 1  # on the writer: its own transaction
        outside = asyncio.create_task(count(wal_world))  # another task: committed rows only
        assert await outside == 0
    assert await count(wal_world) == 1


async def test_the_version_changes_when_a_write_commits_even_without_new_rows(wal_world):
    """A page rendered from the reader while another task's write is open shows the old rows, and
    its cache key must not hold once that write commits (the commit adds no row count)."""
    async with wal_world.write() as db:
        await db.execute("INSERT INTO t VALUES (1)")
        during = wal_world.version
        assert await asyncio.create_task(count(wal_world)) == 0
    assert wal_world.version != during and await count(wal_world) == 1


async def test_the_page_reader_refuses_writes(wal_world):
    with pytest.raises(sqlite3.OperationalError):
        wal_world.reader.execute("INSERT INTO t VALUES (1)")
