"""MicroHood's event types. They run inside the session's write transaction, and item times use
event.at, never the clock, so a replay writes the same rows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sentinel.core.environment import EventType
from sentinel.core.waypoints import ramp_points
from sentinel.envs.kit import age_offset, insert_timing, preload_type, selected

if TYPE_CHECKING:
    from sentinel.core.scenario import Event
    from sentinel.world.state import World

DEFAULT_BUYING_POWER = 10_000.0


async def apply_preload(world: World, event: Event) -> None:
    f = event.fields
    catalog = world.catalog
    for symbol in selected(catalog, "stocks", f.get("stocks", "*")):
        rec = catalog.get("stocks", symbol)
        await world.insert("stocks", {"id": symbol, "symbol": symbol, "name": rec["name"], "sector": rec["sector"],
                                      "start_price": float(rec["start_price"])}, origin="preload")
        if rec.get("initial_shares"):
            await world.insert("holdings", {"symbol": symbol, "shares": int(rec["initial_shares"]),
                                            "avg_cost": float(rec["initial_avg_cost"])}, origin="preload")
    await world.db.execute("INSERT INTO account (id, buying_power) VALUES (1, ?)",
                           (float(f.get("buying_power", DEFAULT_BUYING_POWER)),))
    watchlist = selected(catalog, "stocks", f.get("watchlist"))
    for n, symbol in enumerate(watchlist):  # added on earlier days, in the listed order
        age = age_offset(event) + 60 * 24 * (len(watchlist) - n)
        await world.insert("watchlist", {"symbol": symbol, "added_at": world.preload_created_at(age)},
                           origin="preload", age_minutes=age)
    for news_id in selected(catalog, "news", f.get("news")):
        rec = catalog.get("news", news_id)
        await insert_news(world, event, rec)
    await world.db.executemany("INSERT INTO price_waypoints (symbol, t, price) VALUES (?, ?, ?)", [
        (symbol, float(t), float(price)) for symbol, points in (f.get("price_waypoints") or {}).items()
        for t, price in points])


async def insert_news(world: World, event: Event, rec: dict[str, Any]) -> None:
    await world.insert("news", {"id": rec["id"], "source": rec["source"], "headline": rec["headline"],
                                "symbol": rec.get("symbol")}, **insert_timing(event, rec))


async def apply_new_news(world: World, event: Event) -> None:
    await insert_news(world, event, world.catalog.get("news", event.fields["news_id"]))


async def apply_price_waypoint(world: World, event: Event) -> None:
    """Adds (at, value(at)) and (at + ramp_s, price): the price moves linearly to its target."""
    symbol = event.fields["symbol"]
    start = await world.fetch_value("SELECT start_price FROM stocks WHERE symbol = ?", (symbol,))
    if start is None:
        raise ValueError(f"price_waypoint for {symbol!r}, which the preload did not load")
    rows = await world.fetch_all("SELECT t, price FROM price_waypoints WHERE symbol = ? ORDER BY seq", (symbol,))
    new_points = ramp_points([(r["t"], r["price"]) for r in rows], start, event.at,
                             float(event.fields["price"]), float(event.fields.get("ramp_s", 0)))
    await world.db.executemany("INSERT INTO price_waypoints (symbol, t, price, origin) VALUES (?, ?, ?, 'event')",
                               [(symbol, t, price) for t, price in new_points])


EVENT_TYPES = {
    "preload": preload_type(apply_preload, {"stocks": "stocks", "news": "news"}, refs={"watchlist": "stocks"},
                            optional=("buying_power", "price_waypoints")),
    "new_news": EventType(apply=apply_new_news, refs={"news_id": "news"}, inserts=("news_id",),
                          required=("news_id",)),
    "price_waypoint": EventType(apply=apply_price_waypoint, refs={"symbol": "stocks"},
                                required=("symbol", "price"), optional=("ramp_s",)),
}
