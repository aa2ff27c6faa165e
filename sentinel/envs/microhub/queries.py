"""Reads shared by MicroHub's pages, events and checks: people by login (authors are persona ids), repository, issue
and PR rows, and the star count, which pages, baselines and grading (repo_stats) all read here (`repo_numbers`)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sentinel.core.waypoints import value_at
from sentinel.envs.kit import contains, like_pattern

if TYPE_CHECKING:
    from sentinel.world.state import World

ISSUES_PER_PAGE, COMMITS_PER_PAGE, PULLS_PER_PAGE = 25, 20, 25
REPO_JSON = ("topics", "languages", "traffic", "deployments", "packages")  # the repo's columns stored as JSON
EPSILON = 1e-9  # absorbs binary noise such as 1999.9999999 for 2000
NUMBERS = ("stars", "forks", "watchers", "starred_by_me", "watching", "forked")  # repo_numbers and repo_stats
ISSUE_SORTS = {"newest": "i.created_at DESC, i.rowid DESC", "oldest": "i.created_at ASC, i.rowid ASC",
               "comments": "comment_count DESC, i.created_at DESC, i.rowid DESC"}


@dataclass(frozen=True)
class People:
    """Persona id → what pages show of a person (login, name), from the catalog."""

    by_id: dict[str, dict[str, Any]]

    @classmethod
    def of(cls, world: World) -> People:
        return cls(dict(world.catalog.personas()))

    def login(self, persona_id: str) -> str:
        person = self.by_id.get(persona_id, {})
        return (person.get("hub") or {}).get("login") or person.get("username") or persona_id

    def by_login(self, login: str) -> dict[str, Any] | None:
        return next((p for p in self.by_id.values() if (p.get("hub") or {}).get("login") == login), None)

    def signed(self, row: Any, key: str = "author_id") -> dict[str, Any]:
        """The row with its person's login (the persona id in `key`)."""
        return dict(row) | {"login": self.login(row[key])}


async def repo_row(world: World) -> dict[str, Any] | None:
    row = await world.fetch_one("SELECT * FROM repo")
    return None if row is None else decode(row, *(f"{key}_json" for key in REPO_JSON))


async def labels_of(world: World, item_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    if not item_ids:
        return {}
    rows = await world.fetch_all(f"SELECT il.issue_id, l.name, l.color FROM issue_labels il JOIN labels l ON "
                                 f"l.id = il.label_id WHERE il.issue_id IN ({', '.join('?' * len(item_ids))}) "
                                 "ORDER BY l.name", tuple(item_ids))
    out: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(row["issue_id"], []).append({"name": row["name"], "color": row["color"]})
    return out


def issue_filter(state: str, label: str, query: str) -> tuple[str, list[Any]]:
    """WHERE clause and parameters of the issue list (titles only: bodies are never searched here)."""
    where, params = ["i.state = ?"], [state]
    if label:
        where.append("EXISTS (SELECT 1 FROM issue_labels il JOIN labels l ON l.id = il.label_id "
                     "WHERE il.issue_id = i.id AND l.name = ?)")
        params.append(label)
    if query:
        where.append(contains("i.title"))
        params.append(like_pattern(query))
    return " AND ".join(where), params


ISSUE_COLUMNS = ("i.id, i.number, i.title, i.state, i.author_id, i.created_at, i.locked, (SELECT COUNT(*) FROM "
                 "comments c WHERE c.target_kind = 'issue' AND c.target_id = i.id) AS comment_count")


def decode(row: Any, *keys: str) -> dict[str, Any]:
    out = dict(row)
    for key in keys:
        out[key.removesuffix("_json")] = json.loads(out.pop(key))
    return out


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
