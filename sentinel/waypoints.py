"""Waypoint values (prices, star counts): linear interpolation between [t, value] points.

Times are sim seconds, so they scale with the speed factor through the clock like every other
authored time (ENVIRONMENTS §0.8).
"""

from __future__ import annotations

from typing import Iterable, Sequence


def value_at(points: Iterable[Sequence[float]], t: float, start_value: float) -> float:
    """The value at sim time t. Before the first point the path runs from (0, start_value);
    after the last point it holds. Points at equal times make a step."""
    ordered = sorted(((float(p[0]), float(p[1])) for p in points), key=lambda p: p[0])
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
    ordered = sorted(((float(p[0]), float(p[1])) for p in points), key=lambda p: p[0])
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
