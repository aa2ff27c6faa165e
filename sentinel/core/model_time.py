"""Model time: what a session's clock does while the agent's model thinks (docs/model-time.md).

A run picks a clock and a model-time policy:

- clock `wall` (the default, the paper's): sim time follows wall time times the speed;
  clock `virtual`: sim time moves only by charged model time and by waits made through the site.
- policy `wall` (the default on the wall clock): the clock runs while the model generates;
  `measured`: the clock pauses for the call, then advances by the call's own wall duration (what
  the call costs at speed 1, whatever the speed); `fixed:S`: pauses, then advances S sim seconds,
  so every provider is charged the same; `free`: the call costs no sim time.

`ThinkingMeter` turns the moments a session sees thinking begin and end (a call through the
metering proxy, the gap between an MCP tool's answer and the next request) into pauses and
charges. Sources overlap: the meter counts their union, so two overlapping calls are one pause
and one charge. Pure: the wall clock is injected and the clock's pause and advance are callbacks.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from sentinel.core.errors import SentinelError

POLICIES = ("wall", "measured", "fixed", "free")
CLOCKS = ("wall", "virtual")
VIRTUAL_DEFAULT_FIXED_S = 2.0  # the model-time default on the virtual clock: fixed:2
MAX_FIXED_S = 600.0  # a fixed charge longer than a whole on-time ladder says more about the typo than the model


@dataclass(frozen=True)
class ModelTime:
    """A model-time policy: `wall`, `measured`, `fixed` (with `fixed_s`) or `free`."""

    policy: str = "wall"
    fixed_s: float = 0.0

    @classmethod
    def parse(cls, text: str, where: str = "--model-time") -> ModelTime:
        """`wall`, `measured`, `free` or `fixed:S` (S sim seconds, 0 < S ≤ 600)."""
        name, _, value = str(text).strip().partition(":")
        if name not in POLICIES:
            raise SentinelError(f"{where}: {text!r} is not a policy; use wall, measured, fixed:S or free")
        if name != "fixed":
            if value:
                raise SentinelError(f"{where}: {name} takes no value ({text!r}); only fixed:S does")
            return cls(name)
        try:
            seconds = float(value)
        except ValueError:
            raise SentinelError(f"{where}: fixed needs sim seconds, as in fixed:2 (got {text!r})") from None
        if not math.isfinite(seconds) or not 0 < seconds <= MAX_FIXED_S:
            raise SentinelError(f"{where}: fixed:S needs 0 < S ≤ {MAX_FIXED_S:g} sim seconds (got {text!r})")
        return cls("fixed", seconds)

    @property
    def pauses(self) -> bool:
        """Whether the clock stops while the model thinks (every policy but wall)."""
        return self.policy != "wall"

    @property
    def deterministic(self) -> bool:
        """Whether the charge is independent of the provider (fixed and free)."""
        return self.policy in ("fixed", "free")

    def charge(self, wall_s: float) -> float:
        """Sim seconds a thinking interval of wall_s wall seconds costs once the clock resumes."""
        if self.policy == "measured":
            return max(0.0, wall_s)
        if self.policy == "fixed":
            return self.fixed_s
        return 0.0

    def __str__(self) -> str:
        return f"fixed:{self.fixed_s:g}" if self.policy == "fixed" else self.policy


def resolve_model_time(clock: str, model_time: str | None) -> ModelTime:
    """The policy a run uses: the one asked for, else `wall` (wall clock) or `fixed:2` (virtual);
    the virtual clock refuses `wall`, since nothing would move its time while the model thinks."""
    if clock not in CLOCKS:
        raise SentinelError(f"--clock: {clock!r} is not a clock; use wall or virtual")
    if model_time is None:
        return ModelTime("fixed", VIRTUAL_DEFAULT_FIXED_S) if clock == "virtual" else ModelTime()
    policy = ModelTime.parse(model_time)
    if clock == "virtual" and policy.policy == "wall":
        raise SentinelError("--model-time wall cannot run on --clock virtual: its time moves only by charged "
                            "model time and waits; use measured, fixed:S or free")
    return policy


@dataclass
class Thinking:
    """What a session's meter counted: calls on the running clock, wall seconds paused, sim seconds charged."""

    model_calls: int = 0
    paused_wall_s: float = 0.0
    charged_sim_s: float = 0.0

    def as_record(self) -> dict[str, float | int]:
        return {"model_calls": self.model_calls, "paused_wall_s": round(self.paused_wall_s, 6),
                "charged_sim_s": round(self.charged_sim_s, 6)}


class ThinkingMeter:
    """Counts the union of thinking intervals from any number of sources and charges each.

    `begin(source)` opens an interval for a source (a proxy call's id, "mcp-gap"); `end(source)`
    closes it; opening a source that is open, or closing one that is not, changes nothing. When the
    first source opens, `hold()` is called: it answers whether the session's clock is running, and
    under a policy that pauses, the session pauses it. An interval on a clock that is not running
    (not started yet, paused by the stepper, frozen at the report) is not counted: it costs
    nothing and is not a call on the clock. When the last source closes a counted interval, it is
    a model call, and under a pausing policy `release(sim_s)` is called with the policy's charge
    for the whole union's wall duration (the session advances its clock by it, firing due events
    at their own times, and resumes). Under `wall` calls are counted but never paused or charged."""

    def __init__(self, policy: ModelTime, hold: Callable[[], bool], release: Callable[[float], None],
                 wall: Callable[[], float] = time.monotonic):
        self.policy = policy
        self.thinking = Thinking()
        self._hold = hold
        self._release = release
        self._wall = wall
        self._open: set[str] = set()
        self._since: float | None = None
        self._holding = False  # the open interval began on a running clock (and paused it, if the policy pauses)

    def paused_wall_s(self) -> float:
        """Wall seconds the clock has been paused for thinking so far, the open interval included."""
        paused = self._holding and self.policy.pauses
        open_s = self._wall() - self._since if paused and self._since is not None else 0.0
        return self.thinking.paused_wall_s + max(0.0, open_s)

    @property
    def in_flight(self) -> bool:
        return bool(self._open)

    def begin(self, source: str) -> None:
        if source in self._open:
            return
        self._open.add(source)
        if len(self._open) == 1:
            self._since = self._wall()
            self._holding = self._hold()

    def end(self, source: str) -> None:
        if source not in self._open:
            return
        self._open.discard(source)
        if self._open or self._since is None:
            return
        wall_s = max(0.0, self._wall() - self._since)
        self._since = None
        charge = self.policy.charge(wall_s)
        counted, self._holding = self._holding, False
        if not counted:
            return
        self.thinking.model_calls += 1
        if self.policy.pauses:
            self.thinking.paused_wall_s += wall_s
            self.thinking.charged_sim_s += charge
            self._release(charge)

    def end_all(self) -> None:
        """Close every open interval (the session is ending)."""
        for source in sorted(self._open):
            self.end(source)
