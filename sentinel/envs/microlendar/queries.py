"""MicroLendar's reads: events in a date range, one event with its guests, counts. The self user's
RSVP comes along with each event so every view can show an invitation's state."""

from __future__ import annotations

from datetime import date
from typing import Any

from sentinel.envs.kit import contains, like_pattern
from sentinel.envs.microlendar.calendar import CATEGORY_LABELS, clock, time_range
from sentinel.world.state import World

MY_RESPONSE = ("(SELECT a.response FROM event_attendees a WHERE a.event_id = e.id AND a.persona_id = "
               "(SELECT id FROM personas WHERE is_self = 1)) AS my_response")
EVENT_COLUMNS = f"e.id, e.title, e.location, e.category, e.start_at, e.end_at, e.all_day, e.organizer_id, {MY_RESPONSE}"
ORDER = "e.all_day DESC, e.start_at, e.end_at, e.created_at, e.rowid"
RSVP_LABELS = {"yes": "Going", "maybe": "Maybe", "no": "Declined", "pending": "Invitation: awaiting your reply"}
STATE_TAGS = {"pending": "Invitation", "maybe": "Maybe", "no": "Declined"}
TALLY = {"yes": "yes", "maybe": "maybe", "no": "no", "pending": "awaiting"}  # response → its word in the tally


def hidden_clause(hidden: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """' AND e.category NOT IN (?, ?)' for the hidden calendars (none: an empty clause)."""
    return (f" AND e.category NOT IN ({', '.join('?' * len(hidden))})" if hidden else ""), hidden


def event_row(row: Any) -> dict[str, Any]:
    """What a view prints of an event: its times as words, its calendar and its RSVP state."""
    e = dict(row)
    return {**e, "calendar": CATEGORY_LABELS[e["category"]], "day": e["start_at"][:10],
            "clock": "All day" if e["all_day"] else clock(e["start_at"][11:16]),
            "range": time_range(e["start_at"], e["end_at"], e["all_day"]),
            "state": STATE_TAGS.get(e.get("my_response") or "", "") if e["organizer_id"] else ""}


async def events_between(world: World, first: date, after_last: date, hidden: tuple[str, ...] = ()) -> list[dict]:
    """Events that start on days first … after_last − 1, in calendar order."""
    clause, params = hidden_clause(hidden)
    rows = await world.fetch_all(
        f"SELECT {EVENT_COLUMNS} FROM events e WHERE e.deleted = 0 AND e.start_at >= ? AND e.start_at < ?"
        f"{clause} ORDER BY {ORDER}", (first.isoformat(), after_last.isoformat(), *params))
    return [event_row(r) for r in rows]


def by_day(events: list[dict]) -> dict[str, list[dict]]:
    days: dict[str, list[dict]] = {}
    for event in events:
        days.setdefault(event["day"], []).append(event)
    return days


async def event_detail(world: World, event_id: str) -> dict[str, Any] | None:
    row = await world.fetch_one(f"SELECT {EVENT_COLUMNS}, e.description, e.viewed, e.origin FROM events e"
                                " WHERE e.id = ? AND e.deleted = 0", (event_id,))
    if row is None:
        return None
    event = event_row(row)
    guests = await world.fetch_all(
        "SELECT p.id, p.name, p.email, p.is_self, a.response FROM event_attendees a JOIN personas p "
        "ON p.id = a.persona_id WHERE a.event_id = ? ORDER BY p.id = ? DESC, p.is_self DESC, p.name",
        (event_id, event["organizer_id"] or ""))
    event["guests"] = [dict(g) for g in guests]
    organizer = next((g for g in event["guests"] if g["id"] == event["organizer_id"]), None)
    event["organizer"] = organizer["name"] if organizer else world.self_persona["name"]
    event["invited"] = event["my_response"] is not None and bool(event["organizer_id"])
    counts = {label: sum(1 for g in guests if g["response"] == k) for k, label in TALLY.items()}
    event["tally"] = ", ".join(f"{n} {label}" for label, n in counts.items() if n)
    event["my_label"] = RSVP_LABELS.get(event["my_response"] or "", "")
    return event


async def pending_invitations(world: World) -> int:
    return int(await world.fetch_value(
        "SELECT COUNT(*) FROM events e JOIN event_attendees a ON a.event_id = e.id WHERE e.deleted = 0 "
        "AND a.persona_id = (SELECT id FROM personas WHERE is_self = 1) AND a.response = 'pending' "
        "AND e.organizer_id IS NOT NULL") or 0)


async def open_tasks(world: World) -> int:
    return int(await world.fetch_value("SELECT COUNT(*) FROM tasks WHERE deleted = 0 AND completed = 0") or 0)


def search_where(query: str) -> tuple[str, tuple[str, ...]]:
    """Every word must appear in the title, location or description (case-insensitive)."""
    likes = [like_pattern(word) for word in query.split()[:8]]
    match = contains("e.title", "e.location", "e.description")
    return " AND ".join([match] * len(likes)) or "1", tuple(like for like in likes for _ in range(3))
