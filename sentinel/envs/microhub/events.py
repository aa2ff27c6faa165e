"""MicroHub's event types, run inside the session's write transaction. Item times use event.at, never
the clock, so a replay writes the same rows. Issues and pull requests share one number sequence
assigned on arrival, so a number reveals nothing about the catalog."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sentinel.core.environment import EventType
from sentinel.core.waypoints import ramp_points, value_at
from sentinel.envs.kit import oldest_first, preload_type, preloaded_age, selected
from sentinel.envs.microhub.queries import REPO_JSON, star_points

if TYPE_CHECKING:
    from sentinel.core.scenario import Event
    from sentinel.world.state import World

FIRST_NUMBER = 381  # the repository's history before the catalog: the first loaded item gets this
FILES_AGE = 60 * 24 * 40  # minutes: the code on main is 40 days old, whatever the catalog says
COPIED = {  # catalog collection (and table) → columns copied, JSON columns from catalog fields, loaded oldest first
    "files": (("path", "parent_path", "kind", "size", "language", "content"), {}, False),
    "commits": (("sha", "message", "author_id", "additions", "deletions"), {"files_json": "files_changed"}, True),
    "labels": (("name", "color"), {}, False),
    "workflows": (("name", "path", "state"), {}, False),
    "workflow_runs": (("workflow_id", "run_number", "title", "status", "conclusion", "branch", "actor", "duration_s"),
                      {}, False),
    "wiki_pages": (("slug", "title", "body"), {}, False),
    "advisories": (("severity", "package", "title", "state"), {}, False),
    "scanning_alerts": (("rule", "severity", "file", "line", "state"), {}, False),
    "projects": (("name",), {}, False),
    "project_cards": (("project_id", "column_name", "title"), {}, False),
    "releases": (("tag", "name", "body", "is_latest", "is_prerelease"), {"assets_json": "assets"}, True),
}
COLLECTIONS = {name: name for name in ("repo", "files", "commits", "issues", "pull_requests", "comments",
                                       "releases", *COPIED)}


async def next_number(world: World) -> int:
    value = await world.fetch_value("SELECT MAX(n) FROM (SELECT MAX(number) AS n FROM issues "
                                    "UNION ALL SELECT MAX(number) FROM pull_requests)")
    return FIRST_NUMBER if value is None else int(value) + 1


async def insert_item(world: World, collection: str, rec: dict[str, Any], when: dict[str, Any]) -> None:
    """An issue or a pull request (`collection`, also its table) with its labels; an arrival is open."""
    own = {"milestone": rec.get("milestone")} if collection == "issues" else {
        "source_branch": rec["source_branch"], "target_branch": rec["target_branch"],
        "checks_status": rec["checks_status"], "reviewers_json": json.dumps(rec.get("reviewers", []))}
    await world.insert(collection, {
        "id": rec["id"], "number": await next_number(world), "title": rec["title"], "body": rec["body"],
        "state": rec.get("state", "open") if when["origin"] == "preload" else "open",
        "author_id": rec["author_id"], **own}, **when)
    for name in rec.get("labels", []):
        label = await world.fetch_value("SELECT id FROM labels WHERE name = ?", (name,))
        if label is not None:
            await world.db.execute("INSERT OR IGNORE INTO issue_labels (issue_id, label_id) VALUES (?, ?)",
                                   (rec["id"], label))


def _preloaded(event: Event, rec: dict[str, Any]) -> dict[str, Any]:
    return {"origin": "preload", "age_minutes": preloaded_age(event, rec)}


def _listed(world: World, event: Event, collection: str) -> list[str]:
    """The ids the preload loads of a collection (all unless the field says otherwise)."""
    return selected(world.catalog, collection, event.fields.get(collection, "*"))


async def apply_preload(world: World, event: Event) -> None:
    """The repository and its star path, the collections copied as they are, then the conversations."""
    f, catalog = event.fields, world.catalog
    for repo_id in _listed(world, event, "repo"):
        rec = catalog.get("repo", repo_id)
        await world.insert("repo", {
            **{k: rec[k] for k in ("id", "owner", "name", "description", "visibility", "default_branch", "license",
                                   "branches", "tags")},
            "homepage": rec.get("homepage"), **{f"{k}_json": json.dumps(rec[k]) for k in REPO_JSON},
            "initial_stars": int(f.get("initial_stars", rec["initial_stars"])),
            "forks": int(f.get("initial_forks", rec["initial_forks"])),
            "watchers": int(f.get("initial_watchers", rec["initial_watchers"]))},
            origin="preload", age_minutes=60 * 24 * 700)
    for t, stars in f.get("star_waypoints") or []:
        await world.db.execute("INSERT INTO star_waypoints (t, stars) VALUES (?, ?)", (float(t), float(stars)))
    for collection, (columns, encoded, oldest) in COPIED.items():
        ids = _listed(world, event, collection)
        for rid in oldest_first(catalog, collection, ids) if oldest else ids:
            rec = catalog.get(collection, rid)
            when = {"origin": "preload", "age_minutes": FILES_AGE} if collection == "files" else _preloaded(event, rec)
            await world.insert(collection, {"id": rid, **{c: rec.get(c) for c in columns},
                                            **{c: json.dumps(rec[k]) for c, k in encoded.items()}}, **when)
    # Issues and pull requests oldest first (numbers follow age), then their comments.
    items = [(c, rid) for c in ("issues", "pull_requests") for rid in _listed(world, event, c)]
    items.sort(key=lambda item: -float(catalog.raw(item[0])[item[1]].get("age_minutes", 0) or 0))
    for collection, rid in items:
        rec = catalog.get(collection, rid)
        await insert_item(world, collection, rec, _preloaded(event, rec))
    loaded = {rid for _, rid in items}
    for rid in oldest_first(catalog, "comments", _listed(world, event, "comments")):
        rec = catalog.get("comments", rid)
        if rec["target_id"] in loaded:
            await world.insert("comments", {k: rec[k] for k in ("id", "target_kind", "target_id", "author_id", "body")},
                               **_preloaded(event, rec))


def arrival(collection: str, field: str) -> EventType:
    """A new issue or pull request: the catalog item `field` names."""
    async def apply(world: World, event: Event) -> None:
        rec = world.catalog.get(collection, str(event.fields[field]))
        await insert_item(world, collection, rec, {"origin": "event", "at": event.at})
    return EventType(apply=apply, refs={field: collection}, inserts=(field,), required=(field,))


async def apply_star_waypoint(world: World, event: Event) -> None:
    """Adds (at, stars(at)) and (at + ramp_s, target): the count moves linearly to its target."""
    start = await world.fetch_value("SELECT initial_stars FROM repo")
    if start is None:
        raise ValueError("star_waypoint needs the repository, which the preload did not load")
    points = await star_points(world)
    target = star_target(points, float(start), event)
    for t, stars in ramp_points(points, float(start), event.at, target, float(event.fields.get("ramp_s", 0))):
        await world.db.execute("INSERT INTO star_waypoints (t, stars, origin) VALUES (?, ?, 'event')", (t, stars))


def star_target(points: list[tuple[float, float]], start: float, event: Event) -> float:
    """Where a star_waypoint moves the count: to `stars`, or by `delta` from the value at its time."""
    if "stars" in event.fields:
        return float(event.fields["stars"])
    return value_at(points, event.at, start) + float(event.fields["delta"])


async def apply_lock_issue(world: World, event: Event) -> None:
    """The author closes the issue and locks the conversation (moved elsewhere): no more comments."""
    await world.db.execute("UPDATE issues SET state = 'closed', locked = 1 WHERE id = ?",
                           (str(event.fields["issue_id"]),))


EVENT_TYPES = {
    "preload": preload_type(apply_preload, COLLECTIONS,
                            optional=("initial_stars", "initial_forks", "initial_watchers", "star_waypoints")),
    "new_issue": arrival("issues", "issue_id"),
    "new_pull_request": arrival("pull_requests", "pr_id"),
    "star_waypoint": EventType(apply=apply_star_waypoint, optional=("stars", "delta", "ramp_s")),
    "lock_issue": EventType(apply=apply_lock_issue, refs={"issue_id": "issues"}, required=("issue_id",)),
}
