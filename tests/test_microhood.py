"""MicroHood: pages, actions, events, baselines, grading tables and scenario checks."""

from __future__ import annotations

import dataclasses
import re

import pytest
from helpers.worlds import whole_catalog

from sentinel.core.catalog import Catalog
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.scenario import Event, load_scenario
from sentinel.envs.microhood import ENV, queries
from sentinel.envs.microhood.prices import PriceBook, cents, portfolio_numbers

DRNX = "tests/data/env_scenarios/microhood/drnx_waves.yaml"  # DRNX ramps; VLTA, NEOX, HALO stay flat
START_VALUE = 35_751.60  # buying power 10,000 + the ten catalog holdings at their open





async def value(s, sql: str, params: tuple = ()):
    return await s.world.fetch_value(sql, params)


def number(pattern: str, text: str) -> float:
    return float(re.search(pattern, text).group(1).replace(",", ""))


ORDER = {"side": "buy", "order_type": "market", "shares": "2", "limit_price": ""}


# --- pages -----------------------------------------------------------------------

async def test_dashboard_shows_portfolio_holdings_watchlist_and_news(env_session):
    s = await env_session(DRNX)
    text = (await s.page("/microhood/")).text
    assert number(r"Portfolio value \$([\d,.]+)", text) == START_VALUE
    assert "+$0.00 (+0.00%) today" in text
    assert "Buying power $10,000.00" in text
    assert "Holdings (10)" in text and "Watchlist (6)" in text
    assert "NEOX Neoxis Therapeutics 12 $124.00 $1,488.00 $109.50 +$174.00 (+13.24%)" in text
    watch = text[text.index("Watchlist (6)"):text.index("All news")]
    assert [m for m in re.findall(r"\b[A-Z]{4}\b", watch)][:6] == ["VLTA", "DRNX", "CHPX", "CHPR", "QBTX", "SOLR"]
    assert text.count(" ago") + text.count("yesterday") == 8  # eight headlines
    assert (await s.client.get("/microhood", allow_redirects=False)).status == 302


async def test_stock_page_prices_interpolate_and_chart_stops_at_now(env_session):
    s = await env_session(DRNX)
    p = await s.page("/microhood/stock/DRNX")
    assert "Price $38.75" in p.text and "Open $38.75" in p.text
    assert "Dronix Aerial (DRNX)" in p.text and "You don't own any DRNX." in p.text
    await s.advance_to(60.0)  # DRNX ramps 38.75 (t=20) → 40.10 (t=100)
    p = await s.page("/microhood/stock/drnx")  # symbols are case-insensitive
    assert cents(38.75 + 1.35 * 40 / 80) == 39.43 and "Price $39.43" in p.text  # 39.425 rounds half up
    assert "+$0.68 (+1.75%) today" in p.text
    await s.advance_to(200.0)  # the path peaked at 41.90 at t=160 and is falling to 40.60
    p = await s.page("/microhood/stock/DRNX")
    assert "High $41.90" in p.text and "Low $38.75" in p.text
    html = await (await s.client.get("/microhood/stock/DRNX")).text()
    svg = re.search(r'<svg class="chart".*?</svg>', html, re.S).group(0)
    assert 'aria-label="Price chart for DRNX' in svg and "<script" not in html.split("</head>")[1]
    xs = [float(pt.split(",")[0]) for pt in re.search(r'points="([^"]+)"', svg).group(1).split()]
    assert xs == sorted(xs) and xs[-1] == 632.0  # the last point is "now", at the right edge
    assert len(xs) == 7  # (0, open), points at 20, 100 (×2: event points), 160 (×2), now


async def test_stock_page_position_news_and_unknown_symbol(env_session):
    s = await env_session(DRNX)
    text = (await s.page("/microhood/stock/HALO")).text
    assert "Shares 20" in text
    assert "Average cost $418.75" in text
    assert "Market value $9,046.00" in text
    assert "Halo Systems schedules its quarterly earnings call" in text
    assert "Buy HALO" in text
    assert "Sell HALO" in text
    assert "☆ Add to watchlist" in text
    p = await s.page("/microhood/stock/NOPE", status=404)
    assert "There is no stock with that symbol." in p.text and "MicroHood" in p.text


async def test_search_lists_all_or_matches_symbol_and_name(env_session):
    s = await env_session(DRNX)
    p = await s.page("/microhood/search")
    assert "50 stocks" in p.text and len(p.link_hrefs(re.compile(r"/microhood/stock/[A-Z]+$"))) == 50
    p = await s.page("/microhood/search?q=chip")
    assert "2 stocks" in p.text
    assert "CHPX" in p.text
    assert "CHPR" in p.text
    assert "$488.40" in p.text
    p = await s.page("/microhood/search?q=neox")
    assert "1 stock Symbol" in p.text and "Neoxis Therapeutics" in p.text
    p = await s.page("/microhood/search?q=" + "%3Cscript%3E" * 5)
    assert "0 stocks" in p.text
    p = await s.page("/microhood/search?q=" + "%3Cscript%3E" * 50, status=400)
    assert "The search is too long (100 characters at most)." in p.text


async def test_news_page_counts_pages_and_rejects_bad_page_numbers(env_session):
    s = await env_session(DRNX)
    p = await s.page("/microhood/news")
    assert "News · 16 articles" in p.text and "Showing 1–16 of 16" in p.text
    await s.page("/microhood/news?page=2", status=404)
    for bad in ("abc", "0", "-1", "99999999999999999999", "9" * 5000, "1.5", "%C2%B2"):
        p = await s.page(f"/microhood/news?page={bad}", status=400)
        assert "page number" in p.text
    await s.page("/microhood/orders?page=x", status=400)
    await s.advance_to(720.0)
    p = await s.page("/microhood/news")
    assert "News · 21 articles" in p.text and "Showing 1–20 of 21" in p.text
    assert p.text.index("Consumer confidence survey") < p.text.index("Dronix Aerial begins delivery")
    p = await s.page("/microhood/news?page=2")
    assert "Showing 21–21 of 21" in p.text


async def test_etag_and_live_refresh(env_session):
    s = await env_session(DRNX)
    first = await s.client.get("/microhood/stock/VLTA")
    tag = first.headers["ETag"]
    again = await s.client.get("/microhood/stock/VLTA", headers={"If-None-Match": tag})
    assert again.status == 304
    await s.advance_to(50.0)  # VLTA does not move in this scenario, DRNX does
    assert (await s.client.get("/microhood/stock/VLTA", headers={"If-None-Match": tag})).status == 304
    assert (await s.client.get("/microhood/stock/DRNX", headers={"If-None-Match": tag})).status == 200
    await s.post("/microhood/watchlist/NEOX", {"next": "/microhood/"})
    live = await s.page("/microhood/", headers={"X-Live-Refresh": "1"})
    assert "Added NEOX to your watchlist" not in live.text  # a live refresh leaves the status line
    assert "Added NEOX to your watchlist" in (await s.page("/microhood/")).text


# --- order ticket, review, confirm ----------------------------------------------------

async def test_ticket_for_any_symbol_and_bad_query(env_session):
    s = await env_session(DRNX)
    p = await s.page("/microhood/stock/SEDX/order?side=sell&shares=4")
    form = p.form_matching(re.compile(r"/order/review$"))
    assert form.fields == {"side": "sell", "order_type": "market", "shares": "4", "limit_price": ""}
    assert "Current price $80.73" in p.text and "Estimated credit $322.92" in p.text
    assert "Estimated" not in (await s.page("/microhood/stock/SEDX/order?shares=%C2%B2")).text
    p = await s.page("/microhood/stock/SEDX/order?side=short", status=400)
    assert "Choose Buy or Sell." in p.text
    await s.page("/microhood/stock/NOPE/order", status=404)


async def test_review_shows_the_order_and_changes_nothing(env_session):
    s = await env_session(DRNX)
    _, p = await s.post("/microhood/stock/VLTA/order/review", {**ORDER, "shares": "3"}, status=200)
    for line in ("Side Buy", "Order type Market", "Shares 3", "Current price $84.00",
                 "Estimated total $252.00", "Buying power $10,000.00", "Confirm buy", "Edit"):
        assert line in p.text
    confirm = p.form_matching(re.compile(r"/order/confirm$"))
    assert confirm.fields == {"side": "buy", "order_type": "market", "shares": "3", "limit_price": "",
                              "next": "/microhood/orders"}
    assert ("/microhood/stock/VLTA/order?side=buy&order_type=market&shares=3", "Edit") in p.links
    _, p = await s.post("/microhood/stock/HALO/order/review", {**ORDER, "side": "sell", "shares": "25"}, status=200)
    assert "Shares held 20" in p.text and "You own fewer shares than this order sells." in p.text
    assert await value(s, "SELECT COUNT(*) FROM orders") == 0
    assert await value(s, "SELECT buying_power FROM account") == 10_000


INVALID_TICKETS = [
    ({"shares": "0"}, "shares", "Enter at least 1 share."),
    ({"shares": "-3"}, "shares", "Enter a whole number of shares, 1 or more."),
    ({"shares": "abc"}, "shares", "Enter a whole number of shares, 1 or more."),
    ({"shares": "2.5"}, "shares", "Enter a whole number of shares, 1 or more."),
    ({"shares": "²"}, "shares", "Enter a whole number of shares, 1 or more."),
    ({"shares": ""}, "shares", "Enter a whole number of shares, 1 or more."),
    ({"shares": "99999999999999999999999999"}, "shares", "At most 1,000,000 shares per order."),
    ({"order_type": "limit"}, "limit_price", "Enter a limit price for a limit order."),
    ({"order_type": "limit", "limit_price": "cheap"}, "limit_price", "Enter a price in dollars and cents"),
    ({"order_type": "limit", "limit_price": "nan"}, "limit_price", "Enter a price in dollars and cents"),
    ({"order_type": "limit", "limit_price": "0"}, "limit_price", "Enter a price above $0"),
    ({"side": "short"}, "side", "Choose Buy or Sell."),
    ({"order_type": "stop"}, "order_type", "Choose Market or Limit."),
]


async def test_invalid_ticket_is_a_400_with_the_error_next_to_the_field(env_session):
    s = await env_session(DRNX)
    for fields, field, message in INVALID_TICKETS:
        for action in ("review", "confirm"):
            resp = await s.client.post(f"/microhood/stock/VLTA/order/{action}", data={**ORDER, **fields})
            html = await resp.text()
            assert resp.status == 400, (fields, action)
            pattern = rf'name="{field}".*?<p class="error" role="alert" id="{field}-error">([^<]*)</p>'
            match = re.search(pattern, html, re.S)
            assert match and message in match.group(1), (fields, action)
    assert await value(s, "SELECT COUNT(*) FROM orders") == 0


async def test_missing_fields_and_unknown_symbol(env_session):
    s = await env_session(DRNX)
    resp = await s.client.post("/microhood/stock/VLTA/order/confirm", data={})
    assert resp.status == 400
    assert (await s.client.post("/microhood/stock/NOPE/order/review", data=ORDER)).status == 404
    assert (await s.client.post("/microhood/watchlist/NOPE", data={})).status == 404
    assert (await s.client.get("/microhood/stock/VLTA/order/confirm")).status == 405


async def test_market_buy_fills_at_the_shown_price_and_reweights(env_session):
    s = await env_session(DRNX)
    await s.advance_to(60.0)
    shown = number(r"Price \$([\d,.]+)", (await s.page("/microhood/stock/DRNX")).text)
    resp, _ = await s.post("/microhood/stock/DRNX/order/confirm", {**ORDER, "next": "/microhood/orders"})
    assert resp.headers["Location"] == "/microhood/orders"
    text = (await s.page("/microhood/orders")).text
    assert f"Bought 2 DRNX at ${shown:.2f} (total ${shown * 2:.2f}), order ord-1" in text
    assert f"ord-1 just now DRNX Buy 2 Market ${shown:.2f}" in text
    order = await s.world.fetch_one("SELECT * FROM orders")
    assert (order["id"], order["fill_price"], order["placed_at"], order["origin"]) == ("ord-1", shown, 60.0, "self")
    assert await value(s, "SELECT buying_power FROM account") == round(10_000 - 2 * shown, 2)
    await s.advance_to(100.0)  # DRNX at 40.10
    await s.post("/microhood/stock/DRNX/order/confirm", {**ORDER, "shares": "3"})
    held = await s.world.fetch_one("SELECT shares, avg_cost FROM holdings WHERE symbol = 'DRNX'")
    assert held["shares"] == 5 and held["avg_cost"] == pytest.approx((2 * shown + 3 * 40.10) / 5, abs=1e-4)
    assert "ord-2" in (await s.page("/microhood/orders")).text


async def test_sells_partial_then_all_removes_the_position(env_session):
    s = await env_session(DRNX)
    await s.post("/microhood/stock/NEOX/order/confirm", {**ORDER, "side": "sell", "shares": "5"})
    held = await s.world.fetch_one("SELECT shares, avg_cost FROM holdings WHERE symbol = 'NEOX'")
    assert (held["shares"], held["avg_cost"]) == (7, 109.5)
    assert await value(s, "SELECT buying_power FROM account") == 10_000 + 5 * 124
    _, p = await s.post("/microhood/stock/NEOX/order/confirm", {**ORDER, "side": "sell", "shares": "8"}, status=400)
    assert "Not enough shares" in p.text
    await s.post("/microhood/stock/NEOX/order/confirm", {**ORDER, "side": "sell", "shares": "7"})
    assert await value(s, "SELECT COUNT(*) FROM holdings WHERE symbol = 'NEOX'") == 0
    text = (await s.page("/microhood/")).text
    assert "Holdings (9)" in text and number(r"Portfolio value \$([\d,.]+)", text) == START_VALUE
    _, p = await s.post("/microhood/stock/VLTA/order/confirm", {**ORDER, "side": "sell", "shares": "1"}, status=400)
    assert "Not enough shares" in p.text


async def test_buying_power_and_limit_rules(env_session):
    s = await env_session(DRNX)
    _, p = await s.post("/microhood/stock/CHPX/order/confirm", {**ORDER, "shares": "21"}, status=400)
    assert "Insufficient buying power" in p.text  # 21 × 488.40 > 10,000
    _, p = await s.post("/microhood/stock/VLTA/order/confirm",
                      {**ORDER, "order_type": "limit", "limit_price": "83.99"}, status=400)
    assert "Limit not reached; resting orders are not supported" in p.text
    _, p = await s.post("/microhood/stock/HALO/order/confirm",
                      {**ORDER, "side": "sell", "order_type": "limit", "limit_price": "452.31"}, status=400)
    assert "Limit not reached" in p.text
    assert await value(s, "SELECT COUNT(*) FROM orders") == 0
    await s.post("/microhood/stock/VLTA/order/confirm", {**ORDER, "order_type": "limit", "limit_price": "$84.00"})
    order = await s.world.fetch_one("SELECT order_type, limit_price, fill_price FROM orders")
    assert tuple(order) == ("limit", 84.0, 84.0)


async def test_watchlist_toggle(env_session):
    s = await env_session(DRNX)
    resp, _ = await s.post("/microhood/watchlist/NEOX", {"next": "/microhood/stock/NEOX"})
    assert resp.headers["Location"] == "/microhood/stock/NEOX"
    text = (await s.page("/microhood/stock/NEOX")).text
    assert "Added NEOX to your watchlist" in text and "★ On watchlist (click to remove)" in text
    row = await s.world.fetch_one("SELECT origin FROM watchlist WHERE symbol = 'NEOX'")
    assert row["origin"] == "self"
    resp, _ = await s.post("/microhood/watchlist/NEOX", {"next": "//evil.example/"})
    assert resp.headers["Location"] == "/microhood/stock/NEOX"  # only local paths are followed
    assert "Removed NEOX from your watchlist" in (await s.page("/microhood/stock/NEOX")).text
    assert await value(s, "SELECT COUNT(*) FROM watchlist") == 6


# --- events, baselines, grading tables -----------------------------------------------------

async def test_preload_and_baselines(env_session):
    s = await env_session(DRNX)
    assert await value(s, "SELECT COUNT(*) FROM stocks") == 50
    assert await value(s, "SELECT COUNT(*) FROM holdings") == 10
    assert await value(s, "SELECT COUNT(*) FROM news WHERE origin = 'preload' AND arrived_at = 0") == 16
    meta = {r["key"]: float(r["value"]) for r in await s.world.fetch_all(
        "SELECT key, value FROM session_meta WHERE key LIKE 'baseline_%'")}
    assert meta == {"baseline_portfolio_value": START_VALUE, "baseline_buying_power": 10_000.0,
                    "baseline_positions_value": START_VALUE - 10_000, "baseline_order_count": 0.0,
                    "baseline_watchlist_count": 6.0, "baseline_news_count": 16.0}


async def test_price_book_of_a_page_prices_like_the_whole_book(env_session):
    """The dashboard's book (start prices read with its rows, then only the waypoints) and the
    no-waypoint shortcut give every price the whole book gives, at every moment."""
    s = await env_session(DRNX)
    held = await s.world.fetch_all(queries.HOLDINGS)
    watch = await s.world.fetch_all(queries.WATCHLIST)
    starts = {row[0]: row[2] for rows in (held, watch) for row in rows}
    assert "DRNX" in starts and "HALO" in starts
    for t in (0.0, 60.0, 130.0, 200.0, 900.0):
        await s.advance_to(t)
        whole = await PriceBook.load(s.world)
        page = await PriceBook.load(s.world, starts=starts)
        assert {sym: page.price(sym) for sym in starts} == {sym: whole.price(sym) for sym in starts}
        assert {sym: whole.path(sym).price(t) for sym in starts} == {sym: whole.price(sym) for sym in starts}
    assert page.price("DRNX") != page.start("DRNX")  # the waypoints were read: DRNX moved


async def test_dashboard_baseline_before_it_is_stored_is_the_value_at_sim_0(env_session):
    s = await env_session(DRNX)
    await s.advance_to(60.0)
    await s.post("/microhood/stock/DRNX/order/confirm", {**ORDER, "shares": "10"})
    await s.advance_to(200.0)  # DRNX has moved since sim 0
    async with s.world.write() as db:
        await db.execute("DELETE FROM session_meta WHERE key = ?", (queries.BASELINE_KEY,))
    assert await queries.cash_and_baseline(s.world) == (pytest.approx(10_000 - 10 * 39.43), None)
    start = (await portfolio_numbers(s.world, (await PriceBook.load(s.world)).at(0.0)))["portfolio_value"]
    text = (await s.page("/microhood/")).text
    delta = round(number(r"Portfolio value \$([\d,.]+)", text) - start, 2)
    assert delta != 0
    assert f"{'+' if delta >= 0 else '−'}${abs(delta):,.2f} (" in text


async def test_new_news_and_price_waypoint_events(env_session):
    s = await env_session(DRNX)
    fired = await s.advance_to(75.0)
    assert [f.event.type for f in fired] == ["price_waypoint", "new_news"]
    row = await s.world.fetch_one("SELECT * FROM news WHERE id = 'n011'")
    assert (row["arrived_at"], row["origin"], row["created_at"]) == (75.0, "event", s.world.created_at(75.0))
    points = await s.world.fetch_all("SELECT t, price, origin FROM price_waypoints WHERE symbol = 'DRNX' ORDER BY seq")
    assert [tuple(p) for p in points] == [(20.0, 38.75, "event"), (100.0, 40.10, "event")]
    assert "just now" in (await s.page("/microhood/news")).text


async def test_finalize_writes_current_prices_and_portfolio(env_session):
    s = await env_session("scenarios/verified/microhood/sell_at_threshold.yaml")
    await s.advance_to(450.0)  # HALO at 488.60
    await s.post("/microhood/stock/HALO/order/confirm", {**ORDER, "side": "sell", "shares": "5"})
    assert await s.verdict() == 1
    assert await value(s, "SELECT price FROM current_prices WHERE symbol = 'HALO'") == 488.60
    assert await value(s, "SELECT COUNT(*) FROM current_prices") == 50
    row = await s.world.fetch_one("SELECT * FROM portfolio")
    text = (await s.page("/microhood/")).text
    assert row["portfolio_value"] == number(r"Portfolio value \$([\d,.]+)", text)
    assert row["buying_power"] == 10_000 + 5 * 488.60
    assert row["positions_value"] == pytest.approx(row["portfolio_value"] - row["buying_power"], abs=0.005)


@pytest.mark.parametrize("path", ["scenarios/verified/microhood/news_more.yaml",
                                  "scenarios/verified/microhood/price_target.yaml",
                                  "scenarios/verified/microhood/portfolio_target.yaml",
                                  "scenarios/verified/microhood/portfolio_gain.yaml"])
async def test_passive_verdict_flips_at_condition_at(env_session, path):
    s = await env_session(path)
    at = s.session.scenario.condition_at
    await s.advance_to(at - 0.01)
    assert not await s.verdict()
    await s.advance_to(at)
    assert await s.verdict()
    await s.advance_to(720.0)  # passive thresholds stay crossed
    assert await s.verdict()


async def test_active_dip_fill_grades_the_price(env_session):
    s = await env_session("tests/data/env_scenarios/microhood/vlta_dip.yaml")
    await s.advance_to(300.0)  # not yet 10% down
    await s.post("/microhood/stock/VLTA/order/confirm", {**ORDER, "shares": "3"})
    assert not await s.verdict()
    await s.advance_to(350.0)
    assert "Price $73.30" in (await s.page("/microhood/stock/VLTA")).text
    await s.post("/microhood/stock/VLTA/order/confirm", {**ORDER, "shares": "3"})
    assert await s.verdict()


async def test_noop_refrain_check(env_session):
    s = await env_session("scenarios/verified/microhood/buy_unreachable_noop.yaml")
    await s.advance_to(400.0)
    assert await s.verdict()
    await s.post("/microhood/stock/DRNX/order/confirm", ORDER)
    assert not await s.verdict()


# --- scenario checks ------------------------------------------------------------------------

CATALOG = Catalog(load_config().catalogs_dir, "microhood")


def scenario(short_id: str):
    return load_scenario(REPO_ROOT / f"scenarios/verified/microhood/{short_id}.yaml")


def test_all_scenarios_pass_the_environment_checks():
    for path in sorted((REPO_ROOT / "scenarios/verified/microhood").glob("*.yaml")):
        assert ENV.check_scenario(load_scenario(path), CATALOG) == [], path.name


def test_check_recomputes_the_crossing():
    sc = load_scenario(REPO_ROOT / DRNX)
    problems = ENV.check_scenario(dataclasses.replace(sc, condition_at=370.0), CATALOG)
    assert problems == [("condition_at", "370 differs from the moment the page first shows at_least 42.2: 378.286 s")]
    assert ENV.check_scenario(dataclasses.replace(sc, condition_at=378.7), CATALOG) == []  # within 0.5 s
    sc = scenario("portfolio_target")
    assert ENV.check_scenario(dataclasses.replace(sc, condition_at=416.0), CATALOG)[0][0] == "condition_at"


def test_check_flags_a_short_window_a_reachable_noop_and_bad_fields():
    sc = load_scenario(REPO_ROOT / "tests/data/env_scenarios/microhood/vlta_dip.yaml")
    events = [e for e in sc.events if not (e.type == "price_waypoint" and e.at in (340, 390))]
    events.insert(-4, Event(at=341.0, type="price_waypoint", fields={"symbol": "VLTA", "price": 80.0, "ramp_s": 20}))
    problems = ENV.check_scenario(dataclasses.replace(sc, events=tuple(events)), CATALOG)
    assert [f for f, _ in problems] == ["events"] and "stay visible for 60 s" in problems[0][1]
    noop = scenario("price_unreachable_noop")
    reachable = dataclasses.replace(noop, solution=scenario("price_target").solution)
    assert "no-op's condition becomes visible at 58.000" in ENV.check_scenario(reachable, CATALOG)[0][1]
    preload = dict(sc.events[0].fields, watchlist=["ZZZZ"], buying_power=-5,
                   price_waypoints={"VLTA": [[10, -1]], "QQQQ": [[5, 1.0]], "HALO": [[800, 1.0]]})
    bad_event = Event(at=30.0, type="price_waypoint", fields={"symbol": "VLTA", "price": "up", "ramp_s": -1}, index=1)
    bad = dataclasses.replace(sc, events=(dataclasses.replace(sc.events[0], fields=preload), bad_event))
    fields = [f for f, _ in ENV.check_scenario(bad, CATALOG)]
    assert fields == ["events[0].buying_power", "events[0].watchlist", "events[0].price_waypoints.VLTA",
                      "events[0].price_waypoints.QQQQ", "events[0].price_waypoints.HALO",
                      "events[1].price", "events[1].ramp_s"]


async def test_serve_preload_builds_a_session(env_session):
    sc = whole_catalog(ENV)
    assert ENV.check_scenario(sc, CATALOG) == []
    s = await env_session(sc)
    p = await s.page("/microhood/news")
    assert "40 articles" in p.text
