"""Scenario checks only MicroHub knows: the star waypoints and the star crossing. A star task's
condition_at must be when the home page first shows the count its solution watches for (the limit
comes from the solution itself, so the check verifies what the oracle will see)."""

from __future__ import annotations

import math
import re
from typing import Any

from sentinel.core.catalog import Catalog
from sentinel.core.config import Timing, load_config
from sentinel.core.scenario import Scenario
from sentinel.core.waypoints import first_crossing, ramp_points
from sentinel.envs.microhub.events import star_target
from sentinel.envs.microhub.queries import EPSILON, stars_at

TOLERANCE_S, VISIBLE_FOR_S, FIRST_READ_S = 0.5, 60.0, 10.0
HOME = re.compile(r"^/microhub/?$")

Problems = list[tuple[str, str]]


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> Problems:
    end = (timing or load_config().timing).event_timeline_end
    problems = _star_event_problems(scenario, end)
    if problems or not scenario.events or scenario.events[0].type != "preload":
        return problems
    start = float(scenario.events[0].fields.get("initial_stars", catalog.get("repo", "repo")["initial_stars"]))
    points = star_path(scenario, start, end)
    return _crossing_problems(scenario, points, start, end)


def _star_event_problems(scenario: Scenario, end: float) -> Problems:
    out: Problems = []
    for event in scenario.events:
        where = f"events[{event.index}]"
        f = event.fields
        if event.type == "preload":
            points = f.get("star_waypoints", [])
            if not isinstance(points, list) or not all(
                    isinstance(p, list) and len(p) == 2 and all(_number(v) for v in p) for p in points):
                out.append((f"{where}.star_waypoints", "expected a list of [t, stars] pairs"))
            elif any(not 0 <= p[0] <= end or p[1] < 0 for p in points):
                out.append((f"{where}.star_waypoints", f"times must be in [0, {end:g}] and counts ≥ 0"))
        if event.type == "star_waypoint":
            if ("stars" in f) == ("delta" in f):
                out.append((where, "a star_waypoint needs exactly one of stars or delta"))
            elif not _number(f.get("stars", f.get("delta"))):
                out.append((where, "stars or delta must be a number"))
            if "ramp_s" in f and not (_number(f["ramp_s"]) and f["ramp_s"] >= 0):
                out.append((f"{where}.ramp_s", "expected sim seconds ≥ 0"))
    return out


def star_path(scenario: Scenario, start: float, end: float) -> list[tuple[float, float]]:
    """The star path after every event, built as the events build it at run time."""
    points = [(float(t), float(v)) for t, v in scenario.events[0].fields.get("star_waypoints", [])]
    for event in sorted(scenario.timeline, key=lambda e: (e.at, e.index)):
        if event.type == "star_waypoint" and event.at <= end:
            target = star_target(points, start, event)
            points += ramp_points(points, start, event.at, target, float(event.fields.get("ramp_s", 0)))
    return points


def _crossing_problems(scenario: Scenario, points: list[tuple[float, float]], start: float, end: float) -> Problems:
    step = next((s for s in scenario.solution if s.verb == "watch" and s.until is not None
                 and s.until.number is not None), None)  # the first numeric watch: a star task's when on the home page
    if step is None or step.open_new is not None or not HOME.match(step.target):
        return []
    until = step.until
    assert until is not None and until.limit is not None
    if until.comparison != "at_least":
        return [("solution", "star tasks watch for a count at_least a limit (star curves only rise)")]
    first = stars_at(points, start, 0.0)
    limit = until.limit.resolve(first)
    out: Problems = []
    if until.limit.relative and stars_at(points, start, FIRST_READ_S) != first:
        out.append(("solution", f"the star count moves before {FIRST_READ_S:g} s, so the oracle's first read "
                                "is not the start value"))
    # When the page first shows the limit: the raw path reaches ceil(limit) then (floor(v) ≥ n ⇔ v ≥ n, n whole).
    crossing = first_crossing(points, start, math.ceil(limit - EPSILON), True, end)
    if scenario.is_noop:
        if crossing is not None:
            out.append(("solution", f"this no-op's condition becomes visible at {crossing:.3f} s"))
        return out
    if crossing is None:
        return out + [("condition_at", f"the star count never reaches {limit:g} before {end:g} s")]
    assert scenario.condition_at is not None
    if abs(scenario.condition_at - crossing) > TOLERANCE_S:
        out.append(("condition_at", f"{scenario.condition_at:g} differs from the moment the page first shows "
                                    f"{limit:g} stars: {crossing:.3f} s"))
    lapse = next((crossing + k * 0.5 for k in range(1, int(VISIBLE_FOR_S * 2) + 1)
                  if stars_at(points, start, crossing + k * 0.5) < limit), None)
    if lapse is not None:
        out.append(("events", f"the count shows {limit:g} at {crossing:.3f} s but drops below it at {lapse:.2f} s"))
    return out
