"""MicroFy events: `preload`, `new_track` (at the front of Trending), `new_playlist` (a public one in the
sidebar), `withdraw_track`; and `check_scenario`: every loaded track's artist must be loaded too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sentinel.core.environment import EventType
from sentinel.envs.kit import insert_timing, preload_type, selected

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Event, Scenario
    from sentinel.world.state import World

COLLECTIONS = {"artists": "artists", "moods": "moods", "tracks": "tracks", "playlists": "playlists"}


async def insert_track(world: World, event: Event, track_id: str | None = None) -> None:
    """A catalog track: the preload's `track_id`, else the new_track event's."""
    r = world.catalog.get("tracks", track_id or str(event.fields["track_id"]))
    await world.insert("tracks", {
        **{key: r[key] for key in ("id", "title", "artist_id", "album_id", "album", "genre", "lyrics")},
        **{key: int(r[key]) for key in ("duration_s", "global_plays", "is_new_release")}}, **insert_timing(event, r))


async def insert_playlist(world: World, event: Event, playlist_id: str | None = None) -> None:
    """A catalog playlist with its tracks: the preload's `playlist_id`, else the new_playlist event's."""
    playlist_id = playlist_id or str(event.fields["playlist_id"])
    r = world.catalog.get("playlists", playlist_id)
    await world.insert("playlists", {
        "id": r["id"], "name": r["name"], "description": r["description"], "owner_id": r["owner_id"],
        "is_mine": int(r["is_mine"]), "follower_count": int(r["follower_count"])}, **insert_timing(event, r))
    items = [i for i in world.catalog.records("playlist_tracks").values() if i["playlist_id"] == playlist_id]
    for item in sorted(items, key=lambda i: i["position"]):
        await world.db.execute("INSERT OR IGNORE INTO playlist_tracks (playlist_id, track_id, position)"
                               " VALUES (?, ?, ?)", (playlist_id, item["track_id"], int(item["position"])))


async def apply_preload(world: World, event: Event) -> None:
    """Artists, moods, tracks (in catalog order: Trending's fixed order), playlists, the starting likes and follows."""
    catalog, fields = world.catalog, event.fields
    for artist_id in selected(catalog, "artists", fields.get("artists")):
        r = catalog.get("artists", artist_id)
        await world.insert("artists", {"id": r["id"], "name": r["name"], "genre": r["genre"], "style": r["style"],
                                       "origin_city": r["origin"], "monthly_listeners": int(r["monthly_listeners"])},
                           **insert_timing(event, r))
    for mood_id in selected(catalog, "moods", fields.get("moods")):
        r = catalog.get("moods", mood_id)
        await world.insert("moods", {"id": r["id"], "name": r["name"], "genres": ", ".join(r["genres"])},
                           **insert_timing(event, r))
    for track_id in selected(catalog, "tracks", fields.get("tracks")):
        await insert_track(world, event, track_id)
    for playlist_id in selected(catalog, "playlists", fields.get("playlists")):
        await insert_playlist(world, event, playlist_id)
    for table, column, field in (("tracks", "liked", "liked"), ("artists", "followed", "followed_artists")):
        for rid in selected(catalog, table, fields.get(field)):
            await world.db.execute(f"UPDATE {table} SET {column} = 1 WHERE id = ?", (rid,))


async def apply_withdraw_track(world: World, event: Event) -> None:
    """The label pulls the track: gone from every page and playlist (a no-op if it was never loaded)."""
    track_id = str(event.fields["track_id"])
    await world.db.execute("DELETE FROM playlist_tracks WHERE track_id = ?", (track_id,))
    await world.db.execute("DELETE FROM tracks WHERE id = ?", (track_id,))


EVENT_TYPES = {
    "preload": preload_type(apply_preload, COLLECTIONS, required=("tracks",),
                            refs={"liked": "tracks", "followed_artists": "artists"}),
    "new_track": EventType(insert_track, refs={"track_id": "tracks"}, inserts=("track_id",), required=("track_id",)),
    "new_playlist": EventType(insert_playlist, refs={"playlist_id": "playlists"}, inserts=("playlist_id",),
                              required=("playlist_id",)),
    "withdraw_track": EventType(apply_withdraw_track, refs={"track_id": "tracks"}, required=("track_id",)),
}


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """Every loaded track's artist is loaded; starting likes name preloaded tracks and starting
    follows loaded artists."""
    problems: list[tuple[str, str]] = []
    preload = next((e for e in scenario.events if e.type == "preload"), None)
    artists = set(selected(catalog, "artists", preload.fields.get("artists"))) if preload else set()
    preloaded = set(selected(catalog, "tracks", preload.fields.get("tracks"))) if preload else set()
    tracks = catalog.raw("tracks")
    for event in scenario.events:
        ids = preloaded if event.type == "preload" else (
            [str(event.fields.get("track_id"))] if event.type == "new_track" else [])
        for track_id in sorted(ids):
            record = tracks.get(track_id)
            if record is not None and record["artist_id"] not in artists:
                problems.append((f"events[{event.index}]",
                                 f"{track_id}'s artist {record['artist_id']} is not in the preload's artists"))
    if preload is not None:
        for field, collection, loaded, why in (("liked", "tracks", preloaded, "is liked but not preloaded"),
                                               ("followed_artists", "artists", artists, "is not preloaded")):
            problems += [(f"events[{preload.index}].{field}", f"{rid} {why}")
                         for rid in selected(catalog, collection, preload.fields.get(field)) if rid not in loaded]
    return problems
