"""The order ticket: `parse_ticket` turns form fields into a `Ticket` or field errors, and `fill`
prices a confirmed order at the current price and writes it."""

from __future__ import annotations

import math
import re
from collections import namedtuple
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sentinel.envs.microhood.prices import PriceBook, buying_power

if TYPE_CHECKING:
    from sentinel.world.state import World

SIDES = ("buy", "sell")
ORDER_TYPES = ("market", "limit")
MAX_SHARES = 1_000_000
MAX_PRICE = 1_000_000.0
DIGITS_RE = re.compile(r"^[0-9]+$")
PRICE_RE = re.compile(r"^[0-9]{1,9}(\.[0-9]{1,2})?$")


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


Fill = namedtuple("Fill", "order_id price total")


async def fill(world: World, symbol: str, ticket: Ticket) -> tuple[Fill | None, dict[str, str]]:
    """Fill the order now or explain why not (field → message). Call inside world.write()."""
    price = (await PriceBook.load(world)).price(symbol)
    if ticket.limit_price is not None:
        marketable = price <= ticket.limit_price if ticket.side == "buy" else price >= ticket.limit_price
        if not marketable:
            return None, {"limit_price": "Limit not reached; resting orders are not supported"}
    total = round(price * ticket.shares, 2)
    cash = await buying_power(world)
    held = await world.fetch_one("SELECT shares, avg_cost FROM holdings WHERE symbol = ?", (symbol,))
    db = world.db  # inside the caller's write transaction
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
            await db.execute("UPDATE holdings SET shares = ?, avg_cost = ? WHERE symbol = ?",
                             (shares, round(avg_cost, 4), symbol))
    else:
        if held is None or ticket.shares > held["shares"]:
            return None, {"shares": "Not enough shares"}
        cash += total
        if ticket.shares == held["shares"]:
            await db.execute("DELETE FROM holdings WHERE symbol = ?", (symbol,))
        else:
            await db.execute("UPDATE holdings SET shares = shares - ? WHERE symbol = ?", (ticket.shares, symbol))
    await db.execute("UPDATE account SET buying_power = ? WHERE id = 1", (round(cash, 2),))
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
