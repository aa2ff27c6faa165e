"""MicroLendar's actions (POST): events created, edited, deleted and answered (RSVP), to-dos added,
ticked and deleted. Each answers 303 to the form's `next` page; a bad event form comes back with 400."""

from __future__ import annotations

from datetime import time
from typing import Any

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.microlendar.calendar import CATEGORIES
from sentinel.envs.microlendar.events import parse_day
from sentinel.envs.microlendar.views import event_form, live_row
from sentinel.web.kit import BadInput, choice_param, done, form_of, text_param, toggle, url_for, world_of

RESPONSES = {"yes": "You're going", "maybe": "You replied maybe", "no": "You declined"}
routes = Routes()


def clock_field(value: str, label: str) -> str:
    try:
        return f"{time.fromisoformat(value):%H:%M}"
    except ValueError:
        raise BadInput(f"{label} must be a time such as 09:30.") from None


def read_event(form: Any) -> dict[str, Any]:
    """The event form's fields, checked, as the event's columns; BadInput names the first one that is wrong."""
    title = text_param(form, "title", max_len=200, required="Title is required.")
    day = parse_day(form.get("date", "").strip())
    if day is None:
        raise BadInput("Date is required, written YYYY-MM-DD.")
    all_day = form.get("all_day") == "on"
    start, end = "00:00", "23:59"
    if not all_day:
        start = clock_field(form.get("start", "").strip() or "10:00", "Start")
        end = clock_field(form.get("end", "").strip() or start, "End")
        if end < start:
            raise BadInput("End must not come before start.")
    category = form.get("category", "work")
    if category not in CATEGORIES:
        raise BadInput("Calendar must be Work, Personal or Family.")
    return {"title": title, "description": str(form.get("description", "")).strip()[:4000],
            "location": text_param(form, "location", max_len=200), "category": category,
            "start_at": f"{day}T{start}", "end_at": f"{day}T{end}", "all_day": int(all_day)}


def echo(form: Any) -> dict[str, Any]:
    """The submitted values, to re-render the form after an error."""
    keys = ("title", "date", "start", "end", "category", "location", "description")
    return {**{k: str(form.get(k, "")) for k in keys}, "all_day": form.get("all_day") == "on"}


@routes.post("/event/{id}/edit", "event_update")
@routes.post("/event", "event_create")
async def save_event(request: web.Request) -> web.StreamResponse:
    """A new event (POST /event) or the edited one the URL names."""
    world, form = world_of(request), await form_of(request)
    editing = (await live_row(request, "id"))["id"] if "id" in request.match_info else None
    try:
        values = read_event(form)
    except BadInput as exc:
        return await event_form(request, echo(form), editing, str(exc), status=400)
    event_id = editing or await world.next_self_id("events")
    async with world.write() as db:
        if editing:
            await db.execute(f"UPDATE events SET {', '.join(f'{k} = ?' for k in values)} WHERE id = ?",
                             (*values.values(), event_id))
        else:
            await world.insert("events", {"id": event_id, **values}, origin="self")
    raise done(request, {}, "Event saved" if editing else "Event created", url_for(request, "event", id=event_id))


@routes.post("/event/{id}/delete", "event_delete")
async def delete_event(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    row = await live_row(request, "id, start_at")
    async with world.write() as db:
        await db.execute("UPDATE events SET deleted = 1 WHERE id = ?", (row["id"],))
    raise done(request, form, "Event deleted", url_for(request, "day", day=row["start_at"][:10]))


@routes.post("/event/{id}/rsvp", "rsvp")
async def rsvp(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    response = choice_param(form, "response", tuple(RESPONSES), "", "Choose Yes, Maybe or No.")
    row = await live_row(request, "id, organizer_id")
    me = world.self_persona["id"]
    if not await world.fetch_value("SELECT 1 FROM event_attendees WHERE event_id = ? AND persona_id = ?",
                                   (row["id"], me)) or not row["organizer_id"]:
        raise BadInput("You organise this event: there is no invitation to answer.")
    async with world.write() as db:
        await db.execute("UPDATE event_attendees SET response = ? WHERE event_id = ? AND persona_id = ?",
                         (response, row["id"], me))
    raise done(request, form, RESPONSES[response], url_for(request, "event", id=row["id"]))


@routes.post("/tasks", "task_create")
async def create_task(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    title = text_param(form, "title", max_len=200, required="A task needs a title.")
    due = form.get("due_date", "").strip()
    if due and parse_day(due) is None:
        raise BadInput("The due date is written YYYY-MM-DD.")
    task_id = await world.next_self_id("tasks")
    async with world.write():
        await world.insert("tasks", {"id": task_id, "title": title, "due_date": due or None}, origin="self")
    raise done(request, form, "Task added", url_for(request, "tasks"))


@routes.post("/tasks/{id}/toggle", "task_toggle")
async def toggle_task(request: web.Request) -> web.StreamResponse:
    form = await form_of(request)
    row = await live_row(request, "id", "tasks")
    finished = await toggle(request, "tasks", "completed", row["id"])
    raise done(request, form, "Task completed" if finished else "Task reopened", url_for(request, "tasks"))


@routes.post("/tasks/{id}/delete", "task_delete")
async def delete_task(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    row = await live_row(request, "id", "tasks")
    async with world.write() as db:
        await db.execute("UPDATE tasks SET deleted = 1 WHERE id = ?", (row["id"],))
    raise done(request, form, "Task deleted", url_for(request, "tasks"))
