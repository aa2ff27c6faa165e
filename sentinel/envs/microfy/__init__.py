"""MicroFy: music streaming (docs/environments.md#microfy): Trending, track pages that alone show the lyrics,
artists, playlists, a library sidebar, search (never on lyrics), moods; media: catalogs/microfy/media.py."""

from __future__ import annotations

from sentinel.core.environment import Environment, NavItem
from sentinel.envs.kit import arrived_count
from sentinel.envs.microfy import actions, views
from sentinel.envs.microfy.events import EVENT_TYPES, check_scenario
from sentinel.envs.microfy.kinds import KINDS
from sentinel.envs.microfy.queries import header

BASELINE_SQL = {
    "track_count": arrived_count("tracks"),
    "liked_count": "SELECT COUNT(*) FROM tracks WHERE liked = 1",
    "my_play_total": "SELECT COALESCE(SUM(my_play_count), 0) FROM tracks",
    "new_release_count": arrived_count("tracks", "is_new_release = 1"),
    "public_playlist_count": arrived_count("playlists", "is_mine = 0"),
    "my_playlist_count": "SELECT COUNT(*) FROM playlists WHERE is_mine = 1",
    "followed_artist_count": "SELECT COUNT(*) FROM artists WHERE followed = 1",
}


ENV = Environment(
    name="microfy",
    title="MicroFy",
    event_types=EVENT_TYPES,
    routes=views.routes + actions.routes,
    nav=(NavItem("Home", "home"), NavItem("Your Library", "library"), NavItem("Search", "search")),
    search="search",
    header=header,
    baseline_sql=BASELINE_SQL,
    serve_preload=lambda catalog: {"artists": "*", "moods": "*", "tracks": "*", "playlists": "*"},  # every catalog item
    check_scenario=check_scenario,
    kinds=KINDS,
)
