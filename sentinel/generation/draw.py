"""Seeded scenario generation: an environment's scenario kinds as templates (issue 23). Pure core: no aiohttp.

A *kind* is one authored scenario made into a template: its `draw(rng, catalog, knobs)` returns the scenario mapping
without `id` and `environment`. `draw_set` keeps a draw only when the injected `check` (validate's checks, replay
included) passes it, steers target times so the set keeps the suite's spread (docs/environments.md#validity-rules)
and runs the suite rules on it. Each attempt's rng is seeded from "env|kind|seed|index|attempt"; key order is fixed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import yaml

from sentinel.core.errors import SentinelError
from sentinel.core.kinds import EARLY_FROM_S, EARLY_S, LATE_S, MAX_AT, MAX_ATTEMPTS, SPREAD_SHARE, WINDOW_S, NoDraw

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.kinds import Kind, Knobs


@dataclass(frozen=True)
class GeneratedScenario:
    id: str
    kind: str
    index: int
    seed: int
    data: Mapping[str, Any]  # the whole scenario mapping, in file order

    @property
    def filename(self) -> str:
        return f"{self.id}.yaml"

    def dump(self) -> str:
        return dump_yaml(self.data)


@dataclass(frozen=True)
class Generation:
    """A generated set and, per kind, (accepted, drawn) for the acceptance rate."""

    env: str
    seed: int
    scenarios: tuple[GeneratedScenario, ...]
    acceptance: Mapping[str, tuple[int, int]]

    def __iter__(self) -> Iterator[GeneratedScenario]:
        return iter(self.scenarios)

    def __getitem__(self, i: int) -> GeneratedScenario:
        return self.scenarios[i]

    def acceptance_lines(self) -> list[str]:
        return [f"{self.env} {kind}: {ok} of {drawn} draws accepted ({ok / drawn:.0%})"
                for kind, (ok, drawn) in self.acceptance.items() if drawn]


# A check returns problems as text lines (empty: valid) for a scenario mapping (sentinel validate's checks).
Check = Callable[[Mapping[str, Any]], Awaitable[list[str]]]
SetCheck = Callable[[Sequence[GeneratedScenario]], Awaitable[list[str]]]


def plan_kinds(kinds: Sequence[Kind], count: int, kind: str | None) -> list[Kind]:
    """Which kind each index draws: the one asked for, or the environment's kinds in turn."""
    if not kinds:
        raise SentinelError("no scenario kinds to draw from")
    if kind is None:
        return [kinds[i % len(kinds)] for i in range(count)]
    chosen = [k for k in kinds if k.name == kind]
    if not chosen:
        raise SentinelError(f"--kind {kind}: unknown; kinds are {', '.join(k.name for k in kinds)}")
    return [chosen[0]] * count


def spread_windows(env: str, seed: int, plan: Sequence[Kind]) -> dict[int, tuple[float, float]]:
    """A target-time window per normal index (see _strata), shuffled by seed, so the set keeps the suite's spread."""
    normal = [i for i, k in enumerate(plan) if not k.is_noop]
    n = len(normal)
    if n == 0:
        return {}
    edges = _strata(n)
    order = list(range(n))
    random.Random(f"{env}|strata|{seed}|{n}").shuffle(order)
    earliest = [plan[index].earliest for index in normal]
    for j in range(n):  # a kind that cannot serve its stratum trades it with one that can
        if edges[order[j]][1] >= earliest[j]:
            continue
        for q in range(n):
            if edges[order[q]][1] >= earliest[j] and edges[order[j]][1] >= earliest[q]:
                order[j], order[q] = order[q], order[j]
                break
    return {index: edges[order[j]] for j, index in enumerate(normal)}


def _strata(n: int) -> list[tuple[float, float]]:
    """n disjoint target-time windows, in time order, that keep the suite's spread whatever time each draw picks
    inside its window: at least 20% of them under 120 s and 20% over 480 s, and any L + 1 consecutive windows (L =
    the 20% a 60 s window may hold) more than 60 s apart, counting rounding; as wide as that allows, centred."""
    if n == 1:
        return [(EARLY_FROM_S, MAX_AT)]
    edge = max(1, math.ceil(SPREAD_SHARE * n))
    regions = ([(EARLY_FROM_S, EARLY_S - 1)] * edge + [(EARLY_S + 1, LATE_S - 1)] * (n - 2 * edge)
               + [(LATE_S + 1, MAX_AT)] * edge)
    gap = (WINDOW_S + 3) / max(1, math.floor(SPREAD_SHARE * n))  # rounding and the ±0.5 s tolerance
    if _earliest_starts(regions, gap, 0.0) is None:
        raise SentinelError(f"{n} normal tasks cannot keep the suite's spread of target times")
    width, hi = 0.0, MAX_AT
    for _ in range(40):  # the widest window that still fits
        mid = (width + hi) / 2
        width, hi = (mid, hi) if _earliest_starts(regions, gap, mid) is not None else (width, mid)
    first = _earliest_starts(regions, gap, width) or []
    last = _latest_starts(regions, gap, width)
    return [(round((a + b) / 2, 1), round((a + b) / 2 + width, 1)) for a, b in zip(first, last, strict=True)]


def _earliest_starts(regions: Sequence[tuple[float, float]], gap: float, width: float) -> list[float] | None:
    """Each window as early as its region and the previous window allow; None when one overflows."""
    out: list[float] = []
    for low, high in regions:
        start = max(low, out[-1] + width + gap) if out else low
        if start + width > high:
            return None
        out.append(start)
    return out


def _latest_starts(regions: Sequence[tuple[float, float]], gap: float, width: float) -> list[float]:
    """Each window as late as its region and the next window allow (the mirror of the above)."""
    out: list[float] = []
    for _low, high in reversed(regions):
        out.append(min(high - width, out[-1] - width - gap) if out else high - width)
    return out[::-1]


async def draw_set(env: str, kinds: Sequence[Kind], catalog: Catalog, seed: int, count: int, *,
                   kind: str | None = None, overrides: Mapping[str, float] | None = None,
                   check: Check, set_check: SetCheck | None = None) -> Generation:
    """Draw `count` valid scenarios (rejection sampling against `check`), then the set rules."""
    if count < 1:
        raise SentinelError("--count must be at least 1")
    asked: dict[str, Any] = dict(overrides or {})  # the knobs set by hand (decoys an int)
    plan = plan_kinds(kinds, count, kind)
    windows = spread_windows(env, seed, plan)
    tally: dict[str, list[int]] = {k.name: [0, 0] for k in kinds if kind is None or k.name == kind}
    out: list[GeneratedScenario] = []
    for index, chosen in enumerate(plan):
        knobs = replace(chosen.knobs, **asked)
        if index in windows and "earliest" not in asked and "latest" not in asked:
            knobs = replace(knobs, earliest=windows[index][0], latest=windows[index][1])
        out.append(await _draw_one(env, chosen, catalog, seed, index, knobs, check, tally[chosen.name]))
    if set_check is not None:
        problems = await set_check(out)
        if problems:
            raise SentinelError(f"{env}: the generated set breaks a suite rule: {problems[0]}")
    return Generation(env, seed, tuple(out), {k: (v[0], v[1]) for k, v in tally.items()})


async def _draw_one(env: str, kind: Kind, catalog: Catalog, seed: int, index: int, knobs: Knobs,
                    check: Check, tally: list[int]) -> GeneratedScenario:
    last: list[str] = []
    sid = f"{env}-{kind.name}-s{seed}-{index:03d}"
    for attempt in range(MAX_ATTEMPTS):
        tally[1] += 1
        rng = random.Random(f"{env}|{kind.name}|{seed}|{index}|{attempt}")  # a string seed: the same on every run
        try:
            body = kind.draw(rng, catalog, knobs)
        except NoDraw as exc:
            last = [str(exc)]
            continue
        data = assemble(sid, env, body, {"seed": seed, "kind": kind.name, "index": index, "knobs": knobs.to_dict()})
        at = data.get("condition_at")
        if at is not None and not knobs.earliest - 0.5 <= at <= knobs.latest + 0.5:
            last = [f"condition_at {at:g} is outside the window [{knobs.earliest:g}, {knobs.latest:g}]"]
            continue
        last = await check(data)
        if not last:
            tally[0] += 1
            return GeneratedScenario(sid, kind.name, index, seed, data)
    raise SentinelError(f"{env} {kind.name}: no valid scenario in {MAX_ATTEMPTS} draws "
                        f"(index {index}); the last one: {last[0] if last else 'rejected'}")


KEY_ORDER = ("id", "environment", "description", "prompt", "condition_at", "condition_until", "start_page",
             "taxonomy", "events", "condition_sql", "near_miss_sql", "eval_sql", "solution", "generated")


def assemble(sid: str, env: str, body: Mapping[str, Any], generated: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario mapping in file order: id and environment first, `generated` last."""
    merged = {"id": sid, "environment": env, **body, "generated": dict(generated)}
    unknown = set(merged) - set(KEY_ORDER)
    if unknown:
        raise SentinelError(f"a kind returned unknown scenario keys: {', '.join(sorted(unknown))}")
    return {key: merged[key] for key in KEY_ORDER if key in merged}


class _Dumper(yaml.SafeDumper):
    def mapping(self, value: dict) -> Any:
        # events read best one per line: {at, type, ...}
        flow = "at" in value and "type" in value and not any(isinstance(v, (dict, list)) for v in value.values())
        return self.represent_mapping("tag:yaml.org,2002:map", value.items(), flow_style=flow)

    def sequence(self, value: list) -> Any:
        # lists of ids or [t, value] points on one line; lists of mappings (events, steps) in blocks
        flow = not any(isinstance(v, dict) for v in value)
        return self.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


_Dumper.add_representer(list, _Dumper.sequence)
_Dumper.add_representer(dict, _Dumper.mapping)


def dump_yaml(data: Mapping[str, Any]) -> str:
    """Byte-stable YAML: key order as given, no sorting, wide lines."""
    return yaml.dump(dict(data), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=400,
                     default_flow_style=False)
