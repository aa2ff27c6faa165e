"""What every environment's events and queries share: catalog selection, the preload type and its
rules, insert timing, baseline counts and text search.

Pure: no aiohttp. Page helpers (paging, 400s, toggles, url_for) are in sentinel.web.kit.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from sentinel.core.environment import EventType

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.scenario import Event, Scenario
    from sentinel.world.state import World

AGE_OFFSET = "age_offset_minutes"


def selected(catalog: Catalog, collection: str, value: Any) -> list[str]:
    """The ids a preload field names: "*" = the whole collection (file order), a list = those
    ids in order, one id = that id, None = none."""
    if value is None:
        return []
    if value == "*":
        return list(catalog.raw(collection))
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return [str(value)]


def age_offset(event: Event) -> float:
    """A preload's extra age for all its items, in minutes (validated ≥ 0 by preload_problems)."""
    return float(event.fields.get(AGE_OFFSET, 0) or 0)


def preloaded_age(event: Event, record: Mapping[str, Any]) -> float:
    """How old a preloaded catalog item is at the start: its age_minutes plus the offset."""
    return float(record.get("age_minutes", 0) or 0) + age_offset(event)


def insert_timing(event: Event, record: Mapping[str, Any], younger_by: float = 0.0) -> dict[str, Any]:
    """world.insert's timing arguments for a catalog record an event brings:
    `await world.insert(table, values, **insert_timing(event, record))`.

    The preload's items are as old as the catalog says (preloaded_age), `younger_by` minutes
    less but never younger than the start (a comment written after its post); an arrival is
    the event's moment, so a replay writes the same rows."""
    if event.type == "preload":
        return {"origin": "preload", "age_minutes": max(0.0, preloaded_age(event, record) - younger_by)}
    return {"origin": "event", "at": event.at}


def oldest_first(catalog: Catalog, collection: str, ids: list[str]) -> list[str]:
    """Preload order: oldest first, so insertion order (the tie-break for equal times) follows age."""
    records = catalog.raw(collection)
    return sorted(ids, key=lambda i: -float(records[i].get("age_minutes", 0) or 0))


def preload_type(apply: Callable[[World, Event], Awaitable[None]], collections: Mapping[str, str],
                 *, required: tuple[str, ...] = (), optional: tuple[str, ...] = (),
                 refs: Mapping[str, str] | None = None) -> EventType:
    """The environment's `preload`: one field per collection (list of ids or "*"), all inserting.

    collections: field name → catalog collection. refs: further id fields that only reference
    (a watchlist naming stocks). optional: further free fields; age_offset_minutes is implied.
    """
    return EventType(apply=apply, refs={**collections, **(refs or {})}, inserts=tuple(collections),
                     required=required, optional=(*optional, AGE_OFFSET), preload=True)


def preload_problems(event: Event, etype: EventType) -> list[tuple[str, str]]:
    """The rules every preload shares: at time 0, list-or-"*" id fields, a sane age offset."""
    where = f"events[{event.index}]"
    problems = []
    if event.at != 0:
        problems.append((f"{where}.at", "a preload must be at time 0"))
    for key in etype.inserts:
        value = event.fields.get(key)
        if value is not None and value != "*" and not isinstance(value, list):
            problems.append((f"{where}.{key}", 'expected a list of ids or "*"'))
    offset = event.fields.get(AGE_OFFSET, 0)
    if isinstance(offset, bool) or not isinstance(offset, (int, float)) or offset < 0:
        problems.append((f"{where}.{AGE_OFFSET}", "expected minutes ≥ 0"))
    return problems


def removed_before_arrival(scenario: Scenario, catalog: Catalog, collection: str, *, field: str, arrival: str,
                           removal: str, why: str) -> list[tuple[str, str]]:
    """A scenario check: an item is withdrawn (a `removal` event: a job closed, an event cancelled)
    only once it is there, preloaded (the preload's `collection` field) or brought by an earlier
    `arrival` event; each event names its item in `field`. `why` is the problem, "{id}" its id."""
    problems: list[tuple[str, str]] = []
    present: set[str] = set()
    for event in scenario.events:
        item = str(event.fields.get(field))
        if event.type == "preload":
            present |= set(selected(catalog, collection, event.fields.get(collection)))
        elif event.type == arrival:
            present.add(item)
        elif event.type == removal and item not in present:
            problems.append((f"events[{event.index}].{field}", why.format(id=item)))
    return problems


# --- baselines -----------------------------------------------------------------------------

NOT_OWN = "origin != 'self'"  # a row the world brought (preload or event), not one the agent wrote


def arrived_count(table: str, where: str = "", *, count: str = "*") -> str:
    """A baseline's SQL: how many rows of `table` the world brought, the agent's own left out,
    with `where` (conditions joined by AND) and `count` what COUNT counts ("DISTINCT thread_id").
    arrived_count("emails", "folder = 'inbox'") is
    "SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND origin != 'self'"."""
    return f"SELECT COUNT({count}) FROM {table} WHERE {f'{where} AND ' if where else ''}{NOT_OWN}"


# --- text search ---------------------------------------------------------------------------

def like_pattern(text: str) -> str:
    """The LIKE pattern that finds `text` anywhere, as typed: its %, _ and \\ match only
    themselves (the SQL says ESCAPE '\\', as `contains` writes it)."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def contains(*columns: str) -> str:
    """SQL that is true when any of the columns holds the searched text, one `?` per column, each
    bound to like_pattern(text): contains("title", "c.name") is
    "(title LIKE ? ESCAPE '\\' OR c.name LIKE ? ESCAPE '\\')" (LIKE ignores ASCII case)."""
    return "(" + " OR ".join(f"{column} LIKE ? ESCAPE '\\'" for column in columns) + ")"
