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


# --- kinds-a: counted arrivals (n counted arrivals, the n-th at the target time, look-alikes
# between them, one counted arrival trailing) and background that cannot change the count before
# the target. Generic over the event shape: callers pass `make(at, item_id, note)` that builds one
# event. Moved here from generation/counting.py.

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


# --- kinds-a: kinds as declarations. `declare` makes a Kind from a setup that draws the facts
# (from `unit`, `counting`, `traffic`: target, look-alikes, times, background) and the scenario's
# texts as templates of those facts ("... arrives at {at} s", `{name!q}` for SQL), so a kind reads
# as its prose, its SQL and its solution. Events name the catalog items they bring in fields
# ending in `_id` (email_id, message_id, call_id).

Setup = Callable[[random.Random, "Catalog", Knobs], dict[str, Any]]


class _Facts(string.Formatter):
    """str.format with three more conversions: !q an SQL text literal, !l a LIKE pattern, !e a regex."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        convert = {"q": sql_text, "l": like_text, "e": re.escape}.get(conversion or "")
        return convert(str(value)) if convert else super().convert_field(value, conversion)


def fill_in(template: Any, facts: Mapping[str, Any]) -> Any:
    """A template filled from facts: text by str.format (plus !q, !l, !e; a text that is exactly
    one "{fact}" becomes the fact's value itself, so a number stays a number), lists and mappings
    item by item, anything else as it is."""
    if isinstance(template, str):
        whole = re.fullmatch(r"\{(\w+)\}", template)
        return facts[whole.group(1)] if whole else _Facts().vformat(template, (), facts)
    if isinstance(template, list):
        return [fill_in(t, facts) for t in template]
    if isinstance(template, Mapping):
        return {k: fill_in(v, facts) for k, v in template.items()}
    return template


def declare(name: str, activity: str, criteria: str, setup: Setup, knobs: Knobs, notes: str, *, difficulty: str,
            distraction: str, prompt: str, description: str, condition_sql: str, solution: list[dict[str, Any]],
            eval_sql: str | None = None, near_miss_sql: str | None = None, start_page: str | None = None,
            earliest: float = MIN_AT) -> Kind:
    """A kind as a declaration. `setup(rng, catalog, knobs)` draws the facts: `events`, `preload`,
    `at` (the target time; a no-op's source task's) and optionally `until`, plus whatever the texts
    name. The texts are templates of the facts and the knobs (`fill_in`). eval_sql is by default
    the condition itself (a passive task is graded on the world reaching it)."""
    def draw(rng: random.Random, catalog: Catalog, drawn: Knobs) -> dict[str, Any]:
        facts = {**drawn.to_dict(), **setup(rng, catalog, drawn)}
        live = activity != "noop"
        sql = {"condition_sql": condition_sql, "near_miss_sql": near_miss_sql,
               "eval_sql": eval_sql or (condition_sql if live else None)}
        return scenario(prompt=fill_in(prompt, facts), description=fill_in(description, facts),
                        condition_at=facts["at"] if live else None, start_page=start_page,
                        condition_until=facts.get("until") if live else None,
                        taxonomy=taxonomy(activity, criteria, difficulty, distraction),
                        events=timeline(facts["preload"], facts["events"]), solution=fill_in(solution, facts),
                        **{key: fill_in(text, facts) for key, text in sql.items() if text is not None})
    return Kind(name, activity, criteria, draw, knobs, notes, earliest)


def words(text: str) -> set[str]:
    """The lower-case words of a text, three characters or more (digits count): what look-alikes share."""
    return {w for w in re.split(r"[^a-z0-9]+", text.lower()) if len(w) > 2}


def similarity(a: str, b: str) -> float:
    """The share of their words two texts have in common (0 to 1)."""
    wa, wb = words(a), words(b)
    return len(wa & wb) / max(1, len(wa | wb))


def arriving(events: Iterable[Mapping[str, Any]]) -> set[str]:
    """The catalog items the events bring (their `*_id` fields)."""
    return {str(v) for e in events for f, v in e.items() if f.endswith("_id")}


def unit(rng: random.Random, knobs: Knobs, target: str, decoys: Sequence[str], make: Make, note: str,
         decoy_note: Callable[[str], str], *, gap: float = 2, lo: float = MIN_AT,
         hi: float = MAX_AT) -> tuple[int, list[dict[str, Any]]]:
    """A unit scenario: the target at a drawn time, its look-alikes `gap` apart before it
    (decoy_note(item) says why each one does not count). Returns (target time, events)."""
    at = target_time(rng, knobs, lo=max(lo, 2 + gap * (len(decoys) + 1)), hi=hi)
    times = spaced(rng, len(decoys), 2, at - gap, gap)
    return at, [*(make(t, d, decoy_note(d)) for t, d in zip(times, decoys, strict=True)), make(at, target, note)]


def traffic(rng: random.Random, knobs: Knobs, events: list[dict[str, Any]], pool: Sequence[str], make: Make,
            spoils: Callable[[str], bool] = lambda item: False, after: float | None = None) -> list[dict[str, Any]]:
    """`events` plus background from `pool` at the density knob: items not yet arriving, never one
    that `spoils` the task (or, given `after`, the target time, none before it)."""
    on = arriving(events)
    free = [item for item in pool if item not in on]
    safe = [item for item in free if not spoils(item)]
    return [*events, *fill(rng, knobs, events, after, safe, free if after is not None else [], make)]


_BASELINE = "CAST((SELECT value FROM session_meta WHERE key = 'baseline_{}') AS REAL) + "


def count_reaches(count_sql: str, n: int | str, baseline: str | None = None) -> str:
    """Condition SQL: the count reaches n, or with `baseline` (a key of the environment's
    baseline_sql) n more than at the start."""
    return f"SELECT ({count_sql}) >= {_BASELINE.format(baseline) if baseline else ''}{n}"


def count_watch(count_sql: str, n: int | str, page: str, pattern: str, report: str,
                baseline: str | None = None) -> dict[str, Any]:
    """A passive count task's condition_sql and solution: the count reaches n (with `baseline`, n
    more than at the start), and the solution watches the page until the number `pattern`
    captures does too ("first + n" when relative), then reports."""
    until = {"number": pattern, "at_least": f"first + {n}" if baseline else n}
    return {"condition_sql": count_reaches(count_sql, n, baseline),
            "solution": [{"watch": page, "until": until}, {"report": report}]}


# --- kinds-b: counted arrivals chosen among look-alikes, a count that drops on its way up, and
# a counting kind's setup and solution on an environment's view of one draw (Arrivals).

def counted_arrivals(rng: random.Random, knobs: Knobs, counted: Sequence[str], looks: Sequence[str], n: int,
                     make: Make, *, what: str, decoy_note: str, score: Callable[[str], float] | None = None,
                     start: float = 0, gap: float = 4, trailing: int = 1, span: float | None = None,
                     ordered: bool = False) -> tuple[int, list[dict[str, Any]], list[str]]:
    """As `counting`, for kinds whose look-alikes depend on the window: n − 1 of `counted` at least
    `gap` apart after `start`, the n-th at the target time, `trailing` more after it, and between
    them as many `looks` as fit before knobs.latest (at most the decoys knob): the nearest by `score`
    (the near_miss knob), or any. With `span`, the arrivals come in a burst that starts at most
    `span` s before the target; `ordered`: the first n + trailing of `counted` arrive in their order,
    else a sample. Returns (target time, events, items used)."""
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
    """A count that must rise from `base` by n while some of what was there leaves: n − 1 + d
    arrivals of `counted` and d removals of `droppable` (`drop(t, item, note)`; d is the decoys knob,
    at most `cap`, as many as fit) in an order whose running total stays under n, the n-th arrival at
    the target time, `trailing` more after it. Returns (target time, events, items used)."""
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


def watch_number(page: str, pattern: str, at_least: float | str, report: str) -> list[dict[str, Any]]:
    """A counting task's solution: watch `page` until the number `pattern` captures is at least
    `at_least` (a number known from the preload, or a "{fact}" template), then report."""
    return [{"watch": page, "until": {"number": pattern, "at_least": at_least}}, {"report": report}]


def as_near_miss(events: list[dict[str, Any]], but: str = "") -> None:
    """A no-op twin drawn by its source's setup: the source task's target (noted "target: …") is the
    twin's near miss; `but` says why it does not count."""
    for e in events:
        if str(e.get("_note", "")).startswith("target:"):
            e["_note"] = "near miss (the source task's target):" + e["_note"].removeprefix("target:") + but


class Arrivals:
    """One draw's view of an environment's catalog for the kinds below: the preload (`load`), every
    item that can arrive after it as a catalog id with its event type (`type`; ids are unique across
    collections) and the records by id (`rec`). A subclass fills those in, names each type's id field
    (`fields`), says what an item is about (for notes) and may `arrange` the whole timeline."""

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


def counted_setup(arrivals: Callable[[random.Random, Catalog], Arrivals], *,
                  counted: Callable[[Any], Sequence[str]], looks: Callable[[Any], Sequence[str]], n: tuple[int, int],
                  what: str, decoy_note: str, base: Callable[[Any], int] = lambda view: 0,
                  score: Callable[[Any], Callable[[str], float]] | None = None, start: float = 0, trailing: int = 1,
                  span: float | None = None) -> Setup:
    """The setup of a counting kind for `declare`: `counted_arrivals` of n (drawn from the range)
    among the look-alikes, then background that keeps the counted family out until the target.
    `arrivals(rng, catalog)` is the environment's view of one draw; `counted`, `looks`, `score` and
    `base` (the count at the start) take it. Facts: preload, events, at, n, base, goal (base + n),
    first (the first key event's time) and decoys (how many)."""
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
