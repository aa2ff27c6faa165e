"""Timeline helpers for counting kinds (MicroChat's and MicroLendar's): n counted arrivals, the
n-th at the target time, look-alikes between them, one counted arrival trailing, and
background that cannot change the count before the target.

Generic over the event shape: callers pass `make(at, item_id, note)` that builds one event.
Pure: no aiohttp; any environment with counting kinds can use it (it lived in MicroChat at first).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from sentinel.core.kinds import Knobs, NoDraw
from sentinel.generation.kit import GAP_S, TIMELINE_END, background_times, sample, target_time

Make = Callable[[float, str, str | None], dict[str, Any]]
LAST_S = TIMELINE_END - 5


def spaced(rng: random.Random, n: int, start: float, stop: float, gap: float) -> list[int]:
    """n whole seconds in [start, stop], one per stratum, at least `gap` apart."""
    if n <= 0:
        return []
    width = (stop - start) / n
    if width < gap:
        raise NoDraw(f"no room for {n} events {gap:g} s apart between {start:g} and {stop:g} s")
    out = []
    for j in range(n):
        lo = start + j * width + gap / 2
        hi = start + (j + 1) * width - gap / 2
        out.append(int(round(rng.uniform(lo, max(lo, hi)))))
    return out


def free_times(rng: random.Random, k: int, start: float, stop: float, taken: Sequence[float],
               gap: float = 3) -> list[int]:
    """k distinct whole seconds in [start, stop] kept `gap` away from `taken` and each other."""
    picked: list[int] = []
    candidates = list(range(int(start), int(stop) + 1))
    rng.shuffle(candidates)
    for t in candidates:
        if len(picked) == k:
            break
        if all(abs(t - b) >= gap for b in [*taken, *picked]):
            picked.append(t)
    if len(picked) < k:
        raise NoDraw(f"no room for {k} look-alikes between {start:g} and {stop:g} s")
    return sorted(picked)


def counting(rng: random.Random, knobs: Knobs, counted: Sequence[str], others: Sequence[str], n: int,
             make: Make, *, what: str, decoy_note: Callable[[str], str], first_s: float = 2,
             gap: float = 4, trailing: bool = True) -> tuple[int, list[dict[str, Any]], list[str]]:
    """The key events of a counting task. Returns (target time, events, counted ids in order);
    `counted[n]` trails when `trailing`. Decoys (knobs.decoys of `others`) fall between."""
    picked = sample(rng, counted, n + int(trailing), what)
    decoys = sample(rng, others, knobs.decoys, "look-alikes")
    at = target_time(rng, knobs, lo=first_s + gap * n + 2)
    times = [*sorted(spaced(rng, n - 1, first_s, at - gap / 2, gap)), at]
    events = [make(t, rid, f"{what} {i + 1} of {n}" + (" (the target)" if i == n - 1 else ""))
              for i, (t, rid) in enumerate(zip(times, picked, strict=False))]
    dtimes = free_times(rng, len(decoys), 2, at - 3, times, gap=3)
    events += [make(t, rid, decoy_note(rid)) for t, rid in zip(dtimes, decoys, strict=True)]
    if trailing:
        trail = rng.randint(min(at + gap + 6, LAST_S), min(at + 150, LAST_S))
        events.append(make(trail, picked[n], f"trailing: {what} after the target"))
    return at, events, list(picked)


def fill(rng: random.Random, knobs: Knobs, events: list[dict[str, Any]], at: float | None,
         before: Sequence[str], after: Sequence[str], make: Make) -> list[dict[str, Any]]:
    """Background at the density knob: before `at` only `before` items (they cannot change the
    task's condition), after it `after` items too. Each item is used once."""
    taken = [e["at"] for e in events]
    times = background_times(rng, knobs.density, taken)
    safe, rest = list(before), [x for x in after if x not in set(before)]
    rng.shuffle(safe)
    rng.shuffle(rest)
    out = []
    for t in times:
        late = at is None or t > at + GAP_S
        pool = (rest or safe) if late and rng.random() < 0.5 else (safe or (rest if late else []))
        if pool:
            out.append(make(t, pool.pop(), None))
    return out
