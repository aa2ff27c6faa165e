"""MicroDin: a professional network (docs/environments.md#microdin): feed, invitations, messaging, notifications,
profiles, companies and a job board whose postings show their requirements (and Easy Apply) only on their page."""

from __future__ import annotations

from sentinel.core.environment import Environment, Header, NavItem
from sentinel.envs.kit import arrived_count
from sentinel.envs.microdin import actions, views
from sentinel.envs.microdin.events import COLLECTIONS, EVENT_TYPES, check_scenario
from sentinel.envs.microdin.kinds import KINDS
from sentinel.world.state import World

BASELINE_SQL = {
    "post_count": arrived_count("posts"),
    "pending_invitation_count": "SELECT COUNT(*) FROM invitations WHERE status = 'pending'",
    "unread_message_count": "SELECT COUNT(*) FROM messages WHERE is_read = 0",
    "unread_conversation_count": "SELECT COUNT(DISTINCT conversation_id) FROM messages WHERE is_read = 0",
    "unread_notification_count": "SELECT COUNT(*) FROM notifications WHERE is_read = 0",
    "job_count": "SELECT COUNT(*) FROM jobs WHERE closed = 0",
    "applied_job_count": "SELECT COUNT(*) FROM jobs WHERE applied = 1",
}


async def header(world: World) -> Header:
    """Unread notifications lead the title; the nav counts pending invitations, unread chats and notifications."""
    nav = {"network": "pending_invitation", "messaging": "unread_conversation", "notifications": "unread_notification"}
    row = await world.fetch_one("SELECT " + ", ".join(f"({BASELINE_SQL[f'{m}_count']}) AS {k}" for k, m in nav.items()))
    counts = {key: int(row[key] or 0) for key in nav} if row else {}
    return Header(unread=counts.get("notifications", 0), counts=counts)


ENV = Environment(
    name="microdin", title="MicroDin", event_types=EVENT_TYPES,
    routes=views.routes + actions.routes, search="search", kinds=KINDS, check_scenario=check_scenario,
    nav=(NavItem("Home", "feed"), NavItem("My Network", "network", count="network"), NavItem("Jobs", "jobs"),
         NavItem("Messaging", "messaging", count="messaging"),
         NavItem("Notifications", "notifications", count="notifications"),
         NavItem("Me", "profile", parts={"id": "me"})),
    header=header, baseline_sql=BASELINE_SQL, serve_preload=lambda catalog: dict.fromkeys(COLLECTIONS, "*"),
)
