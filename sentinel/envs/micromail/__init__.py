"""MicroMail: an email client (ENVIRONMENTS.md §1).

One mailbox with folders (Inbox, Drafts, Sent, Archive, Junk, Trash), message pages that
reveal what lists hide (Cc, attachment names, the body past its 100-character preview),
flags, pins, moves, bulk actions and a composer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp import web

from sentinel.envs.base import Environment
from sentinel.envs.micromail import queries as q
from sentinel.envs.micromail import views
from sentinel.envs.micromail.actions import add_action_routes
from sentinel.envs.micromail.events import EVENT_TYPES, check_scenario
from sentinel.world import World

BASELINE_SQL = {
    "inbox_count": "SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND origin != 'self'",
    "inbox_unread_count": "SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND is_read = 0 AND origin != 'self'",
    "junk_count": "SELECT COUNT(*) FROM emails WHERE folder = 'junk' AND origin != 'self'",
    "inbox_cc_count": "SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND cc_me = 1 AND origin != 'self'",
    "inbox_mention_count": "SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND mentions_me = 1 AND origin != 'self'",
    "inbox_external_count": "SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND is_external = 1 AND origin != 'self'",
    "inbox_high_importance_count": "SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND importance = 'high' AND origin != 'self'",
    "attachment_count": "SELECT COUNT(*) FROM attachments WHERE origin != 'self'",
}


async def baselines(world: World) -> dict[str, float]:
    return {name: float(await world.fetch_value(sql) or 0) for name, sql in BASELINE_SQL.items()}


async def chrome(world: World) -> dict[str, Any]:
    """Header and sidebar: the inbox unread count (also the title's "(N) "), folder counters."""
    counts = await q.folder_counts(world)
    unread = counts["inbox"]["unread"]
    folders = []
    for key in q.FOLDERS:
        number = unread if key == "inbox" else counts[key]["total"]
        folders.append({"key": key, "label": f"{q.FOLDER_LABELS[key]} ({number})", "href": q.folder_href(key)})
    return {
        "title_count": unread or None,
        "nav": [("Mail", "/micromail/folder/inbox", False), ("New message", "/micromail/compose", False)],
        "folders": folders,
    }


def serve_preload(catalog: Any) -> dict[str, Any]:
    return {"emails": "*"}


def add_routes(app: web.Application) -> None:
    app.router.add_get("/micromail", views.home)
    app.router.add_get("/micromail/", views.home)
    app.router.add_get("/micromail/folder/{folder}", views.folder_view)
    app.router.add_get("/micromail/message/{id}", views.message_view)
    app.router.add_get("/micromail/attachment/{id}", views.attachment_view)
    app.router.add_get("/micromail/compose", views.compose_view)
    app.router.add_get("/micromail/search", views.search_view)
    add_action_routes(app)


ENV = Environment(
    name="micromail",
    title="MicroMail",
    schema=Path(__file__).with_name("schema.sql"),
    event_types=EVENT_TYPES,
    baselines=baselines,
    add_routes=add_routes,
    chrome=chrome,
    serve_preload=serve_preload,
    check_scenario=check_scenario,
)
