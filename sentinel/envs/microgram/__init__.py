"""MicroGram: photo sharing (docs/environments.md#microgram). Every post and story has a seeded SVG
picture (catalogs/microgram/generate.py writes them) and alt text the pages print."""

from __future__ import annotations

from typing import Any

from sentinel.core.environment import Environment, NavItem
from sentinel.envs.kit import arrived_count
from sentinel.envs.microgram import actions, views
from sentinel.envs.microgram.events import EVENT_TYPES, SERVE_FOLLOWED
from sentinel.envs.microgram.kinds import KINDS

BASELINE_SQL = {
    "post_count": arrived_count("posts"),
    "story_count": arrived_count("stories"),
    "viewed_story_count": arrived_count("stories", "viewed = 1"),
    "liked_count": arrived_count("posts", "liked = 1"),
    "saved_count": arrived_count("posts", "saved = 1"),
    "followed_count": "SELECT COUNT(*) FROM follows",
    "activity_count": arrived_count("activity"),
    "my_comment_count": "SELECT COUNT(*) FROM post_comments"
                        " WHERE author_id = (SELECT id FROM personas WHERE is_self = 1)",
}


def serve_preload(catalog: Any) -> dict[str, Any]:
    return {"posts": "*", "stories": "*", "dms": "*", "activity": "*", "followed": SERVE_FOLLOWED}


ENV = Environment(
    name="microgram", title="MicroGram", event_types=EVENT_TYPES, routes=views.routes + actions.routes,
    nav=(NavItem("Home", "home"), NavItem("Explore", "explore"), NavItem("Direct", "direct", count="direct"),
         NavItem("Activity", "activity", count="activity"), NavItem("Profile", "profile", parts={"id": "me"})),
    search="search", header=views.header, baseline_sql=BASELINE_SQL, serve_preload=serve_preload,
    kinds=KINDS,
)
