"""Typed application keys: what a session's aiohttp app carries, and what the site reports to
its session (SiteHooks). Nothing here imports another web module, so there is no cycle."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol

from aiohttp import web

if TYPE_CHECKING:
    from sentinel.core.environment import Environment
    from sentinel.web.cache import PageCache
    from sentinel.world.state import World


class TimeWaits(Protocol):
    """How the site's waits pass time on its session's clock: wall time (sentinel.web.waiting.WallWaits)
    or the virtual clock's jumps (sentinel.session.virtual.VirtualTime, docs/model-time.md)."""

    def working(self) -> AbstractContextManager[None]:
        """Around a request of the agent: it is doing work (its clock does not jump meanwhile)."""
        ...

    async def until(self, world: World, since: tuple[int, int, int], until_sim: float,
                    step_s: float | None) -> None:
        """Inside working(): block until the world's version differs from `since`, sim time reaches
        until_sim, or the clock changes course (a page that follows time: at its next step_s at
        the latest); the caller then looks again."""
        ...


class SiteHooks(Protocol):
    """What the site reports to its session (sentinel.session.live.Session implements it)."""

    start_page: str
    waits: TimeWaits

    async def begin(self) -> None: ...

    async def agent_request(self) -> None: ...

    async def catch_up(self) -> None: ...

    def page_served(self) -> None: ...

    async def contact(self) -> None: ...

    async def contact_message(self, message: str) -> None: ...

    def log_request(self, method: str, path: str, status: int, size: int, live: bool,
                    body: bytes | None = None, digest: str | None = None) -> None: ...


WORLD: web.AppKey[World] = web.AppKey("world")
ENVIRONMENT: web.AppKey[Environment] = web.AppKey("environment")
HOOKS: web.AppKey[SiteHooks] = web.AppKey("hooks")
LAYOUT: web.AppKey[str] = web.AppKey("layout")  # the template every page of the site extends
ENV_CSS: web.AppKey[str | None] = web.AppKey("env_css")  # /static/<env>.css when the environment has one
PAGE_CACHE: web.AppKey[PageCache] = web.AppKey("page_cache")  # rendered pages on the world's version
BODY_TAG: web.RequestKey[str] = web.RequestKey("body_tag", str)  # the served page's ETag, hashed once
# A read that only looks (a waiting GET's re-check): it runs no GET side effect, as a live refresh.
LOOK_ONLY: web.RequestKey[bool] = web.RequestKey("look_only", bool)
# Set when a look left out a side effect a plain GET would have run (or may have: a cached look).
SKIPPED_EFFECT: web.RequestKey[bool] = web.RequestKey("skipped_effect", bool)
