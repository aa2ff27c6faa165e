"""MicroHub's event types (item times are event.at, never the clock, so a replay writes the same rows; issues and pull
requests share one number sequence assigned on arrival, so a number reveals nothing of the catalog) and its checks:
the star waypoints, and a star task's condition_at (when the home page first shows the count its solution awaits)."""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING, Any

from sentinel.core.config import Timing, load_config
from sentinel.core.environment import EventType
from sentinel.core.waypoints import first_crossing, ramp_points, value_at
from sentinel.envs.kit import insert_timing, oldest_first, preload_type, selected
from sentinel.envs.microhub.queries import EPSILON, REPO_JSON, star_points, stars_at

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.scenario import Event, Scenario
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
    for name in rec.get("labels", []):  # a name the labels lack adds none
        await world.db.execute("INSERT OR IGNORE INTO issue_labels (issue_id, label_id) SELECT ?, id FROM labels "
                               "WHERE name = ?", (rec["id"], name))


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
            when = ({"origin": "preload", "age_minutes": FILES_AGE} if collection == "files"
                    else insert_timing(event, rec))
            await world.insert(collection, {"id": rid, **{c: rec.get(c) for c in columns},
                                            **{c: json.dumps(rec[k]) for c, k in encoded.items()}}, **when)
    # Issues and pull requests oldest first (numbers follow age), then their comments.
    items = [(c, rid) for c in ("issues", "pull_requests") for rid in _listed(world, event, c)]
    items.sort(key=lambda item: -float(catalog.raw(item[0])[item[1]].get("age_minutes", 0) or 0))
    for collection, rid in items:
        rec = catalog.get(collection, rid)
        await insert_item(world, collection, rec, insert_timing(event, rec))
    loaded = {rid for _, rid in items}
    for rid in oldest_first(catalog, "comments", _listed(world, event, "comments")):
        rec = catalog.get("comments", rid)
        if rec["target_id"] in loaded:
            await world.insert("comments", {k: rec[k] for k in ("id", "target_kind", "target_id", "author_id", "body")},
                               **insert_timing(event, rec))


def arrival(collection: str, field: str) -> EventType:
    async def apply(world: World, event: Event) -> None:
        rec = world.catalog.get(collection, str(event.fields[field]))
        await insert_item(world, collection, rec, insert_timing(event, rec))
    return EventType(apply=apply, refs={field: collection}, inserts=(field,), required=(field,))


async def apply_star_waypoint(world: World, event: Event) -> None:
    """Adds (at, stars(at)) and (at + ramp_s, target): the count moves linearly to its target."""
    start = await world.fetch_value("SELECT initial_stars FROM repo")
    if start is None:
        raise ValueError("star_waypoint needs the repository, which the preload did not load")
    for t, stars in star_ramp(await star_points(world), float(start), event):
        await world.db.execute("INSERT INTO star_waypoints (t, stars, origin) VALUES (?, ?, 'event')", (t, stars))


def star_ramp(points: list[tuple[float, float]], start: float, event: Event) -> list[tuple[float, float]]:
    """The waypoints a star_waypoint adds to `points`: its count moves to `stars`, or by `delta` from its value then."""
    f = event.fields
    target = float(f["stars"]) if "stars" in f else value_at(points, event.at, start) + float(f["delta"])
    return ramp_points(points, start, event.at, target, float(f.get("ramp_s", 0)))


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


# --- scenario checks: the star waypoints, and the moment the watched count first shows ---------------

TOLERANCE_S, VISIBLE_FOR_S, FIRST_READ_S = 0.5, 60.0, 10.0
HOME = re.compile(r"^/microhub/?$")

Problems = list[tuple[str, str]]


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> Problems:
    end = (timing or load_config().timing).event_timeline_end
    problems = _star_event_problems(scenario, end)
    if problems or not scenario.events or scenario.events[0].type != "preload":
        return problems
    start = float(scenario.events[0].fields.get("initial_stars", catalog.get("repo", "repo")["initial_stars"]))
    points = [(float(t), float(v)) for t, v in scenario.events[0].fields.get("star_waypoints", [])]
    for event in sorted(scenario.timeline, key=lambda e: (e.at, e.index)):  # the path built as the run builds it
        if event.type == "star_waypoint" and event.at <= end:
            points += star_ramp(points, start, event)
    return _crossing_problems(scenario, points, start, end)


def _star_event_problems(scenario: Scenario, end: float) -> Problems:
    out: Problems = []
    for event in scenario.events:
        where, f = f"events[{event.index}]", event.fields
        if event.type == "preload":
            points = f.get("star_waypoints", [])
            if not isinstance(points, list) or not all(
                    isinstance(p, list) and len(p) == 2 and all(_number(v) for v in p) for p in points):
                out.append((f"{where}.star_waypoints", "expected a list of [t, stars] pairs"))
            elif any(not 0 <= p[0] <= end or p[1] < 0 for p in points):
                out.append((f"{where}.star_waypoints", f"times must be in [0, {end:g}] and counts ≥ 0"))
        if event.type == "star_waypoint":
            if ("stars" in f) == ("delta" in f):
                out.append((where, "a star_waypoint needs exactly one of stars or delta"))
            elif not _number(f.get("stars", f.get("delta"))):
                out.append((where, "stars or delta must be a number"))
            if "ramp_s" in f and not (_number(f["ramp_s"]) and f["ramp_s"] >= 0):
                out.append((f"{where}.ramp_s", "expected sim seconds ≥ 0"))
    return out


def _crossing_problems(scenario: Scenario, points: list[tuple[float, float]], start: float, end: float) -> Problems:
    step = next((s for s in scenario.solution if s.verb == "watch" and s.until is not None
                 and s.until.number is not None), None)  # the first numeric watch: a star task's when on the home page
    if step is None or step.open_new is not None or not HOME.match(step.target):
        return []
    until = step.until
    assert until is not None and until.limit is not None
    if until.comparison != "at_least":
        return [("solution", "star tasks watch for a count at_least a limit (star curves only rise)")]
    first = stars_at(points, start, 0.0)
    limit = until.limit.resolve(first)
    out: Problems = []
    if until.limit.relative and stars_at(points, start, FIRST_READ_S) != first:
        out.append(("solution", f"the star count moves before {FIRST_READ_S:g} s, so the oracle's first read "
                                "is not the start value"))
    # When the page first shows the limit: the raw path reaches ceil(limit) then (floor(v) ≥ n ⇔ v ≥ n, n whole).
    crossing = first_crossing(points, start, math.ceil(limit - EPSILON), True, end)
    if scenario.is_noop:
        if crossing is not None:
            out.append(("solution", f"this no-op's condition becomes visible at {crossing:.3f} s"))
        return out
    if crossing is None:
        return out + [("condition_at", f"the star count never reaches {limit:g} before {end:g} s")]
    assert scenario.condition_at is not None
    if abs(scenario.condition_at - crossing) > TOLERANCE_S:
        out.append(("condition_at", f"{scenario.condition_at:g} differs from the moment the page first shows "
                                    f"{limit:g} stars: {crossing:.3f} s"))
    lapse = next((crossing + k * 0.5 for k in range(1, int(VISIBLE_FOR_S * 2) + 1)
                  if stars_at(points, start, crossing + k * 0.5) < limit), None)
    if lapse is not None:
        out.append(("events", f"the count shows {limit:g} at {crossing:.3f} s but drops below it at {lapse:.2f} s"))
    return out
