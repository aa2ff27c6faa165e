"""MicroMail: an email client (docs/environments.md#micromail): folders, message pages that reveal what
lists hide (Cc, attachment names, the body past its preview), flags, pins, moves, bulk actions, a composer."""

from __future__ import annotations

from sentinel.core.environment import Environment, Header, NavItem
from sentinel.envs.kit import arrived_count
from sentinel.envs.micromail import actions, views
from sentinel.envs.micromail import queries as q
from sentinel.envs.micromail.events import EVENT_TYPES, check_scenario
from sentinel.envs.micromail.kinds import KINDS
from sentinel.world.state import World

INBOX = "folder = 'inbox'"
BASELINE_SQL = {
    "inbox_count": arrived_count("emails", INBOX),
    "inbox_unread_count": arrived_count("emails", f"{INBOX} AND is_read = 0"),
    "junk_count": arrived_count("emails", "folder = 'junk'"),
    "inbox_cc_count": arrived_count("emails", f"{INBOX} AND cc_me = 1"),
    "inbox_mention_count": arrived_count("emails", f"{INBOX} AND mentions_me = 1"),
    "inbox_external_count": arrived_count("emails", f"{INBOX} AND is_external = 1"),
    "inbox_high_importance_count": arrived_count("emails", f"{INBOX} AND importance = 'high'"),
    "attachment_count": arrived_count("attachments"),
}


async def header(world: World) -> Header:
    return q.header(await q.mailbox_counts(world))


ENV = Environment(
    name="micromail", title="MicroMail", event_types=EVENT_TYPES,
    routes=views.routes + actions.routes, search="search", header=header, baseline_sql=BASELINE_SQL, kinds=KINDS,
    nav=(NavItem("Mail", "folder", parts={"folder": "inbox"}), NavItem("New message", "compose")),
    check_scenario=check_scenario, serve_preload=lambda catalog: {"emails": "*"},  # every catalog item
)
