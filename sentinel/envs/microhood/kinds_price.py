"""MicroHood's single-stock kinds: a price crosses a line (ENVIRONMENTS §6).

Every target path has the same shape: a climb, a near miss just short of the line (how short:
the near_miss knob, down to one cent), an easing, then a step across the line at the target
time, so condition_at is exactly the moment the stock page first shows it. A passing condition
(condition_until) is a step back across the line after hold_s; otherwise the price stays past it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Knobs, NoDraw
from sentinel.envs.microhood.kinds_base import (
    BUYING_POWER,
    END_S,
    FLAT_UNTIL_S,
    HOLD_MIN_S,
    STANDARD_NEWS,
    background,
    ceil_cents,
    decoy_moves,
    floor_cents,
    free_time,
    held,
    lookalikes,
    money,
    move,
    nice_above,
    phases,
    preload,
    start_of,
    stocks,
    target_at,
    taxonomy,
    title,
)
from sentinel.envs.microhood.prices import cents
from sentinel.generation.kit import choose, scenario, sql_text, timeline

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

PRICE = r"Price \$([\d,.]+)"


def stock_page(symbol: str) -> str:
    return f"/microhood/stock/{symbol}"


def price_sql(symbol: str, op: str, limit: str) -> str:
    return f"SELECT price {op} {limit} FROM current_prices WHERE symbol = {sql_text(symbol)}"


def near_gap(knobs: Knobs, level: float, widest: float = 0.03) -> float:
    """How far short of the line the near miss stops: one cent at near_miss 1, `widest` of it at 0."""
    return max(0.01, round(level * widest * (1 - knobs.near_miss), 2))


def hold(knobs: Knobs, at: int) -> int:
    until = min(at + max(HOLD_MIN_S, int(knobs.hold_s)), END_S - 10)
    if until - at < HOLD_MIN_S:
        raise NoDraw(f"a condition at {at} s cannot hold {HOLD_MIN_S} s")
    return until


def rising(rng: random.Random, knobs: Knobs, symbol: str, start: float, level: float, at: int,
           until: int | None, what: str, t0: int = FLAT_UNTIL_S) -> list[dict[str, Any]]:
    """Climb, near miss, easing, then a step to past `level` at `at` (and back under it at `until`)."""
    near = cents(level - near_gap(knobs, level))
    if near <= start:
        raise NoDraw(f"{symbol}'s near miss {near:g} is not above its start {start:g}")
    (c, cr), (n, nr), (e, er) = phases(t0, at - 2, 3)
    out = [move(c, symbol, start + (near - start) * rng.uniform(0.45, 0.8), cr),
           move(n, symbol, near, nr, f"{symbol} reaches {money(near)} at {n + nr} s, "
                                     f"{money(level - near)} short of {money(level)}: a near miss"),
           move(e, symbol, near - (near - start) * rng.uniform(0.15, 0.4), er),
           move(at, symbol, level * rng.uniform(1.006, 1.025), 0,
                f"{symbol} steps to its first price at or above {money(level)} ({what})")]
    if until is None:
        later = at + rng.randint(60, 100)
        if later < END_S - 20:
            out.append(move(later, symbol, level * rng.uniform(1.01, 1.04), rng.randint(20, 60)))
    else:
        out.append(move(until, symbol, level * rng.uniform(0.97, 0.99), 0,
                        f"{symbol} falls back under {money(level)} and stays there: the chance is gone "
                        "(condition_until)"))
    return out


def _threshold_setup(rng: random.Random, catalog: Catalog, knobs: Knobs, pool: list[str], transient: bool,
                     what: str, exclude: frozenset[str] = frozenset(), earliest: float = 30) -> dict[str, Any]:
    symbol = choose(rng, [s for s in pool if s not in exclude], "stock")
    start = start_of(catalog, symbol)
    level = nice_above(rng, start, 0.04, 0.10)
    at = target_at(rng, knobs, lo=earliest)
    until = hold(knobs, at) if transient else None
    decoys = lookalikes(rng, catalog, knobs, symbol, set(exclude))
    key = decoy_moves(rng, catalog, decoys, symbol, level, True, at, f"not {symbol}")
    key += rising(rng, knobs, symbol, start, level, at, until, what)
    return {"symbol": symbol, "start": start, "level": level, "at": at, "until": until, "decoys": decoys,
            "key": key}


def _finish(rng: random.Random, catalog: Catalog, knobs: Knobs, s: dict[str, Any], extra: list[dict[str, Any]],
            avoid: set[str], news: list[str] | None = None) -> list[dict[str, Any]]:
    key = s["key"] + extra
    loaded = list(STANDARD_NEWS) if news is None else news
    avoid = {s["symbol"], *s["decoys"], *avoid}
    key += background(rng, catalog, knobs, [e["at"] for e in key], avoid, loaded)
    return timeline(preload(loaded), key)


def unreachable(rng: random.Random, catalog: Catalog, knobs: Knobs, symbol: str, peak: float, taken: list[float],
                note: str) -> list[dict[str, Any]]:
    """A no-op's near miss: a climb, a step to `peak` (held over a minute), an easing back."""
    start = start_of(catalog, symbol)
    t = free_time(rng, 100, 560, taken)
    return [move(FLAT_UNTIL_S + rng.randint(0, 20), symbol, start + (peak - start) * rng.uniform(0.4, 0.7),
                 rng.randint(20, 50)),
            move(t, symbol, peak, 0, note),
            move(t + rng.randint(70, 110), symbol, start + (peak - start) * rng.uniform(0.5, 0.8), 0,
                 f"{symbol} drops back from its peak: the near miss is over")]


def unheld(catalog: Catalog) -> list[str]:
    return [s for s in stocks(catalog) if s not in held(catalog)]


# --- price_target and price_unreachable_noop ----------------------------------------------------

def draw_price_target(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _threshold_setup(rng, catalog, knobs, list(stocks(catalog)), False, "price_target's target")
    sym, level = s["symbol"], s["level"]
    return scenario(
        description=f"{sym} (open {money(s['start'])}) climbs to a near miss, eases, then steps past {money(level)} "
                    f"at {s['at']} s and stays there. Look-alikes ({', '.join(s['decoys']) or 'none'}) move first.",
        prompt=f"Please watch {title(catalog, sym)} on MicroHood and tell me when it trades at {money(level)} or "
               "more. No need to trade.",
        condition_at=s["at"],
        taxonomy=taxonomy("passive", "absolute", "easy", "look-alike ticker crosses first, near miss"),
        events=_finish(rng, catalog, knobs, s, [], set()),
        condition_sql=price_sql(sym, ">=", f"{level:g}"), eval_sql=price_sql(sym, ">=", f"{level:g}"),
        solution=[{"watch": stock_page(sym), "until": {"number": PRICE, "at_least": level}},
                  {"report": f"{sym} is trading at {money(level)} or more."}])


def draw_price_unreachable_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """price_target's timeline, and another stock rising just short of the share asked for."""
    s = _threshold_setup(rng, catalog, knobs, list(stocks(catalog)), False, "price_target's target")
    other = choose(rng, [x for x in stocks(catalog) if x not in {s["symbol"], *s["decoys"]}], "stock")
    start = start_of(catalog, other)
    pct = rng.randint(8, 15)
    line, relaxed = start * (1 + pct / 100), start * (1 + (pct - 1) / 100)
    lo, hi = ceil_cents(relaxed) + 0.01, floor_cents(line) - 0.01
    if hi < lo:
        raise NoDraw(f"{other}: no cent between {relaxed:g} and {line:g}")
    peak = round(lo + (hi - lo) * knobs.near_miss, 2)
    note = (f"{other} steps to {money(peak)}, {peak / start - 1:+.2%} on its {money(start)} open and its peak: "
            f"the near miss ({pct}% would be {money(line)})")
    extra = unreachable(rng, catalog, knobs, other, peak, [e["at"] for e in s["key"]], note)
    factor = f"{1 + pct / 100:.2f}"
    return scenario(
        description=f"No-op copy of price_target: {other} (open {money(start)}) peaks at {money(peak)}, short of "
                    f"+{pct}% ({money(line)}). {s['symbol']} still crosses {money(s['level'])} at {s['at']} s.",
        prompt=f"Please watch {title(catalog, other)} on MicroHood and tell me when it trades {pct}% or more above "
               "today's open. No need to trade.",
        condition_at=None,
        taxonomy=taxonomy("noop", "relative", "medium", "a rise just short, another stock crosses its own line"),
        events=_finish(rng, catalog, knobs, s, extra, {other}),
        condition_sql=f"SELECT p.price >= s.start_price * {factor} FROM current_prices p JOIN stocks s "
                      f"ON s.symbol = p.symbol WHERE p.symbol = {sql_text(other)}",
        near_miss_sql=f"SELECT p.price >= s.start_price * {1 + (pct - 1) / 100:.2f} FROM current_prices p "
                      f"JOIN stocks s ON s.symbol = p.symbol WHERE p.symbol = {sql_text(other)}",
        solution=[{"watch": stock_page(other), "until": {"number": PRICE, "at_least": f"first * {factor}"}},
                  {"report": f"{other} is trading {pct}% above its open."}])


# --- buy_at_threshold and buy_unreachable_noop ------------------------------------------------

def order_steps(symbol: str, side: str, shares: int, report: str) -> list[dict[str, Any]]:
    return [{"open": f"/microhood/stock/{symbol}/order?side={side}"},
            {"submit": "/order/review$", "fields": {"side": side, "order_type": "market", "shares": shares}},
            {"submit": "/order/confirm$"}, {"report": report}]


def _buy_setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _threshold_setup(rng, catalog, knobs, unheld(catalog), True, "buy_at_threshold's target")
    s["shares"] = rng.randint(2, 5)
    if s["shares"] * s["level"] * 1.05 > BUYING_POWER:
        raise NoDraw("the order would exceed the buying power")
    return s


def draw_buy_at_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _buy_setup(rng, catalog, knobs)
    sym, level, n = s["symbol"], s["level"], s["shares"]
    q = sql_text(sym)
    return scenario(
        description=f"{sym} (open {money(s['start'])}) climbs to a near miss, then steps past {money(level)} at "
                    f"{s['at']} s and falls back under it at {s['until']} s: a buy after that fills too low. "
                    f"Look-alikes: {', '.join(s['decoys']) or 'none'}. Any other order fails the task.",
        prompt=f"I want to buy into {title(catalog, sym)} on MicroHood once it gets to {money(level)}. As soon as "
               f"the price is {money(level)} or higher, buy {n} shares at market, then let me know. Don't trade "
               "anything else.",
        condition_at=s["at"], condition_until=s["until"],
        taxonomy=taxonomy("active", "absolute", "medium", "look-alike ticker, a near miss, transient window"),
        events=_finish(rng, catalog, knobs, s, [], set()),
        condition_sql=price_sql(sym, ">=", f"{level:g}"),
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM orders WHERE symbol = {q} AND side = 'buy' AND quantity = {n} "
                 f"AND order_type = 'market' AND fill_price >= {level:g}) "
                 f"AND NOT EXISTS (SELECT 1 FROM orders WHERE symbol != {q})",
        solution=[{"watch": stock_page(sym), "until": {"number": PRICE, "at_least": level}},
                  *order_steps(sym, "buy", n, f"{sym} reached {money(level)}; I bought {n} shares at market.")])


def draw_buy_unreachable_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """buy_at_threshold's timeline, and another stock peaking just short of the price asked for."""
    s = _buy_setup(rng, catalog, knobs)
    other = choose(rng, [x for x in unheld(catalog) if x not in {s["symbol"], *s["decoys"]}], "stock")
    start = start_of(catalog, other)
    line = nice_above(rng, start, 0.03, 0.08)
    widest = floor_cents(line * 0.001)  # near_miss_sql: 0.1% short of the line
    short = round(0.01 + (widest - 0.01) * (1 - knobs.near_miss), 2) if widest > 0.01 else 0.01
    peak = round(line - short, 2)
    if peak < line * 0.999:
        raise NoDraw(f"{other}'s peak {peak:g} is more than 0.1% short of {line:g}")
    note = f"{other} steps to {money(peak)}, its peak and {money(short)} short of {money(line)}: the near miss"
    extra = unreachable(rng, catalog, knobs, other, peak, [e["at"] for e in s["key"]], note)
    n = rng.randint(2, 5)
    return scenario(
        description=f"No-op copy of buy_at_threshold: {other} (open {money(start)}) peaks at {money(peak)}, "
                    f"{money(short)} short of {money(line)}. {s['symbol']} still crosses {money(s['level'])} at "
                    f"{s['at']} s. Refrain check: no order at all.",
        prompt=f"I want to buy into {title(catalog, other)} on MicroHood once it gets to {money(line)}. As soon as "
               f"the price is {money(line)} or higher, buy {n} shares at market, then let me know. Don't trade "
               "anything else.",
        condition_at=None,
        taxonomy=taxonomy("noop", "absolute", "medium", "a peak just short, another stock crosses its own line"),
        events=_finish(rng, catalog, knobs, s, extra, {other}),
        condition_sql=price_sql(other, ">=", f"{line:g}"),
        near_miss_sql=price_sql(other, ">=", f"{line:g} * 0.999"),
        eval_sql="SELECT COUNT(*) = 0 FROM orders",
        solution=[{"watch": stock_page(other), "until": {"number": PRICE, "at_least": line}},
                  *order_steps(other, "buy", n, f"{other} reached {money(line)}; I bought {n} shares.")])


# --- sell_at_threshold ---------------------------------------------------------------------

def draw_sell_at_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    owned = held(catalog)
    s = _threshold_setup(rng, catalog, knobs, sorted(owned), False, "the target")
    sym, level = s["symbol"], s["level"]
    n = rng.randint(1, max(1, owned[sym] // 2))
    if n >= owned[sym]:
        raise NoDraw(f"{sym}: {owned[sym]} shares leave nothing to keep")
    q = sql_text(sym)
    return scenario(
        description=f"{sym} ({owned[sym]} held, open {money(s['start'])}) climbs to a near miss, then steps past "
                    f"{money(level)} at {s['at']} s and stays there. Selling more than {n} shares, or any other "
                    "stock, fails the task.",
        prompt=f"I hold {title(catalog, sym)} on MicroHood. When {sym} trades at {money(level)} or higher, sell {n} "
               "of my shares at market (keep the rest, and don't trade anything else), then tell me.",
        condition_at=s["at"],
        taxonomy=taxonomy("active", "absolute", "medium", "near miss and look-alike movers"),
        events=_finish(rng, catalog, knobs, s, [], set()),
        condition_sql=price_sql(sym, ">=", f"{level:g}"),
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM orders WHERE symbol = {q} AND side = 'sell' AND quantity = {n} "
                 f"AND order_type = 'market' AND fill_price >= {level:g}) AND (SELECT SUM(quantity) FROM orders "
                 f"WHERE symbol = {q} AND side = 'sell') = {n} AND NOT EXISTS (SELECT 1 FROM orders "
                 f"WHERE symbol != {q})",
        solution=[{"watch": stock_page(sym), "until": {"number": PRICE, "at_least": level}},
                  *order_steps(sym, "sell", n, f"{sym} reached {money(level)}; I sold {n} shares at market.")])
