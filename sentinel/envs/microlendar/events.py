"""MicroLendar's events: `preload` (the calendar, to-dos, today's date), `new_event`, `cancel_event` (withdrawn:
gone everywhere), `new_task`. Catalog events carry a day offset from the preload's `today`, so dates never drift."""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from sentinel.core.environment import EventType
from sentinel.envs.kit import insert_timing, oldest_first, preload_type, removed_before_arrival, selected

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Event, Scenario
    from sentinel.world.state import World

DEFAULT_TODAY = "2025-06-17"
TODAY_SQL = "(SELECT value FROM session_meta WHERE key = 'today')"


def parse_day(text: Any) -> date | None:
    """A 'YYYY-MM-DD' text as a date, or None when it is not one."""
    try:
        return date.fromisoformat(text) if isinstance(text, str) else None
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


async def insert(world: World, event: Event, table: str, item_id: str, today: date) -> None:
    """One catalog event (its day offset a date on the calendar of `today`, with its guests) or to-do."""
    record = world.catalog.get(table, item_id)
    if table == "tasks":
        due = record.get("due_offset")
        await world.insert("tasks", {
            "id": item_id, "title": record["title"], "notes": record.get("notes", ""),
            "due_date": None if due is None else (today + timedelta(days=int(due))).isoformat(),
            "completed": int(bool(record.get("completed")))}, **insert_timing(event, record))
        return
    start_at, end_at, all_day = event_times(record, today)
    await world.insert("events", {
        "id": item_id, "title": record["title"], "description": record.get("description", ""),
        "location": record.get("location", ""), "category": record["category"], "start_at": start_at,
        "end_at": end_at, "all_day": all_day, "organizer_id": record.get("organizer_id")},
        **insert_timing(event, record))
    await world.db.executemany("INSERT OR REPLACE INTO event_attendees (event_id, persona_id, response) VALUES "
                               "(?, ?, ?)", [(item_id, pid, answer) for pid, answer in record.get("attendees", [])])


async def apply_preload(world: World, event: Event) -> None:
    today = parse_day(event.fields.get("today", DEFAULT_TODAY)) or date.fromisoformat(DEFAULT_TODAY)
    await world.set_meta("today", today.isoformat())
    for table in ("events", "tasks"):
        for item_id in oldest_first(world.catalog, table, selected(world.catalog, table, event.fields.get(table))):
            await insert(world, event, table, item_id, today)


def arrival(table: str, field: str) -> EventType:
    """new_event or new_task: the one catalog item `field` names, dated on the calendar's today."""
    async def apply(world: World, event: Event) -> None:
        await insert(world, event, table, str(event.fields[field]), await today_of(world))
    return EventType(apply=apply, refs={field: table}, inserts=(field,), required=(field,))


async def apply_cancel_event(world: World, event: Event) -> None:
    """The organizer withdraws the invitation: the event is gone from every view (deleted=1)."""
    await world.db.execute("UPDATE events SET deleted = 1 WHERE id = ?", (str(event.fields["event_id"]),))


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """The preload's `today` is a date; an event is cancelled only after it arrived (or was preloaded)."""
    problems: list[tuple[str, str]] = []
    for event in scenario.events:
        today = event.fields.get("today")
        if event.type == "preload" and today is not None and parse_day(today) is None:
            problems.append((f"events[{event.index}].today", f"expected a date YYYY-MM-DD, got {today!r}"))
    return problems + removed_before_arrival(scenario, catalog, "events", field="event_id", arrival="new_event",
                                             removal="cancel_event",
                                             why="cancels an event that is not on the calendar yet")


EVENT_TYPES = {
    "preload": preload_type(apply_preload, {"events": "events", "tasks": "tasks"}, optional=("today",)),
    "new_event": arrival("events", "event_id"),
    "cancel_event": EventType(apply=apply_cancel_event, refs={"event_id": "events"}, required=("event_id",)),
    "new_task": arrival("tasks", "task_id"),
}
