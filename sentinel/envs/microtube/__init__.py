"""MicroTube: a video platform (docs/environments.md#microtube). Watch pages record the watch and are the
only place comments show; thumbnails are SVGs that catalogs/microtube/generate.py writes."""

from __future__ import annotations

from typing import Any

from sentinel.core.environment import Environment, NavItem
from sentinel.envs.kit import arrived_count
from sentinel.envs.microtube import views
from sentinel.envs.microtube.events import EVENT_TYPES, PRELOAD_COLLECTIONS, check_scenario
from sentinel.envs.microtube.kinds import KINDS

BASELINE_SQL = {
    "video_count": arrived_count("videos"),
    "subscribed_count": "SELECT COUNT(*) FROM channels WHERE subscribed = 1",
    "watched_count": "SELECT COUNT(*) FROM videos WHERE watched_at IS NOT NULL",
    "liked_count": "SELECT COUNT(*) FROM videos WHERE liked = 1",
    "comment_count": arrived_count("video_comments"),
    "notification_count": arrived_count("notifications", "dismissed = 0"),  # the ones the page still lists
    "unread_notification_count": arrived_count("notifications", "dismissed = 0 AND is_read = 0"),
    "playlist_count": arrived_count("playlists"),
}
SERVE_SUBSCRIBED = ("chn01", "chn02", "chn03", "chn04", "chn05", "chn06", "chn10", "chn14")  # as in the scenarios


def serve_preload(catalog: Any) -> dict[str, Any]:
    """Everything: all channels (the usual ones subscribed), videos, comments, notifications and playlists."""
    return {**dict.fromkeys(PRELOAD_COLLECTIONS, "*"), "subscribed": list(SERVE_SUBSCRIBED)}


ENV = Environment(
    name="microtube", title="MicroTube", event_types=EVENT_TYPES, routes=views.routes, kinds=KINDS,
    check_scenario=check_scenario,
    nav=(NavItem("Home", "home"), NavItem("Shorts", "shorts"), NavItem("Subscriptions", "subscriptions"),
         NavItem("Library", "library"), NavItem("History", "history"),
         NavItem("Notifications", "notifications", count="notifications")),
    search="results", header=views.header, baseline_sql=BASELINE_SQL, serve_preload=serve_preload,
)
