"""InlineConnection: aiosqlite's API with every statement run on the event loop's thread."""

from __future__ import annotations

import asyncio
import threading

import aiosqlite
import pytest

from sentinel.world import inline_db


async def test_keeps_the_aiosqlite_api(tmp_path):
    db = await inline_db.connect(tmp_path / "x.db", isolation_level=None)
    assert isinstance(db, aiosqlite.Connection)
    db.row_factory = aiosqlite.Row
    await db.executescript("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
    await db.executemany("INSERT INTO t (name) VALUES (?)", [("a",), ("b",), ("c",)])
    async with db.execute("SELECT name FROM t WHERE id > ? ORDER BY id", (1,)) as cursor:
        rows = await cursor.fetchall()
    assert [row["name"] for row in rows] == ["b", "c"]
    async with db.execute("SELECT count(*) FROM t") as cursor:
        assert (await cursor.fetchone())[0] == 3
    assert db.total_changes == 3
    await db.close()
    with pytest.raises(ValueError):  # "no active connection", as aiosqlite says
        await db.execute("SELECT 1")


async def test_statements_run_on_the_loop_thread_without_yielding(tmp_path):
    db = await inline_db.connect(tmp_path / "x.db", isolation_level=None)
    threads = []
    await db.execute("CREATE TABLE t (x)")
    await db._execute(lambda: threads.append(threading.get_ident()))
    assert threads == [threading.get_ident()]
    # a callback queued before a whole transaction runs only after it: no statement yields
    order = []
    asyncio.get_running_loop().call_soon(order.append, "other")
    await db.execute("BEGIN")
    for i in range(50):
        await db.execute("INSERT INTO t VALUES (?)", (i,))
    await db.execute("COMMIT")
    order.append("transaction")
    await asyncio.sleep(0)
    assert order == ["transaction", "other"]
    await db.close()


async def test_errors_come_back_as_sqlite_errors(tmp_path):
    db = await inline_db.connect(tmp_path / "x.db", isolation_level=None)
    with pytest.raises(aiosqlite.OperationalError, match="no such table"):
        await db.execute("SELECT * FROM missing")
    await db.close()
    await db.close()  # closing twice is harmless
