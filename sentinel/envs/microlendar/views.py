"""MicroLendar's pages (GET, relative to /microlendar): month, week, day and schedule views, an event,
the event form, tasks and search. actions.py adds the POSTs."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import groupby
from operator import itemgetter
from typing import Any

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.microlendar import calendar as cal
from sentinel.envs.microlendar import queries as q
from sentinel.envs.microlendar.events import parse_day, today_of
from sentinel.web.kit import BadInput, fetch_or_404, mark_seen, paged, text_param, url_for, world_of
from sentinel.web.render import render

GONE = "This event no longer exists."
SCHEDULE_PER_PAGE = 30
MONTH_CHIPS = 3
HOURS_SHOWN = (7, 22)  # the week view's first and last hour rows (earlier or later events widen it)
routes = Routes()


# --- shared pieces ------------------------------------------------------------------------------


def hidden_of(request: web.Request) -> tuple[str, ...]:
    """The calendars the `hide` parameter hides ("work,family"); unknown names are bad input."""
    names = {n.strip() for n in request.query.get("hide", "").split(",") if n.strip()}
    unknown = sorted(names - set(cal.CATEGORIES))
    if unknown:
        raise BadInput(f"Unknown calendar {unknown[0]!r}: choose among work, personal and family.")
    return tuple(c for c in cal.CATEGORIES if c in names)


def calendars_redirect(request: web.Request) -> None:
    """The "My calendars" form sends the ticked calendars as `show`: redirect to the same page's `hide` URL
    (so a reload or live refresh keeps the choice)."""
    if "calendars" not in request.query:
        return
    shown = set(request.query.getall("show", []))
    keep = [(k, v) for k, v in request.query.items() if k not in ("calendars", "show", "hide")]
    hidden = ",".join(c for c in cal.CATEGORIES if c not in shown)
    if hidden:
        keep.append(("hide", hidden))
    raise web.HTTPFound(str(request.rel_url.with_query(keep)))


def day_param(request: web.Request, name: str = "day") -> date:
    day = parse_day(request.match_info[name])
    if day is None:
        raise web.HTTPNotFound(text="There is no such date.")
    return day


async def live_row(request: web.Request, columns: str, table: str = "events") -> Any:
    """The event (or to-do) the URL names, unless deleted: a 404 page otherwise."""
    gone = GONE if table == "events" else "This task no longer exists."
    return await fetch_or_404(request, f"SELECT {columns} FROM {table} WHERE id = ? AND deleted = 0",
                              (request.match_info["id"],), gone)


async def frame(request: web.Request, focus: date, hidden: tuple[str, ...], view: str) -> dict[str, Any]:
    """What the sidebar and view switcher need: the mini month of `focus`, today, the calendars ticked, the view."""
    return {"today": await today_of(world_of(request)), "focus": focus, "view": view, "hidden": hidden,
            "hide_query": {"hide": ",".join(hidden)} if hidden else {},
            "mini": cal.month_grid(focus.year, focus.month), "mini_title": f"{focus:%B %Y}",
            "calendars": [(c, cal.CATEGORY_LABELS[c], c not in hidden) for c in cal.CATEGORIES],
            "iso": date.isoformat, "request_query": request.query}


# --- redirects to the current period ------------------------------------------------------------


@routes.get("/day", "day_now")
@routes.get("/week", "week_now")
@routes.get("/month", "month_now")
@routes.get("/", "home")
async def this_period(request: web.Request) -> web.StreamResponse:
    """The month (the home page), week or day that holds today."""
    today, view = await today_of(world_of(request)), request.path.rsplit("/", 1)[1]
    if view in ("week", "day"):
        raise web.HTTPFound(url_for(request, view, day=today.isoformat()))
    raise web.HTTPFound(url_for(request, "month", year=today.year, month=f"{today.month:02d}"))


# --- periods ------------------------------------------------------------------------------------


@routes.get("/month/{year:\\d{4}}/{month:\\d{2}}", "month")
async def month_view(request: web.Request) -> web.StreamResponse:
    calendars_redirect(request)
    year, month = int(request.match_info["year"]), int(request.match_info["month"])
    if not 1 <= month <= 12 or year < 1900:
        raise web.HTTPNotFound(text="There is no such month.")
    hidden, first, grid = hidden_of(request), date(year, month, 1), cal.month_grid(year, month)
    events = await q.events_between(world_of(request), grid[0][0], grid[-1][-1] + timedelta(days=1), hidden)
    days = q.by_day(events)

    def cell(d: date) -> dict[str, Any]:
        found = days.get(d.isoformat(), [])
        return {"date": d, "iso": d.isoformat(), "events": found[:MONTH_CHIPS],
                "more": max(0, len(found) - MONTH_CHIPS), "outside": d.month != month}
    return await render(request, "microlendar/month.html", {
        **await frame(request, first, hidden, "month"), "title": f"{first:%B %Y}",
        "weeks": [[cell(d) for d in week] for week in grid],
        "count": sum(1 for e in events if e["day"][:7] == f"{first:%Y-%m}"),
        "prev": cal.shift_month(year, month, -1), "next": cal.shift_month(year, month, 1),
        "weekdays": [f"{d:%a}" for d in grid[0]]})


def columns(day: date, events: list[dict]) -> dict[str, Any]:
    """One day's column: all-day events on top, timed ones placed side by side."""
    return {"date": day, "iso": day.isoformat(), "all_day": [e for e in events if e["all_day"]],
            "placed": cal.side_by_side([e for e in events if not e["all_day"]]), "label": f"{day:%a} {day.day}"}


def hour_range(days: list[dict]) -> tuple[int, int]:
    """The hours the time grid shows: 7am–10pm, widened to fit earlier or later events."""
    placed = [p for column in days for p in column["placed"]]
    return (min([HOURS_SHOWN[0], *(p.top // 60 for p in placed)]),
            max([HOURS_SHOWN[1], *((p.top + p.length - 1) // 60 for p in placed)]))


@routes.get("/week/{day}", "week")
async def week_view(request: web.Request) -> web.StreamResponse:
    calendars_redirect(request)
    day, hidden, world = day_param(request), hidden_of(request), world_of(request)
    week = cal.week_days(day)
    events = q.by_day(await q.events_between(world, week[0], week[-1] + timedelta(days=1), hidden))
    days = [columns(d, events.get(d.isoformat(), [])) for d in week]
    now = cal.calendar_now(await today_of(world), world.now())
    first_hour, last_hour = hour_range(days)
    return await render(request, "microlendar/week.html", {
        **await frame(request, day, hidden, "week"), "days": days, "count": sum(len(v) for v in events.values()),
        "title": f"{week[0]:%b} {week[0].day} – {week[-1]:%b} {week[-1].day}, {week[-1].year}",
        "hours": list(range(first_hour, last_hour + 1)), "first_hour": first_hour,
        "now_minutes": now.hour * 60 + now.minute, "now_label": cal.clock(f"{now:%H:%M}"),
        "prev": (week[0] - timedelta(days=7)).isoformat(), "next": (week[0] + timedelta(days=7)).isoformat()})


@routes.get("/day/{day}", "day")
async def day_view(request: web.Request) -> web.StreamResponse:
    calendars_redirect(request)
    day, hidden, world = day_param(request), hidden_of(request), world_of(request)
    events = await q.events_between(world, day, day + timedelta(days=1), hidden)
    column = columns(day, events)
    first_hour, last_hour = hour_range([column])
    now = cal.calendar_now(await today_of(world), world.now())
    hours = [{"hour": h, "label": cal.clock(f"{h:02d}:00").replace(":00", ""),
              "events": [p for p in column["placed"] if p.top // 60 == h], "now": now.date() == day and now.hour == h}
             for h in range(first_hour, last_hour + 1)]
    return await render(request, "microlendar/day.html", {
        **await frame(request, day, hidden, "day"), "column": column, "hours": hours, "count": len(events),
        "title": cal.long_date(day), "now_label": cal.clock(f"{now:%H:%M}"),
        "prev": (day - timedelta(days=1)).isoformat(), "next": (day + timedelta(days=1)).isoformat()})


@routes.get("/schedule", "schedule")
async def schedule_view(request: web.Request) -> web.StreamResponse:
    calendars_redirect(request)
    hidden, today = hidden_of(request), await today_of(world_of(request))
    start = parse_day(request.query.get("from") or today.isoformat())
    end = parse_day(request.query["to"]) if request.query.get("to") else None
    if start is None or (request.query.get("to") and end is None):
        raise BadInput("Dates are written YYYY-MM-DD, for example 2025-06-17.")
    clause, params = q.hidden_clause(hidden)
    where = f"e.deleted = 0 AND e.start_at >= ?{clause}"
    bound: tuple[str, ...] = (start.isoformat(), *params)
    if end is not None:
        where += " AND e.start_at < ?"
        bound += ((end + timedelta(days=1)).isoformat(),)
    listing = await paged(
        request, per_page=SCHEDULE_PER_PAGE, params=bound, row=q.event_row,
        count_sql=f"SELECT COUNT(*) FROM events e WHERE {where}",
        rows_sql=f"SELECT {q.EVENT_COLUMNS} FROM events e WHERE {where} ORDER BY substr(e.start_at, 1, 10), {q.ORDER}")
    days = groupby(listing.rows, key=itemgetter("day"))
    return await render(request, "microlendar/schedule.html", {
        **await frame(request, start, hidden, "schedule"), "list": listing, "start": start, "end": end,
        "groups": [(cal.short_date(date.fromisoformat(d)), d, list(evs)) for d, evs in days]})


# --- one event ------------------------------------------------------------------------------------


@routes.get("/event/new", "event_new")
async def event_new(request: web.Request) -> web.StreamResponse:
    day = parse_day(request.query.get("date", "")) or await today_of(world_of(request))
    return await event_form(request, {"title": "", "date": day.isoformat(), "start": "10:00", "end": "11:00",
                                      "category": "work", "location": "", "description": "", "all_day": False}, None)


async def event_form(request: web.Request, form: dict[str, Any], event_id: str | None, error: str | None = None,
                     status: int = 200) -> web.Response:
    return await render(request, "microlendar/form.html", {
        "form": form, "event_id": event_id, "error": error, "labels": cal.CATEGORY_LABELS,
        "heading": "Edit event" if event_id else "New event"}, status=status)


@routes.get("/event/{id}", "event")
async def event_view(request: web.Request) -> web.StreamResponse:
    """Opening an event marks it viewed (the one GET side effect, skipped for live refreshes)."""
    event_id = (await live_row(request, "id"))["id"]
    await mark_seen(request, "UPDATE events SET viewed = 1 WHERE id = ? AND deleted = 0", (event_id,))
    event = await q.event_detail(world_of(request), event_id)
    if event is None:
        raise web.HTTPNotFound(text=GONE)
    return await render(request, "microlendar/event.html", {
        "e": event, "long_day": cal.long_date(date.fromisoformat(event["day"])),
        "responses": [("yes", "Yes"), ("maybe", "Maybe"), ("no", "No")]})


@routes.get("/event/{id}/edit", "event_edit")
async def event_edit(request: web.Request) -> web.StreamResponse:
    row = await live_row(request, "*")
    return await event_form(request, {
        **{key: row[key] for key in ("title", "category", "location", "description")}, "date": row["start_at"][:10],
        "start": row["start_at"][11:16], "end": row["end_at"][11:16], "all_day": bool(row["all_day"])}, row["id"])


# --- tasks and search ------------------------------------------------------------------------------


@routes.get("/tasks", "tasks")
async def tasks_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    listing = await paged(request, per_page=50, count_sql="SELECT COUNT(*) FROM tasks WHERE deleted = 0",
                          rows_sql="SELECT * FROM tasks WHERE deleted = 0 ORDER BY completed, "
                          "due_date IS NULL, due_date, created_at DESC, rowid DESC")
    done_count = int(await world.fetch_value("SELECT COUNT(*) FROM tasks WHERE deleted = 0 AND completed = 1") or 0)
    today = (await today_of(world)).isoformat()

    def due(d: str | None) -> str:
        return "" if not d else ("Today" if d == today else cal.short_date(date.fromisoformat(d)))
    return await render(request, "microlendar/tasks.html",
                        {"list": listing, "done_count": done_count, "today": today, "due": due})


@routes.get("/search", "search")
async def search_view(request: web.Request) -> web.StreamResponse:
    query = text_param(request.query, "q", max_len=200, label="The search")
    listing = None
    if query:
        where, params = q.search_where(query)
        listing = await paged(
            request, per_page=20, params=params, row=q.event_row,
            count_sql=f"SELECT COUNT(*) FROM events e WHERE e.deleted = 0 AND {where}",
            rows_sql=f"SELECT {q.EVENT_COLUMNS} FROM events e WHERE e.deleted = 0 AND {where} "
            "ORDER BY e.start_at DESC, e.rowid DESC")
    return await render(request, "microlendar/search.html",
                        {"query": query, "list": listing, "short": lambda d: cal.short_date(date.fromisoformat(d))})
