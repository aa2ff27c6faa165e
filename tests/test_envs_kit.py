"""The environment kit (sentinel/envs/kit.py): what every environment's events and queries share."""

from __future__ import annotations

import sqlite3

from sentinel.core.scenario import Event
from sentinel.envs.kit import arrived_count, contains, insert_timing, like_pattern

PRELOAD = Event(at=0, type="preload", fields={"age_offset_minutes": 30})
ARRIVAL = Event(at=125.5, type="new_item", fields={"item_id": "it01"})


def test_insert_timing_gives_a_preloaded_item_its_catalog_age_plus_the_offset():
    assert insert_timing(PRELOAD, {"age_minutes": 90}) == {"origin": "preload", "age_minutes": 120.0}
    assert insert_timing(PRELOAD, {}) == {"origin": "preload", "age_minutes": 30.0}


def test_insert_timing_younger_by_never_goes_past_the_start():
    assert insert_timing(PRELOAD, {"age_minutes": 90}, younger_by=20) == {"origin": "preload", "age_minutes": 100.0}
    assert insert_timing(PRELOAD, {"age_minutes": 5}, younger_by=60) == {"origin": "preload", "age_minutes": 0.0}


def test_insert_timing_puts_an_arrival_at_its_event_time_whatever_the_catalog_age():
    assert insert_timing(ARRIVAL, {"age_minutes": 90}) == {"origin": "event", "at": 125.5}
    assert insert_timing(ARRIVAL, {"age_minutes": 90}, younger_by=20) == {"origin": "event", "at": 125.5}


def found(texts: list[str], query: str) -> list[str]:
    """The texts a search for query finds, through SQLite's LIKE as the views run it."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (a TEXT, b TEXT)")
    db.executemany("INSERT INTO t VALUES (?, '')", [(text,) for text in texts])
    sql = f"SELECT a FROM t WHERE {contains('a', 'b')} ORDER BY rowid"
    return [row[0] for row in db.execute(sql, (like_pattern(query),) * 2)]


def test_a_search_finds_the_text_anywhere_ignoring_ascii_case():
    assert found(["Quarterly Invoice", "invoices due", "receipt"], "INVOICE") == ["Quarterly Invoice", "invoices due"]


def test_a_search_takes_percent_underscore_and_backslash_as_typed():
    texts = ["50% off", "500 off", "a_b", "axb", "C:\\temp", "C:temp"]
    assert found(texts, "50%") == ["50% off"]
    assert found(texts, "a_b") == ["a_b"]
    assert found(texts, ":\\") == ["C:\\temp"]


def test_contains_writes_one_placeholder_per_column():
    assert contains("title") == "(title LIKE ? ESCAPE '\\')"
    assert contains("v.title", "c.name").count("?") == 2


def test_arrived_count_leaves_the_agents_own_rows_out():
    assert arrived_count("emails") == "SELECT COUNT(*) FROM emails WHERE origin != 'self'"
    assert (arrived_count("emails", "is_read = 0", count="DISTINCT sender_id")
            == "SELECT COUNT(DISTINCT sender_id) FROM emails WHERE is_read = 0 AND origin != 'self'")
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE emails (folder TEXT, origin TEXT)")
    db.executemany("INSERT INTO emails VALUES (?, ?)", [("inbox", "preload"), ("inbox", "event"), ("inbox", "self"),
                                                          ("junk", "event")])
    assert db.execute(arrived_count("emails", "folder = 'inbox'")).fetchone() == (2,)
