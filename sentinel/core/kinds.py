"""What a scenario kind is: the contract between an environment's kinds and generation.

A *kind* is one authored scenario made into a template (`attachment_name`, `buy_the_dip`): its
`draw(rng, catalog, knobs)` picks the target, look-alikes, near misses, target time and trailing
events from the catalog and returns the scenario mapping without `id` and `environment`.
`Knobs` are the difficulty settings every kind accepts; a draw that cannot be made raises
`NoDraw`. Environments declare `KINDS` with `sentinel.generation.kit.kind`
(docs/scenarios.md#adding-kinds); `sentinel.generation` draws them.
Pure: no aiohttp, no database.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from sentinel.core.errors import SentinelError

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

MIN_AT, MAX_AT = 10.0, 600.0  # docs/environments.md#validity-rules: the target moment lies in this window
EARLY_S, LATE_S = 120.0, 480.0  # the suite's spread edges (sentinel.checks.suite_rules)
SPREAD_SHARE, WINDOW_S = 0.20, 60.0  # ... its share early / late / in one window, and that window
EARLY_FROM_S = 30.0  # early strata start here: a target at 10 s is within a slow agent's start-up at high speed
MAX_ATTEMPTS = 12  # draws per scenario before generation gives up with the last problem


@dataclass(frozen=True)
class Knobs:
    """A kind's difficulty knobs (each kind documents what they mean for it in `Kind.notes`).

    decoys:    how many look-alikes arrive before the target.
    near_miss: how near the look-alikes and the near miss come, 0 (far) to 1 (the nearest the
               catalog offers, or a threshold missed by the smallest step a page shows).
    hold_s:    how long a condition that passes lasts (condition_until − condition_at), sim s.
    density:   unrelated background events per sim minute.
    earliest, latest: the window the target time is drawn from (within 10–600 s). generate
               narrows it per scenario so that a set keeps the suite's spread of target times.
    """

    decoys: int = 3
    near_miss: float = 0.7
    hold_s: float = 90.0
    density: float = 1.5
    earliest: float = MIN_AT
    latest: float = MAX_AT

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


KNOB_NAMES = tuple(f.name for f in fields(Knobs))
KNOB_RANGES: Mapping[str, tuple[float, float]] = {
    "decoys": (0, 8), "near_miss": (0.0, 1.0), "hold_s": (20.0, 240.0), "density": (0.0, 6.0),
    "earliest": (MIN_AT, MAX_AT), "latest": (MIN_AT, MAX_AT),
}


def parse_knobs(items: Sequence[str]) -> dict[str, float]:
    """`--knob name=value` items → {name: value}; anything unknown or out of range is one clear line."""
    out: dict[str, float] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or name not in KNOB_NAMES:
            raise SentinelError(f"--knob {item!r}: expected NAME=VALUE with NAME one of {', '.join(KNOB_NAMES)}")
        try:
            value = float(text)
        except ValueError:
            raise SentinelError(f"--knob {item!r}: {text!r} is not a number") from None
        lo, hi = KNOB_RANGES[name]
        if not lo <= value <= hi or (name == "decoys" and value != int(value)):
            kind = "a whole number" if name == "decoys" else "a number"
            raise SentinelError(f"--knob {name}: expected {kind} between {lo:g} and {hi:g}, got {text}")
        out[name] = int(value) if name == "decoys" else value
    if out.get("earliest", MIN_AT) > out.get("latest", MAX_AT):
        raise SentinelError("--knob earliest must not be after latest")
    return out


Draw = Callable[[random.Random, "Catalog", Knobs], dict[str, Any]]


@dataclass(frozen=True)
class Kind:
    """One scenario kind: the authored scenario's short id, its labels and how to draw one."""

    name: str
    activity: str  # passive | active | noop (a no-op kind keeps its source's criteria)
    criteria: str  # absolute | relative
    draw: Draw
    knobs: Knobs = field(default_factory=Knobs)
    notes: str = ""  # what the knobs mean for this kind (README, `sentinel generate --help`)
    earliest: float = MIN_AT  # the earliest target time this kind can serve (spread_windows respects it)

    @property
    def is_noop(self) -> bool:
        return self.activity == "noop"


def check_kinds(kinds: Sequence[Kind], env: str) -> None:
    """What every environment's KINDS must satisfy: Kind objects with unique names."""
    seen: set[str] = set()
    for kind in kinds:
        if not isinstance(kind, Kind):
            raise TypeError(f"{env}: KINDS holds {kind!r}, not a sentinel.core.kinds.Kind")
        if kind.name in seen:
            raise ValueError(f"{env}: two scenario kinds are named {kind.name!r}")
        seen.add(kind.name)


class NoDraw(Exception):
    """A kind cannot draw with these knobs from this catalog (the attempt counts as rejected)."""
