"""MicroLendar's events: `preload` (the calendar, the to-dos and today's date), `new_event`,
`cancel_event` (the organizer withdraws it: gone everywhere) and `new_task`. Catalog events carry a
day offset from today, so a scenario's dates never drift: the preload's `today` makes them dates."""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from sentinel.core.environment import EventType
from sentinel.envs.kit import oldest_first, preload_type, preloaded_age, selected

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Event, Scenario
    from sentinel.world.state import World

DEFAULT_TODAY = "2025-06-17"
TODAY_SQL = "(SELECT value FROM session_meta WHERE key = 'today')"


def parse_day(text: Any) -> date | None:
    """A 'YYYY-MM-DD' text as a date, or None when it is not one."""
    if not isinstance(text, str):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


async def today_of(world: World) -> date:
    """The calendar's today (session_meta), set by the preload."""
    return parse_day(await world.fetch_value(f"SELECT {TODAY_SQL}")) or date.fromisoformat(DEFAULT_TODAY)


def event_times(record: dict[str, Any], today: date) -> tuple[str, str, int]:
    """start_at, end_at and all_day of a catalog event on the calendar of `today`."""
    day = (today + timedelta(days=int(record["day_offset"]))).isoformat()
    if record.get("all_day"):
        return f"{day}T00:00", f"{day}T23:59", 1
    return f"{day}T{record['start']}", f"{day}T{record['end']}", 0


def _when(event: Event, record: dict[str, Any]) -> dict[str, Any]:
    if event.type == "preload":
        return {"origin": "preload", "age_minutes": preloaded_age(event, record)}
    return {"origin": "event", "at": event.at}


async def insert_event(world: World, event: Event, event_id: str, today: date) -> None:
    record = world.catalog.get("events", event_id)
    start_at, end_at, all_day = event_times(record, today)
    await world.insert("events", {
        "id": event_id, "title": record["title"], "description": record.get("description", ""),
        "location": record.get("location", ""), "category": record["category"], "start_at": start_at,
        "end_at": end_at, "all_day": all_day, "organizer_id": record.get("organizer_id")}, **_when(event, record))
    await world.db.executemany("INSERT OR REPLACE INTO event_attendees (event_id, persona_id, response) VALUES "
                               "(?, ?, ?)", [(event_id, pid, answer) for pid, answer in record.get("attendees", [])])


async def insert_task(world: World, event: Event, task_id: str, today: date) -> None:
    record = world.catalog.get("tasks", task_id)
    due = record.get("due_offset")
    due_date = None if due is None else (today + timedelta(days=int(due))).isoformat()
    await world.insert("tasks", {"id": task_id, "title": record["title"], "notes": record.get("notes", ""),
                                 "due_date": due_date, "completed": int(bool(record.get("completed")))},
                       **_when(event, record))


async def apply_preload(world: World, event: Event) -> None:
    today = parse_day(event.fields.get("today", DEFAULT_TODAY)) or date.fromisoformat(DEFAULT_TODAY)
    await world.set_meta("today", today.isoformat())
    catalog = world.catalog
    for event_id in oldest_first(catalog, "events", selected(catalog, "events", event.fields.get("events"))):
        await insert_event(world, event, event_id, today)
    for task_id in oldest_first(catalog, "tasks", selected(catalog, "tasks", event.fields.get("tasks"))):
        await insert_task(world, event, task_id, today)


async def apply_new_event(world: World, event: Event) -> None:
    await insert_event(world, event, str(event.fields["event_id"]), await today_of(world))


async def apply_cancel_event(world: World, event: Event) -> None:
    """The organizer withdraws the invitation: the event is gone from every view (deleted=1)."""
    await world.db.execute("UPDATE events SET deleted = 1 WHERE id = ?", (str(event.fields["event_id"]),))


async def apply_new_task(world: World, event: Event) -> None:
    await insert_task(world, event, str(event.fields["task_id"]), await today_of(world))


def preload_problems(event: Event) -> list[tuple[str, str]]:
    """MicroLendar's own preload rule: `today` must be a date."""
    value = event.fields.get("today")
    if value is not None and parse_day(value) is None:
        return [(f"events[{event.index}].today", f"expected a date YYYY-MM-DD, got {value!r}")]
    return []


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """The scenario rules the generic validator cannot know: the preload's `today` is a date; an
    event is cancelled only after it arrived (or was preloaded)."""
    problems: list[tuple[str, str]] = []
    present: set[str] = set()
    for event in scenario.events:
        where = f"events[{event.index}]"
        if event.type == "preload":
            problems += preload_problems(event)
            ids = event.fields.get("events")
            present |= set(catalog.raw("events")) if ids == "*" else set(map(str, ids or []))
            continue
        if event.type == "new_event":
            present.add(str(event.fields.get("event_id")))
        elif event.type == "cancel_event" and str(event.fields.get("event_id")) not in present:
            problems.append((f"{where}.event_id", "cancels an event that is not on the calendar yet"))
    return problems


EVENT_TYPES = {
    "preload": preload_type(apply_preload, {"events": "events", "tasks": "tasks"}, optional=("today",)),
    "new_event": EventType(apply=apply_new_event, refs={"event_id": "events"}, inserts=("event_id",),
                           required=("event_id",)),
    "cancel_event": EventType(apply=apply_cancel_event, refs={"event_id": "events"}, required=("event_id",)),
    "new_task": EventType(apply=apply_new_task, refs={"task_id": "tasks"}, inserts=("task_id",), required=("task_id",)),
}
