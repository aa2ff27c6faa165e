"""The environment kit (sentinel/envs/kit.py): what every environment's events and queries share."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import SimpleNamespace

from sentinel.core.catalog import Catalog
from sentinel.core.scenario import Event
from sentinel.envs.kit import arrived_count, contains, insert_timing, like_pattern, removed_before_arrival

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


def jobs_catalog(root: Path) -> Catalog:
    (root / "microjobs").mkdir()
    (root / "microjobs" / "jobs.jsonl").write_text("".join(json.dumps({"id": f"jb{n}"}) + "\n" for n in (1, 2, 3)))
    return Catalog(root, "microjobs")


def closings(catalog: Catalog, *events: Event) -> list[tuple[str, str]]:
    scenario = SimpleNamespace(events=events)  # all removed_before_arrival reads of a scenario
    return removed_before_arrival(scenario, catalog, "jobs", field="job_id", arrival="new_job", removal="close_job",
                                  why="{id} closes before it was posted")


def test_an_item_is_removed_only_once_it_is_there(tmp_path):
    catalog = jobs_catalog(tmp_path)
    preload = Event(0, "preload", {"jobs": ["jb1"]}, 0)
    assert closings(catalog, preload, Event(10, "close_job", {"job_id": "jb1"}, 1)) == []
    assert closings(catalog, preload, Event(10, "new_job", {"job_id": "jb2"}, 1),
                    Event(20, "close_job", {"job_id": "jb2"}, 2)) == []
    early = closings(catalog, preload, Event(10, "close_job", {"job_id": "jb2"}, 1),
                     Event(20, "new_job", {"job_id": "jb2"}, 2))
    assert early == [("events[1].job_id", "jb2 closes before it was posted")]


def test_a_preload_of_the_whole_collection_makes_every_item_present(tmp_path):
    catalog = jobs_catalog(tmp_path)
    assert closings(catalog, Event(0, "preload", {"jobs": "*"}, 0), Event(10, "close_job", {"job_id": "jb3"}, 1)) == []
    assert closings(catalog, Event(0, "preload", {}, 0), Event(10, "close_job", {"job_id": "jb3"}, 1)) != []
