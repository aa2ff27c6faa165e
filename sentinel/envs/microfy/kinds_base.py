"""Helpers MicroFy's scenario kinds share (kinds.py, kinds_lyrics.py): the authored preload,
catalog views (tracks not preloaded, titles a page names once), events and background arrivals.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Knobs
from sentinel.generation.kit import (
    background_times,
    choose,
    event,
    taxonomy,  # noqa: F401  (kinds of this environment use it from here)
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from sentinel.core.catalog import Catalog

HOME = "/microfy/"
PRELOAD: dict[str, Any] = {
    "artists": "*", "moods": "*", "tracks": [f"trk{n:04d}" for n in range(1, 71)],
    "playlists": [f"pl{n:03d}" for n in range(1, 15)],
    "liked": ["trk0003", "trk0010", "trk0017", "trk0033", "trk0048"],
    "followed_artists": ["art005", "art015", "art030", "art051"],
}
FIRST_READ_S = 8  # the agent's first read (its reference) comes a few sim seconds in
GAP = 3
FIELD = {"new_track": "track_id", "new_playlist": "playlist_id", "withdraw_track": "track_id"}


def baseline(metric: str) -> str:
    return f"CAST((SELECT value FROM session_meta WHERE key = 'baseline_{metric}') AS REAL)"


def preload(**changes: Any) -> dict[str, Any]:
    return {**PRELOAD, **changes}


def new_tracks(catalog: Catalog, where: Callable[[dict[str, Any]], bool] = lambda r: True) -> list[str]:
    return [t for t, r in catalog.raw("tracks").items() if t not in PRELOAD["tracks"] and where(r)]


def new_playlists(catalog: Catalog) -> list[str]:
    return [p for p, r in catalog.raw("playlists").items() if p not in PRELOAD["playlists"] and not r["is_mine"]]


def track(catalog: Catalog, tid: str) -> dict[str, Any]:
    return catalog.raw("tracks")[tid]


def artist_name(catalog: Catalog, aid: str) -> str:
    return str(catalog.raw("artists")[aid]["name"])


def by(catalog: Catalog, tid: str) -> str:
    return artist_name(catalog, track(catalog, tid)["artist_id"])


def names_on_pages(catalog: Catalog) -> list[str]:
    """Every title, artist, album and playlist name a page may show, lower-cased."""
    tracks = catalog.raw("tracks").values()
    return ([r["title"].lower() for r in tracks] + [r["album"].lower() for r in tracks]
            + [r["name"].lower() for r in catalog.raw("artists").values()]
            + [r["name"].lower() for r in catalog.raw("playlists").values()])


def unique_title(catalog: Catalog, tid: str) -> bool:
    """The track's title is part of no other name a page shows, so "watch until its title"
    and "follow the link with its title" find this track and nothing else."""
    title = track(catalog, tid)["title"].lower()
    return sum(title in n for n in names_on_pages(catalog)) == 1


def lyrics(catalog: Catalog, tid: str) -> str:
    return str(track(catalog, tid)["lyrics"]).lower()


def words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


def describe(catalog: Catalog, etype: str, rid: str) -> str:
    if etype == "new_playlist":
        return str(catalog.raw("playlists")[rid]["name"])
    rec = track(catalog, rid)
    return f"{rec['title']} · {by(catalog, rid)}" + (" · NEW" if rec["is_new_release"] else "")


def arrival(catalog: Catalog, at: float, etype: str, rid: str, note: str | None = None) -> dict[str, Any]:
    return event(at, etype, f"{note} · {describe(catalog, etype, rid)}" if note else None, **{FIELD[etype]: rid})


def fill(rng: random.Random, catalog: Catalog, knobs: Knobs, events: list[dict[str, Any]],
         types: Iterable[str] = ("new_track", "new_playlist"), spoils: Callable[[str, str], bool] = lambda t, r: False,
         start: float = 1, stop: float = 715) -> list[dict[str, Any]]:
    """Background arrivals at the density knob between start and stop, never an item already in
    `events` nor one that would decide the task (`spoils(etype, id)`)."""
    used = {e.get(FIELD.get(e["type"], ""), None) for e in events}
    lists = {"new_track": new_tracks(catalog), "new_playlist": new_playlists(catalog)}
    pools = {t: rng.sample(p, len(p)) for t in types if (p := [r for r in lists[t] if r not in used
                                                              and not spoils(t, r)])}
    span = max(0.0, stop - start)
    times = background_times(rng, knobs.density * span / 714, [e["at"] for e in events], start, stop)
    out = []
    for t in times:
        kinds = sorted(k for k, p in pools.items() if p)
        if not kinds:
            break
        etype = choose(rng, kinds)
        out.append(arrival(catalog, t, etype, pools[etype].pop()))
    return out


def trail_times(rng: random.Random, n: int, at: float) -> list[int]:
    """n trailing moments after the target, spread to the end of the timeline."""
    from sentinel.generation.kit import times_between
    return times_between(rng, n, at + 4, 716)


def nearness(word: str, text: str) -> float:
    """How near a text comes to a word: its longest shared prefix with one of the text's words."""
    best = 0
    for w in words(text):
        k = 0
        while k < min(len(w), len(word)) and w[k] == word[k]:
            k += 1
        best = max(best, k)
    return best / len(word) if best >= 3 else 0.0
