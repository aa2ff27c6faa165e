"""Scenario checks only MicroHood knows: preload shape, price events, and that condition_at is when the
page the solution first watches (a price, or the portfolio value) shows the condition, in displayed cents."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from sentinel.core.catalog import Catalog
from sentinel.core.config import Timing, load_config
from sentinel.core.scenario import Scenario
from sentinel.core.solution import COMPARISONS, Step
from sentinel.core.waypoints import first_shown_crossing, first_time_holding, ramp_points
from sentinel.envs.kit import selected
from sentinel.envs.microhood.events import DEFAULT_BUYING_POWER
from sentinel.envs.microhood.prices import Path

TOLERANCE_S = 0.5  # condition_at may differ this much from the computed crossing
VISIBLE_FOR_S = 60.0  # a condition must stay visible this long (the oracle polls every ~10 sim s)
FIRST_READ_S = 10.0  # a relative limit needs the value flat until the first read
STOCK_PAGE = re.compile(r"^/microhood/stock/([A-Za-z]+)/?$")
DASHBOARD = re.compile(r"^/microhood/?$")

Problems = list[tuple[str, str]]


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> Problems:
    """MicroHood's own checks; `timing` defaults to the repository's sentinel.toml."""
    end = (timing or load_config().timing).event_timeline_end
    stocks = catalog.records("stocks")
    preload = scenario.events[0].fields if scenario.events and scenario.events[0].type == "preload" else {}
    loaded = set(selected(catalog, "stocks", preload.get("stocks", "*"))) & set(stocks)
    problems = _preload_problems(preload, loaded, end) + _event_problems(scenario, loaded)
    return problems or _crossing_problems(scenario, build_paths(scenario, stocks, loaded, end), stocks, preload, end)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _preload_problems(preload: Mapping[str, Any], loaded: set[str], end: float) -> Problems:
    out: Problems = []
    where = "events[0]"  # the preload
    if "buying_power" in preload and not (_number(preload["buying_power"]) and preload["buying_power"] >= 0):
        out.append((f"{where}.buying_power", "expected a number of dollars ≥ 0"))
    watchlist = preload.get("watchlist")
    out += [(f"{where}.watchlist", f"{symbol!r} is not among the preloaded stocks")
            for symbol in (watchlist if isinstance(watchlist, list) else []) if symbol not in loaded]
    waypoints = preload.get("price_waypoints", {})
    if not isinstance(waypoints, dict):
        return out + [(f"{where}.price_waypoints", "expected a mapping SYMBOL: [[t, price], ...]")]
    for symbol, points in waypoints.items():
        field = f"{where}.price_waypoints.{symbol}"
        if symbol not in loaded:
            out.append((field, f"{symbol!r} is not among the preloaded stocks"))
        if not isinstance(points, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(_number(v) for v in p) for p in points):
            out.append((field, "expected a list of [t, price] pairs"))
            continue
        for t, price in points:
            if not 0 <= t <= end:
                out.append((field, f"time {t:g} is outside [0, {end:g}]"))
            if price <= 0:
                out.append((field, f"price {price:g} must be above 0"))
    return out


def _event_problems(scenario: Scenario, loaded: set[str]) -> Problems:
    out: Problems = []
    for event in (e for e in scenario.events if e.type == "price_waypoint"):
        where, f = f"events[{event.index}]", event.fields
        if f.get("symbol") not in loaded:
            out.append((f"{where}.symbol", f"{f.get('symbol')!r} is not among the preloaded stocks"))
        if not (_number(f.get("price")) and f["price"] > 0):
            out.append((f"{where}.price", "expected a price above 0"))
        if "ramp_s" in f and not (_number(f["ramp_s"]) and f["ramp_s"] >= 0):
            out.append((f"{where}.ramp_s", "expected sim seconds ≥ 0"))
    return out


def build_paths(scenario: Scenario, stocks: dict[str, dict], loaded: set[str], end: float) -> dict[str, Path]:
    """Every loaded symbol's final path, built exactly as the events build it at run time."""
    preload = scenario.events[0].fields
    points = {s: [(float(t), float(p)) for t, p in preload.get("price_waypoints", {}).get(s, [])] for s in loaded}
    starts = {s: float(stocks[s]["start_price"]) for s in loaded}
    for event in sorted(scenario.timeline, key=lambda e: (e.at, e.index)):
        if event.type == "price_waypoint" and event.at <= end:
            symbol = event.fields["symbol"]
            points[symbol] += ramp_points(points[symbol], starts[symbol], event.at,
                                          float(event.fields["price"]), float(event.fields.get("ramp_s", 0)))
    return {s: Path(starts[s], tuple(points[s])) for s in loaded}


def watched_step(scenario: Scenario) -> Step | None:
    """The first watch step with a numeric predicate, if it watches a price or the portfolio."""
    for step in scenario.solution:
        if step.verb == "watch" and step.until is not None and step.until.number is not None:
            page = STOCK_PAGE.match(step.target) or DASHBOARD.match(step.target)
            return step if step.open_new is None and page else None
    return None


def _crossing_problems(scenario: Scenario, paths: dict[str, Path], stocks: dict[str, dict],
                       preload: Mapping[str, Any], end: float) -> Problems:
    step = watched_step(scenario)
    if step is None:
        return []
    until = step.until
    assert until is not None and until.limit is not None and until.comparison is not None
    stock = STOCK_PAGE.match(step.target)
    if stock:
        symbol = stock.group(1).upper()
        if symbol not in paths:
            return [("solution", f"watches {symbol}, which the preload did not load")]
        shown: Callable[[float], float] = paths[symbol].price
    else:
        holdings = {s: int(stocks[s].get("initial_shares") or 0) for s in paths}
        cash = float(preload.get("buying_power", DEFAULT_BUYING_POWER))

        def shown(t: float) -> float:
            return round(cash + sum(n * paths[s].price(t) for s, n in holdings.items() if n), 2)
    first = shown(0.0)
    limit = until.limit.resolve(first)
    compare = COMPARISONS[until.comparison]

    def holds(t: float) -> bool:
        return compare(shown(t), limit)

    out: Problems = []
    if until.limit.relative and any(shown(k * 0.5) != first for k in range(int(FIRST_READ_S * 2) + 1)):
        out.append(("solution", f"the watched value moves before {FIRST_READ_S:g} s, so the oracle's "
                                "first read (its 'first') is not the start value"))
    crossing = (first_shown_crossing(paths[symbol].points, paths[symbol].start, until.comparison, limit, end)
                if stock else first_time_holding(holds, end))  # the portfolio: scanned every 0.05 s
    if scenario.is_noop:
        if crossing is not None:
            out.append(("solution", f"this no-op's condition becomes visible at {crossing:.3f} s"))
        return out
    if crossing is None:
        return out + [("condition_at", "the watched value never reaches the solution's limit "
                                       f"({until.comparison} {limit:g}) before {end:g} s")]
    assert scenario.condition_at is not None
    if abs(scenario.condition_at - crossing) > TOLERANCE_S:
        out.append(("condition_at", f"{scenario.condition_at:g} differs from the moment the page first "
                                    f"shows {until.comparison} {limit:g}: {crossing:.3f} s"))
    later = (crossing + 0.01 + k * 0.5 for k in range(int(VISIBLE_FOR_S * 2) + 1))  # each half second, a minute
    lapse = next((t for t in later if not holds(t)), None)
    if lapse is not None:
        out.append(("events", f"the condition shows at {crossing:.3f} s but is gone again at {lapse:.2f} s; "
                              f"it must stay visible for {VISIBLE_FOR_S:g} s"))
    return out
