"""Rendered pages kept on the world's version, so an unchanged page is never rendered twice.

A page's key is (world version, clock step): the version changes with every row written and
every flash line, the step with the coarsest clock granularity the environment's pages show
(`Environment.page_time_step_s`). While the key holds, a GET of the same path answers from the
cache, and a conditional GET with the cached ETag answers 304 without running the handler.
The ETag itself stays a hash of the page's bytes: it changes only when the page does, so it
tells an agent nothing the page does not (a version-derived tag would signal hidden events).

Pages that cannot be keyed this way are never cached: environments whose text follows time
continuously (page_time_step_s None), the shared /start and /contact pages, POSTs, error pages,
and a GET that would consume a flash line. Live refreshes are cached apart from the agent's own
GETs, because only the latter run GET side effects (marking a message read).
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from dataclasses import dataclass

from aiohttp import web

from sentinel.web.keys import ENVIRONMENT, WORLD

MAX_PAGES = 16  # per session: an agent polls a handful of pages; 100 sessions stay a few MB


@dataclass(frozen=True)
class CachedPage:
    key: tuple
    body: bytes
    tag: str
    content_type: str
    charset: str | None


class PageCache:
    def __init__(self, max_pages: int = MAX_PAGES):
        self.max_pages = max_pages
        self._pages: OrderedDict[tuple[str, bool], CachedPage] = OrderedDict()
        self.hits = 0
        self.renders = 0

    def get(self, slot: tuple[str, bool], key: tuple) -> CachedPage | None:
        page = self._pages.get(slot)
        if page is None or page.key != key:
            return None
        self._pages.move_to_end(slot)
        self.hits += 1
        return page

    def put(self, slot: tuple[str, bool], page: CachedPage) -> None:
        self.renders += 1
        self._pages[slot] = page
        self._pages.move_to_end(slot)
        while len(self._pages) > self.max_pages:
            self._pages.popitem(last=False)


def page_key(request: web.Request) -> tuple | None:
    """The key this GET's page is valid under, or None when it must be rendered."""
    environment = request.app[ENVIRONMENT]
    step = environment.page_time_step_s
    if step is None or request.method != "GET" or not request.path.startswith(f"/{environment.name}/"):
        return None
    world = request.app[WORLD]
    if world.flash is not None:
        return None
    return (world.version, math.floor(world.now() / step))


def body_digest(body: bytes) -> str:
    """A page body's name: the first 20 hex digits of its SHA-1 (its ETag, and its stored file's name)."""
    return hashlib.sha1(body).hexdigest()[:20]


def etag_of(body: bytes) -> str:
    return '"' + body_digest(body) + '"'


def digest_of_tag(tag: str) -> str:
    return tag.strip('"')


def not_modified(tag: str) -> web.Response:
    return web.Response(status=304, headers={"ETag": tag, "Cache-Control": "no-cache"})


def from_cache(page: CachedPage) -> web.Response:
    response = web.Response(body=page.body, content_type=page.content_type, charset=page.charset)
    response.headers["ETag"] = page.tag
    response.headers["Cache-Control"] = "no-cache"
    return response
