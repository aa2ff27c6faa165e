"""MicroHood's ten scenario kinds (ENVIRONMENTS §6): the authored scenarios made into templates.

The single-stock kinds live in kinds_price.py (absolute lines) and kinds_relative.py (the dip
and take-profit); this module holds the portfolio kinds, news_more and KINDS. Knobs: `decoys`
look-alike tickers (or unheld movers, or price moves between articles) before the target,
`near_miss` how close the near miss comes (one cent, or 0.1% of the portfolio, at 1),
`hold_s` how long a passing window lasts (at least 65 s), `density` background articles and
price moves per sim minute.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.envs.microhood.kinds_base import (
    BUYING_POWER,
    END_S,
    FLAT_UNTIL_S,
    STANDARD_NEWS,
    WATCHLIST,
    background,
    held,
    money,
    move,
    phases,
    preload,
    start_of,
    stocks,
    target_at,
    taxonomy,
)
from sentinel.envs.microhood.kinds_price import (
    draw_buy_at_threshold,
    draw_buy_unreachable_noop,
    draw_price_target,
    draw_price_unreachable_noop,
    draw_sell_at_threshold,
    unheld,
)
from sentinel.envs.microhood.kinds_relative import (
    DIP_EARLIEST,
    PROFIT_EARLIEST,
    draw_buy_the_dip,
    draw_take_profit,
)
from sentinel.envs.microhood.prices import cents
from sentinel.generation.kit import event, nearest, sample, scenario, timeline, times_between

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

# --- portfolio_target and portfolio_gain --------------------------------------------------------


def value_at(catalog: Catalog, factor: float, bumped: tuple[str, float] | None = None) -> float:
    """The stocks held, every price at start × factor (cents), one of them possibly at its own price."""
    total = 0.0
    for symbol, shares in held(catalog).items():
        price = bumped[1] if bumped and bumped[0] == symbol else cents(start_of(catalog, symbol) * factor)
        total += shares * price
    return round(total, 2)


def _rally(rng: random.Random, catalog: Catalog, knobs: Knobs, goal: float, margin_of: float) -> dict[str, Any]:
    """All held stocks rally together to a near miss just under `goal` (stocks' value), ease back,
    and one of them steps at the target time to lift the value past it. Unheld movers distract."""
    owned = held(catalog)
    v0 = value_at(catalog, 1.0)
    gap = margin_of * (0.001 + 0.02 * (1 - knobs.near_miss))
    f_near = (goal - gap) / v0
    while value_at(catalog, f_near) >= goal - 0.5 * gap:
        f_near -= 0.0005
    f_ease = f_near - rng.uniform(0.008, 0.02)
    at = target_at(rng, knobs, lo=30)
    (a, _), (n, _), (e, _) = phases(FLAT_UNTIL_S, at - 2, 3)
    lift = goal + margin_of * rng.uniform(0.002, 0.01) - value_at(catalog, f_ease)
    bigger = [s for s, k in owned.items() if k * start_of(catalog, s) * f_ease * 0.15 >= lift]
    if not bigger:
        raise NoDraw(f"no holding can lift the stocks by {lift:.2f}")
    trigger = bigger[rng.randrange(len(bigger))]
    old = cents(start_of(catalog, trigger) * f_ease)
    new = cents(old + lift / owned[trigger] + 0.01)
    if value_at(catalog, f_ease, (trigger, new)) <= goal:
        raise NoDraw("the step does not lift the value past the goal")
    points = {s: [[a, start_of(catalog, s)], [n, cents(start_of(catalog, s) * f_near)],
                  [e, cents(start_of(catalog, s) * f_ease)]] for s in sorted(owned)}
    movers = nearest(rng, unheld(catalog), knobs.decoys, lambda s: float(s in WATCHLIST), knobs.near_miss)
    slots = phases(2, max(2 + 3 * len(movers), at - 2), len(movers)) if movers else []
    key = [move(t, s, start_of(catalog, s) * rng.uniform(1.1, 1.2), r,
                f"decoy: {s} rallies, but it is not held") for (t, r), s in zip(slots, movers, strict=True)]
    return {"v0": v0, "at": at, "points": points, "trigger": trigger, "old": old, "new": new, "key": key,
            "near": value_at(catalog, f_near), "ease": value_at(catalog, f_ease), "movers": movers,
            "after": value_at(catalog, f_ease, (trigger, new))}


def _events(rng: random.Random, catalog: Catalog, knobs: Knobs, r: dict[str, Any], note: str) -> list[dict[str, Any]]:
    key = [*r["key"], move(r["at"], r["trigger"], r["new"], 0, note)]
    later = r["at"] + rng.randint(60, 120)
    if later < END_S - 30:
        key.append(move(later, r["trigger"], r["new"] * rng.uniform(1.005, 1.02), rng.randint(20, 60)))
    movers = [s for s in unheld(catalog) if s not in r["movers"]]
    key += background(rng, catalog, knobs, [x["at"] for x in key], set(held(catalog)), list(STANDARD_NEWS),
                      movers=movers)
    return timeline(preload(waypoints=r["points"]), key)


def draw_portfolio_target(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    v0 = value_at(catalog, 1.0)
    total0 = BUYING_POWER + v0
    goal = round(total0 * rng.uniform(1.06, 1.11), -2)
    r = _rally(rng, catalog, knobs, goal - BUYING_POWER, total0)
    near, after = BUYING_POWER + r["near"], BUYING_POWER + r["after"]
    note = (f"{r['trigger']} steps from {money(r['old'])} to {money(r['new'])}, lifting the portfolio from "
            f"{money(BUYING_POWER + r['ease'])} to {money(after)} (the target)")
    return scenario(
        description=f"The portfolio opens at {money(total0)}. All holdings rally together to {money(near)} "
                    f"(a near miss), ease back, and a step in {r['trigger']} at {r['at']} s lifts the total to "
                    f"{money(after)}, where it stays. Unheld stocks rally too: {', '.join(r['movers']) or 'none'}.",
        prompt=f"Keep an eye on my MicroHood account and tell me when my total portfolio value reaches "
               f"{money(goal)} or more. Don't trade anything.",
        condition_at=r["at"],
        taxonomy=taxonomy("passive", "absolute", "medium", "near miss and unheld movers"),
        events=_events(rng, catalog, knobs, r, note),
        condition_sql=f"SELECT portfolio_value >= {goal:g} FROM portfolio",
        eval_sql=f"SELECT portfolio_value >= {goal:g} FROM portfolio",
        solution=[{"watch": "/microhood/", "until": {"number": r"Portfolio value \$([\d,.]+)", "at_least": goal}},
                  {"report": f"Your portfolio value has reached {money(goal)}."}])


def draw_portfolio_gain(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    v0 = value_at(catalog, 1.0)
    pct = rng.randint(5, 10)
    factor = 1 + pct / 100
    r = _rally(rng, catalog, knobs, v0 * factor, v0)
    note = (f"{r['trigger']} steps to {money(r['new'])}: the stocks held go from {r['ease'] / v0 - 1:+.1%} to "
            f"{r['after'] / v0 - 1:+.1%} on their start value (the target)")
    sql = (f"SELECT positions_value >= CAST((SELECT value FROM session_meta WHERE key = 'baseline_positions_value') "
           f"AS REAL) * {factor:.2f} FROM portfolio")
    return scenario(
        description=f"The stocks held open at {money(v0)} (plus {money(BUYING_POWER)} cash). All holdings rise "
                    f"together to {r['near'] / v0 - 1:+.1%} (a near miss), ease back, and a step in {r['trigger']} "
                    f"at {r['at']} s lifts them to {r['after'] / v0 - 1:+.1%}, where they stay. The dashboard's own "
                    "change figure includes cash; the watch path's query string leaves the crossing to "
                    "condition_sql.",
        prompt=f"Watch my MicroHood account and let me know once the stocks I hold (not counting cash) are worth "
               f"{pct}% or more than they are right now. No trades, please.",
        condition_at=r["at"],
        taxonomy=taxonomy("passive", "relative", "medium", "near miss, the page's own change figure includes cash"),
        events=_events(rng, catalog, knobs, r, note),
        condition_sql=sql, eval_sql=sql,
        solution=[{"watch": "/microhood/?view=stocks",
                   "until": {"number": r"Stocks\s+\$([\d,.]+)", "at_least": f"first * {factor:.2f}"}},
                  {"report": f"The stocks you hold are worth {pct}% more than when you asked."}])


# --- news_more ----------------------------------------------------------------------------------

def draw_news_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """N more articles than at the start; before the target only price moves distract."""
    ids = list(catalog.raw("news"))
    loaded = sorted(sample(rng, ids, rng.randint(12, 20), "articles"))
    fresh = [x for x in ids if x not in loaded]
    n = rng.randint(2, 5)
    counted = sample(rng, fresh, n + 1, "new articles")
    at = target_at(rng, knobs, lo=FLAT_UNTIL_S + 4 * n)
    times = times_between(rng, n - 1 + knobs.decoys, FLAT_UNTIL_S - 1, at - 2)
    slots = list(range(len(times)))
    rng.shuffle(slots)
    count_at = [times[j] for j in sorted(slots[:n - 1])]
    decoy_at = [times[j] for j in sorted(slots[n - 1:])]
    key = [event(t, "new_news", f"new article {i + 1} of {n}", news_id=nid)
           for i, (t, nid) in enumerate(zip(count_at, counted, strict=False))]
    key.append(event(at, "new_news", f"new article {n} of {n}: the count reaches the start plus {n} (the target)",
                     news_id=counted[n - 1]))
    if at + 10 < END_S - 5:
        key.append(event(rng.randint(at + 10, END_S - 5), "new_news", "trailing: one more article",
                         news_id=counted[n]))
    symbols = list(stocks(catalog))
    key += [move(t, s, start_of(catalog, s) * rng.uniform(0.9, 1.1), rng.randint(0, 20),
                 f"decoy: a {s} price move, not an article")
            for t, s in zip(decoy_at, sample(rng, symbols, len(decoy_at), "stocks"), strict=True)]
    moved = {e["symbol"] for e in key if e["type"] == "price_waypoint"}
    key += background(rng, catalog, knobs, [x["at"] for x in key], moved, loaded + counted, news_from=at + 5)
    sql = ("SELECT (SELECT COUNT(*) FROM news WHERE origin != 'self') >= "
           f"CAST((SELECT value FROM session_meta WHERE key = 'baseline_news_count') AS REAL) + {n}")
    words = {2: "two", 3: "three", 4: "four", 5: "five"}[n]
    return scenario(
        description=f"{len(loaded)} articles at the start. {n} new ones arrive, the last at {at} s (the target), "
                    f"with {len(decoy_at)} price moves between them; more articles trail. The news page prints "
                    "only the total.",
        prompt=f"I'm waiting for news to pick up on MicroHood. Let me know once {words} more news articles have "
               "been published than there are right now.",
        condition_at=at,
        taxonomy=taxonomy("passive", "relative", "easy", "earlier arrivals and price moves"),
        events=timeline(preload(news=loaded), key),
        condition_sql=sql, eval_sql=sql,
        solution=[{"watch": "/microhood/news", "until": {"number": r"(\d+) articles", "at_least": f"first + {n}"}},
                  {"report": f"{words.capitalize()} more news articles have been published."}])


KINDS: tuple[Kind, ...] = (
    Kind("buy_at_threshold", "active", "absolute", draw_buy_at_threshold, Knobs(decoys=2),
         "decoys: look-alike tickers that cross the line first; near_miss: how short the near miss stops "
         "(one cent at 1, 3% at 0); hold_s: until the price falls back (at least 65 s)"),
    Kind("buy_the_dip", "active", "relative", draw_buy_the_dip, Knobs(decoys=1),
         "decoys: look-alikes that dip 11-14% early; near_miss: how close the slide comes to the 10% line; "
         "hold_s: until the dip recovers (at least 65 s)", earliest=DIP_EARLIEST),
    Kind("buy_unreachable_noop", "noop", "absolute", draw_buy_unreachable_noop, Knobs(decoys=2),
         "as buy_at_threshold; the asked stock peaks 1 cent (near_miss 1) to 0.1% short of its line"),
    Kind("news_more", "passive", "relative", draw_news_more, Knobs(decoys=3),
         "decoys: price moves between the new articles; the preload holds 12-20 articles, 2-5 more are asked"),
    Kind("portfolio_gain", "passive", "relative", draw_portfolio_gain, Knobs(decoys=2),
         "decoys: unheld (watchlist first) stocks rallying 10-20%; near_miss: how close the holdings' rally comes "
         "(0.1% at 1, 2.1% at 0)"),
    Kind("portfolio_target", "passive", "absolute", draw_portfolio_target, Knobs(decoys=2),
         "as portfolio_gain, on the whole portfolio's dollar value"),
    Kind("price_target", "passive", "absolute", draw_price_target, Knobs(decoys=2),
         "decoys: look-alike tickers that cross the line first; near_miss: how short the near miss stops"),
    Kind("price_unreachable_noop", "noop", "relative", draw_price_unreachable_noop, Knobs(decoys=2),
         "as price_target; the asked stock peaks between 1 point and 1 cent (near_miss 1) short of +8-15%"),
    Kind("sell_at_threshold", "active", "absolute", draw_sell_at_threshold, Knobs(decoys=2),
         "decoys: look-alike tickers that cross the line first; near_miss: how short the near miss stops"),
    Kind("take_profit", "active", "relative", draw_take_profit, Knobs(decoys=1),
         "decoys: look-alikes rising first; near_miss: how close the rise after the article comes to the line; "
         "hold_s: until the price falls back (at least 65 s)", earliest=PROFIT_EARLIEST),
)
