"""Prices, interpolated from the waypoint paths when read. Pages, fills and grading all read a
`PriceBook` and round with `cents`, so a page shows exactly what an order fills at."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sentinel.core.waypoints import in_time_order, interpolate

if TYPE_CHECKING:
    from sentinel.world.state import World

Point = tuple[float, float]


def cents(value: float) -> float:
    """Round half up to whole cents (the tiny epsilon absorbs binary noise like 519.99499999)."""
    return math.floor(value * 100 + 0.5 + 1e-9) / 100


def change(now: float, start: float) -> tuple[float, float]:
    """($ change, % change) from start to now."""
    delta = round(now - start, 2)
    return delta, (delta / start * 100 if start else 0.0)


@dataclass(frozen=True)
class Path:
    """One symbol's price path: (0, start) then its waypoints, held after the last one.
    `points` are kept in time order (sorted once here: a page reads a dozen prices)."""
    start: float
    points: tuple[Point, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", in_time_order(self.points))

    def raw(self, t: float) -> float:
        return interpolate(self.points, t, self.start)

    def price(self, t: float) -> float:
        return cents(self.raw(t))

    def corners(self, until: float) -> list[Point]:
        """The path's vertices over [0, until], ending at (until, value): a piecewise-linear
        path is drawn exactly by these, and its high and low are among them."""
        return [(0.0, self.start), *((t, v) for t, v in self.points if t <= until), (until, self.raw(until))]


@dataclass
class PriceBook:
    """Prices at time t. A Path is built only for the symbols read (a page reads a dozen of 50)."""
    starts: dict[str, float]
    points: dict[str, list[Point]]
    t: float
    paths: dict[str, Path] = field(default_factory=dict)  # shared with the books `at` makes of the same paths

    @classmethod
    async def load(cls, world: World, t: float | None = None, starts: dict[str, float] | None = None) -> PriceBook:
        """Every stock's path; or, given the start prices of the symbols a page shows (read with
        its own rows), only the waypoints are read: a path depends on its symbol's rows alone."""
        if starts is None:
            starts = {sym: start for sym, start in await world.fetch_all("SELECT symbol, start_price FROM stocks")}
        points: dict[str, list[Point]] = {}
        for symbol, at, price in await world.fetch_all("SELECT symbol, t, price FROM price_waypoints ORDER BY seq"):
            points.setdefault(symbol, []).append((at, price))
        return cls(starts, points, world.now() if t is None else t)

    def at(self, t: float) -> PriceBook:
        """The same paths read at another time."""
        return PriceBook(self.starts, self.points, t, self.paths)

    def path(self, symbol: str) -> Path:
        if symbol not in self.paths:
            self.paths[symbol] = Path(self.starts[symbol], tuple(self.points.get(symbol, ())))
        return self.paths[symbol]

    def price(self, symbol: str) -> float:
        if symbol not in self.points:  # no waypoints: the path holds its start price (no Path to build)
            return cents(float(self.starts[symbol]))
        return self.path(symbol).price(self.t)

    def start(self, symbol: str) -> float:
        return self.starts[symbol]

    def change(self, symbol: str) -> tuple[float, float]:
        return change(self.price(symbol), self.start(symbol))

    def high_low(self, symbol: str) -> tuple[float, float]:
        values = [v for _, v in self.path(symbol).corners(self.t)]
        return cents(max(values)), cents(min(values))

    def corners(self, symbol: str) -> list[Point]:
        return self.path(symbol).corners(self.t)


async def buying_power(world: World) -> float:
    value = await world.fetch_value("SELECT buying_power FROM account WHERE id = 1")
    return float(value or 0.0)


async def portfolio_numbers(world: World, book: PriceBook) -> dict[str, float]:
    """buying_power, positions_value and portfolio_value at the book's time (cents)."""
    holdings = await world.fetch_all("SELECT h.symbol, h.shares FROM holdings h JOIN stocks s ON s.symbol = h.symbol "
                                     "ORDER BY h.symbol")
    return portfolio_totals(await buying_power(world), [(shares, book.price(symbol)) for symbol, shares in holdings])


def portfolio_totals(cash: float, positions: Iterable[tuple[int, float]]) -> dict[str, float]:
    """buying_power, positions_value and portfolio_value (cents) of cash and (shares, price) pairs."""
    value = round(sum(shares * price for shares, price in positions), 2)
    return {"buying_power": round(cash, 2), "positions_value": value, "portfolio_value": round(cash + value, 2)}
