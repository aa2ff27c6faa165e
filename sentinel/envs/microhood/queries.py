"""The dashboard's reads: one statement each, columns in the order the view unpacks them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sentinel.world.state import World

BASELINE_KEY = "baseline_portfolio_value"  # session_meta: the portfolio value right after the preload

# (symbol, name, start_price, shares, avg_cost), by symbol
HOLDINGS = ("SELECT h.symbol, s.name, s.start_price, h.shares, h.avg_cost FROM holdings h "
            "JOIN stocks s ON s.symbol = h.symbol ORDER BY h.symbol")
# (symbol, name, start_price), in the order they were added
WATCHLIST = ("SELECT w.symbol, s.name, s.start_price FROM watchlist w JOIN stocks s ON s.symbol = w.symbol "
             "ORDER BY w.created_at, w.rowid")
# News rows as views.news_items reads them: (source, created_at, headline, symbol), newest first
NEWS = "SELECT source, created_at, headline, symbol FROM news"
NEWS_ORDER = " ORDER BY created_at DESC, rowid DESC"
LATEST_NEWS = NEWS + NEWS_ORDER + " LIMIT ?"  # one parameter: how many
STOCK_NEWS = NEWS + " WHERE symbol = ?" + NEWS_ORDER
ALL_NEWS = NEWS + NEWS_ORDER


async def cash_and_baseline(world: World) -> tuple[float, float | None]:
    """The buying power and the stored start-of-session portfolio value (None before it is stored)."""
    row = await world.fetch_one("SELECT (SELECT buying_power FROM account WHERE id = 1),"
                                " (SELECT value FROM session_meta WHERE key = ?)", (BASELINE_KEY,))
    cash, stored = (None, None) if row is None else row
    return float(cash or 0.0), None if stored is None else float(stored)
