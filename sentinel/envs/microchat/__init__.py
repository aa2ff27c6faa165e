"""MicroChat: team messaging in the manner of Teams or Slack (docs/environments.md#microchat): chats
and channels whose thread shows what lists hide, reactions, favourites, mute, a call log and search."""

from __future__ import annotations

from pathlib import Path

from sentinel.core.environment import Environment, Header, NavItem
from sentinel.envs.microchat import views
from sentinel.envs.microchat.events import EVENT_TYPES, check_scenario
from sentinel.envs.microchat.kinds import KINDS
from sentinel.world.state import World

NOT_OWN = "FROM messages WHERE origin != 'self'"
BASELINE_SQL = {
    "unread_count": f"SELECT COUNT(*) {NOT_OWN} AND is_read = 0",
    "unread_conversation_count": f"SELECT COUNT(DISTINCT conversation_id) {NOT_OWN} AND is_read = 0",
    "mention_total": f"SELECT COUNT(*) {NOT_OWN} AND mentions_me = 1",
    "unread_mention_count": f"SELECT COUNT(*) {NOT_OWN} AND mentions_me = 1 AND is_read = 0",
    "urgent_total": f"SELECT COUNT(*) {NOT_OWN} AND is_urgent = 1",
    "unread_urgent_count": f"SELECT COUNT(*) {NOT_OWN} AND is_urgent = 1 AND is_read = 0",
    "missed_call_count": "SELECT COUNT(*) FROM calls WHERE missed = 1 AND origin != 'self'",
    "message_count": f"SELECT COUNT(*) {NOT_OWN}",
}


async def header(world: World) -> Header:
    """Unread messages over every conversation: the title's "(N) " and the nav's "Chat (N)"."""
    unread = await views.unread_total(world)
    return Header(unread=unread, counts={"unread": unread})


ENV = Environment(
    name="microchat", title="MicroChat", schema=Path(__file__).with_name("schema.sql"), event_types=EVENT_TYPES,
    routes=tuple(views.routes), search="search", header=header, baseline_sql=BASELINE_SQL,
    nav=(NavItem("Chat", "chats", count="unread"), NavItem("Teams", "teams"), NavItem("Calls", "calls"),
         NavItem("New chat", "new")),
    serve_preload=lambda catalog: {"messages": "*", "calls": "*"}, check_scenario=check_scenario, kinds=KINDS,
    page_time_step_s=1.0,  # time shows only as "N min ago" of whole-second timestamps
)
