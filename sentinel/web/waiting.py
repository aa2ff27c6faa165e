"""The site's change notification: a GET that waits until its page changes (a long-poll).

A reader that already holds a page sends its ETag in `If-None-Match` and the longest it is
willing to wait, in sim seconds, in `X-Wait-Change`. The answer comes as soon as the page's bytes
differ from that ETag (200 with the new page), or at the timeout (304). Nobody polls meanwhile:
the request sleeps on the world's version (World.wait_for_change), which every write
transaction, flash line and clock change wakes; a wake whose change does not show on this page
(another folder's mail, say) goes back to sleep without answering. So a waiting reader costs
nothing while its page stays the same, however long it waits. See docs/protocol.md#waiting.

Pages of environments whose text follows time continuously (page_time_step_s None: a price
curve, a star count between waypoints) can change with no write at all; for them the page is
looked at again every RECHECK_WALL_S wall seconds while the wait lasts (on the virtual clock:
at every FOLLOWING_STEP_SIM_S of sim time the clock passes), the first time one step after the
request came (so such a page is answered at most that often, however fast its reader asks
again). Time-only drift of a stepped page ("4 min ago" becoming "5 min ago") does not end a wait
by itself.

How a wait passes time is the session's (`TimeWaits`, sentinel/web/keys.py): `WallWaits` below
sleeps on the world's version for the wall time the clock needs; the virtual clock's
(sentinel/session/virtual.py) tells its session that the request is waiting, so the clock may jump.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager

from aiohttp import web

from sentinel.core.protocol import WAIT_HEADER
from sentinel.web.keys import ENVIRONMENT, HOOKS, SKIPPED_EFFECT, WORLD
from sentinel.web.kit import BadInput
from sentinel.world.state import World

MAX_WAIT_SIM_S = 3600.0  # one request waits at most this long; ask again for longer
RECHECK_WALL_S = 0.2     # how often a time-following page is looked at again while waiting
FOLLOWING_STEP_SIM_S = 1.0  # ... on the virtual clock, in sim time


def requested_wait(request: web.Request) -> float | None:
    """The sim seconds this GET is willing to wait for its page to change, or None: no wait
    asked, or nothing to compare with (no If-None-Match). Garbage is bad input (a 400)."""
    raw = request.headers.get(WAIT_HEADER)
    if raw is None or request.method != "GET" or not request.headers.get("If-None-Match"):
        return None
    return min(sim_seconds(WAIT_HEADER, raw), MAX_WAIT_SIM_S)


def sim_seconds(name: str, raw: str) -> float:
    """A number of sim seconds ≥ 0 that a request gave as `name` (a header, /sleep's query); garbage
    is bad input (a 400) that names it."""
    try:
        seconds = float(raw)
    except ValueError:
        raise BadInput(f"{name} must be a number of sim seconds, not {raw[:40]!r}.") from None
    if not math.isfinite(seconds) or seconds < 0:
        raise BadInput(f"{name} must be a number of sim seconds ≥ 0, not {raw[:40]!r}.")
    return seconds


Serve = Callable[[bool], Awaitable[web.StreamResponse]]


async def wait_for_change(request: web.Request, serve: Serve, wait_sim_s: float) -> web.StreamResponse:
    """Serve the page until it is no longer a 304 for the reader's ETag, or wait_sim_s pass.
    `serve(look_only)` is the ordinary page path (events applied, cache, ETag), so the answer is
    exactly what a plain GET at that moment would give.

    Only a page that is answered is a plain GET. The page is checked with look_only reads,
    which run no GET side effect: a page whose GET writes (recording a video watched, marking a
    message read) would otherwise wake its own waiter with every check and spin, and a wait
    answered 304 delivered nothing, so it has no effect either. A look that differs from what the
    reader holds is the answer when it left no side effect out (a price page that follows time),
    and is otherwise confirmed by a plain GET; when that GET still matches the reader's copy (the
    page's plain and looking renders differ by the visit itself, as a "new" divider does), the
    wait goes on and only a change to that look ends it."""
    world = request.app[WORLD]
    waits = request.app[HOOKS].waits
    step = FOLLOWING_STEP_SIM_S if request.app[ENVIRONMENT].page_time_step_s is None else None
    clock = world.clock
    deadline = world.now() + wait_sim_s
    target = request.headers.get("If-None-Match")
    unchanged: web.StreamResponse | None = None  # the 304 to answer with at the timeout
    if step is not None and not clock.frozen:
        # Its numbers have moved since the reader's copy, however recent: a first look would answer
        # at once, and a reader waiting again after each answer would be re-served as fast as it
        # asks. So the first look comes at the first recheck, or sooner on a write.
        await waits.until(world, world.version, deadline, step)
    while True:
        version = world.version  # sampled before the look, so a change during it wakes the wait
        look = await serve(True)
        if look.headers.get("ETag") != target:
            if look.status != 304 and not request.get(SKIPPED_EFFECT, True):
                return look  # it left no side effect out: the page a plain GET gives now
            answer = await serve(False)
            if answer.status != 304:
                return answer
            unchanged, target = answer, look.headers.get("ETag")
            continue
        unchanged = unchanged or look
        if world.now() >= deadline or clock.frozen:
            return unchanged
        await waits.until(world, version, deadline, step)


async def sleep_until(request: web.Request, until_sim: float) -> None:
    """Hold a request until the session's sim time reaches until_sim (or the world freezes)."""
    world = request.app[WORLD]
    waits = request.app[HOOKS].waits
    while world.now() < until_sim and not world.clock.frozen:
        await waits.until(world, world.version, until_sim, None)


class WallWaits:
    """Waits on the wall clock: the world's version is slept on for the wall time the clock needs to
    reach the wait's end (re-aimed whenever the clock changes course: a model-time pause)."""

    @contextmanager
    def working(self) -> Iterator[None]:
        yield

    async def until(self, world: World, since: tuple[int, int, int], until_sim: float,
                    step_s: float | None) -> None:
        wall = _wall_until(until_sim, world)
        if step_s is not None:
            wall = min(wall, RECHECK_WALL_S)
        await world.wait_for_change(since, min(wall, MAX_WAIT_SIM_S))


def _wall_until(deadline: float, world: World) -> float:
    """Wall seconds until sim time `deadline` (a paused clock: until a change)."""
    clock = world.clock
    return max(0.0, deadline - world.now()) / clock.speed if clock.running else math.inf
