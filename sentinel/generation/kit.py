"""The one kit every environment's scenario kinds are built on (sentinel/envs/<env>/kinds.py). Pure: no aiohttp.

A kind is a name, its labels (activity: passive, active or noop; criteria: absolute or relative), default
knobs, notes saying what each knob means for it, and a draw: (rng, catalog, knobs) → the scenario mapping.
The sections below follow the order in which a kind is written:

1. Timing: TIMELINE_END, LAST_S, GAP_S (background keeps off deciding events), FIRST_READ_S, FLAT_S (start delays).
2. Declaring a kind: the `kind` decorator above a draw function (kind = partial(kit.kind, _declared) collects KINDS),
   or `declare` / `Recipe` from a setup that draws the facts (preload, events, at, until, ...) and texts templated on
   them (`fill_in`: {x!q} SQL text, {x!l} LIKE pattern, {x!e} regex); a `Recipe` writes the usual solution and `.noop`.
3. Choosing from the catalog: `ids_where`, `choose`, `sample`, `nearest` (look-alikes ranked by the
   near_miss knob), `unseen`, and how alike two items are: `words`, `overlap`, `nearness`, `alike`.
4. Spacing: `target_time` inside the knobs' window, `times_between` and `spaced` before it, `free_times` /
   `free_moment` away from the events, `hold_until` for a condition that ends.
5. Events and the scenario: `event` (its note becomes `_note`), `timeline`, `taxonomy`, `scenario`.
6. An environment's arrivals view: `Arrivals` (counted kinds' setups) or `ArrivalView` (drawn kinds).
7. One target among look-alikes: `one_target`.
8. Counted arrivals: `counting`, `counted_arrivals` (look-alikes fitted to the window), `rise_with_drops`
   and `order_under` (a count that drops on its way), `counted_setup`.
9. Background traffic that cannot decide the task: `background_times`, `mixed_background`, `fill`, `traffic`.
10. Near misses and the no-op twin: `as_near_miss` (the source's target becomes the near miss), `noop_twin`.
11. SQL and solution shapes: `sql_text`, `like_text`, `sql_list`, `baseline`, `exists_sql`, `count_reaches`,
    `count_watch`, `watch_number`, `act_on`.
12. Waypoint timelines (a value crossing a line once, at the target): `Leg`, `phases`, `ahead`, `approach`,
    `cross_once`, `near_miss_legs`; values: `shortfall`, `round_line`, `floor_to`, `ceil_to`, `near_value`.
"""

from __future__ import annotations

import math
import os
import random
import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate
from typing import TYPE_CHECKING, Any, NamedTuple

from sentinel.core.kinds import MAX_AT, MIN_AT, Kind, Knobs, NoDraw

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog


# --- Timing: the timeline's end and the delays every kind respects --------------------------------

TIMELINE_END = 720
LAST_S = TIMELINE_END - 5
GAP_S = 2  # background events keep this far from the events that decide the task
FIRST_READ_S = 8  # counted arrivals begin after the agent's first read (a relative count starts from it)
FLAT_S = 14  # a moving value (price, star count) first moves after the first read and 10 s of steady value

Make = Callable[[float, str, str | None], dict[str, Any]]  # make(at, item id, note) builds one arrival event
Facts = dict[str, Any]
Setup = Callable[[random.Random, "Catalog", Knobs], Facts]  # draws a declared kind's facts


# --- Declaring a kind: above its draw (kind), or from a setup and text templates (declare, Recipe) ---

def kind(kinds: list[Kind], activity: str, criteria: str, knobs: Knobs | None = None, notes: str = "", *,
         name: str | None = None, earliest: float = MIN_AT, view: Callable[[Catalog], Any] | None = None,
         **params: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: the draw below becomes a Kind in `kinds` (named after it unless `name` is given):

        kind = partial(kit.kind, _declared)     # once per kinds.py; KINDS come from _declared
        @kind("passive", "absolute", Knobs(decoys=2), "decoys: ...; near_miss: ...")
        def price_target(rng, catalog, knobs): ...

    Stacked, one draw serves several kinds with their keyword `params`. It reads `view(catalog)` if a view is given,
    returns a taxonomy of difficulty and distraction, and may return (choice, scenario) for a no-op twin calling it."""
    def declare(draw: Callable[..., Any]) -> Callable[..., Any]:
        def run(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
            out = draw(rng, catalog if view is None else view(catalog), knobs, **params)
            out = out[1] if isinstance(out, tuple) else out
            return {**out, "taxonomy": {"activity": activity, "criteria": criteria, **out["taxonomy"]}}
        kinds.append(Kind(name or draw.__name__, activity, criteria, run, knobs or Knobs(), notes, earliest))
        return draw
    return declare


def declare(name: str, activity: str, criteria: str, setup: Setup, knobs: Knobs, notes: str, *, difficulty: str,
            distraction: str, prompt: str, description: str, condition_sql: str, solution: list[dict[str, Any]],
            eval_sql: str | None = None, near_miss_sql: str | None = None, start_page: str | None = None,
            earliest: float = MIN_AT) -> Kind:
    """A `Recipe` kind with the whole `solution`, whose templates see the knobs too; near_miss_sql is a template,
    eval_sql by default the condition (a passive task is graded on reaching it)."""
    graded = eval_sql or (None if activity == "noop" else condition_sql)
    recipe = Recipe(activity, criteria, setup, description, prompt, difficulty, distraction, condition_sql,
                    solution=solution, start_page=start_page, eval_sql=graded)

    def draw(rng: random.Random, catalog: Catalog, drawn: Knobs) -> dict[str, Any]:
        facts = {**drawn.to_dict(), **setup(rng, catalog, drawn)}
        return recipe.scenario(facts, near_miss_sql=fill_in(near_miss_sql, facts))
    return Kind(name, activity, criteria, draw, knobs, notes, earliest)


@dataclass(frozen=True)
class Recipe:
    """A kind declared: `setup` draws the facts (`at`, `events`, `preload`; `until` when a passing condition ends),
    every other field is a template over them (`fill_in`). The solution watches `watch` (opening each new link
    matching `open_new`) until `until` holds, takes the `then` steps and reports `report`, or is `solution`."""

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
        """The no-op twin: the source's draw with its target as the near miss, asking with the facts that `swap(rng,
        catalog, facts)` changes (the source's stay under `source`); its near miss is the source's condition."""
        twin = replace(self, activity="noop", description=description, eval_sql=eval_sql,
                       distraction=distraction or self.distraction)

        def draw(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
            facts = self.setup(rng, catalog, knobs)
            facts["events"] = as_near_miss([dict(e) for e in facts["events"]])
            asked = {**facts, **swap(rng, catalog, facts), "source": facts}
            return twin.scenario(asked, near_miss_sql=fill_in(self.condition_sql, facts))
        return Kind(name, "noop", self.criteria, draw, Knobs(decoys=decoys), notes)

    def scenario(self, facts: Facts, near_miss_sql: str | None = None) -> dict[str, Any]:
        noop = self.activity == "noop"
        steps = self.solution if self.solution is not None else [
            {"watch": self.watch, **({"open_new": self.open_new} if self.open_new else {}), "until": self.until},
            *self.then, {"report": self.report}]
        return scenario(
            description=fill_in(self.description, facts), prompt=fill_in(self.prompt, facts),
            condition_at=None if noop else facts["at"], condition_until=None if noop else facts.get("until"),
            start_page=fill_in(self.start_page, facts),
            taxonomy=taxonomy(self.activity, self.criteria, self.difficulty, fill_in(self.distraction, facts)),
            events=timeline(facts["preload"], facts["events"]), condition_sql=fill_in(self.condition_sql, facts),
            near_miss_sql=near_miss_sql, eval_sql=fill_in(self.eval_sql, facts), solution=fill_in(steps, facts))


def more_than_first(setup: Setup, rows: str, metric: str, watch: Any, number: str, *, condition_sql: Any = None,
                    **texts: Any) -> Recipe:
    """A passive relative kind: {n} more `rows` (a FROM clause) than the `metric` baseline, watched on `watch`
    until its `number` regex reads first + {n}; a `condition_sql` replaces the baseline check as the condition."""
    sql = count_reaches(rows, "{n}", metric)
    return Recipe("passive", "relative", setup, condition_sql=condition_sql or sql, eval_sql=sql, watch=watch,
                  until={"number": number, "at_least": "first + {n}"}, **texts)


class _Templates(string.Formatter):
    """str.format with three more conversions: !q an SQL text literal, !l a LIKE pattern, !e a regex."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        convert = {"e": re.escape, "q": sql_text, "l": like_text}.get(conversion or "")
        return convert(str(value)) if convert else super().convert_field(value, conversion)


def fill_in(template: Any, facts: Mapping[str, Any]) -> Any:
    """A template filled from the facts: a str is formatted with them (`{x!e}` a regex escape, `{x!q}` an SQL text
    literal, `{x!l}` a LIKE pattern for x anywhere; braces doubled), a whole `{x}` is the fact itself (a number stays a
    number), a callable is called with the facts, and lists, tuples and mappings are filled item by item."""
    if callable(template):
        return template(facts)
    if isinstance(template, str):
        whole = re.fullmatch(r"\{(\w+)\}", template)
        return facts[whole.group(1)] if whole else _Templates().vformat(template, (), facts)
    if isinstance(template, list | tuple):
        return [fill_in(t, facts) for t in template]
    if isinstance(template, Mapping):
        return {k: fill_in(v, facts) for k, v in template.items()}
    return template


# --- Choosing from the catalog, and how alike two items are ---------------------------------------

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
    """k look-alikes ranked by score blended with noise by (1 − near_miss): at 1 the k highest, at 0 any k."""
    if k > len(items):
        raise NoDraw(f"only {len(items)} look-alikes, {k} asked")
    return sorted(items, key=lambda it: -(near_miss * score(it) + (1 - near_miss) * rng.random()))[:k]


def unseen(rng: random.Random, candidates: Iterable[str], texts: Iterable[str], what: str) -> str:
    """One of the candidates that no text holds (case-insensitive): what a no-op asks for and never arrives."""
    haystack = "\n".join(texts).lower()
    return choose(rng, [c for c in candidates if c.lower() not in haystack], what)


def words(text: str) -> set[str]:
    """The lower-case words of a text, three characters or more (digits count): what look-alikes share."""
    return {w for w in re.split(r"[^a-z0-9]+", text.lower()) if len(w) > 2}


def overlap(a: str | Iterable[str], b: str | Iterable[str]) -> float:
    """How alike two texts (their `words`) or two sets of words are: the shared words among all of them (0 to 1)."""
    sa, sb = (words(x) if isinstance(x, str) else set(x) for x in (a, b))
    return len(sa & sb) / max(1, len(sa | sb))


def nearness(word: str, text: str) -> float:
    """1 when the text holds the word split in two (by a space or a hyphen), else the longest prefix
    one of its words shares with the word, as a share of it (0 below three letters)."""
    ws = re.findall(r"[a-z0-9]+", text.lower())  # every word, short ones too, in order
    if any(a + b == word for a, b in zip(ws, ws[1:], strict=False)):
        return 1.0
    best = max((len(os.path.commonprefix([word, w])) for w in ws), default=0)
    return best / len(word) if best >= 3 else 0.0


def alike(a: Mapping[str, Any], b: Mapping[str, Any]) -> float:
    """How alike two personas look: 1 for the same username but punctuation, 0.6 for a shared first or last name."""
    if a["id"] == b["id"]:
        return 0.0
    if re.sub(r"[^a-z0-9]", "", a["username"].lower()) == re.sub(r"[^a-z0-9]", "", b["username"].lower()):
        return 1.0
    na, nb = a["name"].split(), b["name"].split()
    return 0.6 if na[0] == nb[0] or na[-1] == nb[-1] else 0.0


# --- Spacing: the target time, look-alikes before it, free moments, how long a condition holds ----

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
    strata = [(lo + int(j * step), lo + int((j + 1) * step) - 1) for j in range(n)]
    out = [rng.randint(a, max(a, b)) for a, b in strata]
    return sorted(set(out)) if len(set(out)) == n else list(range(lo, lo + n))


def spaced(rng: random.Random, n: int, start: float, stop: float, gap: float) -> list[int]:
    """n whole seconds in [start, stop], one per stratum, at least `gap` apart."""
    if n <= 0:
        return []
    width = (stop - start) / n
    if width < gap:
        raise NoDraw(f"no room for {n} events {gap:g} s apart between {start:g} and {stop:g} s")
    strata = [(start + j * width + gap / 2, start + (j + 1) * width - gap / 2) for j in range(n)]
    return [int(round(rng.uniform(lo, max(lo, hi)))) for lo, hi in strata]


def free_times(rng: random.Random, k: int, start: float, stop: float, taken: Sequence[float],
               gap: float = 3) -> list[int]:
    """k distinct whole seconds in [start, stop] kept `gap` away from `taken` and each other."""
    picked: list[int] = []
    candidates = list(range(int(start), int(stop) + 1))
    rng.shuffle(candidates)
    for t in candidates:
        if len(picked) < k and all(abs(t - b) >= gap for b in [*taken, *picked]):
            picked.append(t)
    if len(picked) < k:
        raise NoDraw(f"no room for {k} look-alikes between {start:g} and {stop:g} s")
    return sorted(picked)


def free_moment(rng: random.Random, events: Iterable[Mapping[str, Any]], lo: float = MIN_AT,
                hi: float = MAX_AT + 99, gap: float = 3) -> int:
    """A whole second in [lo, hi] more than `gap` s from every event (where a near miss or a lone decoy can go)."""
    busy = [e["at"] for e in events]
    return choose(rng, [t for t in range(int(lo), int(hi) + 1) if all(abs(t - b) > gap for b in busy)], "free moment")


def hold_until(knobs: Knobs, at: int, least: int = 0, end: int = TIMELINE_END - 5) -> int:
    """When a passing condition ends: knobs.hold_s after `at` but at least `least`, and by `end`."""
    until = min(at + max(least, int(knobs.hold_s)), end)
    if until - at < least:
        raise NoDraw(f"a condition at {at} s cannot hold {least} s before {end} s")
    return until


# --- Events and the scenario mapping --------------------------------------------------------------

def event(at: float, etype: str, note: str | None = None, **fields: Any) -> dict[str, Any]:
    """One event mapping: at, type, its fields, then `_note` (the fact that decides it)."""
    return {"at": _num(at), "type": etype, **fields, **({"_note": note} if note else {})}


def timeline(preload: Mapping[str, Any], events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The preload at 0, then events by time; at equal times the events with a _note first (the
    event that decides a flip is read as the last one at its moment), else in the given order."""
    rest = sorted(enumerate(events), key=lambda ie: (ie[1]["at"], "_note" not in ie[1], ie[0]))
    return [{"at": 0, "type": "preload", **preload}, *(e for _, e in rest)]


def taxonomy(activity: str, criteria: str, difficulty: str, distraction: str) -> dict[str, str]:
    """A scenario's taxonomy block (docs/environments.md#pages)."""
    return {"activity": activity, "criteria": criteria, "difficulty": difficulty, "distraction": distraction}


def scenario(*, prompt: str, description: str, condition_at: float | None, taxonomy: Mapping[str, Any],
             events: list[dict[str, Any]], condition_sql: str, solution: list[dict[str, Any]],
             eval_sql: str | None = None, start_page: str | None = None,
             condition_until: float | None = None, near_miss_sql: str | None = None) -> dict[str, Any]:
    """The mapping a kind's draw returns (generate adds id, environment and generated); optional keys when given."""
    out = {"description": description, "prompt": prompt, "condition_at": _num(condition_at),
           "condition_until": _num(condition_until), "start_page": start_page or None, "taxonomy": dict(taxonomy),
           "events": events, "condition_sql": condition_sql, "near_miss_sql": near_miss_sql, "eval_sql": eval_sql,
           "solution": solution}
    optional = ("condition_until", "start_page", "near_miss_sql", "eval_sql")
    return {key: value for key, value in out.items() if value is not None or key not in optional}


def _num(value: float | None) -> Any:
    return None if value is None else (int(value) if float(value).is_integer() else round(float(value), 3))


# --- An environment's arrivals view: its catalog as one draw reads it -----------------------------

class Arrivals:
    """One draw's view of an environment's catalog: a subclass fills in the preload (`load`), what can arrive (`type`:
    catalog id → event type), the records (`rec`) and each type's id field (`fields`); `about`, `arrange` are hooks."""

    fields: Mapping[str, str]
    load: dict[str, Any]
    type: dict[str, str]
    rec: dict[str, dict[str, Any]]

    @property
    def items(self) -> list[str]:
        return list(self.type)

    def of(self, etype: str, where: Callable[[dict[str, Any]], bool] = lambda rec: True) -> list[str]:
        return [i for i, t in self.type.items() if t == etype and where(self.rec[i])]

    def about(self, rid: str) -> str:
        return rid

    def make(self, t: float, rid: str, note: str | None) -> dict[str, Any]:
        """A Make: the item's arrival at t; a note is followed by what the item is about."""
        etype = self.type[rid]
        return event(t, etype, note and f"{note} · {self.about(rid)}", **{self.fields[etype]: rid})

    def arrange(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return events

    def with_background(self, rng: random.Random, knobs: Knobs, key: list[dict[str, Any]], at: float | None,
                        before: Sequence[str], after: Sequence[str] = ()) -> list[dict[str, Any]]:
        """`key` and `fill`'s background (`before` items; after `at`, `after` items too), arranged."""
        return self.arrange(key + fill(rng, knobs, key, at, before, after, self.make))


class ArrivalView:
    """The catalog as drawn kinds read it: what may arrive by event type (`pools`: ids not preloaded; `fields`: the
    event field naming one), the preload and the start page. Called as `make(at, id, note)`, `describe(id)` noted."""

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
        """A counting task's events (`counting`): n of `counted`, knobs.decoys of `others` between them (with `after`:
        trailing; with `near`: `nearest` by it), then `background`. Returns (target time, counted ids, events)."""
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
        """Background at the density knob: none in `events` or that `spoils` the task; what `counts` only after `at`."""
        used = {e[f] for e in events for f in self.fields.values() if f in e}
        pool = [rid for rid in self.type_of if rid not in used and not spoils(rid)]
        late = (lambda rid, t: True) if at is None else (lambda rid, t: t > at + GAP_S or not counts(rid))
        return [self(t, rid) for t, rid in mixed_background(rng, knobs.density, [e["at"] for e in events], pool, late)]

    def more(self, rng: random.Random, knobs: Knobs, counted: Sequence[str], others: Sequence[str], n: int, *,
             count_sql: str, metric: str, page: str, number: str, what: str, decoy_note: str, distraction: str,
             description: str, prompt: str, report: str) -> dict[str, Any]:
        """A passive relative counting task, "tell me once there are n more than now": `count_sql` against the
        baseline `metric`, the total read (`number`) on `page`; `description` is formatted with at and decoys."""
        at, _, events = self.counted(rng, knobs, counted, others, n, what=what, decoy_note=decoy_note)
        sql = f"SELECT {count_sql} >= {baseline(metric)} + {n}"
        return self.scenario(at, events, "easy", distraction, prompt=prompt, condition_sql=sql, eval_sql=sql,
                             description=description.format(at=at, decoys=knobs.decoys),
                             solution=watch_number(page, number, f"first + {n}", report))

    def scenario(self, at: float | None, events: Iterable[dict[str, Any]], difficulty: str, distraction: str, *,
                 preload: Mapping[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
        """`scenario` on the start page, the events after the preload (this view's unless given)."""
        return scenario(condition_at=at, start_page=self.start_page, events=timeline(preload or self.preload, events),
                        taxonomy={"difficulty": difficulty, "distraction": distraction}, **fields)


def arriving(events: Iterable[Mapping[str, Any]]) -> set[str]:
    """The catalog items the events bring (their `*_id` fields)."""
    return {str(v) for e in events for f, v in e.items() if f.endswith("_id")}


# --- One target among look-alikes -----------------------------------------------------------------

def one_target(rng: random.Random, knobs: Knobs, make: Make, target: str, decoys: Sequence[str], *, note: str,
               decoy_note: Callable[[str], str], gap: float = 3, lo: float = MIN_AT, hi: float = MAX_AT,
               trailing: Sequence[str] = (), hold: bool = False,
               trail_note: Callable[[str], str] = lambda item: "trailing: after the target",
               ) -> tuple[int, int | None, list[dict[str, Any]]]:
    """The key events of a one-target task: the target in [lo, hi], its look-alikes `gap` s apart before it
    (decoy_note says why each does not count), each `trailing` item after it; with `hold`, the condition ends
    knobs.hold_s after the target. Returns (target time, that end or None, events)."""
    at = target_time(rng, knobs, lo=max(lo, 2 + gap * (len(decoys) + 1)), hi=hi)
    until = hold_until(knobs, at) if hold else None
    times = spaced(rng, len(decoys), 2, at - gap, gap)
    events = [*(make(t, d, decoy_note(d)) for t, d in zip(times, decoys, strict=True)), make(at, target, note)]
    later = [t for t in range(min(at + 5, LAST_S), LAST_S + 1) if until is None or abs(t - until) >= gap]
    return at, until, events + [make(choose(rng, later, "time after the target"), x, trail_note(x)) for x in trailing]


# --- Counted arrivals: n of a family, the n-th at the target time ---------------------------------

def counting(rng: random.Random, knobs: Knobs, counted: Sequence[str], others: Sequence[str], n: int,
             make: Make, *, what: str, decoy_note: Callable[[str], str], first_s: float = 2,
             gap: float = 4, trailing: bool = True) -> tuple[int, list[dict[str, Any]], list[str]]:
    """The key events of a counting task: n of `counted` (the n-th at the target time, one more
    trailing when `trailing`), knobs.decoys of `others` between. Returns (at, events, counted ids)."""
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


def counted_arrivals(rng: random.Random, knobs: Knobs, counted: Sequence[str], looks: Sequence[str], n: int,
                     make: Make, *, what: str, decoy_note: str, score: Callable[[str], float] | None = None,
                     start: float = 0, gap: float = 4, trailing: int = 1, span: float | None = None,
                     ordered: bool = False) -> tuple[int, list[dict[str, Any]], list[str]]:
    """As `counting`, with as many `looks` as fit before knobs.latest (at most the decoys knob; the nearest by
    `score`, or any) and `trailing` counted ones after the target. `span`: the arrivals start at most `span` s before
    the target; `ordered`: the first of `counted` in order, else a sample. Returns (target time, events, items used)."""
    def room(k: int) -> float:  # n − 1 strata of `gap`, and k look-alikes 3 s clear of everything
        return 1 + max(gap * (n - 1) + gap / 2, 5 * (n - 1 + k) - 1)
    k = max(0, min(knobs.decoys, len(looks), int((knobs.latest - start - room(0)) // 5)))
    decoys = nearest(rng, looks, k, score, knobs.near_miss) if score else sample(rng, looks, k, "look-alikes")
    picked = list(counted[:n + trailing]) if ordered else sample(rng, counted, n + trailing, what)
    at = target_time(rng, knobs, lo=start + room(k))
    if span is not None:
        start = max(start, at - rng.randint(int(room(k)), max(int(room(k)), int(span))))
    times = [*sorted(spaced(rng, n - 1, start, at - gap / 2, gap)), at]
    events = [make(t, rid, f"{'target: ' if i == n - 1 else ''}{what}" + (f" {i + 1} of {n}" if n > 1 else ""))
              for i, (t, rid) in enumerate(zip(times, picked, strict=False))]
    events += [make(t, rid, decoy_note) for t, rid in zip(free_times(rng, k, start + 1, at - 3, times), decoys,
                                                           strict=True)]
    later = free_times(rng, trailing, at + 10, LAST_S, [])
    events += [make(t, rid, f"trailing: another {what}") for t, rid in zip(later, picked[n:], strict=True)]
    return at, events, [*picked, *decoys]


def rise_with_drops(rng: random.Random, knobs: Knobs, counted: Sequence[str], droppable: Sequence[str], n: int,
                    make: Make, drop: Make, *, what: str, drop_note: str, base: int = 0, start: float = 0,
                    gap: float = 4, cap: int = 3, trailing: int = 1) -> tuple[int, list[dict[str, Any]], list[str]]:
    """A count that must rise from `base` by n while some of what was there leaves: arrivals of `counted` and
    d removals of `droppable` (`drop(t, item, note)`; d the decoys knob, at most `cap`) in an order staying under n,
    the n-th arrival at the target time, `trailing` more after it. Returns (target time, events, items used)."""
    d = max(0, min(knobs.decoys, cap, len(droppable), (int((knobs.latest - start) // gap) - n) // 2))
    steps = order_under(rng, n, d)
    at = target_time(rng, knobs, lo=start + gap * (len(steps) + 1))
    adds, gone = sample(rng, counted, n + d + trailing, what), sample(rng, droppable, d, "removals")
    arriving, leaving, level, events = iter(adds), iter(gone), base, []
    for t, step in zip(sorted(spaced(rng, len(steps), start, at - gap / 2, gap)), steps, strict=True):
        level += 1 if step == "add" else -1
        note = f"{what} {level} of {base + n}" if step == "add" else f"{drop_note}: now {level} of {base + n}"
        events.append(make(t, next(arriving), note) if step == "add" else drop(t, next(leaving), note))
    events.append(make(at, next(arriving), f"target: {what} {base + n} of {base + n}"))
    later = free_times(rng, trailing, at + 10, LAST_S, [])
    events += [make(t, next(arriving), f"trailing: {what} {base + n + i + 1}") for i, t in enumerate(later)]
    return at, events, [*adds, *gone]


def order_under(rng: random.Random, n: int, removals: int, tries: int = 40) -> list[str]:
    """A seeded order of n + removals − 1 "add" and `removals` "remove" steps whose running total stays under n."""
    for _ in range(tries):
        seq = ["add"] * (n + removals - 1) + ["remove"] * removals
        rng.shuffle(seq)
        if all(level < n for level in accumulate(1 if step == "add" else -1 for step in seq)):
            return seq
    raise NoDraw(f"no order of {n + removals - 1} additions and {removals} removals stays under {n}")


def counted_setup(arrivals: Callable[[random.Random, Catalog], Arrivals], *,
                  counted: Callable[[Any], Sequence[str]], looks: Callable[[Any], Sequence[str]], n: tuple[int, int],
                  what: str, decoy_note: str, base: Callable[[Any], int] = lambda view: 0,
                  score: Callable[[Any], Callable[[str], float]] | None = None, start: float = 0, trailing: int = 1,
                  span: float | None = None) -> Setup:
    """A counting kind's setup for `declare`: `counted_arrivals` of n (drawn from the range), then background
    that keeps the counted family out until the target. `counted`, `looks`, `score` and `base` (the count at the
    start) take the view `arrivals(rng, catalog)`. Facts: preload, events, at, n, base, goal, first, decoys."""
    def setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
        a, k = arrivals(rng, catalog), rng.randint(*n)
        at, key, used = counted_arrivals(rng, knobs, counted(a), looks(a), k, a.make, what=what, decoy_note=decoy_note,
                                         score=score and score(a), start=start, trailing=trailing, span=span)
        free, family = [x for x in a.items if x not in set(used)], set(counted(a))
        safe = [x for x in free if x not in family]
        return {"preload": a.load, "events": a.with_background(rng, knobs, key, at, safe, free),
                "at": at, "n": k, "base": base(a), "goal": base(a) + k, "first": min(e["at"] for e in key),
                "decoys": len(used) - k - trailing}
    return setup


# --- Background traffic that cannot decide the task -----------------------------------------------

def background_times(rng: random.Random, density: float, taken: Iterable[float],
                     start: float = 1, stop: float = TIMELINE_END - 5) -> list[int]:
    """Background event times at `density` per sim minute over the timeline, kept GAP_S away from `taken`."""
    busy = [float(t) for t in taken]
    n = int(round(density * (stop - start) / 60.0))
    free = [t for t in range(int(start), int(stop) + 1) if all(abs(t - b) > GAP_S for b in busy)]
    return [] if n <= 0 or not free else sorted(rng.sample(free, min(n, len(free))))


def mixed_background(rng: random.Random, density: float, taken: Iterable[float], pool: Sequence[Any],
                     allow: Callable[[Any, int], bool], start: float = 1,
                     stop: float = TIMELINE_END - 5) -> list[tuple[int, Any]]:
    """(time, item) background pairs: times as `background_times` gives them, each with a pool item (used
    once) that `allow(item, time)` accepts, so a pool can mix event families."""
    out: list[tuple[int, Any]] = []
    left = list(pool)
    for t in background_times(rng, density, taken, start, stop):
        fits = [i for i, item in enumerate(left) if allow(item, t)]
        if fits:
            out.append((t, left.pop(fits[rng.randrange(len(fits))])))
    return out


def fill(rng: random.Random, knobs: Knobs, events: list[dict[str, Any]], at: float | None,
         before: Sequence[str], after: Sequence[str], make: Make) -> list[dict[str, Any]]:
    """Background at the density knob, each item once: before `at` only `before` items (they cannot change the
    task's condition), after it `after` items too."""
    times = background_times(rng, knobs.density, [e["at"] for e in events])
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


def traffic(rng: random.Random, knobs: Knobs, events: list[dict[str, Any]], pool: Sequence[str], make: Make,
            spoils: Callable[[str], bool] = lambda item: False, after: float | None = None) -> list[dict[str, Any]]:
    """`events` plus background from `pool` at the density knob: items not yet arriving, none that `spoils`
    the task (or, given `after`, the target time, none before it)."""
    on = arriving(events)
    free = [item for item in pool if item not in on]
    safe = [item for item in free if not spoils(item)]
    return [*events, *fill(rng, knobs, events, after, safe, free if after is not None else [], make)]


# --- Near misses and the no-op twin ---------------------------------------------------------------

def as_near_miss(events: list[dict[str, Any]], but: str = "") -> list[dict[str, Any]]:
    """A no-op twin drawn by its source's draw: the source task's target (its note starts "target:"
    or holds "(the target)") becomes the twin's near miss, in place; `but` says why it does not count."""
    for e in events:
        note = str(e.get("_note", ""))
        if note.startswith("target:"):
            e["_note"] = "near miss (the source task's target):" + note.removeprefix("target:") + but
        elif "(the target)" in note:
            e["_note"] = note.replace("(the target)", "(the source task's target: the near miss)") + but
    return events


def noop_twin(source: Mapping[str, Any], *, near: Iterable[dict[str, Any]] = (), distraction: str | None = None,
              swap: tuple[str, str] | None = None, drop: Callable[[dict[str, Any]], bool] = lambda e: False,
              **fields: Any) -> dict[str, Any]:
    """The no-op twin of a drawn scenario: its timeline with the target relabelled (`as_near_miss`), the `near`
    events added and background events `drop` picks left out. `swap` (old, new) makes the prompt from the source's;
    the taxonomy is the source's with `distraction` unless `fields` (description, condition_sql, ...) give one."""
    head, *events = source["events"]
    kept = as_near_miss([dict(e) for e in events if "_note" in e or not drop(e)])
    if swap:
        fields.setdefault("prompt", source["prompt"].replace(*swap))
    fields.setdefault("taxonomy", {**source["taxonomy"], "distraction": distraction})
    return scenario(condition_at=None, start_page=source.get("start_page"), events=timeline(
        {k: v for k, v in head.items() if k not in ("at", "type")}, [*kept, *near]), **fields)


# --- SQL and solution shapes ----------------------------------------------------------------------

def sql_text(value: str) -> str:
    """A text literal for SQL built by a kind (catalog text is data: quotes doubled)."""
    return "'" + value.replace("'", "''") + "'"


def like_text(value: str) -> str:
    """A LIKE pattern literal matching `value` anywhere (catalog phrases hold no % or _)."""
    if "%" in value or "_" in value:
        raise NoDraw(f"{value!r} holds a LIKE wildcard")
    return sql_text(f"%{value}%")


def sql_list(values: Iterable[str]) -> str:
    """Text literals for an SQL `IN (...)` list."""
    return ", ".join(sql_text(v) for v in values)


def baseline(metric: str) -> str:
    """SQL for a baseline the session recorded at its start (the environment's baseline_sql)."""
    return f"CAST((SELECT value FROM session_meta WHERE key = 'baseline_{metric}') AS REAL)"


def exists_sql(rows: str) -> str:
    """Whether `rows` (a FROM clause: table, WHERE …) holds any row, as a condition query."""
    return f"SELECT EXISTS (SELECT 1 FROM {rows})"


def count_reaches(rows: str, n: int | str, metric: str | None = None, count: str = "COUNT(*)") -> str:
    """Condition SQL: `rows` (a FROM clause) reach n by `count`, or with `metric` (a baseline_sql key) n more."""
    return f"SELECT (SELECT {count} FROM {rows}) >= {baseline(metric) + ' + ' if metric else ''}{n}"


def count_watch(rows: str, n: int | str, page: str, pattern: str, report: str, metric: str | None = None,
                count: str = "COUNT(*)") -> dict[str, Any]:
    """A passive count task's condition_sql (`count_reaches`) and solution (`watch_number`; first + n if relative)."""
    return {"condition_sql": count_reaches(rows, n, metric, count),
            "solution": watch_number(page, pattern, f"first + {n}" if metric else n, report)}


def watch_number(page: str, pattern: str, at_least: float | str, report: str) -> list[dict[str, Any]]:
    """A counting task's solution: watch `page` until the number `pattern` captures reaches `at_least`, report."""
    return [{"watch": page, "until": {"number": pattern, "at_least": at_least}}, {"report": report}]


def act_on(page: str, text: str, action: str, *links: str) -> list[dict[str, Any]]:
    """Solution steps: watch `page` until `text` shows, follow it (then the `links`), press `action`."""
    return [{"watch": page, "until": {"text": text}}, {"follow": text}, *({"follow": x} for x in links),
            {"submit": action}]


# --- Waypoint timelines: a value that crosses a line once, at the target --------------------------

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
    """(start, ramp_s, item) for look-alikes moving one after another from `start`, all before `before`."""
    if not items:
        return []
    slots = phases(start, max(start + 3 * len(items), int(before) - 2), len(items))
    return [(t, ramp, item) for (t, ramp), item in zip(slots, items, strict=True)]


def approach(t0: int, t1: int, stops: Sequence[float | tuple[float, str]]) -> list[Leg]:
    """Legs through `stops` (a value, or (value, note)) in back-to-back phases filling [t0, t1)."""
    slots, noted = phases(t0, t1, len(stops)), [stop if isinstance(stop, tuple) else (stop, None) for stop in stops]
    return [Leg(t, value, ramp, note) for (t, ramp), (value, note) in zip(slots, noted, strict=True)]


def cross_once(t0: int, at: int, stops: Sequence[float | tuple[float, str]], over: float, note: str, *,
               until: int | None = None, back: float = 0.0, back_note: str | None = None) -> list[Leg]:
    """A target path: `approach` through stops short of the line, a jump past it (`over`) at `at`, maybe one back."""
    back_leg = [] if until is None else [Leg(until, back, 0, back_note)]  # where a passing window ends
    return [*approach(t0, at - 2, stops), Leg(at, over, 0, note), *back_leg]


def shortfall(near_miss: float, smallest: float, widest: float, decimals: int = 0) -> float:
    """How far short of a line a near miss stops: `smallest` (one step a page shows) at near_miss 1, `widest` at 0."""
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
    """A near miss's peak below `line` on the grid of `step`: `lowest` at near_miss 0, a step short of `line` at 1."""
    lo, hi = math.ceil(lowest / step - 1e-6), math.ceil(line / step - 1e-6) - 1
    if hi < lo:
        raise NoDraw(f"no step of {step:g} between {lowest:g} and {line:g}")
    return round(round(lo + (hi - lo) * near_miss) * step, 6)


def near_miss_legs(rng: random.Random, start: float, peak: float, at: int, note: str) -> list[Leg]:
    """A no-op's own near miss: a climb after FLAT_S, a jump to `peak` at `at` held over a minute, an easing back."""
    return [Leg(FLAT_S + rng.randint(0, 20), start + (peak - start) * rng.uniform(0.4, 0.7), rng.randint(20, 50)),
            Leg(at, peak, 0, note),
            Leg(at + rng.randint(70, 110), start + (peak - start) * rng.uniform(0.5, 0.8), 0,
                "back down from the peak: the near miss is over")]
