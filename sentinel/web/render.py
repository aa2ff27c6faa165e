"""`render`: every page goes through it, which adds what the shared layout needs: the
environment's brand and header (its Chrome: navigation with the active entry, search, counters),
the self persona, the status line left by the last POST, and the world's current time for
relative timestamps; and `make_url`, the named-route links templates print, built once per app.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

import aiohttp_jinja2
from aiohttp import web

from sentinel.core.environment import Environment, Header
from sentinel.web.keys import ENV_CSS, ENVIRONMENT, LAYOUT, WORLD
from sentinel.web.request_checks import skips_side_effect

MAX_URLS = 4096  # remembered links per app
_URLS: WeakKeyDictionary[web.Application, dict[tuple, str]] = WeakKeyDictionary()


@dataclass(frozen=True)
class NavLink:
    label: str
    href: str
    active: bool


@dataclass(frozen=True)
class Chrome:
    """The header of one page, computed once: templates only print it."""

    home: str
    nav: tuple[NavLink, ...]
    search_action: str | None
    unread: int
    extra: Mapping[str, Any]


def make_url(request: web.Request):
    """`url("message", id=…, query={…})` for templates: named routes, never literal paths.

    A path depends only on the route table, which never changes once the app runs, so each
    distinct call is built once per app and remembered (a page links to dozens of them)."""
    app = request.app
    router = app.router
    built_urls = _URLS.get(app)
    if built_urls is None:
        built_urls = _URLS[app] = {}

    def url(name: str, query: Mapping[str, Any] | None = None, **parts: Any) -> str:
        key = (name, tuple(parts.items()), tuple(query.items()) if query else ())
        try:
            return built_urls[key]
        except (KeyError, TypeError):  # TypeError: an unhashable value, built every time
            pass
        built = router[name].url_for(**{k: str(v) for k, v in parts.items()})
        if query:
            built = built.with_query({k: str(v) for k, v in query.items() if v not in (None, "")})
        text = str(built)
        if len(built_urls) >= MAX_URLS:  # search queries are unbounded: start over
            built_urls.clear()
        with suppress(TypeError):
            built_urls[key] = text
        return text
    return url


def build_chrome(request: web.Request, environment: Environment, header: Header) -> Chrome:
    url = make_url(request)
    links = []
    for item in environment.nav:
        label = item.label if item.count is None else f"{item.label} ({header.counts.get(item.count, 0)})"
        links.append((label, url(item.route, **item.parts)))
    path = request.path
    home = environment.start_page
    matches = [href for _, href in links
               if href.split("?")[0] == path or (href != home and path.startswith(href.rstrip("/") + "/"))]
    active = max(matches, key=len) if matches else None
    search = url(environment.search) if environment.search else None
    return Chrome(environment.start_page, tuple(NavLink(label, href, href == active) for label, href in links),
                  search, header.unread, header.extra)


async def render(request: web.Request, template: str, context: dict[str, Any] | None = None,
                 status: int = 200, header: Header | None = None) -> web.Response:
    """The page, rendered with the layout's context. header: the environment's header when the
    view already computed it from the same reads (else it is read here)."""
    world = request.app[WORLD]
    environment = request.app[ENVIRONMENT]
    flash = None
    if request.method == "GET" and world.flash is not None and not skips_side_effect(request):
        flash, world.flash = world.flash, None
    page = {
        "env_name": environment.name,
        "env_title": environment.title,
        "layout": request.app[LAYOUT],
        "env_css": request.app[ENV_CSS],
        "me": world.self_persona,
        "chrome": build_chrome(request, environment, header or await environment.header(world)),
        "url": make_url(request),
        "status_line": flash,
        "now": world.now_dt(),
        "request_path": request.path_qs,
        "query": request.query.get("q", ""),
    }
    page.update(context or {})
    text = request.app[aiohttp_jinja2.APP_KEY].get_template(template).render(page)
    return web.Response(body=text.encode(), status=status, content_type="text/html", charset="utf-8",
                        headers={"Cache-Control": "no-cache"})
