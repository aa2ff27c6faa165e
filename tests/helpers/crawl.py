"""Every view of an environment, found as an agent finds it: a crawl of a live session's site from
the environment's start page, following the site's own links and GET forms (a search for "e"),
never a list of addresses written by hand. Over HTTP by default, or in Chromium (in_chromium)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Iterable
from urllib.parse import urlencode, urlsplit

from sentinel.agents.browse import Page, parse_page

MAX_PAGES = 160
Reader = Callable[[str], Awaitable[Page]]  # path → the page it shows


def route_of(app, path: str) -> str | None:
    """The name of the route a path belongs to (None for unnamed shared pages)."""
    for resource in app.router.resources():
        info = resource.get_info()
        pattern = info.get("pattern")
        if resource.name and (info.get("path") == path or (pattern is not None and pattern.fullmatch(path))):
            return resource.name
    return None


def one_per_route(app, paths: Iterable[str]) -> dict[str | None, str]:
    """route → the first of paths that belongs to it."""
    found: dict[str | None, str] = {}
    for path in paths:
        found.setdefault(route_of(app, urlsplit(path).path), path)
    return found


def targets_of(page: Page) -> list[str]:
    """Where a page leads: its links, and its GET forms with every text or search field set to "e"."""
    found = [href for href, _ in page.links]
    found += [form.action + "?" + urlencode({**form.fields, **{c.name: "e" for c in form.controls
                                                               if c.kind in ("search", "text")}})
              for form in page.forms if form.method == "get"]
    return found


def in_chromium(live, tab) -> Reader:
    """A reader that opens each page in a Playwright page (tab) and parses what Chromium shows."""
    async def read(path: str) -> Page:
        response = await tab.goto(str(live.client.make_url(path)), wait_until="load")
        return parse_page(path, response.status if response is not None else 0, await tab.content())
    return read


async def crawl(live, read: Reader | None = None, once_per_route: bool = False,
                max_pages: int = MAX_PAGES) -> dict[str, Page]:
    """path → page for the local pages reached from the start page, pages of routes not seen yet
    first; the rest of the pages found are sampled (so that deep views get their turn) up to
    max_pages, or left out with once_per_route (one page per route). read(path) opens a page
    (default: over HTTP, as an agent reads it); every answer must be below 500."""
    read = read or (lambda path: live.page(path, status=None))
    app = live.client.app
    start = live.session.environment.start_page
    seen: dict[str, Page] = {}
    routes_seen: set[str | None] = set()
    fresh, later = [start], []
    pick = random.Random(7)
    while (fresh or (later and not once_per_route)) and len(seen) < max_pages:
        from_fresh = bool(fresh)
        path = fresh.pop(0) if from_fresh else later.pop(pick.randrange(len(later)))
        if path in seen:
            continue
        if from_fresh and route_of(app, urlsplit(path).path) in routes_seen:
            later.append(path)  # its route was reached meanwhile
            continue
        page = await read(path)
        assert page.status < 500, f"{path}: {page.status}"
        seen[path] = page
        routes_seen.add(route_of(app, urlsplit(path).path))
        for href in targets_of(page):
            local = urlsplit(href)
            target = local.path + (f"?{local.query}" if local.query else "")
            if target.startswith(start) and target not in seen:
                new_route = route_of(app, local.path) not in routes_seen
                (fresh if new_route else later).append(target)
    return seen
