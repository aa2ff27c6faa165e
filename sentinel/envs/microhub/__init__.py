"""MicroHub: code hosting for one repository, brightline/atlas-web, modelled on GitHub
(docs/environments.md#microhub). Every page carries the repo header with Star, Watch and Fork."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sentinel.core.environment import Environment, Header, NavItem
from sentinel.envs.kit import arrived_count
from sentinel.envs.microhub import views
from sentinel.envs.microhub.events import EVENT_TYPES, check_scenario
from sentinel.envs.microhub.kinds import KINDS
from sentinel.envs.microhub.queries import NUMBERS, repo_numbers

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.world.state import World

BASELINE_SQL = {
    "issue_count": arrived_count("issues"),
    "open_issue_count": arrived_count("issues", "state = 'open'"),
    "pr_count": arrived_count("pull_requests"),
    "commit_count": arrived_count("commits"),
    "comment_count": arrived_count("comments"),
}


async def repo_baselines(world: World) -> dict[str, float]:
    numbers = await repo_numbers(world, 0.0)
    return {"star_count": numbers["stars"], "fork_count": numbers["forks"], "watch_count": numbers["watchers"]}


async def header(world: World) -> Header:
    """The nav's open issues and pull requests, and the repo header every page carries (Star, Watch, Fork)."""
    counts = {key: int(await world.fetch_value(f"SELECT COUNT(*) FROM {table} WHERE state = 'open'") or 0)
              for key, table in (("issues", "issues"), ("pulls", "pull_requests"))}
    repo = await world.fetch_one("SELECT owner, name, visibility FROM repo")
    return Header(counts=counts, extra={"repo": dict(repo) if repo else None, **await repo_numbers(world)})


async def finalize(world: World) -> None:
    """Grading time: freeze the star, fork and watcher counts into repo_stats."""
    numbers = await repo_numbers(world)
    await world.db.execute("DELETE FROM repo_stats")
    await world.db.execute(f"INSERT INTO repo_stats ({', '.join(NUMBERS)}) VALUES ({', '.join('?' * len(NUMBERS))})",
                           tuple(numbers[k] for k in NUMBERS))


def serve_preload(catalog: Catalog) -> dict[str, Any]:
    """`sentinel serve microhub`: the whole catalog, stars climbing slowly for 12 minutes."""
    start = int(catalog.get("repo", "repo")["initial_stars"])
    return {"repo": "*", "files": "*", "commits": "*", "issues": "*", "pull_requests": "*", "comments": "*",
            "star_waypoints": [[240, start + 40], [480, start + 95], [720, start + 130]]}


ENV = Environment(
    name="microhub", title="MicroHub", event_types=EVENT_TYPES, routes=views.routes, search="issues", kinds=KINDS,
    check_scenario=check_scenario, finalize=finalize,
    nav=(NavItem("Code", "home"), NavItem("Issues", "issues", count="issues"),
         NavItem("Pull requests", "pulls", count="pulls"), NavItem("Actions", "actions"),
         NavItem("Projects", "projects"), NavItem("Wiki", "wiki"), NavItem("Security", "security"),
         NavItem("Insights", "insights"), NavItem("Settings", "settings")),
    header=header, baseline_sql=BASELINE_SQL, baselines_extra=repo_baselines, serve_preload=serve_preload,
    page_time_step_s=None,  # the star count climbs continuously between its waypoints: every request renders
)
