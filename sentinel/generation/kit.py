"""The one kit every environment's scenario kinds are built on (sentinel/envs/<env>/kinds.py). Pure: no aiohttp.

Each kinds.py ends in its KINDS table, one `kind(...)` per kind: the name (the authored scenario's short id), the
labels (activity: passive, active or noop; criteria: absolute or relative; they are the scenario's taxonomy, no draw
sets them), the default knobs, notes saying what each knob means for this kind, and the draw, which is either

- a `Recipe` (most kinds): its setup(rng, catalog, knobs) draws the facts (`preload`, `events`, the target time `at`,
  `until` when a passing condition ends, and whatever the texts name) and every text (prompt, description, SQL,
  solution) is a template over those facts and the knobs (`fill_in`); `recipe.noop(ask, ...)` is its no-op twin.
  From sentinel/envs/microscholar/kinds.py (ALERT's texts shortened here):

      ALERT = kit.Recipe(topical, difficulty="easy", distraction="alerts on near topics", start_page=HOME, ...,
                         condition_sql=kit.exists_sql("alerts WHERE description LIKE {topic!l}"),
                         solution=kit.watch_until(ALERTS, {"text": "{topic}"}, "An alert about {topic} has arrived."))
      kit.kind("alert_topic", "passive", "absolute", Knobs(decoys=3),
               "decoys: alerts on other topics, those sharing the topic's words first (near_miss)", ALERT),

- or a function (rng, catalog, knobs) → the scenario mapping ending in `scenario(...)`, when the texts need code
  (MicroHood's prices); its no-op twin calls it and ends in `noop_twin(source, ...)`.

A no-op twin turns its source's target into its near miss (`as_near_miss`): the event marked as the target, which
every kit function that places a target marks (an environment's own code with `event(..., target=True)`). `kind`
drops the marks: no scenario file holds them.

The sections below follow the order in which a kind is written:

1. Timing: FIRST_READ_S and FLAT_S, when counted arrivals and moving values may begin.
2. Declaring a kind: `kind`, `Recipe` (and its `noop`), `fill_in` ({x!q} SQL text, {x!l} LIKE pattern, {x!e} regex).
3. Choosing from the catalog: `ids_where`, `choose`, `sample`, `nearest` (look-alikes ranked by the near_miss knob),
   `unseen`, and how alike two items are: `words`, `overlap`, `nearness`, `alike`.
4. Spacing: `target_time` inside the knobs' window, `times_between` before it, `free_moment` away from the
   events, `hold_until` for a condition that ends.
5. Events and the scenario: `event` (its note becomes `_note`), `timeline`, `scenario`.
6. What may arrive: `Arrivals` (an environment's subclass reads its catalog), `arriving`.
7. One target among look-alikes: `one_target`.
8. Counted arrivals: `counting`, `counted_arrivals` (look-alikes fitted to the window), `rise_with_drops`
   and `order_under` (a count that drops on its way), `counted_setup`.
9. Background traffic that cannot decide the task: `mixed_background`, `fill`, `traffic`.
10. Near misses and the no-op twin: `as_near_miss` (the source's target becomes the near miss), `noop_twin`.
11. SQL and solution shapes: `sql_text`, `like_text`, `sql_list`, `baseline`, `exists_sql`, `count_reaches`,
    `count_watch`, `watch_until`, `watch_number`, `act_on`.
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
from dataclasses import KW_ONLY, dataclass, replace
from functools import partial
from itertools import accumulate
from typing import TYPE_CHECKING, Any, NamedTuple

from sentinel.core.kinds import MAX_AT, MIN_AT, Draw, Kind, Knobs, NoDraw

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

__all__ = [
    "FIRST_READ_S", "FLAT_S",
    "Facts", "Setup",
    "kind", "Recipe", "fill_in",
    "ids_where", "choose", "sample", "nearest", "unseen", "words", "overlap", "nearness", "alike",
    "target_time", "times_between", "free_moment", "hold_until",
    "event", "timeline", "scenario",
    "Arrivals", "arriving",
    "one_target",
    "counting", "counted_arrivals", "rise_with_drops", "order_under", "counted_setup",
    "mixed_background", "fill", "traffic",
    "as_near_miss", "noop_twin",
    "sql_text", "like_text", "sql_list", "baseline", "exists_sql", "count_reaches", "count_watch", "watch_until",
    "watch_number", "act_on",
    "Leg", "phases", "ahead", "approach", "cross_once", "near_miss_legs",
    "shortfall", "round_line", "floor_to", "ceil_to", "near_value",
]


# --- Timing: the delays every kind respects, and the timeline's end --------------------------------

_LAST_S = 715  # the last second an event may come (the timeline ends at 720 s)
_GAP_S = 2  # background events keep this far from the events that decide the task
FIRST_READ_S = 8  # counted arrivals begin after the agent's first read (a relative count starts from it)
FLAT_S = 14  # a moving value (price, star count) first moves after the first read and 10 s of steady value

_Make = Callable[[float, str, str | None], dict[str, Any]]  # make(at, item id, note) builds one arrival event
Facts = dict[str, Any]
Setup = Callable[[random.Random, "Catalog", Knobs], Facts]  # draws a recipe's facts
_Template = Any  # text filled in from the facts (`fill_in`): a str, a list or mapping of them, or a function of them


# --- Declaring a kind: its labels, knobs and notes, and a draw (a Recipe or a function) -----------

def kind(name: str, activity: str, criteria: str, knobs: Knobs, notes: str, draw: Draw | Recipe, *,
         earliest: float = MIN_AT) -> Kind:
    """A scenario kind: `name`, its labels, default `knobs`, `notes` saying what each knob means for it, and its
    `draw` (a `Recipe`, or a function (rng, catalog, knobs) → `scenario(...)`); `earliest`: the earliest target time
    it can serve. The scenario's taxonomy takes activity and criteria from here, difficulty and distraction from the
    draw; the target marks of its events are dropped."""
    drawn = partial(draw.draw, noop=activity == "noop") if isinstance(draw, Recipe) else draw

    def labelled(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
        out = drawn(rng, catalog, knobs)
        told = out["taxonomy"]
        return {**out, "events": [_unmarked(e) for e in out["events"]], "taxonomy": {
            "activity": activity, "criteria": criteria, "difficulty": told["difficulty"],
            "distraction": told["distraction"]}}
    return Kind(name, activity, criteria, labelled, knobs, notes, earliest)


@dataclass(frozen=True)
class Recipe:
    """A draw as a setup and templates. `setup(rng, catalog, knobs)` draws the facts: `preload`, `events`, `at` (the
    target time) and `until` (when a passing condition ends), and what the texts name; every other field is a
    template over those facts and the knobs (`fill_in`). `eval_sql` is by default the condition (a task is graded on
    reaching it; a no-op on nothing unless given); `solution` steps come from the solution shapes (`watch_until`)."""

    setup: Setup
    _: KW_ONLY
    difficulty: str
    distraction: _Template
    description: _Template
    prompt: _Template
    condition_sql: _Template
    solution: _Template
    eval_sql: _Template = None
    near_miss_sql: _Template = None
    start_page: _Template = None

    def draw(self, rng: random.Random, catalog: Catalog, knobs: Knobs, *, noop: bool) -> dict[str, Any]:
        facts = {**knobs.to_dict(), **self.setup(rng, catalog, knobs)}
        graded = self.eval_sql or (None if noop else self.condition_sql)
        return scenario(
            description=fill_in(self.description, facts), prompt=fill_in(self.prompt, facts),
            condition_at=None if noop else facts["at"], condition_until=None if noop else facts.get("until"),
            start_page=fill_in(self.start_page, facts), difficulty=self.difficulty,
            distraction=fill_in(self.distraction, facts), events=timeline(facts["preload"], facts["events"]),
            condition_sql=fill_in(self.condition_sql, facts), near_miss_sql=fill_in(self.near_miss_sql, facts),
            eval_sql=fill_in(graded, facts), solution=fill_in(self.solution, facts))

    def noop(self, ask: Callable[[random.Random, Catalog, Facts], Facts], *, description: _Template,
             distraction: _Template = None, eval_sql: _Template = None) -> Recipe:
        """The no-op twin: this recipe's facts with the target as the near miss (`as_near_miss`), asking with the
        facts `ask(rng, catalog, facts)` changes (the source's stay under `source`); the source's condition is its
        near_miss_sql."""
        def setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> Facts:
            facts = self.setup(rng, catalog, knobs)
            facts["events"] = as_near_miss([dict(e) for e in facts["events"]])
            return {**facts, **ask(rng, catalog, facts), "source": facts}
        return replace(self, setup=setup, description=description, distraction=distraction or self.distraction,
                       eval_sql=eval_sql, near_miss_sql=lambda facts: fill_in(self.condition_sql, facts["source"]))


class _Templates(string.Formatter):
    """str.format with three more conversions: !q an SQL text literal, !l a LIKE pattern, !e a regex."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        converters: dict[str, Callable[[str], str]] = {"e": re.escape, "q": sql_text, "l": like_text}
        convert = converters.get(conversion or "")
        return convert(str(value)) if convert else super().convert_field(value, conversion)


def fill_in(template: _Template, facts: Mapping[str, Any]) -> Any:
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


def _spaced(rng: random.Random, n: int, start: float, stop: float, gap: float) -> list[int]:
    """n whole seconds in [start, stop], one per stratum, at least `gap` apart."""
    if n <= 0:
        return []
    width = (stop - start) / n
    if width < gap:
        raise NoDraw(f"no room for {n} events {gap:g} s apart between {start:g} and {stop:g} s")
    strata = [(start + j * width + gap / 2, start + (j + 1) * width - gap / 2) for j in range(n)]
    return [int(round(rng.uniform(lo, max(lo, hi)))) for lo, hi in strata]


def _free_times(rng: random.Random, k: int, start: float, stop: float, taken: Sequence[float],
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


def hold_until(knobs: Knobs, at: int, least: int = 0, end: int = _LAST_S) -> int:
    """When a passing condition ends: knobs.hold_s after `at` but at least `least`, and by `end`."""
    until = min(at + max(least, int(knobs.hold_s)), end)
    if until - at < least:
        raise NoDraw(f"a condition at {at} s cannot hold {least} s before {end} s")
    return until


# --- Events and the scenario mapping --------------------------------------------------------------

def event(at: float, etype: str, note: str | None = None, *, target: bool = False, **fields: Any) -> dict[str, Any]:
    """One event mapping: at, type, its fields, then `_note` (the fact that decides it); `target` marks the event
    that meets the task's condition (what a no-op twin turns into its near miss; `kind` drops the mark)."""
    out = {"at": _num(at), "type": etype, **fields, **({"_note": note} if note else {})}
    return _marked(out) if target else out


def _marked(e: dict[str, Any]) -> dict[str, Any]:
    e["_target"] = True
    return e


def _unmarked(e: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in e.items() if k != "_target"}


def timeline(preload: Mapping[str, Any], events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The preload at 0, then events by time; at equal times the events with a _note first (the
    event that decides a flip is read as the last one at its moment), else in the given order."""
    rest = sorted(enumerate(events), key=lambda ie: (ie[1]["at"], "_note" not in ie[1], ie[0]))
    return [{"at": 0, "type": "preload", **preload}, *(e for _, e in rest)]


def scenario(*, prompt: str, description: str, condition_at: float | None, difficulty: str, distraction: str,
             events: list[dict[str, Any]], condition_sql: str, solution: list[dict[str, Any]],
             eval_sql: str | None = None, start_page: str | None = None,
             condition_until: float | None = None, near_miss_sql: str | None = None) -> dict[str, Any]:
    """The mapping a draw returns (`kind` adds the labels to the taxonomy, generate adds id, environment and
    generated); optional keys when given. difficulty and distraction: docs/environments.md#pages."""
    out = {"description": description, "prompt": prompt, "condition_at": _num(condition_at),
           "condition_until": _num(condition_until), "start_page": start_page or None,
           "taxonomy": {"difficulty": difficulty, "distraction": distraction}, "events": events,
           "condition_sql": condition_sql, "near_miss_sql": near_miss_sql, "eval_sql": eval_sql, "solution": solution}
    optional = ("condition_until", "start_page", "near_miss_sql", "eval_sql")
    return {key: value for key, value in out.items() if value is not None or key not in optional}


def _num(value: float | None) -> Any:
    return None if value is None else (int(value) if float(value).is_integer() else round(float(value), 3))


# --- An environment's arrivals: its catalog as one draw reads it ----------------------------------

class Arrivals:
    """What may arrive in one draw, as an environment's kinds read its catalog (the environment's subclass): the
    catalog ids by event type (`pools`; `type_of` maps an id to its type), the event field naming each type's id
    (`fields`), and, for the draws that use them, the `preload` and the page a task starts on. `make(at, id, note)`,
    what the kit functions take to place arrivals, follows the note with what `about(id)` says the item is (by default
    nothing); `arrange(events)` is a last pass over a draw's events."""

    def __init__(self, pools: Mapping[str, Sequence[str]], fields: Mapping[str, str],
                 preload: Mapping[str, Any] | None = None, start_page: str | None = None) -> None:
        self.pools = {etype: list(ids) for etype, ids in pools.items()}
        self.fields, self.preload, self.start_page = dict(fields), dict(preload or {}), start_page
        self.type_of = {rid: etype for etype, ids in self.pools.items() for rid in ids}

    @property
    def items(self) -> list[str]:
        return list(self.type_of)

    def of(self, etype: str) -> list[str]:
        return list(self.pools.get(etype, ()))

    def about(self, rid: str) -> str | None:
        return None

    def make(self, at: float, rid: str, note: str | None = None, **fields: Any) -> dict[str, Any]:
        """The item's arrival at `at` (`fields`: more of the event's fields, or `target=True`)."""
        etype, about = self.type_of[rid], self.about(rid) if note else None
        named: dict[str, Any] = {self.fields[etype]: rid, **fields}
        return event(at, etype, f"{note} · {about}" if about is not None else note or None, **named)

    def arrange(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return events

    def with_background(self, rng: random.Random, knobs: Knobs, key: list[dict[str, Any]], at: float | None,
                        before: Sequence[str], after: Sequence[str] = ()) -> list[dict[str, Any]]:
        """`key` and `fill`'s background (`before` items; after `at`, `after` items too), arranged."""
        return self.arrange(key + fill(rng, knobs, key, at, before, after, self.make))

    def counted(self, rng: random.Random, knobs: Knobs, counted: Sequence[str], others: Sequence[str], n: int, *,
                what: str, decoy_note: str | Callable[[str], str] = "decoy", trailing: bool = True,
                after: bool = False, first_s: float = FIRST_READ_S, counts: Callable[[str], bool] | None = None,
                spoils: Callable[[str], bool] = lambda rid: False, near: Callable[[str], float] | None = None
                ) -> tuple[int, list[str], list[dict[str, Any]]]:
        """A counting task's events (`counting`): n of `counted`, knobs.decoys of `others` between them (with `after`:
        trailing; with `near`: `nearest` by it), then background at the density knob: none that `spoils` the task,
        nothing that `counts` (by default: of a counted type) before the target. Returns (at, counted ids, events)."""
        note = decoy_note if callable(decoy_note) else lambda rid: str(decoy_note)
        others = others if near is None else nearest(rng, others, knobs.decoys, near, knobs.near_miss)
        at, events, picked = counting(rng, replace(knobs, decoys=0) if after else knobs, counted, others, n,
                                      self.make, what=what, decoy_note=note, first_s=first_s, trailing=trailing)
        if after:
            later = sample(rng, [x for x in others if x not in picked], knobs.decoys, "look-alikes")
            times = times_between(rng, len(later), at + 4, _LAST_S)
            events += [self.make(t, rid, note(rid)) for t, rid in zip(times, later, strict=True)]
        types = {self.type_of[rid] for rid in counted}
        counts = counts or (lambda rid: self.type_of[rid] in types)
        used = {e[f] for e in events for f in self.fields.values() if f in e}
        pool = [rid for rid in self.type_of if rid not in used and not spoils(rid)]

        def allowed(rid: str, t: int) -> bool:  # what counts arrives only after the target
            return t > at + _GAP_S or not counts(rid)
        background = mixed_background(rng, knobs.density, [e["at"] for e in events], pool, allowed)
        return at, picked, events + [self.make(t, rid) for t, rid in background]

    def scenario(self, at: float | None, events: Iterable[dict[str, Any]], difficulty: str, distraction: str, *,
                 preload: Mapping[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
        """`scenario` on the start page, the events after the preload (the arrivals' own unless given)."""
        return scenario(condition_at=at, start_page=self.start_page, events=timeline(preload or self.preload, events),
                        difficulty=difficulty, distraction=distraction, **fields)


def arriving(events: Iterable[Mapping[str, Any]]) -> set[str]:
    """The catalog items the events bring (their `*_id` fields)."""
    return {str(v) for e in events for f, v in e.items() if f.endswith("_id")}


# --- One target among look-alikes -----------------------------------------------------------------

def one_target(rng: random.Random, knobs: Knobs, make: _Make, target: str, decoys: Sequence[str], *, note: str,
               decoy_note: Callable[[str], str], gap: float = 3, lo: float = MIN_AT, hi: float = MAX_AT,
               trailing: Sequence[str] = (), hold: bool = False,
               trail_note: Callable[[str], str] = lambda item: "trailing: after the target",
               ) -> tuple[int, int | None, list[dict[str, Any]]]:
    """The key events of a one-target task: the target in [lo, hi], its look-alikes `gap` s apart before it
    (decoy_note says why each does not count), each `trailing` item after it; with `hold`, the condition ends
    knobs.hold_s after the target. Returns (target time, that end or None, events)."""
    at = target_time(rng, knobs, lo=max(lo, 2 + gap * (len(decoys) + 1)), hi=hi)
    until = hold_until(knobs, at) if hold else None
    times = _spaced(rng, len(decoys), 2, at - gap, gap)
    events = [*(make(t, d, decoy_note(d)) for t, d in zip(times, decoys, strict=True)),
              _marked(make(at, target, note))]
    later = [t for t in range(min(at + 5, _LAST_S), _LAST_S + 1) if until is None or abs(t - until) >= gap]
    return at, until, events + [make(choose(rng, later, "time after the target"), x, trail_note(x)) for x in trailing]


# --- Counted arrivals: n of a family, the n-th at the target time ---------------------------------

def counting(rng: random.Random, knobs: Knobs, counted: Sequence[str], others: Sequence[str], n: int,
             make: _Make, *, what: str, decoy_note: Callable[[str], str], first_s: float = 2,
             gap: float = 4, trailing: bool = True) -> tuple[int, list[dict[str, Any]], list[str]]:
    """The key events of a counting task: n of `counted` (the n-th at the target time, one more
    trailing when `trailing`), knobs.decoys of `others` between. Returns (at, events, counted ids)."""
    picked = sample(rng, counted, n + int(trailing), what)
    decoys = sample(rng, others, knobs.decoys, "look-alikes")
    at = target_time(rng, knobs, lo=first_s + gap * n + 2)
    times = [*sorted(_spaced(rng, n - 1, first_s, at - gap / 2, gap)), at]
    events = [make(t, rid, f"{what} {i + 1} of {n}" + (" (the target)" if i == n - 1 else ""))
              for i, (t, rid) in enumerate(zip(times, picked, strict=False))]
    _marked(events[-1])
    dtimes = _free_times(rng, len(decoys), 2, at - 3, times, gap=3)
    events += [make(t, rid, decoy_note(rid)) for t, rid in zip(dtimes, decoys, strict=True)]
    if trailing:
        trail = rng.randint(int(min(at + gap + 6, _LAST_S)), min(at + 150, _LAST_S))
        events.append(make(trail, picked[n], f"trailing: {what} after the target"))
    return at, events, list(picked)


def counted_arrivals(rng: random.Random, knobs: Knobs, counted: Sequence[str], looks: Sequence[str], n: int,
                     make: _Make, *, what: str, decoy_note: str, score: Callable[[str], float] | None = None,
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
    times = [*sorted(_spaced(rng, n - 1, start, at - gap / 2, gap)), at]
    events = [make(t, rid, f"{'target: ' if i == n - 1 else ''}{what}" + (f" {i + 1} of {n}" if n > 1 else ""))
              for i, (t, rid) in enumerate(zip(times, picked, strict=False))]
    _marked(events[-1])
    events += [make(t, rid, decoy_note) for t, rid in zip(_free_times(rng, k, start + 1, at - 3, times), decoys,
                                                           strict=True)]
    later = _free_times(rng, trailing, at + 10, _LAST_S, [])
    events += [make(t, rid, f"trailing: another {what}") for t, rid in zip(later, picked[n:], strict=True)]
    return at, events, [*picked, *decoys]


def rise_with_drops(rng: random.Random, knobs: Knobs, counted: Sequence[str], droppable: Sequence[str], n: int,
                    make: _Make, drop: _Make, *, what: str, drop_note: str, base: int = 0, start: float = 0,
                    gap: float = 4, cap: int = 3, trailing: int = 1) -> tuple[int, list[dict[str, Any]], list[str]]:
    """A count that must rise from `base` by n while some of what was there leaves: arrivals of `counted` and
    d removals of `droppable` (`drop(t, item, note)`; d the decoys knob, at most `cap`) in an order staying under n,
    the n-th arrival at the target time, `trailing` more after it. Returns (target time, events, items used)."""
    d = max(0, min(knobs.decoys, cap, len(droppable), (int((knobs.latest - start) // gap) - n) // 2))
    steps = order_under(rng, n, d)
    at = target_time(rng, knobs, lo=start + gap * (len(steps) + 1))
    adds, gone = sample(rng, counted, n + d + trailing, what), sample(rng, droppable, d, "removals")
    arriving, leaving, level, events = iter(adds), iter(gone), base, []
    for t, step in zip(sorted(_spaced(rng, len(steps), start, at - gap / 2, gap)), steps, strict=True):
        level += 1 if step == "add" else -1
        note = f"{what} {level} of {base + n}" if step == "add" else f"{drop_note}: now {level} of {base + n}"
        events.append(make(t, next(arriving), note) if step == "add" else drop(t, next(leaving), note))
    events.append(_marked(make(at, next(arriving), f"target: {what} {base + n} of {base + n}")))
    later = _free_times(rng, trailing, at + 10, _LAST_S, [])
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
    """A counting recipe's setup: `counted_arrivals` of n (drawn from the range), then background that keeps the
    counted family out until the target. `counted`, `looks`, `score` and `base` (the count at the start) take the
    arrivals `arrivals(rng, catalog)`. Facts: preload, events, at, n, base, goal, first, decoys."""
    def setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
        a, k = arrivals(rng, catalog), rng.randint(*n)
        at, key, used = counted_arrivals(rng, knobs, counted(a), looks(a), k, a.make, what=what, decoy_note=decoy_note,
                                         score=score and score(a), start=start, trailing=trailing, span=span)
        free, family = [x for x in a.items if x not in set(used)], set(counted(a))
        safe = [x for x in free if x not in family]
        return {"preload": a.preload, "events": a.with_background(rng, knobs, key, at, safe, free),
                "at": at, "n": k, "base": base(a), "goal": base(a) + k, "first": min(e["at"] for e in key),
                "decoys": len(used) - k - trailing}
    return setup


# --- Background traffic that cannot decide the task -----------------------------------------------

def _background_times(rng: random.Random, density: float, taken: Iterable[float],
                      start: float = 1, stop: float = _LAST_S) -> list[int]:
    """Background event times at `density` per sim minute over the timeline, kept _GAP_S away from `taken`."""
    busy = [float(t) for t in taken]
    n = int(round(density * (stop - start) / 60.0))
    free = [t for t in range(int(start), int(stop) + 1) if all(abs(t - b) > _GAP_S for b in busy)]
    return [] if n <= 0 or not free else sorted(rng.sample(free, min(n, len(free))))


def mixed_background(rng: random.Random, density: float, taken: Iterable[float], pool: Sequence[Any],
                     allow: Callable[[Any, int], bool], start: float = 1,
                     stop: float = _LAST_S) -> list[tuple[int, Any]]:
    """(time, item) background pairs at `density` per sim minute, kept off the `taken` times, each with a pool item
    (used once) that `allow(item, time)` accepts, so a pool can mix event families."""
    out: list[tuple[int, Any]] = []
    left = list(pool)
    for t in _background_times(rng, density, taken, start, stop):
        fits = [i for i, item in enumerate(left) if allow(item, t)]
        if fits:
            out.append((t, left.pop(fits[rng.randrange(len(fits))])))
    return out


def fill(rng: random.Random, knobs: Knobs, events: list[dict[str, Any]], at: float | None,
         before: Sequence[str], after: Sequence[str], make: _Make) -> list[dict[str, Any]]:
    """Background at the density knob, each item once: before `at` only `before` items (they cannot change the
    task's condition), after it `after` items too."""
    times = _background_times(rng, knobs.density, [e["at"] for e in events])
    safe, rest = list(before), [x for x in after if x not in set(before)]
    rng.shuffle(safe)
    rng.shuffle(rest)
    out = []
    for t in times:
        late = at is None or t > at + _GAP_S
        pool = (rest or safe) if late and rng.random() < 0.5 else (safe or (rest if late else []))
        if pool:
            out.append(make(t, pool.pop(), None))
    return out


def traffic(rng: random.Random, knobs: Knobs, events: list[dict[str, Any]], pool: Sequence[str], make: _Make,
            spoils: Callable[[str], bool] = lambda item: False, after: float | None = None) -> list[dict[str, Any]]:
    """`events` plus background from `pool` at the density knob: items not yet arriving, none that `spoils`
    the task (or, given `after`, the target time, none before it)."""
    on = arriving(events)
    free = [item for item in pool if item not in on]
    safe = [item for item in free if not spoils(item)]
    return [*events, *fill(rng, knobs, events, after, safe, free if after is not None else [], make)]


# --- Near misses and the no-op twin ---------------------------------------------------------------

def as_near_miss(events: list[dict[str, Any]], but: str = "") -> list[dict[str, Any]]:
    """For a no-op twin drawn by its source's draw: the event marked as the source's target becomes the twin's near
    miss, in place (its note says so; `but` says why it does not count)."""
    for e in events:
        if e.pop("_target", False):
            e["_note"] = _near_miss_note(str(e.get("_note", "")), but)
    return events


def _near_miss_note(note: str, but: str) -> str:
    """A target's note ("target: …" or "… (the target) …") as the no-op's near miss."""
    if note.startswith("target:"):
        return "near miss (the source task's target):" + note.removeprefix("target:") + but
    if "(the target)" in note:
        return note.replace("(the target)", "(the source task's target: the near miss)") + but
    raise ValueError(f"a target's note says neither 'target:' nor '(the target)': {note!r}")


def noop_twin(source: Mapping[str, Any], *, distraction: str, difficulty: str | None = None,
              near: Iterable[dict[str, Any]] = (), swap: tuple[str, str] | None = None,
              drop: Callable[[dict[str, Any]], bool] = lambda e: False, **fields: Any) -> dict[str, Any]:
    """The no-op twin of a drawn scenario: its timeline with the target as the near miss (`as_near_miss`), the `near`
    events added and background events `drop` picks left out. `swap` (old, new) makes the prompt from the source's;
    `fields` (description, condition_sql, ...) give the rest; difficulty by default the source's."""
    head, *events = source["events"]
    kept = as_near_miss([dict(e) for e in events if "_note" in e or not drop(e)])
    if swap:
        fields.setdefault("prompt", source["prompt"].replace(*swap))
    return scenario(condition_at=None, start_page=source.get("start_page"), events=timeline(
        {k: v for k, v in head.items() if k not in ("at", "type")}, [*kept, *near]), distraction=distraction,
        difficulty=difficulty or source["taxonomy"]["difficulty"], **fields)


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
                count: str = "COUNT(*)", at_least: int | str | None = None) -> dict[str, Any]:
    """A passive count task's condition_sql (`count_reaches`) and solution (`watch_number` until `at_least`, by
    default n, or first + n if relative)."""
    goal = at_least if at_least is not None else f"first + {n}" if metric else n
    return {"condition_sql": count_reaches(rows, n, metric, count),
            "solution": watch_number(page, pattern, goal, report)}


def watch_until(page: str, until: Mapping[str, Any], report: str, *, open_new: str | None = None,
                then: Iterable[Mapping[str, Any]] = ()) -> list[dict[str, Any]]:
    """The usual solution: watch `page` (opening each new link matching `open_new`) until `until` holds, take the
    `then` steps, report."""
    watch = {"watch": page, **({"open_new": open_new} if open_new else {}), "until": dict(until)}
    return [watch, *(dict(step) for step in then), {"report": report}]


def watch_number(page: str, pattern: str, at_least: float | str, report: str) -> list[dict[str, Any]]:
    """A counting task's solution: watch `page` until the number `pattern` captures reaches `at_least`, report."""
    return watch_until(page, {"number": pattern, "at_least": at_least}, report)


def act_on(page: str, text: str, action: str, *links: str) -> list[dict[str, Any]]:
    """Solution steps: watch `page` until `text` shows, follow it (then the `links`), press `action`."""
    return [{"watch": page, "until": {"text": text}}, {"follow": text}, *({"follow": x} for x in links),
            {"submit": action}]


# --- Waypoint timelines: a value that crosses a line once, at the target --------------------------

class Leg(NamedTuple):
    """One waypoint move: from `at` the value moves linearly to `value`, reached at at + ramp_s; `target`: the move
    that crosses the line (its event is the target's)."""

    at: int
    value: float
    ramp_s: int = 0
    note: str | None = None
    target: bool = False


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
    return [*approach(t0, at - 2, stops), Leg(at, over, 0, note, target=True), *back_leg]


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
