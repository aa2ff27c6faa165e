"""Helpers every environment's scenario kinds share (sentinel/envs/<env>/kinds.py).

A kind's draw is meant to read as a short recipe: choose facts from the catalog with `choose`
and `sample`, place the target with `target_time`, the look-alikes with `times_before`, the
background with `background_times`, build events with `event` (its `note` becomes `_note`),
then `timeline` sorts them and `scenario` returns the mapping in file order. Pure: no aiohttp.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
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


# --- kinds-e: a kind as a recipe (a setup draws the facts, the scenario's texts are templates over
# them), its no-op twin, a one-target task's arrivals, and the SQL shapes counting kinds repeat.

Facts = dict[str, Any]
Setup = Callable[[random.Random, "Catalog", Knobs], Facts]


class _Templates(string.Formatter):
    CONVERT: Mapping[str, Callable[[str], str]] = {"e": re.escape, "q": sql_text, "l": like_text}

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion in self.CONVERT:
            return self.CONVERT[conversion](str(value))
        return super().convert_field(value, conversion)


def spell(template: Any, facts: Facts) -> Any:
    """A template filled from the facts. A str is formatted with them (`{x!e}`: x escaped for a
    regex, `{x!q}`: x as an SQL text literal, `{x!l}`: an SQL LIKE pattern for x anywhere; literal
    braces doubled); a str that is one whole `{x}` is the fact itself (a number stays a number); a
    callable is called with the facts; lists and dicts are filled item by item."""
    if callable(template):
        return template(facts)
    if isinstance(template, str):
        whole = re.fullmatch(r"\{(\w+)\}", template)
        return facts[whole.group(1)] if whole else _Templates().vformat(template, (), facts)
    if isinstance(template, list | tuple):
        return [spell(t, facts) for t in template]
    if isinstance(template, dict):
        return {k: spell(v, facts) for k, v in template.items()}
    return template


@dataclass(frozen=True)
class Recipe:
    """A kind declared: `setup` draws the facts (`at`, `events` and `preload`, and `until` when a
    passing condition ends), every other field is a template over them (`spell`). The solution
    watches `watch` (opening each new link matching `open_new`) until `until` holds, takes the
    `then` steps and reports `report`; `solution` replaces all of that when the steps differ."""

    activity: str
    criteria: str
    setup: Setup
    description: Any
    prompt: Any
    difficulty: str
    distraction: Any
    condition_sql: Any
    watch: Any = None
    until: Any = None
    report: Any = None
    open_new: str | None = None
    then: Any = ()
    solution: Any = None
    start_page: Any = None
    eval_sql: Any = None

    def kind(self, name: str, decoys: int = 3, notes: str = "") -> Kind:
        return Kind(name, self.activity, self.criteria, lambda rng, catalog, knobs: self.scenario(
            self.setup(rng, catalog, knobs)), Knobs(decoys=decoys), notes)

    def noop(self, name: str, swap: Callable[[random.Random, Catalog, Facts], Facts], *, description: Any,
             eval_sql: Any = None, distraction: Any = None, decoys: int = 3, notes: str = "") -> Kind:
        """The no-op twin: the source's draw, whose target notes become the near miss's, then
        `swap(rng, catalog, facts)` returns the facts that change (the asked value no event brings,
        more events); the twin asks with them (the source's facts stay under `source`) and its near
        miss is the source's condition on the source's facts."""
        twin = replace(self, activity="noop", description=description, eval_sql=eval_sql,
                       distraction=distraction or self.distraction)

        def draw(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
            facts = self.setup(rng, catalog, knobs)
            facts["events"] = [{**e, "_note": e["_note"].replace("target:", "near miss (the source task's target):", 1)}
                               if e.get("_note", "").startswith("target:") else e for e in facts["events"]]
            asked = {**facts, **swap(rng, catalog, facts), "source": facts}
            return twin.scenario(asked, near_miss_sql=spell(self.condition_sql, facts))
        return Kind(name, "noop", self.criteria, draw, Knobs(decoys=decoys), notes)

    def scenario(self, facts: Facts, near_miss_sql: str | None = None) -> dict[str, Any]:
        noop = self.activity == "noop"
        steps = self.solution if self.solution is not None else [
            {"watch": self.watch, **({"open_new": self.open_new} if self.open_new else {}), "until": self.until},
            *self.then, {"report": self.report}]
        return scenario(
            description=spell(self.description, facts), prompt=spell(self.prompt, facts),
            condition_at=None if noop else facts["at"], condition_until=None if noop else facts.get("until"),
            start_page=spell(self.start_page, facts),
            taxonomy=taxonomy(self.activity, self.criteria, self.difficulty, spell(self.distraction, facts)),
            events=timeline(facts["preload"], facts["events"]), condition_sql=spell(self.condition_sql, facts),
            near_miss_sql=near_miss_sql, eval_sql=spell(self.eval_sql, facts), solution=spell(steps, facts))


def unit(rng: random.Random, knobs: Knobs, make: Callable[[float, str, str | None], dict[str, Any]], target: str,
         decoys: Sequence[str], *, note: str, decoy_note: Callable[[str], str], trailing: Sequence[str] = (),
         trail_note: Callable[[str], str] = lambda item: "trailing: after the target", hold: bool = False,
         gap: int = 3) -> tuple[int, int | None, list[dict[str, Any]]]:
    """The key events of a one-target task: the decoys in sequence before the target (the last `gap`
    s before it), the target at a drawn time, each `trailing` item after it. With `hold`, the
    condition ends knobs.hold_s after the target, by the timeline's end at the latest (trailing
    items keep `gap` s from that moment).
    Returns (target time, that end or None, events built with `make(at, item, note)`)."""
    last = TIMELINE_END - 5
    at = target_time(rng, knobs, lo=4 + 2 * len(decoys))
    until = int(min(at + knobs.hold_s, last)) if hold else None
    times = times_between(rng, len(decoys), 1, at - gap + 1)
    events = [make(t, d, decoy_note(d)) for t, d in zip(times, decoys, strict=True)]
    events.append(make(at, target, note))
    later = [t for t in range(min(at + 5, last), last + 1) if until is None or abs(t - until) >= gap]
    return at, until, events + [make(choose(rng, later, "time after the target"), x, trail_note(x)) for x in trailing]


def exists_sql(rows: str) -> str:
    """Whether `rows` (a FROM clause: table, WHERE …) holds any row, as a condition query."""
    return f"SELECT EXISTS (SELECT 1 FROM {rows})"


def count_sql(rows: str, at_least: Any) -> str:
    """Whether `rows` (a FROM clause: table, WHERE …) holds at least `at_least` rows."""
    return f"SELECT (SELECT COUNT(*) FROM {rows}) >= {at_least}"


def baseline(metric: str) -> str:
    """A relative task's reference (the environment's baseline_sql `metric`, read when the session starts), in SQL."""
    return f"CAST((SELECT value FROM session_meta WHERE key = 'baseline_{metric}') AS REAL)"


def more_than_first(setup: Setup, rows: str, metric: str, watch: Any, number: str, *, condition_sql: Any = None,
                    **texts: Any) -> Recipe:
    """A passive relative kind: at least {n} more `rows` (a FROM clause) than the session's `metric`
    baseline; the solution watches `watch` until its `number` regex reads the first value + {n}.
    `condition_sql` (e.g. {n} rows arrived) replaces the baseline check as the condition."""
    sql = count_sql(rows, baseline(metric) + " + {n}")
    return Recipe("passive", "relative", setup, condition_sql=condition_sql or sql, eval_sql=sql, watch=watch,
                  until={"number": number, "at_least": "first + {n}"}, **texts)


def unseen(rng: random.Random, candidates: Iterable[str], texts: Iterable[str], what: str) -> str:
    """One of the candidates that no text holds (case-insensitive): what a no-op asks for and never arrives."""
    haystack = "\n".join(texts).lower()
    return choose(rng, [c for c in candidates if c.lower() not in haystack], what)
