"""Helpers shared by MicroDin's scenario kinds (kinds.py, kinds_jobs.py).

Every draw keeps the authored preload (posts, invitations, conversations, messages and
notifications of the standard start, ten job postings) unless a kind varies it, and picks
arrivals from the rest of the catalog: posts, invitations, the one new conversation's messages
(kept in their order), notifications that point at nothing that has not arrived, and jobs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Knobs, NoDraw
from sentinel.generation.kit import (
    event,
    mixed_background,
    taxonomy,  # noqa: F401  (kinds of this environment use it from here)
    times_between,
)

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

FIELDS = {"new_post": "post_id", "new_invitation": "invitation_id", "new_message": "message_id",
          "new_notification": "notification_id", "new_job": "job_id", "close_job": "job_id"}
COLLECTION = {"new_post": "posts", "new_invitation": "invitations", "new_message": "messages",
              "new_notification": "notifications", "new_job": "jobs"}
PRELOAD_N = {"posts": 20, "invitations": 10, "conversations": 11, "messages": 30, "notifications": 20, "jobs": 10}
FIRST_READ_S = 8  # relative tasks count arrivals after the agent's first page load
STEP_S = 3  # counted arrivals keep this far apart
PHONE = "+1 503 555 0142"
Unit = tuple[str, str]  # (event type, catalog id)


def first(catalog: Catalog, collection: str, n: int) -> list[str]:
    return list(catalog.raw(collection))[:n]


def preload(catalog: Catalog, **sizes: int) -> dict[str, Any]:
    """The standard start: the first N items of each collection (a kind may change a size)."""
    n = {**PRELOAD_N, **sizes}
    return {c: first(catalog, c, n[c]) for c in ("posts", "invitations", "conversations", "messages",
                                                  "notifications", "jobs")}


def units(catalog: Catalog, load: dict[str, Any]) -> list[Unit]:
    """Every arrival the preload leaves: (type, id). Notifications only when what they open is there."""
    out: list[Unit] = []
    for etype, collection in COLLECTION.items():
        loaded = set(load.get(collection, []))
        for rid, rec in catalog.raw(collection).items():
            if rid in loaded:
                continue
            if collection == "notifications" and not (
                    (rec.get("post_id") in (None, *load["posts"])) and (rec.get("job_id") in (None, *load["jobs"]))):
                continue
            if collection == "posts" and rec.get("author_id") == "p000":
                continue
            out.append((etype, rid))
    return out


def of(units_: Sequence[Unit], etype: str) -> list[Unit]:
    return [u for u in units_ if u[0] == etype]


def about(catalog: Catalog, unit: Unit) -> str:
    etype, rid = unit
    rec = catalog.raw(COLLECTION.get(etype, "jobs"))[rid]
    if etype == "new_job":
        return str(rec["title"])
    text = rec.get("body") or rec.get("text") or rec.get("note") or rec.get("persona_id", "")
    return str(text)[:50]


def unit_event(unit: Unit, t: float, note: str | None) -> dict[str, Any]:
    return event(t, unit[0], note, **{FIELDS[unit[0]]: unit[1]})


def fill(rng: random.Random, catalog: Catalog, knobs: Knobs, key: list[dict[str, Any]], load: dict[str, Any],
         allow: Callable[[Unit, int], bool]) -> list[dict[str, Any]]:
    """Background at the density knob from every family `allow` accepts at its time, never an item
    already on the timeline; the new conversation's messages keep their catalog order."""
    used = {str(e[FIELDS[e["type"]]]) for e in key if e["type"] in FIELDS}
    pool = [u for u in units(catalog, load) if u[1] not in used]
    picked = mixed_background(rng, knobs.density, [e["at"] for e in key], pool, allow)
    messages = sorted(rid for (etype, rid) in (u for _, u in picked) if etype == "new_message")
    order = iter(messages)
    out = []
    for t, u in picked:
        out.append(unit_event(("new_message", next(order)) if u[0] == "new_message" else u, t, None))
    return out


def spaced(rng: random.Random, n: int, start: float, stop: float, gap: int = STEP_S) -> list[int]:
    """n whole seconds in (start, stop), at least `gap` apart."""
    if n <= 0:
        return []
    room_s = int(stop - start) - 1 - gap * (n - 1)
    if room_s < n:
        raise NoDraw(f"no room for {n} arrivals between {start:g} and {stop:g} s")
    base = times_between(rng, n, 0, room_s + 1)
    return [int(start) + b + gap * i for i, b in enumerate(base)]


def free_times(rng: random.Random, n: int, start: float, stop: float, taken: Sequence[float]) -> list[int]:
    """Up to n distinct whole seconds in (start, stop), two seconds clear of `taken`."""
    free = [t for t in range(int(start) + 1, int(stop)) if all(abs(t - b) > 2 for b in taken)]
    return sorted(rng.sample(free, min(n, len(free))))


def room(knobs: Knobs, fixed: int, start: float = 4, per: float = 2) -> int:
    """How many of the `decoys` knob's look-alikes fit before the latest target time."""
    return max(0, min(knobs.decoys, int((knobs.latest - start - 2) // per) - fixed))


def counted(rng: random.Random, catalog: Catalog, picked: list[Unit], decoys: list[Unit], n: int, at: int,
            start: float, what: str, decoy_note: str, trailing: int = 1) -> list[dict[str, Any]]:
    """n − 1 counted arrivals and the decoys mixed in (start, at), the n-th at `at`, `trailing` more after."""
    times = spaced(rng, n - 1 + len(decoys), start, at)
    slots = list(range(len(times)))
    rng.shuffle(slots)
    dslots, cslots = sorted(slots[:len(decoys)]), sorted(slots[len(decoys):])
    out = [unit_event(u, times[j], f"{what} {i + 1} of {n} · {about(catalog, u)}")
           for i, (j, u) in enumerate(zip(cslots, picked, strict=False))]
    out += [unit_event(u, times[j], f"{decoy_note} · {about(catalog, u)}") for j, u in zip(dslots, decoys, strict=True)]
    out.append(unit_event(picked[n - 1], at, f"target: {what} {n} of {n} · {about(catalog, picked[n - 1])}"))
    later = free_times(rng, trailing, at + 5, 714, [])
    out += [unit_event(u, t, f"trailing: another {what}") for t, u in zip(later, picked[n:], strict=False)]
    return out
