"""Templates: one Jinja environment over web/templates, the filters pages need, and `render`.

Every page goes through `render`, which adds what the shared layout needs: the environment's
brand and header counters, the self persona, the status line left by the last POST, and the
world's current time for relative timestamps.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web

from sentinel.web.keys import ENVIRONMENT, WORLD
from sentinel.world import parse_iso

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "web" / "templates"
STATIC_DIR = Path(__file__).resolve().parents[2] / "web" / "static"
LIVE_HEADER = "X-Live-Refresh"


def make_templates() -> jinja2.Environment:
    """The Jinja environment shared by every session of a process (autoescaped)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=jinja2.select_autoescape(["html"], default=True),
        undefined=jinja2.StrictUndefined,
        enable_async=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["reltime"] = reltime
    env.filters["fulltime"] = fulltime
    env.filters["money"] = money
    env.filters["signed_money"] = signed_money
    env.filters["percent"] = percent
    env.filters["filesize"] = filesize
    return env


def is_live(request: web.Request) -> bool:
    """True for the browser script's background refreshes: they never run GET side effects."""
    return request.headers.get(LIVE_HEADER) == "1"


async def render(request: web.Request, template: str, context: dict[str, Any] | None = None,
                 status: int = 200) -> web.Response:
    world = request.app[WORLD]
    environment = request.app[ENVIRONMENT]
    flash = None
    if request.method == "GET" and not is_live(request):
        flash, world.flash = world.flash, None
    page = {
        "env_name": environment.name,
        "env_title": environment.title,
        "me": world.self_persona,
        "chrome": await environment.chrome(world),
        "status_line": flash,
        "now": world.now_dt(),
        "request_path": request.path_qs,
    }
    page.update(context or {})
    response = aiohttp_jinja2.render_template(template, request, page, status=status)
    response.headers["Cache-Control"] = "no-cache"
    return response


def redirect_after_post(request: web.Request, next_url: str | None, status_line: str,
                        fallback: str) -> web.HTTPSeeOther:
    """Post/redirect/get: remember the status line and answer 303 to `next` (a local path only)."""
    request.app[WORLD].flash = status_line
    target = next_url if next_url and next_url.startswith("/") and not next_url.startswith("//") else fallback
    return web.HTTPSeeOther(target)


# --- filters ---------------------------------------------------------------

def _moment(value: str | datetime) -> datetime:
    return parse_iso(value) if isinstance(value, str) else value


def reltime(value: str | datetime, now: datetime) -> str:
    """'just now', 'N min ago', 'N h ago', 'yesterday', 'N days ago', then 'Mar 3'."""
    moment = _moment(value)
    seconds = (now - moment).total_seconds()
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h ago"
    days = int(seconds // 86400)
    if days == 1:
        return "yesterday"
    if days < 7:
        return f"{days} days ago"
    return f"{moment:%b} {moment.day}"


def fulltime(value: str | datetime) -> str:
    moment = _moment(value)
    return f"{moment:%a} {moment.day} {moment:%b %Y, %H:%M} UTC"


def money(value: float) -> str:
    return f"${value:,.2f}"


def signed_money(value: float) -> str:
    sign = "+" if value >= 0 else "−"
    return f"{sign}${abs(value):,.2f}"


def percent(value: float) -> str:
    sign = "+" if value >= 0 else "−"
    return f"{sign}{abs(value):.2f}%"


def filesize(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"
