"""MicroHood's event types: preload, new_news and price_waypoint.

They run inside the session's write transaction (never call world.write() here). Item times use
event.at, never the clock, so a replay writes the same rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sentinel.envs.base import EventType
from sentinel.waypoints import ramp_points

if TYPE_CHECKING:
    from sentinel.scenario import Event
    from sentinel.world import World

DEFAULT_BUYING_POWER = 10_000.0


def selected(value: Any, records: dict[str, dict]) -> list[str]:
    """A preload list field: "*" for the whole collection, else the listed ids in order."""
    if value is None:
        return []
    if value == "*":
        return list(records)
    return [str(v) for v in (value if isinstance(value, list) else [value])]


async def apply_preload(world: "World", event: "Event") -> None:
    f = event.fields
    catalog, db = world.catalog, world.db
    offset = float(f.get("age_offset_minutes", 0) or 0)
    start_iso = world.created_at(0.0)
    stock_records = catalog.records("stocks")
    for symbol in selected(f.get("stocks", "*"), stock_records):
        rec = stock_records[symbol]
        await db.execute("INSERT INTO stocks (id, symbol, name, sector, start_price, created_at) "
                         "VALUES (?, ?, ?, ?, ?, ?)",
                         (symbol, symbol, rec["name"], rec["sector"], float(rec["start_price"]), start_iso))
        if rec.get("initial_shares"):
            await db.execute("INSERT INTO holdings (symbol, shares, avg_cost, created_at) VALUES (?, ?, ?, ?)",
                             (symbol, int(rec["initial_shares"]), float(rec["initial_avg_cost"]), start_iso))
    await db.execute("INSERT INTO account (id, buying_power) VALUES (1, ?)",
                     (float(f.get("buying_power", DEFAULT_BUYING_POWER)),))
    watchlist = selected(f.get("watchlist"), stock_records)
    for n, symbol in enumerate(watchlist):  # added on earlier days, in the listed order
        added = world.preload_created_at(offset + 60 * 24 * (len(watchlist) - n))
        await db.execute("INSERT INTO watchlist (symbol, added_at, created_at) VALUES (?, ?, ?)",
                         (symbol, added, added))
    news_records = catalog.records("news")
    for news_id in selected(f.get("news"), news_records):
        rec = news_records[news_id]
        created = world.preload_created_at(float(rec.get("age_minutes", 0)) + offset)
        await db.execute("INSERT INTO news (id, source, headline, symbol, created_at) VALUES (?, ?, ?, ?, ?)",
                         (news_id, rec["source"], rec["headline"], rec.get("symbol"), created))
    for symbol, points in (f.get("price_waypoints") or {}).items():
        for t, price in points:
            await db.execute("INSERT INTO price_waypoints (symbol, t, price) VALUES (?, ?, ?)",
                             (symbol, float(t), float(price)))


async def apply_new_news(world: "World", event: "Event") -> None:
    rec = world.catalog.get("news", event.fields["news_id"])
    await world.db.execute(
        "INSERT INTO news (id, source, headline, symbol, arrived_at, created_at, origin) "
        "VALUES (?, ?, ?, ?, ?, ?, 'event')",
        (rec["id"], rec["source"], rec["headline"], rec.get("symbol"), event.at, world.created_at(event.at)))


async def apply_price_waypoint(world: "World", event: "Event") -> None:
    """Adds (at, value(at)) and (at + ramp_s, price): the price moves linearly to its target."""
    symbol = event.fields["symbol"]
    start = await world.fetch_value("SELECT start_price FROM stocks WHERE symbol = ?", (symbol,))
    if start is None:
        raise ValueError(f"price_waypoint for {symbol!r}, which the preload did not load")
    rows = await world.fetch_all("SELECT t, price FROM price_waypoints WHERE symbol = ? ORDER BY seq", (symbol,))
    new_points = ramp_points([(r["t"], r["price"]) for r in rows], start, event.at,
                             float(event.fields["price"]), float(event.fields.get("ramp_s", 0)))
    for t, price in new_points:
        await world.db.execute("INSERT INTO price_waypoints (symbol, t, price, origin) VALUES (?, ?, ?, 'event')",
                               (symbol, t, price))


EVENT_TYPES = {
    "preload": EventType(
        apply=apply_preload,
        refs={"stocks": "stocks", "watchlist": "stocks", "news": "news"},
        inserts=("stocks", "news"),
        optional=("buying_power", "price_waypoints", "age_offset_minutes"),
    ),
    "new_news": EventType(apply=apply_new_news, refs={"news_id": "news"}, inserts=("news_id",),
                          required=("news_id",)),
    "price_waypoint": EventType(apply=apply_price_waypoint, refs={"symbol": "stocks"},
                                required=("symbol", "price"), optional=("ramp_s",)),
}
