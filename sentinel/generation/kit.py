"""Helpers every environment's scenario kinds share (sentinel/envs/<env>/kinds.py).

A kind's draw is meant to read as a short recipe: choose facts from the catalog with `choose`
and `sample`, place the target with `target_time`, the look-alikes with `times_before`, the
background with `background_times`, build events with `event` (its `note` becomes `_note`),
then `timeline` sorts them and `scenario` returns the mapping in file order. Pure: no aiohttp.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from sentinel.core.kinds import MAX_AT, MIN_AT, Draw, Kind, Knobs, NoDraw

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

TIMELINE_END = 720
GAP_S = 2  # background events keep this far from the events that decide the task


def ids_where(catalog: Catalog, collection: str, where: Callable[[dict[str, Any]], bool],
              exclude: Iterable[str] = ()) -> list[str]:
    """Ids of a catalog collection whose raw record (authoring fields included) passes `where`, in file order."""
    skip = set(exclude)
    return [rid for rid, rec in catalog.raw(collection).items() if rid not in skip and where(rec)]


def choose(rng: random.Random, items: Sequence[Any], what: str = "item") -> Any:
    if not items:
        raise NoDraw(f"the catalog offers no {what}")
    return items[rng.randrange(len(items))]


def sample(rng: random.Random, items: Sequence[Any], k: int, what: str = "items") -> list[Any]:
    """k distinct items in a seeded order; fewer in the catalog than asked → NoDraw."""
    if k > len(items):
        raise NoDraw(f"the catalog offers {len(items)} {what}, {k} asked")
    return rng.sample(list(items), k)


def nearest(rng: random.Random, items: Sequence[Any], k: int, score: Callable[[Any], float],
            near_miss: float) -> list[Any]:
    """k look-alikes: with near_miss 1 the k highest scores, with 0 any k; in between, a mix.

    Each item's rank key is its score blended with noise by (1 − near_miss)."""
    if k > len(items):
        raise NoDraw(f"only {len(items)} look-alikes, {k} asked")
    keyed = sorted(items, key=lambda it: -(near_miss * score(it) + (1 - near_miss) * rng.random()))
    return keyed[:k]


def target_time(rng: random.Random, knobs: Knobs, lo: float = MIN_AT, hi: float = MAX_AT) -> int:
    """A whole-second target time inside both the knobs' window and the kind's own [lo, hi]."""
    start, stop = max(knobs.earliest, lo, MIN_AT), min(knobs.latest, hi, MAX_AT)
    if start > stop:
        raise NoDraw(f"no target time fits [{knobs.earliest:g}, {knobs.latest:g}] and [{lo:g}, {hi:g}]")
    return int(round(rng.uniform(start, stop))) if stop - start >= 1 else int(round(start))


def times_between(rng: random.Random, n: int, start: float, stop: float) -> list[int]:
    """n distinct whole seconds strictly inside (start, stop), spread in n strata so they read as a sequence."""
    if n <= 0:
        return []
    lo, hi = int(start) + 1, int(stop) - 1
    if hi - lo + 1 < n:
        raise NoDraw(f"no room for {n} events between {start:g} and {stop:g} s")
    step = (hi - lo + 1) / n
    out = []
    for j in range(n):
        a, b = lo + int(j * step), lo + int((j + 1) * step) - 1
        out.append(rng.randint(a, max(a, b)))
    return sorted(set(out)) if len(set(out)) == n else list(range(lo, lo + n))


def background_times(rng: random.Random, density: float, taken: Iterable[float],
                     start: float = 1, stop: float = TIMELINE_END - 5) -> list[int]:
    """Background event times at `density` per sim minute over the timeline, kept GAP_S away from `taken`."""
    busy = [float(t) for t in taken]
    n = int(round(density * (stop - start) / 60.0))
    free = [t for t in range(int(start), int(stop) + 1) if all(abs(t - b) > GAP_S for b in busy)]
    if n <= 0 or not free:
        return []
    picked = rng.sample(free, min(n, len(free)))
    return sorted(picked)


def event(at: float, etype: str, note: str | None = None, **fields: Any) -> dict[str, Any]:
    """One event mapping: at, type, its fields, then `_note` (the fact that decides it)."""
    out: dict[str, Any] = {"at": _num(at), "type": etype, **fields}
    if note:
        out["_note"] = note
    return out


def timeline(preload: Mapping[str, Any], events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The preload at 0 then events by time; at equal times, events with a _note come first
    (the event that decides a flip is read as the last one at its moment), in the given order."""
    rest = sorted(enumerate(events), key=lambda ie: (ie[1]["at"], "_note" not in ie[1], ie[0]))
    return [{"at": 0, "type": "preload", **preload}, *(e for _, e in rest)]


def taxonomy(activity: str, criteria: str, difficulty: str, distraction: str) -> dict[str, str]:
    """A scenario's taxonomy block (ENVIRONMENTS §0.3)."""
    return {"activity": activity, "criteria": criteria, "difficulty": difficulty, "distraction": distraction}


def scenario(*, prompt: str, description: str, condition_at: float | None, taxonomy: Mapping[str, Any],
             events: list[dict[str, Any]], condition_sql: str, solution: list[dict[str, Any]],
             eval_sql: str | None = None, start_page: str | None = None,
             condition_until: float | None = None, near_miss_sql: str | None = None) -> dict[str, Any]:
    """The mapping a kind's draw returns (id, environment and generated are added by generate)."""
    out: dict[str, Any] = {"description": description, "prompt": prompt,
                           "condition_at": _num(condition_at) if condition_at is not None else None}
    if condition_until is not None:
        out["condition_until"] = _num(condition_until)
    if start_page:
        out["start_page"] = start_page
    out["taxonomy"] = dict(taxonomy)
    out["events"] = events
    out["condition_sql"] = condition_sql
    if near_miss_sql is not None:
        out["near_miss_sql"] = near_miss_sql
    if eval_sql is not None:
        out["eval_sql"] = eval_sql
    out["solution"] = solution
    return out


def sql_text(value: str) -> str:
    """A text literal for SQL built by a kind (catalog text is data: quotes doubled)."""
    return "'" + value.replace("'", "''") + "'"


def like_text(value: str) -> str:
    """A LIKE pattern literal matching `value` anywhere (catalog phrases hold no % or _)."""
    if "%" in value or "_" in value:
        raise NoDraw(f"{value!r} holds a LIKE wildcard")
    return sql_text(f"%{value}%")


def _num(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(float(value), 3)


def mixed_background(rng: random.Random, density: float, taken: Iterable[float], pool: Sequence[Any],
                     allow: Callable[[Any, int], bool], start: float = 1,
                     stop: float = TIMELINE_END - 5) -> list[tuple[int, Any]]:
    """(time, item) pairs for background drawn from a pool mixing several event families: times as
    `background_times` gives them, each filled with a random pool item that `allow(item, time)`
    accepts (so a kind can keep a counted family out before its target), each item at most once."""
    out: list[tuple[int, Any]] = []
    left = list(pool)
    for t in background_times(rng, density, taken, start, stop):
        fits = [i for i, item in enumerate(left) if allow(item, t)]
        if fits:
            out.append((t, left.pop(fits[rng.randrange(len(fits))])))
    return out


def order_under(rng: random.Random, n: int, removals: int, tries: int = 40) -> list[str]:
    """A seeded order of n + removals − 1 "add" and `removals` "remove" steps whose running total
    stays under n, so a count reaches +n only with the next addition (the target)."""
    for _ in range(tries):
        seq = ["add"] * (n + removals - 1) + ["remove"] * removals
        rng.shuffle(seq)
        level, ok = 0, True
        for step in seq:
            level += 1 if step == "add" else -1
            ok = ok and level < n
        if ok:
            return seq
    raise NoDraw(f"no order of {n + removals - 1} additions and {removals} removals stays under {n}")


# --- kinds-d: declaring a kind, its no-op twin, and small pieces any kind may use -------------------

def kind(name: str, activity: str, criteria: str, knobs: Knobs | None = None, notes: str = "",
         earliest: float = MIN_AT) -> Callable[[Draw], Kind]:
    """Declares a draw function as a Kind, next to its code:

        @kind("price_target", "passive", "absolute", Knobs(decoys=2), "decoys: ...; near_miss: ...")
        def price_target(rng, catalog, knobs): ...

    The name then stands for the Kind (a no-op twin draws its source with `price_target.draw`)."""
    return lambda draw: Kind(name, activity, criteria, draw, knobs or Knobs(), notes, earliest)


def free_moment(rng: random.Random, lo: float, hi: float, taken: Iterable[float], gap: float = 3) -> int:
    """A whole second in [lo, hi] more than `gap` away from every time in `taken`."""
    busy = list(taken)
    return choose(rng, [t for t in range(int(lo), int(hi) + 1) if all(abs(t - b) > gap for b in busy)],
                  "free moment")


def hold_until(knobs: Knobs, at: int, least: int = 0, end: int = TIMELINE_END - 5) -> int:
    """When a passing condition ends: knobs.hold_s after `at` but at least `least`, and by `end`."""
    until = min(at + max(least, int(knobs.hold_s)), end)
    if until - at < least:
        raise NoDraw(f"a condition at {at} s cannot hold {least} s before {end} s")
    return until


def noop_twin(source: Mapping[str, Any], *, prompt: str, description: str, taxonomy: Mapping[str, Any],
              condition_sql: str, near_miss_sql: str, solution: list[dict[str, Any]],
              eval_sql: str | None = None, extra: Iterable[dict[str, Any]] = (),
              drop: Callable[[dict[str, Any]], bool] = lambda e: False) -> dict[str, Any]:
    """A no-op kind's scenario from its source kind's draw: the same timeline with the source's
    target ("(the target)" in its note) relabelled as the near miss, `extra` events added (and
    background events `drop` picks left out: they used what the no-op's own events need), and a
    condition that never holds (near_miss_sql: the one that does)."""
    events = [{**e, "_note": e["_note"].replace("(the target)", "(the source task's target: the near miss)")}
              if "_note" in e else e for e in source["events"][1:] if "_note" in e or not drop(e)]
    preload = {k: v for k, v in source["events"][0].items() if k not in ("at", "type")}
    return scenario(prompt=prompt, description=description, condition_at=None, taxonomy=taxonomy,
                    events=timeline(preload, [*events, *extra]), condition_sql=condition_sql,
                    near_miss_sql=near_miss_sql, eval_sql=eval_sql, solution=solution,
                    start_page=source.get("start_page"))


def baseline(metric: str) -> str:
    """SQL for the value of `metric` the session stored right after the preload (session_meta),
    the reference of a relative task: `... >= {baseline('news_count')} + 3`."""
    return f"CAST((SELECT value FROM session_meta WHERE key = 'baseline_{metric}') AS REAL)"


def overlap(a: Iterable[str], b: Iterable[str]) -> float:
    """How alike two sets of words are: the shared ones among all of them (0 to 1)."""
    sa, sb = set(a), set(b)
    return len(sa & sb) / max(1, len(sa | sb))


# --- kinds-d: waypoint timelines (a value that crosses a line once, at the target) ---------------
# A waypoint event (MicroHood's price_waypoint, MicroHub's star_waypoint) starts at `at` and moves
# the value linearly to its target over ramp_s. A kind's key legs never overlap (each ramp ends
# before the next leg starts), so every corner of the path is a moment the kind chose.

FLAT_S = 14  # a relative task's value stays flat this long: checks want 10 s, the first read comes a few s in


class Leg(NamedTuple):
    """One waypoint move: from `at` the value moves linearly to `value`, reached at at + ramp_s."""

    at: int
    value: float
    ramp_s: int = 0
    note: str | None = None


def phases(t0: int, t1: int, n: int) -> list[tuple[int, int]]:
    """n back-to-back (start, ramp_s) phases filling [t0, t1), each ramp ending before the next start."""
    if t1 - t0 < 3 * n:
        raise NoDraw(f"no room for {n} phases between {t0} and {t1} s")
    edges = [t0 + round(j * (t1 - t0) / n) for j in range(n + 1)]
    return [(edges[j], max(0, edges[j + 1] - edges[j] - 1)) for j in range(n)]


def ahead(items: Sequence[Any], before: float, start: int = 2) -> list[tuple[int, int, Any]]:
    """(start, ramp_s, item) for look-alikes that move one after another, in back-to-back phases
    from `start` that end before `before` (the target's own move)."""
    if not items:
        return []
    slots = phases(start, max(start + 3 * len(items), int(before) - 2), len(items))
    return [(t, ramp, item) for (t, ramp), item in zip(slots, items, strict=True)]


def approach(t0: int, t1: int, stops: Sequence[float | tuple[float, str]]) -> list[Leg]:
    """Legs through `stops` (a value, or (value, note)) in back-to-back phases filling [t0, t1)."""
    out = []
    for (t, ramp), stop in zip(phases(t0, t1, len(stops)), stops, strict=True):
        value, note = stop if isinstance(stop, tuple) else (stop, None)
        out.append(Leg(t, value, ramp, note))
    return out


def cross_once(t0: int, at: int, stops: Sequence[float | tuple[float, str]], over: float, note: str, *,
               until: int | None = None, back: float = 0.0, back_note: str | None = None) -> list[Leg]:
    """A target path: `approach` through stops that stay on the near side of the line (the near
    miss among them), a jump at `at` to `over` past the line, and with `until` a jump back to
    `back` (where a passing window ends). The line is crossed exactly at `at`."""
    legs = [*approach(t0, at - 2, stops), Leg(at, over, 0, note)]
    if until is not None:
        legs.append(Leg(until, back, 0, back_note))
    return legs


def shortfall(near_miss: float, smallest: float, widest: float, decimals: int = 0) -> float:
    """How far short of a line a near miss stops: `smallest` (one step a page shows) at near_miss 1,
    `widest` at 0."""
    return round(max(smallest, smallest + (widest - smallest) * (1 - near_miss)), decimals)


def round_line(value: float, step: float) -> float:
    """The first multiple of `step` at or above value: a line a person would name."""
    return round(math.ceil(value / step - 1e-9) * step, 6)


def floor_to(value: float, decimals: int = 2) -> float:
    """Rounded down to `decimals` places (a value a page shows that is not past `value`)."""
    return math.floor(value * 10 ** decimals + 1e-6) / 10 ** decimals


def ceil_to(value: float, decimals: int = 2) -> float:
    return math.ceil(value * 10 ** decimals - 1e-6) / 10 ** decimals


def near_value(near_miss: float, lowest: float, line: float, step: float = 0.01) -> float:
    """A near miss's peak below a rising line, on the grid of `step` (a cent, a star): at least
    `lowest`, and the last step short of `line` at near_miss 1 (`lowest` at 0)."""
    lo, hi = math.ceil(lowest / step - 1e-6), math.ceil(line / step - 1e-6) - 1
    if hi < lo:
        raise NoDraw(f"no step of {step:g} between {lowest:g} and {line:g}")
    return round(round(lo + (hi - lo) * near_miss) * step, 6)


def near_miss_legs(rng: random.Random, start: float, peak: float, at: int, note: str) -> list[Leg]:
    """A near miss that approaches a line without crossing it (a no-op's own): a climb from the
    start value after FLAT_S, a jump to `peak` at `at` held more than a minute, an easing back."""
    return [Leg(FLAT_S + rng.randint(0, 20), start + (peak - start) * rng.uniform(0.4, 0.7), rng.randint(20, 50)),
            Leg(at, peak, 0, note),
            Leg(at + rng.randint(70, 110), start + (peak - start) * rng.uniform(0.5, 0.8), 0,
                "back down from the peak: the near miss is over")]
