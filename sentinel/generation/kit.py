"""Helpers every environment's scenario kinds share (sentinel/envs/<env>/kinds.py).

A kind's draw is meant to read as a short recipe: choose facts from the catalog with `choose`
and `sample`, place the target with `target_time`, the look-alikes with `times_before`, the
background with `background_times`, build events with `event` (its `note` becomes `_note`),
then `timeline` sorts them and `scenario` returns the mapping in file order. Pure: no aiohttp.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import MAX_AT, MIN_AT, Kind, Knobs, NoDraw

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

TIMELINE_END = 720
GAP_S = 2  # background events keep this far from the events that decide the task
FIRST_READ_S = 8  # the agent's first read of the page: relative tasks' counted arrivals come after it


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


# --- kinds-c: kinds declared above their draws, an environment's arrivals as one view (counted
# arrivals, background, the scenario on its start page), the no-op twin, small SQL and word helpers

def register(kinds: list[Kind], activity: str, criteria: str, knobs: Knobs | None = None, notes: str = "", *,
         name: str | None = None, earliest: float = MIN_AT, view: Callable[[Catalog], Any] | None = None,
         **params: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: declare the draw below as a Kind (named after the function unless `name` is given)
    and append it to `kinds`, so labels, knobs and notes stand above the recipe; stacked, one recipe
    serves several kinds, each drawing with its own keyword `params`. The draw gets `view(catalog)`
    for the catalog when a view is given, and its taxonomy needs only difficulty and distraction:
    activity and criteria come from here. A draw that a no-op twin draws on may return (what it
    chose, the scenario): the kind keeps the scenario."""
    def declare(draw: Callable[..., Any]) -> Callable[..., Any]:
        def run(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
            out = draw(rng, catalog if view is None else view(catalog), knobs, **params)
            out = out[1] if isinstance(out, tuple) else out
            return {**out, "taxonomy": {"activity": activity, "criteria": criteria, **out["taxonomy"]}}
        kinds.append(Kind(name or draw.__name__, activity, criteria, run, knobs or Knobs(), notes, earliest))
        return draw
    return declare


class ArrivalView:
    """An environment's catalog as its kinds read it: the items a draw may bring in, by event type
    (`pools`: ids not preloaded, unique across types, in file order; `fields`: the event field that
    names an item), the authored preload and the start page. Called as `make(at, id, note)` it builds
    an arrival event, its note followed by `describe(id)` (subclasses say how an item reads)."""

    def __init__(self, pools: Mapping[str, Sequence[str]], fields: Mapping[str, str], preload: Mapping[str, Any],
                 start_page: str) -> None:
        self.pools = {etype: list(ids) for etype, ids in pools.items()}
        self.fields, self.preload, self.start_page = dict(fields), preload, start_page
        self.type_of = {rid: etype for etype, ids in self.pools.items() for rid in ids}

    def describe(self, rid: str) -> str:
        return rid

    def __call__(self, at: float, rid: str, note: str | None = None) -> dict[str, Any]:
        etype = self.type_of[rid]
        return event(at, etype, f"{note} · {self.describe(rid)}" if note else None, **{self.fields[etype]: rid})

    def counted(self, rng: random.Random, knobs: Knobs, counted: Sequence[str], others: Sequence[str], n: int, *,
                what: str, decoy_note: str | Callable[[str], str] = "decoy", trailing: bool = True,
                after: bool = False, first_s: float = FIRST_READ_S, counts: Callable[[str], bool] | None = None,
                spoils: Callable[[str], bool] = lambda rid: False, near: Callable[[str], float] | None = None
                ) -> tuple[int, list[str], list[dict[str, Any]]]:
        """A counting task's events (generation.counting's recipe): n of `counted` (the n-th at the
        target time, one more trailing when `trailing`), knobs.decoys of `others` between them (or
        trailing the target when `after`; with `near`, the look-alikes `nearest` ranks by it), then
        background (see `background`; by default an item of the counted items' type counts).
        Returns (target time, counted ids in order, events)."""
        from sentinel.generation.counting import counting  # it imports this module
        note = decoy_note if callable(decoy_note) else lambda rid: str(decoy_note)
        others = others if near is None else nearest(rng, others, knobs.decoys, near, knobs.near_miss)
        at, events, picked = counting(rng, replace(knobs, decoys=0) if after else knobs, counted, others, n, self,
                                      what=what, decoy_note=note, first_s=first_s, trailing=trailing)
        if after:
            later = sample(rng, [x for x in others if x not in picked], knobs.decoys, "look-alikes")
            times = times_between(rng, len(later), at + 4, TIMELINE_END - 5)
            events += [self(t, rid, note(rid)) for t, rid in zip(times, later, strict=True)]
        types = {self.type_of[rid] for rid in counted}
        counts = counts or (lambda rid: self.type_of[rid] in types)
        return at, picked, events + self.background(rng, knobs, events, at, counts, spoils)

    def background(self, rng: random.Random, knobs: Knobs, events: Sequence[dict[str, Any]], at: float | None = None,
                   counts: Callable[[str], bool] = lambda rid: False,
                   spoils: Callable[[str], bool] = lambda rid: False) -> list[dict[str, Any]]:
        """Background arrivals at the density knob: never an item already in `events` nor one that
        `spoils` the task; an item that `counts` (would change the count) only after the target `at`."""
        used = {e[f] for e in events for f in self.fields.values() if f in e}
        pool = [rid for rid in self.type_of if rid not in used and not spoils(rid)]
        late = (lambda rid, t: True) if at is None else (lambda rid, t: t > at + GAP_S or not counts(rid))
        return [self(t, rid) for t, rid in mixed_background(rng, knobs.density, [e["at"] for e in events], pool, late)]

    def more(self, rng: random.Random, knobs: Knobs, counted: Sequence[str], others: Sequence[str], n: int, *,
             count_sql: str, metric: str, page: str, number: str, what: str, decoy_note: str, distraction: str,
             description: str, prompt: str, report: str) -> dict[str, Any]:
        """A passive relative counting task: "tell me once there are n more than now". `counted`
        arrive as in `counted` (`others` between them); `count_sql` counts them against the
        baseline `metric`, and the oracle reads the total (`number`, a regex) on `page`.
        `description` is formatted with at (the target time) and decoys."""
        at, _, events = self.counted(rng, knobs, counted, others, n, what=what, decoy_note=decoy_note)
        sql = f"SELECT {count_sql} >= {baseline(metric)} + {n}"
        return self.scenario(at, events, "easy", distraction, prompt=prompt, condition_sql=sql, eval_sql=sql,
                             description=description.format(at=at, decoys=knobs.decoys),
                             solution=[{"watch": page, "until": {"number": number, "at_least": f"first + {n}"}},
                                       {"report": report}])

    def scenario(self, at: float | None, events: Iterable[dict[str, Any]], difficulty: str, distraction: str, *,
                 preload: Mapping[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
        """`scenario` on the start page, the events after the preload (this view's unless given)."""
        return scenario(condition_at=at, start_page=self.start_page, events=timeline(preload or self.preload, events),
                        taxonomy={"difficulty": difficulty, "distraction": distraction}, **fields)


def noop_from(source: Mapping[str, Any], *, near: Iterable[dict[str, Any]] = (), distraction: str,
              swap: tuple[str, str] | None = None, **fields: Any) -> dict[str, Any]:
    """The no-op twin of a drawn scenario: the same timeline (plus the `near` events, its near miss)
    asking for something that never happens; `swap` (old, new) makes the prompt from the source's.
    `fields` are what else the twin says and checks (description, condition_sql, near_miss_sql, ...)."""
    head, *events = source["events"]
    if swap:
        fields.setdefault("prompt", source["prompt"].replace(*swap))
    return scenario(condition_at=None, start_page=source.get("start_page"), events=timeline(
        {k: v for k, v in head.items() if k not in ("at", "type")}, [*events, *near]),
        taxonomy={**source["taxonomy"], "distraction": distraction}, **fields)


def held_until(knobs: Knobs, at: float) -> int:
    """When a condition true at `at` stops holding (a message unsent, a track withdrawn): hold_s later."""
    return int(min(at + knobs.hold_s, TIMELINE_END - 5))


def spare_time(rng: random.Random, events: Sequence[dict[str, Any]], start: float = MIN_AT,
               stop: float = MAX_AT + 100) -> int:
    """A whole second in [start, stop] more than 3 s from every event (where a near miss can go)."""
    free = [t for t in range(int(start), int(stop)) if all(abs(t - e["at"]) > 3 for e in events)]
    return choose(rng, free, "free moment")


def baseline(metric: str) -> str:
    """SQL for a baseline the session recorded at its start (the environment's baseline_sql)."""
    return f"CAST((SELECT value FROM session_meta WHERE key = 'baseline_{metric}') AS REAL)"


def sql_list(values: Iterable[str]) -> str:
    """Text literals for an SQL `IN (...)` list."""
    return ", ".join(sql_text(v) for v in values)


def act_on(page: str, text: str, action: str, *links: str) -> list[dict[str, Any]]:
    """Solution steps: watch `page` until `text` shows, follow it (then the `links`), press `action`."""
    return [{"watch": page, "until": {"text": text}}, {"follow": text}, *({"follow": x} for x in links),
            {"submit": action}]


def tokens(text: str) -> list[str]:
    """The lower-cased words (letters and digits) of a text."""
    return re.findall(r"[a-z0-9]+", text.lower())


def nearness(word: str, text: str) -> float:
    """How near a text comes to a word: 1 when it holds the word split in two (by a space or a
    hyphen), else the longest prefix it shares with one of its words, as a share of the word (0
    below three letters)."""
    ws = tokens(text)
    if any(a + b == word for a, b in zip(ws, ws[1:], strict=False)):
        return 1.0
    best = max((len(os.path.commonprefix([word, w])) for w in ws), default=0)
    return best / len(word) if best >= 3 else 0.0


def alike(a: Mapping[str, Any], b: Mapping[str, Any]) -> float:
    """How alike two personas (catalogs/shared/personas) look: 1 for the same username but its
    punctuation, 0.6 for a shared first name or surname, 0 otherwise (and 0 for the same one)."""
    if a["id"] == b["id"]:
        return 0.0
    if re.sub(r"[^a-z0-9]", "", a["username"].lower()) == re.sub(r"[^a-z0-9]", "", b["username"].lower()):
        return 1.0
    na, nb = a["name"].split(), b["name"].split()
    return 0.6 if na[0] == nb[0] or na[-1] == nb[-1] else 0.0
