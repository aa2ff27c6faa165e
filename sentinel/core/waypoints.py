"""Waypoint values (prices, star counts): linear interpolation between [t, value] points.

Times are sim seconds, so they scale with the speed factor through the clock like every other
authored time (docs/environments.md#events-and-baselines).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence


def value_at(points: Iterable[Sequence[float]], t: float, start_value: float) -> float:
    """The value at sim time t. Before the first point the path runs from (0, start_value);
    after the last point it holds. Points at equal times make a step."""
    return interpolate(in_time_order(points), t, start_value)


def in_time_order(points: Iterable[Sequence[float]]) -> tuple[tuple[float, float], ...]:
    """The points as (float, float) pairs sorted by time; points at equal times keep their order."""
    return tuple(sorted(((float(p[0]), float(p[1])) for p in points), key=lambda p: p[0]))


def interpolate(ordered: Sequence[tuple[float, float]], t: float, start_value: float) -> float:
    """value_at for points already in_time_order (a path read many times sorts them once)."""
    prev_t, prev_v = 0.0, float(start_value)
    for point_t, point_v in ordered:
        if t < point_t:
            if point_t <= prev_t:
                return prev_v
            return prev_v + (point_v - prev_v) * (t - prev_t) / (point_t - prev_t)
        prev_t, prev_v = point_t, point_v
    return prev_v


def ramp_points(points: Iterable[Sequence[float]], start_value: float, at: float,
                target: float, ramp_s: float) -> list[tuple[float, float]]:
    """The two points a waypoint event adds: (at, value(at)) and (at + ramp_s, target)."""
    here = value_at(points, at, start_value)
    return [(at, here), (at + max(0.0, ramp_s), float(target))]


def first_crossing(points: Iterable[Sequence[float]], start_value: float, threshold: float,
                   rising: bool, until: float) -> float | None:
    """Earliest sim time in [0, until] at which the value reaches the threshold
    (>= when rising, <= when falling), or None."""
    ordered = list(in_time_order(points))
    reached = (lambda v: v >= threshold) if rising else (lambda v: v <= threshold)
    prev_t, prev_v = 0.0, float(start_value)
    if reached(prev_v):
        return 0.0
    for point_t, point_v in ordered + [(until, None)]:
        if point_v is None:
            break
        if point_t > until:
            point_v = value_at(ordered, until, start_value)
            point_t = until
        if reached(point_v):
            if point_t <= prev_t or point_v == prev_v:
                return max(prev_t, point_t)
            return prev_t + (threshold - prev_v) * (point_t - prev_t) / (point_v - prev_v)
        prev_t, prev_v = point_t, point_v
        if prev_t >= until:
            break
    return None


RISING = ("at_least", "above")  # comparisons that hold for large values
FALLING = ("at_most", "below")
SHOWN = {"at_least": lambda v, lim: v >= lim, "above": lambda v, lim: v > lim,
         "at_most": lambda v, lim: v <= lim, "below": lambda v, lim: v < lim}


def shown_value(value: float, decimals: int) -> float:
    """The value as a page shows it: rounded half up to `decimals` places (the tiny epsilon
    absorbs binary noise such as 519.99499999 for 519.995)."""
    scale = 10 ** decimals
    return math.floor(value * scale + 0.5 + 1e-9) / scale


def first_shown_crossing(points: Iterable[Sequence[float]], start_value: float, comparison: str,
                         limit: float, until: float, decimals: int = 2) -> float | None:
    """First sim time in [0, until] at which the interpolated value, rounded half up to
    `decimals` places as a page shows it (2: cents, 0: whole star counts), satisfies
    `shown <comparison> limit` (at_least, above, at_most, below); None if it never does.

    "At least $42.20" starts when the raw path reaches $42.195, not $42.20: the crossing is
    found on the raw path at the edge of the first displayed value that satisfies the limit."""
    if comparison not in SHOWN:
        raise ValueError(f"comparison {comparison!r}: expected one of {', '.join(SHOWN)}")
    holds = SHOWN[comparison]
    scale = 10 ** decimals
    rising = comparison in RISING
    k = math.floor(limit * scale) - 2
    if rising:  # the smallest displayed value that satisfies the limit, and where rounding reaches it
        while not holds(k / scale, limit):
            k += 1
        threshold = (k - 0.5) / scale
    else:  # the largest one
        k += 4
        while not holds(k / scale, limit):
            k -= 1
        threshold = (k + 0.5) / scale - 1e-9
    return first_crossing(points, start_value, threshold, rising, until)


def first_time_holding(holds: Callable[[float], bool], until: float, step: float = 0.05,
                       precision: float = 1e-6) -> float | None:
    """First sim time in [0, until] at which holds(t), for a value no single path describes
    (a sum of rounded prices): scanned in `step` seconds, then refined by bisection to
    `precision`. A condition that holds for less than `step` between two samples can be missed."""
    count = int(round(until / step))
    previous: float | None = None
    for i in range(count + 1):
        t = i * step
        if holds(t):
            if previous is None:
                return t
            low, high = previous, t
            while high - low > precision:
                mid = (low + high) / 2
                low, high = (low, mid) if holds(mid) else (mid, high)
            return high
        previous = t
    return None
