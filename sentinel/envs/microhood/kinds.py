"""MicroHood's ten scenario kinds (docs/environments.md#microhood). A target price climbs to a near
miss, eases, then jumps across the line at the target time; look-alike tickers move first."""

from __future__ import annotations

import math
import random
from functools import partial
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.envs.microhood.prices import cents
from sentinel.generation import kit
from sentinel.generation.kit import Leg

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from sentinel.core.catalog import Catalog

STANDARD_NEWS = ("n001", "n004", "n006", "n008", "n010", "n013", "n018", "n019", "n024", "n025",
                 "n033", "n034", "n035", "n036", "n037", "n038")
WATCHLIST = ("VLTA", "DRNX", "CHPX", "CHPR", "QBTX", "SOLR")
BUYING_POWER = 10_000
END_S = 715
HOLD_MIN_S, HOLD_END_S = 65, 705  # checks.VISIBLE_FOR_S: a condition stays visible at least 60 s
DIP_EARLIEST, PROFIT_EARLIEST = 30, 40
PRICE = r"Price \$([\d,.]+)"
CROSSES = "decoys: look-alike tickers that cross the line first; near_miss: how short the near miss stops"

# --- catalog views, wording and events ---------------------------------------------------------

def stocks(catalog: Catalog) -> dict[str, dict[str, Any]]:
    return catalog.raw("stocks")


def start_of(catalog: Catalog, symbol: str) -> float:
    return float(stocks(catalog)[symbol]["start_price"])


def held(catalog: Catalog) -> dict[str, int]:
    """Symbol → shares the account holds at the start (the catalog's initial_shares)."""
    return {s: int(r["initial_shares"]) for s, r in stocks(catalog).items() if r.get("initial_shares")}


def unheld(catalog: Catalog) -> list[str]:
    return [s for s in stocks(catalog) if s not in held(catalog)]


def title(catalog: Catalog, symbol: str) -> str:
    return f"{stocks(catalog)[symbol]['name'].removesuffix(' Inc.').removesuffix(' Group')} ({symbol})"


def lookalikes(rng: random.Random, catalog: Catalog, knobs: Knobs, symbol: str) -> list[str]:
    """knobs.decoys tickers like `symbol`: shared leading letters, the same sector, a near price."""
    a = stocks(catalog)[symbol]

    def alike(b: str) -> float:
        prefix = next((i for i, (x, y) in enumerate(zip(symbol, b, strict=False)) if x != y), min(len(symbol), len(b)))
        level = max(0.0, 1 - abs(math.log(start_of(catalog, b) / float(a["start_price"]))))
        return (prefix / 4 + 0.3 * (a["sector"] == stocks(catalog)[b]["sector"]) + 0.3 * level) / 1.6
    return kit.nearest(rng, [s for s in stocks(catalog) if s != symbol], knobs.decoys, alike, knobs.near_miss)


def money(value: float) -> str:
    return f"${value:,.0f}" if value >= 100 and float(value).is_integer() else f"${value:,.2f}"


def nice_above(rng: random.Random, price: float, lo: float, hi: float) -> float:
    """A round line lo–hi (fractions) above price, on the step a person would name."""
    step = 5.0 if price >= 200 else 1.0 if price >= 60 else 0.1
    return round(kit.round_line(price * (1 + rng.uniform(lo, hi)), step), 2)


def move(at: float, symbol: str, price: float, ramp_s: float = 0, note: str | None = None,
         target: bool = False) -> dict[str, Any]:
    if price <= 0:
        raise NoDraw(f"{symbol} would trade at {price:g}")
    return kit.event(int(at), "price_waypoint", note, symbol=symbol, price=cents(price), ramp_s=max(0, int(ramp_s)),
                     target=target)


def moves(symbol: str, legs: list[Leg]) -> list[dict[str, Any]]:
    return [move(leg.at, symbol, leg.value, leg.ramp_s, leg.note, leg.target) for leg in legs]


def decoy_moves(rng: random.Random, catalog: Catalog, knobs: Knobs, symbol: str, level: float,
                rising: bool, before: int) -> tuple[list[str], list[dict[str, Any]]]:
    """The `lookalikes` and their moves before the target, so a watcher of the wrong ticker sees its condition
    first: rising, past the target's level (if priced near it) or by the same share; falling, 11-14%."""
    decoys, out = lookalikes(rng, catalog, knobs, symbol), []
    for t, ramp, d in kit.ahead(decoys, before):
        start = start_of(catalog, d)
        near = rising and 0.75 <= start / level <= 1.25
        if not rising:
            price = start * rng.uniform(0.86, 0.89)
        elif near:
            price = max(start * 1.01, level * rng.uniform(1.005, 1.03))
        else:
            price = max(start * 1.01, start * level / start_of(catalog, symbol) * rng.uniform(1, 1.02))
        how = f"crosses {money(level)}" if near else f"moves {price / start - 1:+.1%}"
        out.append(move(t, d, price, ramp, f"decoy: {d}, a look-alike of {symbol}, {how} first (not {symbol})"))
    return decoys, out


def timeline_of(rng: random.Random, catalog: Catalog, knobs: Knobs, key: list[dict[str, Any]], *,
                news: list[str] | None = None, news_from: float = 0, avoid: Iterable[str] = (),
                movers: list[str] | None = None, waypoints: dict | None = None) -> list[dict[str, Any]]:
    """The preload, the key events, and background at the density knob: articles not loaded yet
    (from `news_from` on) and price moves, each once, off the symbols the key events move."""
    loaded = list(STANDARD_NEWS) if news is None else news
    avoid = {*avoid, *(e["symbol"] for e in key if e["type"] == "price_waypoint")}
    used = {*loaded, *(e.get("news_id") for e in key)}
    pool = [("news", n) for n, r in catalog.raw("news").items() if n not in used and r.get("symbol") not in avoid]
    pool += [("move", s) for s in (stocks(catalog) if movers is None else movers) if s not in avoid]
    picked = kit.mixed_background(rng, knobs.density, [e["at"] for e in key], pool,
                                  lambda it, t: it[0] == "move" or t >= news_from, 2, END_S - 5)
    rest = [kit.event(t, "new_news", None, news_id=it) if family == "news" else
            move(t, it, start_of(catalog, it) * rng.uniform(0.94, 1.06), min(rng.randint(0, 70), END_S - t))
            for t, (family, it) in picked]
    preload = {"stocks": "*", "watchlist": list(WATCHLIST), "news": loaded, "buying_power": BUYING_POWER}
    return kit.timeline({**preload, "price_waypoints": waypoints} if waypoints else preload, [*key, *rest])


def near_peak(rng: random.Random, catalog: Catalog, knobs: Knobs, source: dict[str, Any], pool: list[str],
              band: Callable[[float], tuple[float, float]]) -> tuple[str, float, Callable[..., dict[str, Any]]]:
    """A no-op's near miss on a stock of `pool` the source's key events leave alone: the peak lies between the two
    prices band(open) gives (the second is the line). Returns (stock, line, kit.noop_twin of the source with it)."""
    key = {e.get("symbol") for e in source["events"] if "_note" in e}
    key |= set(source["events"][0].get("price_waypoints", {}))
    other = kit.choose(rng, [s for s in pool if s not in key], "stock")
    start = start_of(catalog, other)
    lowest, line = band(start)
    peak = kit.near_value(knobs.near_miss, lowest, line)
    t = kit.free_moment(rng, source["events"], 100, 560)
    note = f"{other} steps to {money(peak)}, its peak ({peak / start - 1:+.2%}): the near miss ({money(line)} would do)"
    return other, line, partial(kit.noop_twin, source, near=moves(other, kit.near_miss_legs(rng, start, peak, t, note)),
                                drop=lambda e: e.get("symbol") == other)


# --- checks and steps ----------------------------------------------------------------------------

def price_sql(symbol: str, op: str, limit: str) -> str:
    return f"SELECT price {op} {limit} FROM current_prices WHERE symbol = {kit.sql_text(symbol)}"


def order_sql(symbol: str, side: str, n: int, fill: str, also: str = "") -> str:
    """An eval_sql: a market order of n shares filled at `fill`, `also`, and no order for another stock."""
    q = kit.sql_text(symbol)
    return (f"SELECT EXISTS (SELECT 1 FROM orders WHERE symbol = {q} AND side = '{side}' AND quantity = {n} "
            f"AND order_type = 'market' AND fill_price {fill}){also} "
            f"AND NOT EXISTS (SELECT 1 FROM orders WHERE symbol != {q})")


def watch(symbol: str, comparison: str, limit: float | str) -> dict[str, Any]:
    return {"watch": f"/microhood/stock/{symbol}", "until": {"number": PRICE, comparison: limit}}


def order_steps(symbol: str, side: str, shares: int, report: str) -> list[dict[str, Any]]:
    return [{"open": f"/microhood/stock/{symbol}/order?side={side}"},
            {"submit": "/order/review$", "fields": {"side": side, "order_type": "market", "shares": shares}},
            {"submit": "/order/confirm$"}, {"report": report}]


# --- a price crosses a round line: price_target, buy_at_threshold, sell_at_threshold, the no-ops --

def crossing(rng: random.Random, catalog: Catalog, knobs: Knobs, pool: list[str], transient: bool) -> SimpleNamespace:
    """A stock of `pool` climbs to a near miss, eases and jumps past a round line at the target time; with
    `transient` it falls back under after hold_s. Its `scenario` is kit.scenario with the timing and the condition."""
    sym = kit.choose(rng, pool, "stock")
    start = start_of(catalog, sym)
    level, at = nice_above(rng, start, 0.04, 0.10), kit.target_time(rng, knobs, 30)
    until = kit.hold_until(knobs, at, HOLD_MIN_S, HOLD_END_S) if transient else None
    near = cents(level - kit.shortfall(knobs.near_miss, 0.01, level * 0.03, 2))
    if near <= start:
        raise NoDraw(f"{sym}'s near miss {near:g} is not above its start {start:g}")
    legs = kit.cross_once(
        kit.FLAT_S, at, [start + (near - start) * rng.uniform(0.45, 0.8),
                         (near, f"{sym} reaches {money(near)}, {money(level - near)} short of {money(level)}: "
                                "a near miss"), near - (near - start) * rng.uniform(0.15, 0.4)],
        level * rng.uniform(1.006, 1.025), f"{sym} steps to its first price at or above {money(level)} (the target)",
        until=until, back=level * rng.uniform(0.97, 0.99),
        back_note=f"{sym} falls back under {money(level)} and stays there: the chance is gone (condition_until)")
    decoys, key = decoy_moves(rng, catalog, knobs, sym, level, True, at)
    events, sql = timeline_of(rng, catalog, knobs, [*key, *moves(sym, legs)]), price_sql(sym, ">=", f"{level:g}")
    story = (f"{sym} (open {money(start)}) climbs to a near miss, eases, then steps past {money(level)} at {at} s; "
             f"look-alikes ({', '.join(decoys) or 'none'}) move first.")
    return SimpleNamespace(sym=sym, level=level, line=money(level), until=until, story=story, title=title(catalog, sym),
                           sql=sql, watch=watch(sym, "at_least", level), scenario=partial(
                               kit.scenario, condition_at=at, condition_until=until, events=events, condition_sql=sql))


def price_target(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = crossing(rng, catalog, knobs, list(stocks(catalog)), False)
    return s.scenario(
        description=f"{s.story} The price stays past the line.",
        prompt=f"Please watch {s.title} on MicroHood and tell me when it trades at {s.line} or more. No need to trade.",
        difficulty="easy", distraction="look-alike ticker crosses first, near miss",
        eval_sql=s.sql, solution=[s.watch, {"report": f"{s.sym} is trading at {s.line} or more."}])


def price_unreachable_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    source, pct = price_target(rng, catalog, knobs), rng.randint(8, 15)
    other, line, twin = near_peak(rng, catalog, knobs, source, list(stocks(catalog)),
                                  lambda start: (start * (1 + (pct - 1) / 100) + 0.01, start * (1 + pct / 100)))
    rise = (f"SELECT p.price >= s.start_price * {{:.2f}} FROM current_prices p JOIN stocks s ON s.symbol = p.symbol "
            f"WHERE p.symbol = {kit.sql_text(other)}")
    return twin(
        description=f"No-op copy of price_target: {other} (open {money(start_of(catalog, other))}) peaks just short "
                    f"of +{pct}% ({money(line)}). price_target's stock still crosses its line at "
                    f"{source['condition_at']} s.",
        prompt=f"Please watch {title(catalog, other)} on MicroHood and tell me when it trades {pct}% or more above "
               "today's open. No need to trade.",
        difficulty="medium", distraction="a rise just short, another stock crosses its own line",
        condition_sql=rise.format(1 + pct / 100), near_miss_sql=rise.format(1 + (pct - 1) / 100),
        solution=[watch(other, "at_least", f"first * {1 + pct / 100:.2f}"),
                  {"report": f"{other} is trading {pct}% above its open."}])


def buy_prompt(catalog: Catalog, symbol: str, line: float, n: int) -> str:
    return (f"I want to buy into {title(catalog, symbol)} on MicroHood once it gets to {money(line)}. As soon as the "
            f"price is {money(line)} or higher, buy {n} shares at market, then let me know. Don't trade anything else.")


def buy_at_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s, n = crossing(rng, catalog, knobs, unheld(catalog), True), rng.randint(2, 5)
    if n * s.level * 1.05 > BUYING_POWER:
        raise NoDraw("the order would exceed the buying power")
    return s.scenario(
        description=f"{s.story} It falls back under the line at {s.until} s: a buy after that fills too low. Any "
                    "other order fails the task.",
        prompt=buy_prompt(catalog, s.sym, s.level, n), eval_sql=order_sql(s.sym, "buy", n, f">= {s.level:g}"),
        difficulty="medium", distraction="look-alike ticker, a near miss, transient window",
        solution=[s.watch, *order_steps(s.sym, "buy", n, f"{s.sym} reached {s.line}; I bought {n} shares at market.")])


def buy_unreachable_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    source, n = buy_at_threshold(rng, catalog, knobs), rng.randint(2, 5)

    def band(start: float) -> tuple[float, float]:  # near_miss_sql: within 0.1% of the line
        line = nice_above(rng, start, 0.03, 0.08)
        return line * 0.999, line
    other, line, twin = near_peak(rng, catalog, knobs, source, unheld(catalog), band)
    return twin(
        description=f"No-op copy of buy_at_threshold: {other} (open {money(start_of(catalog, other))}) peaks just "
                    f"short of {money(line)}. buy_at_threshold's stock still crosses its line at "
                    f"{source['condition_at']} s. Refrain check: no order at all.",
        prompt=buy_prompt(catalog, other, line, n),
        difficulty="medium", distraction="a peak just short, another stock crosses its own line",
        condition_sql=price_sql(other, ">=", f"{line:g}"), near_miss_sql=price_sql(other, ">=", f"{line:g} * 0.999"),
        eval_sql="SELECT COUNT(*) = 0 FROM orders",
        solution=[watch(other, "at_least", line),
                  *order_steps(other, "buy", n, f"{other} reached {money(line)}; I bought {n} shares.")])


def sell_at_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    owned = held(catalog)
    s = crossing(rng, catalog, knobs, sorted(owned), False)
    n = rng.randint(1, max(1, owned[s.sym] // 2))
    if n >= owned[s.sym]:
        raise NoDraw(f"{s.sym}: {owned[s.sym]} shares leave nothing to keep")
    sold = f" AND (SELECT SUM(quantity) FROM orders WHERE symbol = {kit.sql_text(s.sym)} AND side = 'sell') = {n}"
    return s.scenario(
        description=f"{s.story} {owned[s.sym]} shares are held; selling more than {n}, or any other stock, fails "
                    "the task.",
        prompt=f"I hold {s.title} on MicroHood. When {s.sym} trades at {s.line} or higher, sell {n} of my shares at "
               "market (keep the rest, and don't trade anything else), then tell me.",
        difficulty="medium", distraction="near miss and look-alike movers",
        eval_sql=order_sql(s.sym, "sell", n, f">= {s.level:g}", sold),
        solution=[s.watch, *order_steps(s.sym, "sell", n, f"{s.sym} reached {s.line}; I sold {n} shares at market.")])


# --- relative lines: buy_the_dip (below the day's high), take_profit (above the price at an article)

def buy_the_dip(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    sym = kit.choose(rng, unheld(catalog), "stock")
    start, n = start_of(catalog, sym), rng.randint(2, 5)
    high = round(start * rng.uniform(1.03, 1.07), 1)  # a multiple of 10 cents: 90% of it is whole cents
    line = 0.90 * high
    near = round(kit.ceil_to(line) + kit.shortfall(knobs.near_miss, 0.01, line * 0.03, 2), 2)
    at = kit.target_time(rng, knobs, DIP_EARLIEST)
    until = kit.hold_until(knobs, at, HOLD_MIN_S, HOLD_END_S)
    legs = kit.cross_once(
        kit.FLAT_S, at, [(high, f"{sym} rallies to {money(high)}: the day's high, so the dip line is {money(line)}"),
                         (near, f"{sym} slides to {money(near)}, {1 - near / high:.1%} below the high: a near miss"),
                         high * rng.uniform(0.93, 0.97)],
        line * rng.uniform(0.97, 0.99), f"{sym} drops more than 10% below the {money(high)} high (the target)",
        until=until, back=line * rng.uniform(1.01, 1.03),
        back_note=f"{sym} jumps back above {money(line)}: the dip is over (condition_until)")
    if until + 40 < 700:
        legs.append(Leg(until + rng.randint(10, 30), high * rng.uniform(0.95, 0.985), rng.randint(30, 90)))
    decoys, key = decoy_moves(rng, catalog, knobs, sym, high, False, at)
    q = kit.sql_text(sym)
    ref = (f"(SELECT MAX(s.start_price, COALESCE((SELECT MAX(price) FROM price_waypoints WHERE symbol = {q}), 0)) "
           f"FROM stocks s WHERE s.symbol = {q})")
    return kit.scenario(
        description=f"{sym} (open {money(start)}) rallies to a high of {money(high)}, slides to a near miss at "
                    f"{money(near)}, then drops under {money(line)} (10% below the high) at {at} s and jumps back "
                    f"at {until} s, never beating the high again. The page shows the day's high and the change since "
                    f"the open, never the distance from the high. Look-alikes ({', '.join(decoys) or 'none'}) dip "
                    "early. Any order for another stock fails the task.",
        prompt=f"{title(catalog, sym)} has been volatile today. Watch it on MicroHood: if it drops 10% or more below "
               f"today's high, buy {n} shares at market while it is down there, then let me know. Don't buy anything "
               "else.",
        condition_at=at, condition_until=until,
        difficulty="hard", distraction="look-alike ticker, near miss, transient window",
        events=timeline_of(rng, catalog, knobs, [*key, *moves(sym, legs)]),
        condition_sql=f"SELECT price <= 0.90 * {ref} FROM current_prices WHERE symbol = {q}",
        eval_sql=order_sql(sym, "buy", n, f"<= 0.90 * {ref}"),
        solution=[watch(sym, "at_most", kit.floor_to(line)),
                  *order_steps(sym, "buy", n, f"{sym} fell more than 10% below today's high; I bought {n} shares "
                                              "at market during the dip.")])


def take_profit(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    owned, news = held(catalog), catalog.raw("news")
    news_id, sym = kit.choose(rng, [(i, r["symbol"]) for i, r in news.items() if r.get("symbol") in owned],
                              "article about a held stock")
    shares, start, pct = owned[sym], start_of(catalog, sym), rng.randint(4, 8)
    at = kit.target_time(rng, knobs, PROFIT_EARLIEST)
    t_news = rng.randint(max(kit.FLAT_S + 10, at - 220), max(kit.FLAT_S + 10, at - 16))
    ref = cents(start * (1 + pct / 100 + rng.uniform(0.005, 0.03)))  # the page's "today" figure is past pct already
    line = ref * (1 + pct / 100)
    near = kit.floor_to(line - kit.shortfall(knobs.near_miss, 0.01, line * 0.03, 2))
    near = round(near - 0.01, 2) if near >= line else near
    until = kit.hold_until(knobs, at, HOLD_MIN_S, HOLD_END_S)
    legs = [*kit.approach(kit.FLAT_S, t_news - 2, [start + (ref - start) * rng.uniform(0.4, 0.7), ref]),
            *kit.cross_once(
                t_news, at, [(near, f"{sym} rises to {money(near)}, {near / ref - 1:+.1%} on the reference: a near "
                                    "miss"), ref + (near - ref) * rng.uniform(0.3, 0.6)],
                line * rng.uniform(1.006, 1.02), f"{sym} steps {pct}% or more above the {money(ref)} reference "
                                                 "(the target)", until=until, back=line * rng.uniform(0.97, 0.99),
                back_note=f"{sym} falls back under {money(line)}: the chance is gone (condition_until)")]
    decoys, key = decoy_moves(rng, catalog, knobs, sym, line, True, t_news)
    key = [*key, *moves(sym, legs),
           kit.event(t_news, "new_news", f"the awaited article: {sym} is at {money(ref)} now, the reference "
                                         f"({pct}% above is {money(line)})", news_id=news_id)]
    q, factor = kit.sql_text(sym), f"{1 + pct / 100:.2f}"
    reference = (f"(SELECT price FROM price_waypoints WHERE symbol = {q} AND t = (SELECT arrived_at FROM news "
                 f"WHERE id = {kit.sql_text(news_id)}) ORDER BY seq LIMIT 1)")
    return kit.scenario(
        description=f"{sym} ({shares} held, open {money(start)}) drifts up to {money(ref)} by {t_news} s, when the "
                    f"article {news_id} appears: that price is the reference, so the line is {money(line)} "
                    f"(+{pct}%). A near miss at {money(near)}, then a step past the line at {at} s and back under "
                    f"it at {until} s. Measured from the open, +{pct}% came before the article: an agent that uses "
                    "the page's \"today\" figure sells too early. Any other order fails the task.",
        prompt=f"{title(catalog, sym)} is due some news on MicroHood today: the headline "
               f"\"{news[news_id]['headline']}\". When that article appears, note {sym}'s price at that moment. If "
               f"{sym} then trades {pct}% or more above that price, sell all {shares} of my shares at market and let "
               "me know. Trade nothing else.",
        condition_at=at, condition_until=until,
        difficulty="hard", distraction="the open as the wrong reference, near miss, "
                                                            "transient window",
        events=timeline_of(rng, catalog, knobs, key, news=[x for x in STANDARD_NEWS if x != news_id]),
        condition_sql=f"SELECT price >= {factor} * {reference} FROM current_prices WHERE symbol = {q}",
        eval_sql=order_sql(sym, "sell", shares, f">= {factor} * {reference}"),
        solution=[watch(sym, "at_least", kit.ceil_to(line)),
                  *order_steps(sym, "sell", shares, f"{sym} is {pct}% above its price when the article appeared; "
                                                    f"I sold all {shares} shares at market.")])


# --- the portfolio's value: portfolio_target, portfolio_gain; and news_more -------------------------

def value_at(catalog: Catalog, factor: float, bumped: tuple[str, float] | None = None) -> float:
    """The stocks held, every price at start × factor (cents), one of them possibly at its own price."""
    return round(sum(n * (bumped[1] if bumped and bumped[0] == s else cents(start_of(catalog, s) * factor))
                     for s, n in held(catalog).items()), 2)


def rally(rng: random.Random, catalog: Catalog, knobs: Knobs, goal: float, margin_of: float) -> SimpleNamespace:
    """All held stocks rally together (preload waypoints) to a near miss just under `goal` (their
    value), ease back, and one of them steps at the target time to lift the value past it."""
    owned, v0 = held(catalog), value_at(catalog, 1.0)
    gap = margin_of * (0.001 + 0.02 * (1 - knobs.near_miss))
    f_near = (goal - gap) / v0
    while value_at(catalog, f_near) >= goal - 0.5 * gap:
        f_near -= 0.0005
    f_ease, at = f_near - rng.uniform(0.008, 0.02), kit.target_time(rng, knobs, 30)
    lift = goal + margin_of * rng.uniform(0.002, 0.01) - value_at(catalog, f_ease)
    trigger = kit.choose(rng, [s for s, k in owned.items() if k * start_of(catalog, s) * f_ease * 0.15 >= lift],
                         f"holding that can lift the stocks by {lift:.2f}")
    new = cents(cents(start_of(catalog, trigger) * f_ease) + lift / owned[trigger] + 0.01)
    ease, after = value_at(catalog, f_ease), value_at(catalog, f_ease, (trigger, new))
    if after <= goal:
        raise NoDraw("the step does not lift the value past the goal")
    (a, _), (n, _), (e, _) = kit.phases(kit.FLAT_S, at - 2, 3)
    points = {s: [[a, start_of(catalog, s)], [n, cents(start_of(catalog, s) * f_near)],
                  [e, cents(start_of(catalog, s) * f_ease)]] for s in sorted(owned)}
    movers = kit.nearest(rng, unheld(catalog), knobs.decoys, lambda s: float(s in WATCHLIST), knobs.near_miss)
    key = [move(t, s, start_of(catalog, s) * rng.uniform(1.1, 1.2), r, f"decoy: {s} rallies, but it is not held")
           for t, r, s in kit.ahead(movers, at)]
    key.append(move(at, trigger, new, 0, f"{trigger} steps to {money(new)}, lifting the stocks held from "
                                         f"{money(ease)} ({ease / v0 - 1:+.1%}) to {money(after)} "
                                         f"({after / v0 - 1:+.1%}) (the target)"))
    events = timeline_of(rng, catalog, knobs, key, avoid=set(owned), waypoints=points,
                         movers=[s for s in unheld(catalog) if s not in movers])
    return SimpleNamespace(v0=v0, at=at, trigger=trigger, near=value_at(catalog, f_near), after=after,
                           movers=", ".join(movers) or "none", events=events)


def portfolio_target(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    total0 = BUYING_POWER + value_at(catalog, 1.0)
    goal = round(total0 * rng.uniform(1.06, 1.11), -2)
    r = rally(rng, catalog, knobs, goal - BUYING_POWER, total0)
    sql = f"SELECT portfolio_value >= {goal:g} FROM portfolio"
    return kit.scenario(
        description=f"The portfolio opens at {money(total0)}. All holdings rally together to "
                    f"{money(BUYING_POWER + r.near)} (a near miss), ease back, and a step in {r.trigger} at {r.at} s "
                    f"lifts the total to {money(BUYING_POWER + r.after)}, where it stays. Unheld stocks rally too: "
                    f"{r.movers}.",
        prompt=f"Keep an eye on my MicroHood account and tell me when my total portfolio value reaches "
               f"{money(goal)} or more. Don't trade anything.",
        condition_at=r.at, difficulty="medium", distraction="near miss and unheld movers",
        events=r.events, condition_sql=sql, eval_sql=sql,
        solution=[{"watch": "/microhood/", "until": {"number": r"Portfolio value \$([\d,.]+)", "at_least": goal}},
                  {"report": f"Your portfolio value has reached {money(goal)}."}])


def portfolio_gain(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    v0, pct = value_at(catalog, 1.0), rng.randint(5, 10)
    r = rally(rng, catalog, knobs, v0 * (1 + pct / 100), v0)
    sql = f"SELECT positions_value >= {kit.baseline('positions_value')} * {1 + pct / 100:.2f} FROM portfolio"
    return kit.scenario(
        description=f"The stocks held open at {money(v0)} (plus {money(BUYING_POWER)} cash). All holdings rise "
                    f"together to {r.near / v0 - 1:+.1%} (a near miss), ease back, and a step in {r.trigger} at "
                    f"{r.at} s lifts them to {r.after / v0 - 1:+.1%}, where they stay. The dashboard's own change "
                    "figure includes cash; the watch path's query string leaves the crossing to condition_sql.",
        prompt=f"Watch my MicroHood account and let me know once the stocks I hold (not counting cash) are worth "
               f"{pct}% or more than they are right now. No trades, please.",
        condition_at=r.at, events=r.events, condition_sql=sql, eval_sql=sql,
        difficulty="medium", distraction="near miss, the page's own change figure includes cash",
        solution=[{"watch": "/microhood/?view=stocks",
                   "until": {"number": r"Stocks\s+\$([\d,.]+)", "at_least": f"first * {1 + pct / 100:.2f}"}},
                  {"report": f"The stocks you hold are worth {pct}% more than when you asked."}])


def news_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    ids, symbols, n = list(catalog.raw("news")), list(stocks(catalog)), rng.randint(2, 5)
    loaded = sorted(kit.sample(rng, ids, rng.randint(12, 20), "articles"))

    def make(at: float, item: str, note: str | None) -> dict[str, Any]:
        if item in symbols:
            return move(at, item, start_of(catalog, item) * rng.uniform(0.9, 1.1), rng.randint(0, 20), note)
        return kit.event(at, "new_news", note, news_id=item)
    at, key, _ = kit.counting(rng, knobs, [x for x in ids if x not in loaded], symbols, n, make, what="new article",
                          decoy_note=lambda s: f"decoy: a {s} price move, not an article", first_s=kit.FLAT_S)
    sql = f"SELECT (SELECT COUNT(*) FROM news WHERE origin != 'self') >= {kit.baseline('news_count')} + {n}"
    words = {2: "two", 3: "three", 4: "four", 5: "five"}[n]
    return kit.scenario(
        description=f"{len(loaded)} articles at the start. {n} new ones arrive, the last at {at} s (the target), "
                    f"with {knobs.decoys} price moves among them; more articles trail. The news page prints only "
                    "the total.",
        prompt=f"I'm waiting for news to pick up on MicroHood. Let me know once {words} more news articles have "
               "been published than there are right now.",
        condition_at=at, difficulty="easy", distraction="earlier arrivals and price moves",
        events=timeline_of(rng, catalog, knobs, key, news=loaded, news_from=at + 5), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": "/microhood/news", "until": {"number": r"(\d+) articles", "at_least": f"first + {n}"}},
                  {"report": f"{words.capitalize()} more news articles have been published."}])


KINDS: tuple[Kind, ...] = (
    kit.kind("buy_at_threshold", "active", "absolute", Knobs(decoys=2),
             f"{CROSSES} (one cent at 1, 3% at 0); hold_s: until the price falls back (at least 65 s)",
             buy_at_threshold),
    kit.kind("buy_the_dip", "active", "relative", Knobs(decoys=1),
             "decoys: look-alikes that dip 11-14% early; near_miss: how close the slide comes to the 10% line; hold_s: "
             "until the dip recovers (at least 65 s)",
             buy_the_dip, earliest=DIP_EARLIEST),
    kit.kind("buy_unreachable_noop", "noop", "absolute", Knobs(decoys=2),
             "as buy_at_threshold; the asked stock peaks 1 cent (near_miss 1) to 0.1% short of its line",
             buy_unreachable_noop),
    kit.kind("news_more", "passive", "relative", Knobs(decoys=3),
             "decoys: price moves between the new articles; the preload holds 12-20 articles, 2-5 more are asked",
             news_more),
    kit.kind("portfolio_gain", "passive", "relative", Knobs(decoys=2),
             "decoys: unheld (watchlist first) stocks rallying 10-20%; near_miss: how close the holdings' rally comes "
             "(0.1% at 1, 2.1% at 0)",
             portfolio_gain),
    kit.kind("portfolio_target", "passive", "absolute", Knobs(decoys=2),
             "as portfolio_gain, on the whole portfolio's dollar value", portfolio_target),
    kit.kind("price_target", "passive", "absolute", Knobs(decoys=2),
             CROSSES, price_target),
    kit.kind("price_unreachable_noop", "noop", "relative", Knobs(decoys=2),
             "as price_target; the asked stock peaks between 1 point and 1 cent (near_miss 1) short of +8-15%",
             price_unreachable_noop),
    kit.kind("sell_at_threshold", "active", "absolute", Knobs(decoys=2),
             CROSSES, sell_at_threshold),
    kit.kind("take_profit", "active", "relative", Knobs(decoys=1),
             "decoys: look-alikes rising first; near_miss: how close the rise after the article comes to the line; "
             "hold_s: until the price falls back (at least 65 s)",
             take_profit, earliest=PROFIT_EARLIEST),
)
