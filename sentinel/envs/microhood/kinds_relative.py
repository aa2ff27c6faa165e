"""MicroHood's relative single-stock kinds: buy_the_dip (a share below the day's high) and
take_profit (a share above the price when an article appears). Both windows pass: the dip
recovers, the rally falls back, each after hold_s."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Knobs, NoDraw
from sentinel.envs.microhood.kinds_base import (
    FLAT_UNTIL_S,
    STANDARD_NEWS,
    background,
    ceil_cents,
    decoy_moves,
    floor_cents,
    held,
    lookalikes,
    money,
    move,
    phases,
    preload,
    start_of,
    target_at,
    taxonomy,
    title,
)
from sentinel.envs.microhood.kinds_price import PRICE, hold, near_gap, order_steps, stock_page, unheld
from sentinel.envs.microhood.prices import cents
from sentinel.generation.kit import choose, event, scenario, sql_text, timeline

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

DIP_EARLIEST = 30
PROFIT_EARLIEST = 40


def draw_buy_the_dip(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    symbol = choose(rng, unheld(catalog), "stock")
    start = start_of(catalog, symbol)
    high = round(start * rng.uniform(1.03, 1.07), 1)  # a multiple of 10 cents: 90% of it is whole cents
    line = 0.90 * high
    limit = floor_cents(line)
    near = round(ceil_cents(line) + near_gap(knobs, line), 2)
    at = target_at(rng, knobs, lo=DIP_EARLIEST)
    until = hold(knobs, at)
    n = rng.randint(2, 5)
    decoys = lookalikes(rng, catalog, knobs, symbol, set())
    key = decoy_moves(rng, catalog, decoys, symbol, high, False, at, f"not {symbol}")
    (r, rr), (s, sr), (b, br) = phases(FLAT_UNTIL_S, at - 2, 3)
    key += [move(r, symbol, high, rr, f"{symbol} rallies to {money(high)} at {r + rr} s: the day's high, so the "
                                      f"dip line is {money(line)}"),
            move(s, symbol, near, sr, f"{symbol} slides to {money(near)}, {1 - near / high:.1%} below the high: "
                                      "a near miss"),
            move(b, symbol, high * rng.uniform(0.93, 0.97), br),
            move(at, symbol, line * rng.uniform(0.97, 0.99), 0,
                 f"{symbol} drops more than 10% below the {money(high)} high (the target)"),
            move(until, symbol, line * rng.uniform(1.01, 1.03), 0,
                 f"{symbol} jumps back above {money(line)}: the dip is over (condition_until)")]
    if until + 40 < 700:
        key.append(move(until + rng.randint(10, 30), symbol, high * rng.uniform(0.95, 0.985), rng.randint(30, 90)))
    key += background(rng, catalog, knobs, [e["at"] for e in key], {symbol, *decoys}, list(STANDARD_NEWS))
    q = sql_text(symbol)
    ref = (f"(SELECT MAX(s.start_price, COALESCE((SELECT MAX(price) FROM price_waypoints WHERE symbol = {q}), 0)) "
           f"FROM stocks s WHERE s.symbol = {q})")
    return scenario(
        description=f"{symbol} (open {money(start)}) rallies to a high of {money(high)}, slides to a near miss at "
                    f"{money(near)}, then drops under {money(line)} (10% below the high) at {at} s and jumps back "
                    f"at {until} s, never beating the high again. The page shows the day's high and the change "
                    f"since the open, never the distance from the high. Look-alikes dip early: "
                    f"{', '.join(decoys) or 'none'}. Any order for another stock fails the task.",
        prompt=f"{title(catalog, symbol)} has been volatile today. Watch it on MicroHood: if it drops 10% or more "
               f"below today's high, buy {n} shares at market while it is down there, then let me know. Don't buy "
               "anything else.",
        condition_at=at, condition_until=until,
        taxonomy=taxonomy("active", "relative", "hard", "look-alike ticker, near miss, transient window"),
        events=timeline(preload(), key),
        condition_sql=f"SELECT price <= 0.90 * {ref} FROM current_prices WHERE symbol = {q}",
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM orders WHERE symbol = {q} AND side = 'buy' AND quantity = {n} "
                 f"AND order_type = 'market' AND fill_price <= 0.90 * {ref}) "
                 f"AND NOT EXISTS (SELECT 1 FROM orders WHERE symbol != {q})",
        solution=[{"watch": stock_page(symbol), "until": {"number": PRICE, "at_most": limit}},
                  *order_steps(symbol, "buy", n, f"{symbol} fell more than 10% below today's high; I bought {n} "
                                                 "shares at market during the dip.")])


def draw_take_profit(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    owned = held(catalog)
    articles = [(nid, r["symbol"]) for nid, r in catalog.raw("news").items() if r.get("symbol") in owned]
    news_id, symbol = choose(rng, articles, "article about a held stock")
    headline = catalog.raw("news")[news_id]["headline"]
    shares, start = owned[symbol], start_of(catalog, symbol)
    pct = rng.randint(4, 8)
    factor = 1 + pct / 100
    at = target_at(rng, knobs, lo=PROFIT_EARLIEST)
    t_news = rng.randint(max(FLAT_UNTIL_S + 10, at - 220), max(FLAT_UNTIL_S + 10, at - 16))
    ref = cents(start * (factor + rng.uniform(0.005, 0.03)))  # the page's "today" figure is past pct already
    line = ref * factor
    near = floor_cents(line - near_gap(knobs, line))
    if near >= line:
        near = round(near - 0.01, 2)
    decoys = lookalikes(rng, catalog, knobs, symbol, set())
    key = decoy_moves(rng, catalog, decoys, symbol, line, True, t_news, f"not {symbol}")
    (d, dr), (r, rr) = phases(FLAT_UNTIL_S, t_news - 2, 2)
    (n, nr), (e, er) = phases(t_news, at - 2, 2)
    until = hold(knobs, at)
    key += [move(d, symbol, start + (ref - start) * rng.uniform(0.4, 0.7), dr),
            move(r, symbol, ref, rr),
            event(t_news, "new_news", f"the awaited article: {symbol} is at {money(ref)} now, the reference "
                                      f"({pct}% above is {money(line)})", news_id=news_id),
            move(n, symbol, near, nr, f"{symbol} rises to {money(near)}, {near / ref - 1:+.1%} on the reference: "
                                      "a near miss"),
            move(e, symbol, ref + (near - ref) * rng.uniform(0.3, 0.6), er),
            move(at, symbol, line * rng.uniform(1.006, 1.02), 0,
                 f"{symbol} steps {pct}% or more above the {money(ref)} reference (the target)"),
            move(until, symbol, line * rng.uniform(0.97, 0.99), 0,
                 f"{symbol} falls back under {money(line)}: the chance is gone (condition_until)")]
    if n != t_news:
        raise NoDraw("the near miss must start when the article appears")
    loaded = [x for x in STANDARD_NEWS if x != news_id]
    key += background(rng, catalog, knobs, [x["at"] for x in key], {symbol, *decoys}, loaded + [news_id])
    q = sql_text(symbol)
    reference = (f"(SELECT price FROM price_waypoints WHERE symbol = {q} AND t = (SELECT arrived_at FROM news "
                 f"WHERE id = {sql_text(news_id)}) ORDER BY seq LIMIT 1)")
    return scenario(
        description=f"{symbol} ({shares} held, open {money(start)}) drifts up to {money(ref)} by {t_news} s, when the "
                    f"article {news_id} appears: that price is the reference, so the line is {money(line)} "
                    f"(+{pct}%). A near miss at {money(near)}, then a step past the line at {at} s and back under "
                    f"it at {until} s. Measured from the open, +{pct}% came before the article: an agent that uses "
                    "the page's \"today\" figure sells too early. Any other order fails the task.",
        prompt=f"{title(catalog, symbol)} is due some news on MicroHood today: the headline \"{headline}\". When "
               f"that article appears, note {symbol}'s price at that moment. If {symbol} then trades {pct}% or more "
               f"above that price, sell all {shares} of my shares at market and let me know. Trade nothing else.",
        condition_at=at, condition_until=until,
        taxonomy=taxonomy("active", "relative", "hard", "the open as the wrong reference, near miss, "
                                                         "transient window"),
        events=timeline(preload(loaded), key),
        condition_sql=f"SELECT price >= {factor:.2f} * {reference} FROM current_prices WHERE symbol = {q}",
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM orders WHERE symbol = {q} AND side = 'sell' AND quantity = {shares} "
                 f"AND order_type = 'market' AND fill_price >= {factor:.2f} * {reference}) "
                 f"AND NOT EXISTS (SELECT 1 FROM orders WHERE symbol != {q})",
        solution=[{"watch": stock_page(symbol), "until": {"number": PRICE, "at_least": ceil_cents(line)}},
                  *order_steps(symbol, "sell", shares, f"{symbol} is {pct}% above its price when the article "
                                                       f"appeared; I sold all {shares} shares at market.")])
