"""MicroFy's own scenario checks: what the generic validator cannot know."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sentinel.envs.kit import selected

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Scenario


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """Every loaded track's artist is loaded; starting likes name preloaded tracks and starting
    follows loaded artists."""
    problems: list[tuple[str, str]] = []
    preload = next((e for e in scenario.events if e.type == "preload"), None)
    artists = set(selected(catalog, "artists", preload.fields.get("artists"))) if preload else set()
    preloaded = set(selected(catalog, "tracks", preload.fields.get("tracks"))) if preload else set()
    tracks = catalog.raw("tracks")
    for event in scenario.events:
        where = f"events[{event.index}]"
        ids = preloaded if event.type == "preload" else (
            [str(event.fields.get("track_id"))] if event.type == "new_track" else [])
        for track_id in sorted(ids):
            record = tracks.get(track_id)
            if record is not None and record["artist_id"] not in artists:
                problems.append((where, f"{track_id}'s artist {record['artist_id']} is not in the preload's artists"))
    if preload is not None:
        for track_id in selected(catalog, "tracks", preload.fields.get("liked")):
            if track_id not in preloaded:
                problems.append((f"events[{preload.index}].liked", f"{track_id} is liked but not preloaded"))
        for artist_id in selected(catalog, "artists", preload.fields.get("followed_artists")):
            if artist_id not in artists:
                problems.append((f"events[{preload.index}].followed_artists", f"{artist_id} is not preloaded"))
    return problems
