"""MicroChat: team messaging in the manner of Teams or Slack (docs/environments.md#microchat): chats
and channels whose thread shows what lists hide, reactions, favourites, mute, a call log and search."""

from __future__ import annotations

from sentinel.core.environment import Environment, Header, NavItem
from sentinel.envs.kit import arrived_count
from sentinel.envs.microchat import views
from sentinel.envs.microchat.events import EVENT_TYPES, check_scenario
from sentinel.envs.microchat.kinds import KINDS
from sentinel.world.state import World

BASELINE_SQL = {
    "unread_count": arrived_count("messages", "is_read = 0"),
    "unread_conversation_count": arrived_count("messages", "is_read = 0", count="DISTINCT conversation_id"),
    "mention_total": arrived_count("messages", "mentions_me = 1"),
    "unread_mention_count": arrived_count("messages", "mentions_me = 1 AND is_read = 0"),
    "urgent_total": arrived_count("messages", "is_urgent = 1"),
    "unread_urgent_count": arrived_count("messages", "is_urgent = 1 AND is_read = 0"),
    "missed_call_count": arrived_count("calls", "missed = 1"),
    "message_count": arrived_count("messages"),
}


async def header(world: World) -> Header:
    """Unread messages over every conversation: the title's "(N) " and the nav's "Chat (N)"."""
    unread = await views.unread_total(world)
    return Header(unread=unread, counts={"unread": unread})


ENV = Environment(
    name="microchat", title="MicroChat", event_types=EVENT_TYPES, routes=views.routes, search="search",
    header=header, baseline_sql=BASELINE_SQL,
    nav=(NavItem("Chat", "chats", count="unread"), NavItem("Teams", "teams"), NavItem("Calls", "calls"),
         NavItem("New chat", "new")),
    serve_preload=lambda catalog: {"messages": "*", "calls": "*"}, check_scenario=check_scenario, kinds=KINDS,
)
