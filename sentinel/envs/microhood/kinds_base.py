"""What MicroHood's scenario kinds share: catalog views, wording, the preload and the background.

Prices are authored as `price_waypoint` moves (at, price, ramp_s). A kind's key moves never
overlap on one symbol (each ramp ends before the next move starts), so every corner of a path is
a moment the kind chose and the page's high and low are among them. Background moves and news
keep GAP_S away from the key moves, on symbols the task does not look at.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Knobs, NoDraw
from sentinel.envs.microhood.prices import cents
from sentinel.generation.kit import (
    background_times,
    choose,
    event,
    nearest,
    target_time,
    taxonomy,  # noqa: F401  (kinds of this environment use it from here)
)

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

STANDARD_NEWS = ("n001", "n004", "n006", "n008", "n010", "n013", "n018", "n019", "n024", "n025",
                 "n033", "n034", "n035", "n036", "n037", "n038")
WATCHLIST = ("VLTA", "DRNX", "CHPX", "CHPR", "QBTX", "SOLR")
BUYING_POWER = 10_000
END_S = 715
# The oracle (and any agent) reads its reference on its first page load, a few sim seconds in at
# high speeds; checks.FIRST_READ_S wants a watched relative value flat until 10 s.
FLAT_UNTIL_S = 14
HOLD_MIN_S = 65  # checks.VISIBLE_FOR_S: a condition stays visible at least 60 s


# --- catalog views -----------------------------------------------------------------------

def stocks(catalog: Catalog) -> dict[str, dict[str, Any]]:
    return catalog.raw("stocks")


def start_of(catalog: Catalog, symbol: str) -> float:
    return float(stocks(catalog)[symbol]["start_price"])


def held(catalog: Catalog) -> dict[str, int]:
    """Symbol → shares the account holds at the start (the catalog's initial_shares)."""
    return {s: int(r["initial_shares"]) for s, r in stocks(catalog).items() if r.get("initial_shares")}


def title(catalog: Catalog, symbol: str) -> str:
    name = str(stocks(catalog)[symbol]["name"])
    for suffix in (" Inc.", " Group"):
        name = name.removesuffix(suffix)
    return f"{name} ({symbol})"


def alike(catalog: Catalog, a: str, b: str) -> float:
    """How much ticker b looks like ticker a: shared leading letters, sector, price level (0–1)."""
    ra, rb = stocks(catalog)[a], stocks(catalog)[b]
    prefix = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    level = max(0.0, 1 - abs(math.log(float(rb["start_price"]) / float(ra["start_price"]))))
    return (prefix / 4 + 0.3 * (ra["sector"] == rb["sector"]) + 0.3 * level) / 1.6


def lookalikes(rng: random.Random, catalog: Catalog, knobs: Knobs, symbol: str, exclude: set[str]) -> list[str]:
    pool = [s for s in stocks(catalog) if s != symbol and s not in exclude]
    return nearest(rng, pool, knobs.decoys, lambda s: alike(catalog, symbol, s), knobs.near_miss)


def target_at(rng: random.Random, knobs: Knobs, lo: float) -> int:
    """The target time in the knobs' window, and after `lo` (when the kind's setup needs time)."""
    return target_time(rng, knobs, lo)


# --- wording ------------------------------------------------------------------------------

def money(value: float) -> str:
    if value >= 100 and float(value).is_integer():
        return f"${value:,.0f}"
    return f"${value:,.2f}"


def nice_step(price: float) -> float:
    return 5.0 if price >= 200 else 1.0 if price >= 60 else 0.1


def nice_above(rng: random.Random, price: float, lo: float, hi: float) -> float:
    """A round threshold lo–hi (fractions) above price, on the step a person would name."""
    step = nice_step(price)
    value = math.ceil(price * (1 + rng.uniform(lo, hi)) / step) * step
    return round(value, 2)


def floor_cents(value: float) -> float:
    return math.floor(value * 100 + 1e-6) / 100


def ceil_cents(value: float) -> float:
    return math.ceil(value * 100 - 1e-6) / 100


# --- price moves ----------------------------------------------------------------------------

def move(at: float, symbol: str, price: float, ramp_s: float = 0, note: str | None = None) -> dict[str, Any]:
    if price <= 0:
        raise NoDraw(f"{symbol} would trade at {price:g}")
    return event(int(at), "price_waypoint", note, symbol=symbol, price=cents(price), ramp_s=max(0, int(ramp_s)))


def phases(t0: int, t1: int, n: int) -> list[tuple[int, int]]:
    """n back-to-back (start, ramp_s) phases filling [t0, t1), each ramp ending before the next start."""
    if t1 - t0 < 3 * n:
        raise NoDraw(f"no room for {n} price phases between {t0} and {t1} s")
    edges = [t0 + round(j * (t1 - t0) / n) for j in range(n + 1)]
    return [(edges[j], max(0, edges[j + 1] - edges[j] - 1)) for j in range(n)]


def free_time(rng: random.Random, lo: int, hi: int, taken: list[float], gap: int = 3) -> int:
    return choose(rng, [t for t in range(lo, hi + 1) if all(abs(t - b) > gap for b in taken)], "free moment")


def decoy_moves(rng: random.Random, catalog: Catalog, decoys: list[str], symbol: str, level: float,
                rising: bool, before: int, what: str) -> list[dict[str, Any]]:
    """Each look-alike moves past the target's level (or by the same share, if its price is far
    from it) before the target does: a watcher of the wrong ticker sees its condition first."""
    out: list[dict[str, Any]] = []
    start_s = start_of(catalog, symbol)
    if not decoys:
        return out
    slots = phases(2, max(2 + 3 * len(decoys), before - 2), len(decoys))
    for (t, ramp), d in zip(slots, decoys, strict=True):
        start = start_of(catalog, d)
        near = 0.75 <= start / level <= 1.25
        if rising:
            price = level * rng.uniform(1.005, 1.03) if near else start * (level / start_s) * rng.uniform(1.0, 1.02)
            price = max(price, start * 1.01)
        else:
            price = start * rng.uniform(0.86, 0.89)
        how = f"crosses {money(level)}" if near and rising else f"moves {price / start - 1:+.1%}"
        out.append(move(t, d, price, ramp, f"decoy: {d}, a look-alike of {symbol}, {how} first ({what})"))
    return out


def preload(news: list[str] | None = None, waypoints: dict[str, list[list[float]]] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"stocks": "*", "watchlist": list(WATCHLIST),
                           "news": list(STANDARD_NEWS if news is None else news), "buying_power": BUYING_POWER}
    if waypoints:
        out["price_waypoints"] = waypoints
    return out


def background(rng: random.Random, catalog: Catalog, knobs: Knobs, taken: list[float], avoid: set[str],
               preloaded_news: list[str], news_from: float = 0,
               movers: list[str] | None = None) -> list[dict[str, Any]]:
    """Unrelated events at the density knob: articles not preloaded (from `news_from` on) and
    price moves of symbols outside `avoid`, never overlapping on one symbol."""
    times = background_times(rng, knobs.density, taken, start=2, stop=END_S - 5)
    named = set(avoid)
    news = [nid for nid, r in catalog.raw("news").items()
            if nid not in preloaded_news and r.get("symbol") not in named]
    rng.shuffle(news)
    pool = [s for s in (movers if movers is not None else stocks(catalog)) if s not in avoid]
    free_at: dict[str, float] = {}
    out = []
    for t in times:
        if news and t >= news_from and rng.random() < 0.35:
            out.append(event(t, "new_news", None, news_id=news.pop()))
            continue
        ready = [s for s in pool if free_at.get(s, 0) < t]
        if not ready:
            continue
        symbol = ready[rng.randrange(len(ready))]
        ramp = min(rng.randint(0, 70), END_S - t)
        free_at[symbol] = t + ramp
        out.append(move(t, symbol, start_of(catalog, symbol) * rng.uniform(0.94, 1.06), ramp))
    return out
