"""MicroLendar: a calendar of month, week, day and schedule views, invitations answered Yes / Maybe /
No, and to-dos (docs/environments.md#microlendar). An event's description shows only on its page."""

from __future__ import annotations

from sentinel.core.environment import Environment, Header, NavItem
from sentinel.envs.kit import arrived_count
from sentinel.envs.microlendar import actions, views
from sentinel.envs.microlendar import queries as q
from sentinel.envs.microlendar.events import EVENT_TYPES, TODAY_SQL, check_scenario
from sentinel.envs.microlendar.kinds import KINDS
from sentinel.world.state import World

LIVE = "deleted = 0"  # not cancelled
BASELINE_SQL = {
    "event_count": arrived_count("events", LIVE),
    "today_event_count": arrived_count("events", f"{LIVE} AND date(start_at) = {TODAY_SQL}"),
    "work_event_count": arrived_count("events", f"{LIVE} AND category = 'work'"),
    "work_next_14d_count": arrived_count("events", f"{LIVE} AND category = 'work' "
                                         f"AND date(start_at) BETWEEN {TODAY_SQL} AND date({TODAY_SQL}, '+14 days')"),
    "personal_event_count": arrived_count("events", f"{LIVE} AND category = 'personal'"),
    "family_event_count": arrived_count("events", f"{LIVE} AND category = 'family'"),
    "task_count": arrived_count("tasks", LIVE),
    "conflict_count": "SELECT COUNT(*) FROM events a JOIN events b ON a.id < b.id "
    "AND date(a.start_at) = date(b.start_at) AND a.start_at < b.end_at AND b.start_at < a.end_at "
    "WHERE a.all_day = 0 AND b.all_day = 0 AND a.deleted = 0 AND b.deleted = 0 "
    "AND a.origin != 'self' AND b.origin != 'self'",
}


async def header(world: World) -> Header:
    """Pending invitations are the main unread count (the title's "(N) "); open to-dos beside Tasks."""
    return Header(unread=await q.pending_invitations(world), counts={"open_tasks": await q.open_tasks(world)})


ENV = Environment(
    name="microlendar", title="MicroLendar", event_types=EVENT_TYPES,
    routes=views.routes + actions.routes, search="search", kinds=KINDS, check_scenario=check_scenario,
    nav=(NavItem("Month", "month_now"), NavItem("Week", "week_now"), NavItem("Day", "day_now"),
         NavItem("Schedule", "schedule"), NavItem("Tasks", "tasks", count="open_tasks"),
         NavItem("Create", "event_new")),
    header=header, baseline_sql=BASELINE_SQL, serve_preload=lambda catalog: {"events": "*", "tasks": "*"},
)
