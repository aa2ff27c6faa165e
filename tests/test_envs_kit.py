"""The environment kit (sentinel/envs/kit.py): what every environment's events and queries share."""

from __future__ import annotations

from sentinel.core.scenario import Event
from sentinel.envs.kit import insert_timing

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
