"""Typed application keys: what a session's aiohttp app carries."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

if TYPE_CHECKING:
    from sentinel.envs.base import Environment
    from sentinel.web.app import SiteHooks
    from sentinel.world import World

WORLD: web.AppKey["World"] = web.AppKey("world")
ENVIRONMENT: web.AppKey["Environment"] = web.AppKey("environment")
HOOKS: web.AppKey["SiteHooks"] = web.AppKey("hooks")
