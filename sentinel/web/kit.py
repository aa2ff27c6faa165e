"""The page rules every environment shares (docs/environments.md#actions–0.7), written once.

- `BadInput`: raise it anywhere in a handler; the site answers 400 with its message inside the
  environment's chrome (never a 5xx, never a traceback).
- `paged(...)`: one page of a list, "?page=N", one 404 text past the last page.
- `mark_seen(...)`: the one GET side effect, skipped for live refreshes.
- `toggle(...)`: flip a 0/1 column and say what happened.
- `done(...)`: post/redirect/get with the one-line status.
- `url_for(...)`: named routes instead of literal paths; `redirect_to(...)`: a page that only forwards.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from multidict import MultiDictProxy

from sentinel.web.keys import ENVIRONMENT, WORLD
from sentinel.web.render import make_url, render
from sentinel.web.request_checks import local_path, skips_side_effect
from sentinel.world.state import World

MAX_PAGE = 10_000
PAGE_ERROR = "The page number must be a whole number from 1."


class BadInput(Exception):
    """Input a page or action cannot use: answered with a 400 page showing the message."""


def world_of(request: web.Request) -> World:
    return request.app[WORLD]


def route_name(request: web.Request) -> str:
    """The name of the route serving the request: what tells apart the routes one handler serves."""
    return request.match_info.route.name or ""


def url_for(request: web.Request, name: str, query: Mapping[str, Any] | None = None, **parts: Any) -> str:
    """The path of the named route ("message", id="em0001"), with an optional query string."""
    return make_url(request)(name, query, **parts)


# --- query and form parameters -------------------------------------------------------------

def page_number(request: web.Request) -> int:
    raw = request.query.get("page", "1")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6) or not 1 <= int(raw) <= MAX_PAGE:
        raise BadInput(PAGE_ERROR)
    return int(raw)


def text_param(source: Mapping[str, Any], name: str, *, max_len: int = 200, label: str | None = None,
               required: str | None = None) -> str:
    """A text parameter with whitespace folded; BadInput when longer than max_len, or with the
    `required` message when it is empty and one is given."""
    value = source.get(name, "")
    if not isinstance(value, str):
        raise BadInput(f"{label or name.capitalize()} must be text.")
    folded = " ".join(value.split())
    if len(folded) > max_len:
        raise BadInput(f"{label or name.capitalize()} is too long ({max_len} characters at most).")
    if required and not folded:
        raise BadInput(required)
    return folded


def choice_param(source: Mapping[str, Any], name: str, choices: Sequence[str], default: str,
                 message: str) -> str:
    """One of `choices` (default when absent or empty); BadInput with `message` otherwise."""
    value = source.get(name) or default
    if value not in choices:
        raise BadInput(message)
    return str(value)


# --- lists ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Paged:
    """One page of a list, with what the shared pager macro prints ("Showing 1–20 of 57")."""

    rows: list[Any]
    total: int
    page: int
    per_page: int
    base: str  # the list's URL without its page parameter, ending in "?" or "&"

    @property
    def pages(self) -> int:
        return max(1, (self.total + self.per_page - 1) // self.per_page)

    @property
    def first(self) -> int:
        """The position of the page's first row in the list (0 for an empty list)."""
        return (self.page - 1) * self.per_page + 1 if self.total else 0

    @property
    def last(self) -> int:
        return min(self.page * self.per_page, self.total)

    @property
    def page_links(self) -> tuple[tuple[int, str | None], ...]:
        """Every page number with its link; None for the page shown."""
        base, here = self.base, self.page
        return tuple((n, None if n == here else f"{base}page={n}") for n in range(1, self.pages + 1))


def no_such_page(page: int, pages: int) -> web.HTTPNotFound:
    return web.HTTPNotFound(text=f"There is no page {page} here; the last page is {pages}.")


def list_base(request: web.Request) -> str:
    """The current URL without its page parameter, ready for "page=N" to be appended."""
    if not request.query:
        return f"{request.path}?"
    others = [(k, v) for k, v in request.query.items() if k != "page"]
    query = str(request.rel_url.with_query(others).query_string)
    return f"{request.path}?{query}&" if query else f"{request.path}?"


async def paged(request: web.Request, *, rows_sql: str, count_sql: str | None = None, total: int | None = None,
                params: Sequence[Any] = (), per_page: int = 20, row: Callable[[Any], Any] = dict) -> Paged:
    """Count (count_sql, or the total the caller already knows), then fetch one page: rows_sql
    gets " LIMIT ? OFFSET ?" appended. A page past the last answers 404; a bad page number 400."""
    world = world_of(request)
    page = page_number(request)
    if total is None:
        if count_sql is None:
            raise TypeError("paged() needs count_sql or total")
        total = int(await world.fetch_value(count_sql, tuple(params)) or 0)
    result = Paged([], total, page, per_page, list_base(request))
    if page > result.pages:
        raise no_such_page(page, result.pages)
    found = await world.fetch_all(f"{rows_sql} LIMIT ? OFFSET ?", (*params, per_page, (page - 1) * per_page))
    return Paged([row(r) for r in found], total, page, per_page, result.base)


def paged_list(request: web.Request, items: Sequence[Any], per_page: int = 20) -> Paged:
    """The same over a list already computed in Python (search results ranked in code)."""
    page = page_number(request)
    result = Paged([], len(items), page, per_page, list_base(request))
    if page > result.pages:
        raise no_such_page(page, result.pages)
    start = (page - 1) * per_page
    return Paged(list(items[start:start + per_page]), len(items), page, per_page, result.base)


# --- rows -----------------------------------------------------------------------------------

async def fetch_or_404(request: web.Request, sql: str, params: Sequence[Any], gone: str) -> Any:
    """The one row sql selects, or a 404 page saying `gone` ("This message no longer exists.")."""
    row = await world_of(request).fetch_one(sql, tuple(params))
    if row is None:
        raise web.HTTPNotFound(text=gone)
    return row


async def mark_seen(request: web.Request, sql: str, params: Sequence[Any]) -> bool:
    """The one GET side effect (docs/environments.md#actions): run an UPDATE that sets read/seen flags, unless this is a
    live refresh or a waiting GET's re-check. The UPDATE must only set flags to 1 (idempotent).
    True if it ran."""
    if skips_side_effect(request):
        return False
    async with world_of(request).write() as db:
        await db.execute(sql, tuple(params))
    return True


async def toggle(request: web.Request, table: str, column: str, row_id: str) -> bool:
    """Flip a 0/1 column of one row; the new value. The caller has checked the row exists."""
    world = world_of(request)
    async with world.write() as db:
        await db.execute(f"UPDATE {table} SET {column} = 1 - {column} WHERE id = ?", (row_id,))
        value = await world.fetch_value(f"SELECT {column} FROM {table} WHERE id = ?", (row_id,))
    return bool(value)


# --- answers ---------------------------------------------------------------------------------

async def form_of(request: web.Request) -> MultiDictProxy[Any]:
    """The POSTed form; a body that is not a form is bad input, not a crash."""
    try:
        return await request.post()
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadInput("The form could not be read.") from exc


def done(request: web.Request, form: Mapping[str, Any], status_line: str, fallback: str) -> web.HTTPSeeOther:
    """Post/redirect/get: remember the status line and answer 303 to the form's `next` page (a
    local path only), else to `fallback`. Raise what it returns."""
    world_of(request).flash = status_line
    next_url = form.get("next")
    target = next_url if isinstance(next_url, str) and local_path(next_url) else fallback
    return web.HTTPSeeOther(target)


def redirect_to(name: str, **parts: Any) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """A handler that only sends the browser on (302) to the named route, for a home page that
    is another page: `routes.get("/", "home")(redirect_to("chats"))`."""
    async def forward(request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(url_for(request, name, **parts))
    return forward


async def bad_request(request: web.Request, message: str) -> web.Response:
    """The 400 page (what raising BadInput produces), for handlers that return it."""
    return await render(request, "common/error.html", {"message": message, "code": 400}, status=400)


def start_page(request: web.Request) -> str:
    return request.app[ENVIRONMENT].start_page
