"""MicroHood: stock trading modelled on Robinhood (docs/environments.md#microhood); most of the
logic is pricing (prices.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sentinel.core.environment import Environment, NavItem
from sentinel.envs.kit import arrived_count
from sentinel.envs.microhood.checks import check_scenario
from sentinel.envs.microhood.events import DEFAULT_BUYING_POWER, EVENT_TYPES
from sentinel.envs.microhood.kinds import KINDS
from sentinel.envs.microhood.prices import PriceBook, portfolio_numbers
from sentinel.envs.microhood.views import routes

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.world.state import World

BASELINE_SQL = {
    "order_count": "SELECT COUNT(*) FROM orders",
    "watchlist_count": "SELECT COUNT(*) FROM watchlist",
    "news_count": arrived_count("news"),
}


async def portfolio_baselines(world: World) -> dict[str, float]:
    """The portfolio's value, cash and gain right after the preload (computed from prices)."""
    return await portfolio_numbers(world, await PriceBook.load(world))


async def finalize(world: World) -> None:
    """Grading time: freeze every price into current_prices (the portfolio view reads it)."""
    book = await PriceBook.load(world)
    await world.db.execute("DELETE FROM current_prices")
    await world.db.executemany("INSERT INTO current_prices (symbol, price) VALUES (?, ?)",
                               [(symbol, book.price(symbol)) for symbol in book.starts])


def serve_preload(catalog: Catalog) -> dict[str, Any]:
    """`sentinel serve microhood`: the whole catalog, with a few prices drifting for 12 minutes."""
    stocks = catalog.records("stocks")
    moves = {"HALO": 1.04, "NEOX": 0.97, "VLTA": 1.06, "DRNX": 0.95, "CHPX": 1.03, "BYTW": 1.02}
    waypoints = {}
    for symbol, factor in moves.items():
        start = float(stocks[symbol]["start_price"])
        waypoints[symbol] = [[240, round(start * (1 + (factor - 1) / 2), 2)],
                             [480, round(start * (2 - factor), 2)], [720, round(start * factor, 2)]]
    return {"stocks": "*", "watchlist": ["VLTA", "DRNX", "CHPX"], "news": "*",
            "buying_power": DEFAULT_BUYING_POWER, "price_waypoints": waypoints}


ENV = Environment(
    name="microhood",
    title="MicroHood",
    event_types=EVENT_TYPES,
    routes=routes,
    nav=(NavItem("Portfolio", "home"), NavItem("Stocks", "search"), NavItem("Orders", "orders"),
         NavItem("News", "news")),
    search="search",
    baseline_sql=BASELINE_SQL,
    baselines_extra=portfolio_baselines,
    serve_preload=serve_preload,
    finalize=finalize,
    check_scenario=check_scenario,
    kinds=KINDS,
    page_time_step_s=None,  # prices move continuously between their waypoints: every request renders
)
