"""MicroHood's pages (GET) and actions (POST: the order ticket's review changes nothing, confirm fills
at once; watchlist toggle). Templates only print what is computed here."""

from __future__ import annotations

import math
import re
from collections import namedtuple
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web
from markupsafe import Markup, escape

from sentinel.core.environment import Routes
from sentinel.envs.microhood import queries
from sentinel.envs.microhood.prices import Point, PriceBook, buying_power, change, portfolio_totals
from sentinel.web.kit import done, fetch_or_404, form_of, paged, text_param, url_for, world_of
from sentinel.web.render import make_url, render

if TYPE_CHECKING:
    from sentinel.world.state import World

DASHBOARD_NEWS = 8
NEWS_PER_PAGE = 20
ORDERS_PER_PAGE = 25
WIDTH, HEIGHT = 640, 200  # the stock page's price chart
PAD_X, PAD_Y = 8, 14
SIDES = ("buy", "sell")  # the order ticket's choices and limits
ORDER_TYPES = ("market", "limit")
MAX_SHARES = 1_000_000
MAX_PRICE = 1_000_000.0
DIGITS_RE = re.compile(r"^[0-9]+$")
PRICE_RE = re.compile(r"^[0-9]{1,9}(\.[0-9]{1,2})?$")

routes = Routes()


async def load_stock(request: web.Request) -> dict[str, Any]:
    """The stock named in the URL (symbols are case-insensitive), or a 404."""
    return dict(await fetch_or_404(request, "SELECT symbol, name, sector, start_price FROM stocks WHERE symbol = ?",
                                   (request.match_info["symbol"].upper(),), "There is no stock with that symbol."))


def quote(book: PriceBook, symbol: str) -> dict[str, Any]:
    delta, pct = book.change(symbol)
    return {"price": book.price(symbol), "change": delta, "change_pct": pct}


# Rows a page lists, read by attribute, links included (a NewsItem's href is None for market-wide news)
NewsItem = namedtuple("NewsItem", "source created_at headline symbol href")
HoldingRow = namedtuple("HoldingRow", "symbol name href shares avg_cost price value gain gain_pct")
QuoteRow = namedtuple("QuoteRow", "symbol name href price change change_pct")
Fill = namedtuple("Fill", "order_id price total")  # a filled order, for the confirmation's status line


def holding(symbol: str, name: str, href: str, shares: int, avg_cost: float, price: float) -> HoldingRow:
    """A holding at the current price: its market value and $ and % return against its average cost."""
    value = round(price * shares, 2)
    cost = shares * avg_cost
    gain_pct = (value - cost) / cost * 100 if cost else 0.0
    return HoldingRow(symbol, name, href, shares, avg_cost, price, value, round(value - cost, 2), gain_pct)


def news_items(request: web.Request, rows: list) -> list[NewsItem]:
    """Rows of (source, created_at, headline, symbol), as queries.NEWS selects them."""
    url = make_url(request)
    return [NewsItem(source, created_at, headline, symbol, url("stock", symbol=symbol) if symbol else None)
            for source, created_at, headline, symbol in rows]


@routes.get("/", "home")
async def dashboard(request: web.Request) -> web.Response:
    world = world_of(request)
    url = make_url(request)
    held = await world.fetch_all(queries.HOLDINGS)
    watch = await world.fetch_all(queries.WATCHLIST)
    book = await PriceBook.load(world, starts={row[0]: row[2] for rows in (held, watch) for row in rows})
    cash, start_value = await queries.cash_and_baseline(world)
    holdings = [holding(symbol, name, url("stock", symbol=symbol), shares, avg_cost, book.price(symbol))
                for symbol, name, _, shares, avg_cost in held]
    numbers = portfolio_totals(cash, [(h.shares, h.price) for h in holdings])
    if start_value is None:  # before the session stored its baseline: the same holdings at sim 0
        opening = book.at(0.0)
        start_value = portfolio_totals(cash, [(h.shares, opening.price(h.symbol)) for h in holdings])["portfolio_value"]
    delta, pct = change(numbers["portfolio_value"], start_value)
    watchlist = [QuoteRow(symbol, name, url("stock", symbol=symbol), **quote(book, symbol))
                 for symbol, name, _ in watch]
    headlines = await world.fetch_all(queries.LATEST_NEWS, (DASHBOARD_NEWS,))
    return await render(request, "microhood/dashboard.html", {
        **numbers, "change": delta, "change_pct": pct, "holdings": holdings, "watchlist": watchlist,
        "news": news_items(request, headlines), "news_href": url("news"), "search_href": url("search")})


def price_chart(symbol: str, corners: list[Point], start: float, low: float, high: float) -> Markup:
    """Inline SVG, safe markup (numbers, the escaped symbol): a polyline through the path's corners is exact."""
    until = corners[-1][0]
    span_t = until if until > 0 else 1.0
    values = [v for _, v in corners]
    top, bottom = max(values), min(values)
    if top - bottom < start * 0.002:  # a flat line: give it some room
        top, bottom = top + start * 0.01, bottom - start * 0.01

    def x(t: float) -> float:
        return PAD_X + (t / span_t) * (WIDTH - 2 * PAD_X)

    def y(v: float) -> float:
        return PAD_Y + (top - v) / (top - bottom) * (HEIGHT - 2 * PAD_Y)

    if until > 0:
        line = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v in corners)
    else:  # the clock has not started: one flat segment at the start price
        line = f"{PAD_X:.1f},{y(start):.1f} {WIDTH - PAD_X:.1f},{y(start):.1f}"
    last = corners[-1][1]
    colour = "#1a7f37" if last >= start else "#c62828"
    label = (f"Price chart for {escape(symbol)} from the open until now: "
             f"open ${start:,.2f}, low ${low:,.2f}, high ${high:,.2f}")
    base_y = y(start)
    return Markup(
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" aria-label="{label}">'
        f"<title>{label}</title>"
        f'<line x1="{PAD_X}" y1="{base_y:.1f}" x2="{WIDTH - PAD_X}" y2="{base_y:.1f}" '
        f'stroke="#98a2ad" stroke-dasharray="4 4" stroke-width="1"/>'
        f'<polyline fill="none" stroke="{colour}" stroke-width="2" stroke-linejoin="round" points="{line}"/>'
        f"</svg>"
    )


@routes.get("/stock/{symbol}", "stock")
async def stock_page(request: web.Request) -> web.Response:
    world = world_of(request)
    stock = await load_stock(request)
    symbol = stock["symbol"]
    book = await PriceBook.load(world)
    high, low = book.high_low(symbol)
    held = await world.fetch_one("SELECT shares, avg_cost FROM holdings WHERE symbol = ?", (symbol,))
    mine = None if held is None else holding(symbol, stock["name"], "", held["shares"], held["avg_cost"],
                                             book.price(symbol))  # the position box: a dashboard row's figures
    watched = await world.fetch_value("SELECT 1 FROM watchlist WHERE symbol = ?", (symbol,)) is not None
    stock_news = news_items(request, await world.fetch_all(queries.STOCK_NEWS, (symbol,)))
    return await render(request, "microhood/stock.html", {
        "stock": stock, **quote(book, symbol), "high": high, "low": low, "position": mine, "watched": watched,
        "news": stock_news, "chart": price_chart(symbol, book.corners(symbol), stock["start_price"], low, high)})


# --- the order ticket: form fields to a Ticket or field errors (parse_ticket), a confirmed order filled (fill) ---

@dataclass(frozen=True)
class Ticket:
    side: str
    order_type: str
    shares: int
    limit_price: float | None

    def fields(self) -> dict[str, str]:
        """The ticket as form fields (hidden inputs of the review page, the Edit link)."""
        return {"side": self.side, "order_type": self.order_type, "shares": str(self.shares),
                "limit_price": "" if self.limit_price is None else f"{self.limit_price:.2f}"}


def whole_number(text: str) -> int | None:
    """ASCII digits only (no sign, no decimals, no '²'), as an int; else None. Absurdly long
    numbers count as 10**40 (Python refuses to convert more than 4,300 digits)."""
    text = text.strip().replace(",", "")
    if not DIGITS_RE.match(text):
        return None
    return int(text) if len(text) <= 40 else 10**40


def form_values(form: Mapping[str, str]) -> dict[str, str]:
    """What the ticket form shows again after an error (text only, capped)."""
    return {key: str(form.get(key, "") or "").strip()[:40]
            for key in ("side", "order_type", "shares", "limit_price")}


def choice_errors(values: dict[str, str]) -> dict[str, str]:
    """Lower-cases the side and the order type in `values`; the errors of the two choices."""
    values["side"], values["order_type"] = values["side"].lower(), values["order_type"].lower()
    errors = {}
    if values["side"] not in SIDES:
        errors["side"] = "Choose Buy or Sell."
    if values["order_type"] not in ORDER_TYPES:
        errors["order_type"] = "Choose Market or Limit."
    return errors


def parse_ticket(form: Mapping[str, str]) -> tuple[Ticket | None, dict[str, str]]:
    values = form_values(form)
    errors = choice_errors(values)
    shares = whole_number(values["shares"])
    if shares is None:
        errors["shares"] = "Enter a whole number of shares, 1 or more."
    elif shares < 1:
        errors["shares"] = "Enter at least 1 share."
    elif shares > MAX_SHARES:
        errors["shares"] = f"At most {MAX_SHARES:,} shares per order."
    limit_price = None
    if values["order_type"] == "limit":
        raw_price = values["limit_price"].replace(",", "").removeprefix("$")
        if not raw_price:
            errors["limit_price"] = "Enter a limit price for a limit order."
        elif not PRICE_RE.match(raw_price):
            errors["limit_price"] = "Enter a price in dollars and cents, like 42.20."
        else:
            limit_price = float(raw_price)
            if not math.isfinite(limit_price) or limit_price <= 0 or limit_price > MAX_PRICE:
                errors["limit_price"] = f"Enter a price above $0 and at most ${MAX_PRICE:,.0f}."
    if errors:
        return None, errors
    assert shares is not None
    return Ticket(values["side"], values["order_type"], shares, limit_price), {}


async def fill(world: World, symbol: str, ticket: Ticket) -> tuple[Fill | None, dict[str, str]]:
    """Fill the order now or explain why not (field → message). Call inside world.write()."""
    price = (await PriceBook.load(world)).price(symbol)
    limit = ticket.limit_price
    if limit is not None and not (price <= limit if ticket.side == "buy" else price >= limit):  # not marketable
        return None, {"limit_price": "Limit not reached; resting orders are not supported"}
    total = round(price * ticket.shares, 2)
    cash = await buying_power(world)
    held = await world.fetch_one("SELECT shares, avg_cost FROM holdings WHERE symbol = ?", (symbol,))
    if ticket.side == "buy":
        if total > cash + 1e-9:
            return None, {"shares": "Insufficient buying power"}
        cash -= total
        if held is None:
            await world.insert("holdings", {"symbol": symbol, "shares": ticket.shares, "avg_cost": price},
                               origin="self")
        else:
            shares = held["shares"] + ticket.shares
            avg_cost = (held["shares"] * held["avg_cost"] + total) / shares
            await world.db.execute("UPDATE holdings SET shares = ?, avg_cost = ? WHERE symbol = ?",
                                   (shares, round(avg_cost, 4), symbol))
    else:
        if held is None or ticket.shares > held["shares"]:
            return None, {"shares": "Not enough shares"}
        cash += total
        if ticket.shares == held["shares"]:
            await world.db.execute("DELETE FROM holdings WHERE symbol = ?", (symbol,))
        else:
            await world.db.execute("UPDATE holdings SET shares = shares - ? WHERE symbol = ?", (ticket.shares, symbol))
    await world.db.execute("UPDATE account SET buying_power = ? WHERE id = 1", (round(cash, 2),))
    order_id = await next_order_id(world)
    await world.insert("orders", {"id": order_id, "symbol": symbol, "side": ticket.side, "quantity": ticket.shares,
                                  "order_type": ticket.order_type, "limit_price": ticket.limit_price,
                                  "fill_price": price, "placed_at": world.now()}, origin="self")
    return Fill(order_id, price, total), {}


async def next_order_id(world: World) -> str:
    n = int(await world.fetch_value("SELECT COUNT(*) FROM orders") or 0) + 1
    while await world.fetch_value("SELECT 1 FROM orders WHERE id = ?", (f"ord-{n}",)):
        n += 1
    return f"ord-{n}"


async def order_context(world: World, stock: dict) -> dict[str, Any]:
    """What the ticket and the review show beside the order: its price, the buying power, the shares held."""
    price = (await PriceBook.load(world)).price(stock["symbol"])
    held = await world.fetch_value("SELECT shares FROM holdings WHERE symbol = ?", (stock["symbol"],))
    return {"stock": stock, "price": price, "buying_power": await buying_power(world), "held": int(held or 0)}


async def ticket_page(request: web.Request, stock: dict, values: dict[str, str],
                      errors: dict[str, str]) -> web.Response:
    """The order ticket, with each error next to its field (a 400 if there are any)."""
    context = await order_context(world_of(request), stock)
    shares = whole_number(values.get("shares", ""))
    estimate = round(context["price"] * shares, 2) if shares and shares <= MAX_SHARES else None
    return await render(request, "microhood/ticket.html", {**context, "values": values, "errors": errors,
                                                           "estimate": estimate}, status=400 if errors else 200)


@routes.get("/stock/{symbol}/order", "ticket")
async def order_ticket(request: web.Request) -> web.Response:
    stock = await load_stock(request)
    values = form_values({"side": "buy", "order_type": request.query.get("type", "market"), **request.query})
    errors = choice_errors(values)
    return await ticket_page(request, stock, values, errors)


@routes.post("/stock/{symbol}/order/review", "order_review")
async def order_review(request: web.Request) -> web.Response:
    """Validate the ticket and show what Confirm would do; nothing changes."""
    stock = await load_stock(request)
    form = await form_of(request)
    ticket, errors = parse_ticket(form)
    if ticket is None:
        return await ticket_page(request, stock, form_values(form), errors)
    context = await order_context(world_of(request), stock)
    return await render(request, "microhood/review.html", {
        **context, "ticket": ticket, "fields": ticket.fields(), "total": round(context["price"] * ticket.shares, 2),
        "edit_href": url_for(request, "ticket", symbol=stock["symbol"], query=ticket.fields())})


@routes.post("/stock/{symbol}/order/confirm", "order_confirm")
async def order_confirm(request: web.Request) -> web.Response:
    world = world_of(request)
    stock = await load_stock(request)
    symbol = stock["symbol"]
    form = await form_of(request)
    ticket, errors = parse_ticket(form)
    filled = None
    if ticket is not None:
        async with world.write():
            filled, errors = await fill(world, symbol, ticket)
    if ticket is None or filled is None:
        return await ticket_page(request, stock, form_values(form), errors)
    verb = "Bought" if ticket.side == "buy" else "Sold"
    message = (f"{verb} {ticket.shares} {symbol} at ${filled.price:,.2f} "
               f"(total ${filled.total:,.2f}), order {filled.order_id}")
    raise done(request, form, message, url_for(request, "orders"))


@routes.post("/watchlist/{symbol}", "watchlist")
async def toggle_watchlist(request: web.Request) -> web.Response:
    world = world_of(request)
    symbol = (await load_stock(request))["symbol"]
    form = await form_of(request)
    async with world.write() as db:
        if await world.fetch_value("SELECT 1 FROM watchlist WHERE symbol = ?", (symbol,)):
            await db.execute("DELETE FROM watchlist WHERE symbol = ?", (symbol,))
            message = f"Removed {symbol} from your watchlist"
        else:
            await world.insert("watchlist", {"symbol": symbol, "added_at": world.created_at()}, origin="self")
            message = f"Added {symbol} to your watchlist"
    raise done(request, form, message, url_for(request, "stock", symbol=symbol))


@routes.get("/search", "search")
async def search(request: web.Request) -> web.Response:
    world = world_of(request)
    query = text_param(request.query, "q", max_len=100, label="The search")
    book = await PriceBook.load(world)
    rows = await world.fetch_all("SELECT symbol, name, sector FROM stocks ORDER BY symbol")
    needle = query.casefold()
    if needle:
        rows = [r for r in rows if needle in r["symbol"].casefold() or needle in r["name"].casefold()]
        rows.sort(key=lambda r: (r["symbol"].casefold() != needle, not r["symbol"].casefold().startswith(needle)))
    results = [{**dict(r), **quote(book, r["symbol"])} for r in rows]
    return await render(request, "microhood/search.html", {"query": query, "results": results})


@routes.get("/orders", "orders")
async def orders(request: web.Request) -> web.Response:
    listing = await paged(request, per_page=ORDERS_PER_PAGE, count_sql="SELECT COUNT(*) FROM orders",
                          rows_sql="SELECT * FROM orders ORDER BY placed_at DESC, rowid DESC")
    return await render(request, "microhood/orders.html", {"list": listing, "orders": listing.rows})


@routes.get("/news", "news")
async def news(request: web.Request) -> web.Response:
    listing = await paged(request, per_page=NEWS_PER_PAGE, count_sql="SELECT COUNT(*) FROM news",
                          rows_sql=queries.ALL_NEWS, row=tuple)
    return await render(request, "microhood/news.html", {"list": listing, "news": news_items(request, listing.rows)})
