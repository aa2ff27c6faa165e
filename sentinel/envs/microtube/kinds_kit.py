"""Helpers shared by MicroTube's scenario kinds (kinds.py, kinds_counts.py, kinds_uploads.py)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Knobs, NoDraw
from sentinel.generation.kit import (
    event,
    ids_where,
    mixed_background,
    taxonomy,  # noqa: F401  (kinds of this environment use it from here)
    times_between,
)

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

FIELDS = {"new_video": "video_id", "new_comment": "comment_id", "new_notification": "notification_id",
          "remove_video": "video_id"}
WATCHED = ("vid004", "vid011", "vid017", "vid037", "vid046")  # watched before the start, as authored
FIRST_READ_S = 8  # relative tasks count arrivals after the agent's first page load
STEP_S = 3  # counted arrivals keep this far apart
GAME = re.compile(r"names ([A-Z][A-Za-z' ]+?)(?:,|$)")
ABSENT_GAMES = ("Minecraft", "Tetris", "Factorio", "Stardew Valley", "Portal 2", "Hades")
Unit = tuple[tuple[str, str], ...]  # events at one instant: ((type, id), ...), the first one decides


# --- catalog views ------------------------------------------------------------------------

def preloaded(catalog: Catalog, collection: str) -> list[str]:
    return ids_where(catalog, collection, lambda r: "age_minutes" in r)


def subscribed(catalog: Catalog) -> list[str]:
    return ids_where(catalog, "channels", lambda r: str(r.get("_role", "")).startswith("subscribed"))


def preload(catalog: Catalog) -> dict[str, Any]:
    return {"channels": "*", "subscribed": subscribed(catalog), "videos": preloaded(catalog, "videos"),
            "comments": preloaded(catalog, "video_comments"),
            "notifications": preloaded(catalog, "notifications"), "playlists": "*", "watched": list(WATCHED)}


def video(catalog: Catalog, vid: str) -> dict[str, Any]:
    return catalog.raw("videos")[vid]


def channel(catalog: Catalog, vid: str) -> dict[str, Any]:
    return catalog.raw("channels")[video(catalog, vid)["channel_id"]]


def is_sub(catalog: Catalog, vid: str) -> bool:
    return video(catalog, vid)["channel_id"] in subscribed(catalog)


def units(catalog: Catalog) -> list[Unit]:
    """Every arrival as the events of one instant: an upload with its notification, a comment on a
    preloaded video, a notification that opens a preloaded video (or none)."""
    pre = set(preloaded(catalog, "videos"))
    notes = catalog.raw("notifications")
    upload_note = {r["video_id"]: nid for nid, r in notes.items() if r.get("video_id") and r["video_id"] not in pre}
    out: list[Unit] = []
    for vid in ids_where(catalog, "videos", lambda r: "age_minutes" not in r):
        out.append((("new_video", vid),) + ((("new_notification", upload_note[vid]),) if vid in upload_note else ()))
    out += [(("new_comment", cid),) for cid in ids_where(catalog, "video_comments",
                                                         lambda r: "age_minutes" not in r and r["video_id"] in pre)]
    out += [(("new_notification", nid),) for nid, r in notes.items()
            if "age_minutes" not in r and (not r.get("video_id") or r["video_id"] in pre)]
    return out


def ids(unit: Unit) -> set[str]:
    return {rid for _, rid in unit}


def has(unit: Unit, etype: str) -> bool:
    return any(t == etype for t, _ in unit)


def about(catalog: Catalog, unit: Unit) -> str:
    """What a unit is, for notes: the upload's title and channel, the comment, the notification."""
    etype, rid = unit[0]
    if etype == "new_video":
        return f"'{video(catalog, rid)['title']}' ({channel(catalog, rid)['name']})"
    if etype == "new_comment":
        rec = catalog.raw("video_comments")[rid]
        return f"a comment on '{video(catalog, rec['video_id'])['title']}'"
    return catalog.raw("notifications")[rid]["message"]


def unit_events(unit: Unit, t: float, note: str | None) -> list[dict[str, Any]]:
    """The unit's events at t; with a note, an upload's notification says it belongs to the upload (the
    validator reads the last event of an instant as the one that decides it)."""
    return [event(t, etype, note if i == 0 else (note and "the notification of the upload above, same instant"),
                  **{FIELDS[etype]: rid}) for i, (etype, rid) in enumerate(unit)]


def fill(rng: random.Random, catalog: Catalog, knobs: Knobs, key: list[dict[str, Any]], used: set[str],
         allow: Callable[[Unit, int], bool]) -> list[dict[str, Any]]:
    """Background arrivals at the density knob, never one the kind's `allow` refuses at its time."""
    pool = [u for u in units(catalog) if not ids(u) & used]
    picked = mixed_background(rng, knobs.density, [e["at"] for e in key], pool, allow)
    return [e for t, u in picked for e in unit_events(u, t, None)]


def spaced(rng: random.Random, n: int, start: float, stop: float) -> list[int]:
    """n whole seconds in (start, stop), at least STEP_S apart."""
    room = int(stop - start) - 1 - STEP_S * (n - 1)
    if n <= 0:
        return []
    if room < n:
        raise NoDraw(f"no room for {n} arrivals between {start:g} and {stop:g} s")
    base = times_between(rng, n, 0, room + 1)
    return [int(start) + b + STEP_S * i for i, b in enumerate(base)]


def counted(rng: random.Random, catalog: Catalog, counted_units: list[Unit], decoy_units: list[Unit], n: int,
            at: int, start: float, what: str, decoy_note: str) -> list[dict[str, Any]]:
    """The first n − 1 counted units and the decoys mixed in (start, at), the n-th at `at`, one more trailing."""
    if len(counted_units) < n + 1:
        raise NoDraw(f"the catalog offers {len(counted_units)} {what}s, {n + 1} needed")
    times = spaced(rng, n - 1 + len(decoy_units), start, at)
    slots = list(range(len(times)))
    rng.shuffle(slots)
    dslots, cslots = sorted(slots[:len(decoy_units)]), sorted(slots[len(decoy_units):])
    out = [e for i, (j, u) in enumerate(zip(cslots, counted_units, strict=False))
           for e in unit_events(u, times[j], f"{what} {i + 1} of {n} · {about(catalog, u)}")]
    out += [e for j, u in zip(dslots, decoy_units, strict=True)
            for e in unit_events(u, times[j], f"{decoy_note} · {about(catalog, u)}")]
    out += unit_events(counted_units[n - 1], at, f"target: {what} {n} of {n} · {about(catalog, counted_units[n - 1])}")
    trail = rng.randint(min(at + 10, 712), 712)
    out += unit_events(counted_units[n], trail, f"trailing: another {what} · {about(catalog, counted_units[n])}")
    return out


def room(knobs: Knobs, fixed: int, start: float = 4, per: float = 2) -> int:
    """How many of the `decoys` knob's look-alikes fit before the latest target time, with `fixed`
    other arrivals and `per` seconds each from `start` on (an early window takes fewer)."""
    return max(0, min(knobs.decoys, int((knobs.latest - start - 2) // per) - fixed))


def used_by(events: list[dict[str, Any]]) -> set[str]:
    return {str(e[FIELDS[e["type"]]]) for e in events if e["type"] in FIELDS}
