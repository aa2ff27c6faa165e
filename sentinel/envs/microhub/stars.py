"""The star count: the waypoint path at the moment it is read, rounded down (+1 while the self user
has starred). Pages, baselines and grading (repo_stats) all read it here, so they always agree."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from sentinel.core.waypoints import value_at

if TYPE_CHECKING:
    from sentinel.world.state import World

EPSILON = 1e-9  # absorbs binary noise such as 1999.9999999 for 2000
NUMBERS = ("stars", "forks", "watchers", "starred_by_me", "watching", "forked")  # repo_numbers and repo_stats


def stars_at(points: Iterable[Sequence[float]], start: float, t: float) -> int:
    """The count a page shows at t: the path's value rounded down to a whole star."""
    return int(math.floor(value_at(points, t, start) + EPSILON))


async def star_points(world: World) -> list[tuple[float, float]]:
    rows = await world.fetch_all("SELECT t, stars FROM star_waypoints ORDER BY seq")
    return [(row["t"], row["stars"]) for row in rows]


async def repo_numbers(world: World, t: float | None = None) -> dict[str, Any]:
    """Stars, forks and watchers as every page shows them at sim t (default now)."""
    repo = await world.fetch_one("SELECT initial_stars, forks, watchers, starred_by_me, watching, forked FROM repo")
    if repo is None:
        return dict.fromkeys(NUMBERS, 0)
    when = world.now() if t is None else t
    stars = stars_at(await star_points(world), repo["initial_stars"], when) + repo["starred_by_me"]
    return {"stars": stars, "forks": repo["forks"] + repo["forked"], "watchers": repo["watchers"] + repo["watching"],
            "starred_by_me": repo["starred_by_me"], "watching": repo["watching"], "forked": repo["forked"]}
