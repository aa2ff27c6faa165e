"""What a request is: the browser script's live refresh, a read that must leave the world as it
is, and whether a redirect target stays on this site."""

from __future__ import annotations

from aiohttp import web

from sentinel.core.protocol import SLEEP_PATH
from sentinel.web.keys import LOOK_ONLY, SKIPPED_EFFECT

LIVE_HEADER = "X-Live-Refresh"


def is_live(request: web.Request) -> bool:
    """True for the browser script's background refreshes (logged apart from the agent's reads)."""
    return request.headers.get(LIVE_HEADER) == "1"


def is_clock_read(request: web.Request) -> bool:
    """True for GET /sleep?seconds=0: an agent asking the sim time (agents/pacing.py), not acting.
    Like a live refresh it is logged apart and does not end the agent's thinking: an agent that
    looks at its watch between two model calls is not charged twice."""
    return request.path == SLEEP_PATH and request.query.get("seconds") in ("0", "0.0")


def looks_only(request: web.Request) -> bool:
    """True for reads that must leave the world as it is: the browser script's background
    refreshes, and the re-checks of a waiting GET (sentinel.web.waiting). They run no GET side
    effect (marking seen, taking the flash line, opening the report form)."""
    return is_live(request) or request.get(LOOK_ONLY, False)


def skips_side_effect(request: web.Request) -> bool:
    """Asked where a GET side effect is about to run: True if this read only looks, and so
    must leave it out. The request remembers it: a waiting GET answers with its look only when
    the look left nothing out (it is then the very page a plain GET gives)."""
    if not looks_only(request):
        return False
    request[SKIPPED_EFFECT] = True
    return True


def local_path(target: str) -> bool:
    """A path on this site ("/micromail/…"), never another host ("//evil", "http://…")."""
    return target.startswith("/") and not target.startswith("//") and "\\" not in target
