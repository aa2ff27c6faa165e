"""Helpers MicroGram's scenario kinds share (kinds.py, kinds_social.py).

Every draw keeps the authored preload (60 posts, 16 stories, 30 messages, 20 activity entries)
and picks its targets, look-alikes, near misses and background arrivals (posts, stories, direct
messages, activity) from the rest of the catalog. Knobs: `decoys` look-alikes before the target
(posts with three comments, a look-alike commenter or story author, messages with a near word,
other arrivals between the counted ones), `near_miss` how alike they are, `hold_s` until a
message is unsent, `density` background arrivals per sim minute.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Knobs
from sentinel.envs.microgram.events import SERVE_FOLLOWED
from sentinel.generation.kit import (
    background_times,
    choose,
    event,
    target_time,
    taxonomy,  # noqa: F401  (kinds of this environment use it from here)
    times_between,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from sentinel.core.catalog import Catalog

FEED, DIRECT, ACTIVITY = "/microgram/", "/microgram/direct", "/microgram/activity"


def _ids(prefix: str, lo: int, hi: int, width: int) -> list[str]:
    return [f"{prefix}{n:0{width}d}" for n in range(lo, hi + 1)]


PRELOAD: dict[str, list[str]] = {
    "posts": _ids("gp", 1, 60, 4), "liked": ["gp0008", "gp0012", "gp0020", "gp0031"], "saved": ["gp0009", "gp0027"],
    "stories": _ids("gs", 1, 16, 3), "viewed_stories": ["gs003", "gs005", "gs008", "gs010", "gs012", "gs014", "gs016"],
    "dms": _ids("gm", 1, 30, 3), "activity": _ids("ga", 1, 20, 3), "followed": [],
}
# The accounts followed in follow_new_creators (sentinel serve follows the same ones).
FOLLOWED = SERVE_FOLLOWED
PRELOADED_POSTS = len(PRELOAD["posts"])
FIRST_READ_S = 8  # the agent's first read (its reference) comes a few sim seconds in
GAP = 3
COLLECTIONS = {"new_post": ("posts", "post_id"), "new_story": ("stories", "story_id"),
               "new_dm": ("dm_messages", "message_id"), "new_activity": ("activity", "activity_id")}
FIELD = {etype: fld for etype, (_, fld) in COLLECTIONS.items()}


def baseline(metric: str) -> str:
    return f"CAST((SELECT value FROM session_meta WHERE key = 'baseline_{metric}') AS REAL)"


# --- catalog views ------------------------------------------------------------------------

def arrivals(catalog: Catalog, etype: str) -> list[str]:
    """Catalog items of an event type that are not in the preload, in file order."""
    collection, _ = COLLECTIONS[etype]
    loaded = set(PRELOAD[{"posts": "posts", "stories": "stories", "dm_messages": "dms",
                          "activity": "activity"}[collection]])
    return [rid for rid in catalog.raw(collection) if rid not in loaded]


def username(catalog: Catalog, pid: str) -> str:
    return str(catalog.raw("personas")[pid]["username"])


def name(catalog: Catalog, pid: str) -> str:
    return str(catalog.raw("personas")[pid]["name"])


def commenters(catalog: Catalog) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in catalog.raw("post_comments").values():
        out.setdefault(c["post_id"], []).append(c["author_id"])
    return out


def describe(catalog: Catalog, etype: str, rid: str) -> str:
    rec = catalog.raw(COLLECTIONS[etype][0])[rid]
    if etype == "new_post":
        return f"post by {username(catalog, rec['author_id'])} · {rec['image_alt']}"
    if etype == "new_story":
        return f"story by {username(catalog, rec['author_id'])}"
    if etype == "new_dm":
        return f"DM from {username(catalog, rec['sender_id'])} · {rec['body'][:50]}"
    return f"{username(catalog, rec['actor_id'])} {rec['text']}"


def arrival(catalog: Catalog, at: float, etype: str, rid: str, note: str | None = None) -> dict[str, Any]:
    return event(at, etype, f"{note} · {describe(catalog, etype, rid)}" if note else None, **{FIELD[etype]: rid})


def fill(rng: random.Random, catalog: Catalog, knobs: Knobs, events: list[dict[str, Any]],
         types: Iterable[str] = tuple(COLLECTIONS), spoils: Callable[[str, str], bool] = lambda t, r: False,
         start: float = 1, stop: float = 715) -> list[dict[str, Any]]:
    """Background arrivals at the density knob between start and stop, of the given types, never
    an item already in `events` nor one that would decide the task (`spoils(etype, id)`)."""
    used = {(e["type"], e.get(FIELD.get(e["type"], ""), None)) for e in events}
    pools = {t: [r for r in arrivals(catalog, t) if (t, r) not in used and not spoils(t, r)] for t in types}
    pools = {t: rng.sample(p, len(p)) for t, p in pools.items() if p}
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


def preload(**changes: list[str]) -> dict[str, Any]:
    return {**PRELOAD, **changes}


def counted(rng: random.Random, knobs: Knobs, n: int, n_decoys: int, lo: float) -> tuple[int, list[int], list[int]]:
    """The target time and the slots of n − 1 counted arrivals and n_decoys look-alikes before it."""
    at = target_time(rng, knobs, lo=lo + 2 * (n + n_decoys))
    times = times_between(rng, n - 1 + n_decoys, lo, at)
    slots = list(range(len(times)))
    rng.shuffle(slots)
    return at, [times[j] for j in sorted(slots[n_decoys:])], [times[j] for j in sorted(slots[:n_decoys])]


def trail_time(rng: random.Random, at: float) -> int:
    return rng.randint(min(int(at) + 10, 712), 712)


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())
