"""MicroScholar: a scholar search over an index that grows on the timeline, with a library, alerts
and profiles (docs/environments.md#microscholar)."""

from __future__ import annotations

from sentinel.core.environment import Environment, Header, NavItem
from sentinel.envs.kit import arrived_count
from sentinel.envs.microscholar import views
from sentinel.envs.microscholar.events import EVENT_TYPES
from sentinel.envs.microscholar.kinds import KINDS
from sentinel.world.state import World

BASELINE_SQL = {
    "paper_count": arrived_count("papers"),
    "saved_count": arrived_count("papers", "saved = 1"),
    "unread_alert_count": arrived_count("alerts", "is_read = 0"),
    "alert_count": arrived_count("alerts"),
}


async def header(world: World) -> Header:
    """Unread alerts: the title's "(N) " and the Alerts entry's counter."""
    unread = int(await world.fetch_value("SELECT COUNT(*) FROM alerts WHERE is_read = 0") or 0)
    return Header(unread=unread, counts={"alerts": unread})


ENV = Environment(
    name="microscholar", title="MicroScholar", event_types=EVENT_TYPES, routes=views.routes, search="search",
    header=header, baseline_sql=BASELINE_SQL,
    nav=(NavItem("Home", "home"), NavItem("My library", "library"), NavItem("Alerts", "alerts", count="alerts"),
         NavItem("My profile", "profile", parts={"persona": "me"}), NavItem("Advanced search", "advanced")),
    serve_preload=lambda catalog: {"papers": "*", "alerts": "*"}, kinds=KINDS,  # every catalog item
)
