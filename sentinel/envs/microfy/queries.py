"""What MicroFy's pages compute: track rows with their artist, Trending's order, the header's sidebar."""

from __future__ import annotations

from typing import Any

from sentinel.core.environment import Header
from sentinel.world.state import World

HIT_PLAYS = 2_000_000  # the HIT tag: over 2M global plays
TRACK_COLUMNS = ("t.id, t.title, t.artist_id, a.name AS artist, t.album, t.album_id, t.duration_s, t.genre,"
                 " t.global_plays, t.is_new_release, t.liked, t.my_play_count, t.created_at, t.origin")
TRACK_FROM = "FROM tracks t JOIN artists a ON a.id = t.artist_id"
# Trending: arrivals of this session first, newest first; then the preloaded tracks in catalog order
TRENDING_ORDER = ("CASE WHEN t.origin = 'event' THEN 0 ELSE 1 END,"
                  " CASE WHEN t.origin = 'event' THEN -t.rowid ELSE t.rowid END")
PER_PAGE = 20
LIKED = "liked"  # the playlist id that stands for Liked Songs


def track_row(row: Any) -> dict[str, Any]:
    seconds, plays = int(row["duration_s"]), int(row["global_plays"])
    return {**dict(row), "length": f"{seconds // 60}:{seconds % 60:02d}", "is_hit": plays > HIT_PLAYS,
            "plays_text": f"{plays:,}"}


async def tracks_where(world: World, where: str, params: tuple = (), order: str = "t.rowid") -> list[dict[str, Any]]:
    rows = await world.fetch_all(f"SELECT {TRACK_COLUMNS} {TRACK_FROM} WHERE {where} ORDER BY {order}", params)
    return [track_row(r) for r in rows]


async def playlist_tracks(world: World, playlist_id: str) -> list[dict[str, Any]]:
    if playlist_id == LIKED:
        return await tracks_where(world, "t.liked = 1", order="t.title")
    rows = await world.fetch_all(f"SELECT {TRACK_COLUMNS}, p.position {TRACK_FROM}"
                                 " JOIN playlist_tracks p ON p.track_id = t.id WHERE p.playlist_id = ?"
                                 " ORDER BY p.position", (playlist_id,))
    return [track_row(r) for r in rows]


async def my_playlists(world: World) -> list[dict[str, Any]]:
    rows = await world.fetch_all("SELECT id, name FROM playlists WHERE is_mine = 1 ORDER BY created_at, rowid")
    return [dict(r) for r in rows]


async def header(world: World) -> Header:
    """No unread count; the header's extra carries the library sidebar every page shows: Liked Songs
    (N), the user's playlists, the public playlists (with their count as text) and the last track played."""
    liked = int(await world.fetch_value("SELECT COUNT(*) FROM tracks WHERE liked = 1") or 0)
    public = [dict(r) for r in await world.fetch_all(
        "SELECT id, name FROM playlists WHERE is_mine = 0 ORDER BY created_at DESC, rowid DESC")]
    playing = await world.fetch_one(f"SELECT {TRACK_COLUMNS} {TRACK_FROM} WHERE t.last_played_at IS NOT NULL"
                                    " ORDER BY t.last_played_at DESC, t.rowid DESC LIMIT 1")
    return Header(extra={"sidebar": {"liked": liked, "mine": await my_playlists(world), "public": public,
                                     "playing": track_row(playing) if playing else None}})
