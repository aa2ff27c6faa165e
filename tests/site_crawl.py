"""Every view of an environment: a crawl of a session's site in Chromium, from the start page,
following the site's own links until each GET route of the app has been opened once."""

from __future__ import annotations

from urllib.parse import urlsplit

from aiohttp.test_utils import make_mocked_request

from sentinel.core.config import load_config
from sentinel.envs import get_environment
from sentinel.envs.catalog import catalog_scenario

MAX_PAGES = 80
LINKS_JS = "() => Array.from(document.querySelectorAll('a[href]'), a => a.href)"


def whole_catalog(env_name: str):
    """A scenario whose world holds the environment's whole catalog (as `sentinel serve` shows)."""
    return catalog_scenario(get_environment(env_name), load_config())


async def route_of(app, path: str) -> str | None:
    """The canonical path of the GET route that serves path, or None (static files, no route)."""
    match = await app.router.resolve(make_mocked_request("GET", path))
    route = getattr(match, "route", None)
    if route is None or match.http_exception is not None or path.startswith("/static/"):
        return None
    return route.resource.canonical if route.resource is not None else None


def fixed_routes(app) -> list[str]:
    """The addresses of the GET routes without a variable part (a search route with a query)."""
    found = []
    for route in app.router.routes():
        canonical = route.resource.canonical if route.resource is not None else ""
        if route.method == "GET" and "{" not in canonical and canonical.count("/") > 1:
            found.append(canonical + ("?q=the" if canonical.endswith("/search") else ""))
    return found


async def crawl(live, page, skip: tuple[str, ...] = ("/contact", "/start", "/static")) -> dict[str, str]:
    """route → the first address that opened it, visiting each route once (at most MAX_PAGES):
    the start page, every route without a variable part, then whatever their links reach."""
    base = str(live.client.make_url("/"))
    queue = [live.session.scenario.start_page or "/", *fixed_routes(live.session.app)]
    seen: set[str] = set(queue)
    views: dict[str, str] = {}
    while queue and len(views) < MAX_PAGES:
        path = queue.pop(0)
        route = await route_of(live.session.app, urlsplit(path).path)
        if route is None or route in views or any(path.startswith(s) for s in skip):
            continue
        response = await page.goto(base.rstrip("/") + path, wait_until="load")
        if response is None or response.status >= 400:
            continue
        views[route] = path
        for href in await page.evaluate(LINKS_JS):
            parts = urlsplit(href)
            local = parts.path + (f"?{parts.query}" if parts.query else "")
            if href.startswith(base) and local not in seen:
                seen.add(local)
                queue.append(local)
    return views
