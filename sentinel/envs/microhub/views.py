"""MicroHub's pages (GET) under /microhub/, then its actions (POSTs: 303 to the form's `next` page with a status line;
bad input: the form again, 400, the message by the field). The only GET side effect: an issue or PR opened is viewed."""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.microhub import queries as q
from sentinel.envs.microhub.events import next_number
from sentinel.web import kit
from sentinel.web.kit import (
    BadInput,
    choice_param,
    done,
    fetch_or_404,
    form_of,
    paged,
    route_name,
    text_param,
    url_for,
    world_of,
)
from sentinel.web.render import render
from sentinel.world.state import World

routes = Routes()
TARGETS = {  # comments' target_kind → the items' table, their page, the 404's text
    "issue": ("issues", "issue", "This issue does not exist."),
    "pr": ("pull_requests", "pull", "This pull request does not exist.")}
RUN_STEPS = ("Set up job", "Check out code", "Set up Node 20", "Install dependencies", "Lint", "Run tests",
             "Complete job")


def world_and_people(request: web.Request) -> tuple[World, q.People]:
    world = world_of(request)
    return world, q.People.of(world)


async def numbered(request: web.Request, kind: str, seen: bool = False) -> Any:
    """The issue or pull request (`kind`: issue or pr) the URL numbers, or a 404; `seen`: viewed if no live refresh."""
    table, _, gone = TARGETS[kind]
    row = await fetch_or_404(request, f"SELECT * FROM {table} WHERE number = ?", (int(request.match_info["number"]),),
                             gone)
    if seen and not row["viewed"] and await kit.mark_seen(request, f"UPDATE {table} SET viewed = 1 WHERE id = ?",
                                                          (row["id"],)):
        row = await world_of(request).fetch_one(f"SELECT * FROM {table} WHERE id = ?", (row["id"],))
    return row


@routes.get("/", "home")
async def home(request: web.Request) -> web.Response:
    world, people = world_and_people(request)
    files = await world.fetch_all("SELECT * FROM files WHERE parent_path = '' ORDER BY kind = 'file', path")
    readme = await world.fetch_value("SELECT content FROM files WHERE path = 'README.md'")
    latest = await world.fetch_one("SELECT * FROM commits ORDER BY created_at DESC, rowid DESC LIMIT 1")
    contributors = await world.fetch_all("SELECT author_id, COUNT(*) AS n FROM commits GROUP BY author_id "
                                         "ORDER BY n DESC, author_id LIMIT 12")
    counts = {table: await world.fetch_value(f"SELECT COUNT(*) FROM {table}") for table in ("commits", "releases")}
    release = await world.fetch_one("SELECT * FROM releases WHERE is_latest = 1")
    return await render(request, "microhub/home.html", {
        "about": await q.repo_row(world), "files": files, "readme": readme, "counts": counts,
        "latest": people.signed(latest) if latest else None,
        "contributors": [people.login(r["author_id"]) for r in contributors], "release": release})


@routes.get("/tree/{path:.+}", "tree")
@routes.get("/blob/{path:.+}", "blob")
async def code(request: web.Request) -> web.Response:
    """A folder's listing (tree) or a file with its last commit (blob), under their path's crumbs."""
    world = world_of(request)
    tree = route_name(request) == "tree"
    row = await fetch_or_404(request, "SELECT * FROM files WHERE path = ? AND kind = ?", (
        request.match_info["path"].strip("/"), "dir" if tree else "file"), "This path does not exist on main.")
    parts = row["path"].split("/")
    crumbs = [(part, "/".join(parts[:n + 1])) for n, part in enumerate(parts)]
    if tree:
        children = await world.fetch_all("SELECT * FROM files WHERE parent_path = ? ORDER BY kind = 'file', path",
                                         (row["path"],))
        return await render(request, "microhub/tree.html", {"folder": row, "files": children, "crumbs": crumbs})
    last = await world.fetch_one("SELECT * FROM commits WHERE files_json LIKE ? ORDER BY created_at DESC, rowid DESC "
                                 "LIMIT 1", (f'%"{row["path"]}"%',))
    return await render(request, "microhub/blob.html", {
        "file": row, "crumbs": crumbs, "lines": row["content"].count("\n") + 1,
        "last": q.People.of(world).signed(last) if last else None})


@routes.get("/commits", "commits")
async def commits(request: web.Request) -> web.Response:
    people = q.People.of(world_of(request))
    listing = await paged(request, per_page=q.COMMITS_PER_PAGE, count_sql="SELECT COUNT(*) FROM commits",
                          rows_sql="SELECT * FROM commits ORDER BY created_at DESC, rowid DESC", row=people.signed)
    return await render(request, "microhub/commits.html", {"list": listing})


@routes.get("/commit/{sha}", "commit")
async def commit(request: web.Request) -> web.Response:
    people = q.People.of(world_of(request))
    row = await fetch_or_404(request, "SELECT * FROM commits WHERE sha = ? OR substr(sha, 1, 7) = ?",
                             (request.match_info["sha"], request.match_info["sha"]), "This commit does not exist.")
    return await render(request, "microhub/commit.html", {"c": people.signed(q.decode(row, "files_json"))})


@routes.get("/issues", "issues")
async def issues(request: web.Request) -> web.Response:
    world, people = world_and_people(request)
    state = choice_param(request.query, "state", ("open", "closed"), "open", "State must be open or closed.")
    sort = choice_param(request.query, "sort", tuple(q.ISSUE_SORTS), "newest",
                        "Sort must be newest, oldest or comments.")
    label = text_param(request.query, "label", max_len=50, label="The label")
    query = text_param(request.query, "q", max_len=200, label="The search")
    where, params = q.issue_filter(state, label, query)
    listing = await paged(request, per_page=q.ISSUES_PER_PAGE, params=params,
                          count_sql=f"SELECT COUNT(*) FROM issues i WHERE {where}",
                          rows_sql=f"SELECT {q.ISSUE_COLUMNS} FROM issues i WHERE {where} "
                                   f"ORDER BY {q.ISSUE_SORTS[sort]}", row=people.signed)
    labels = await q.labels_of(world, [r["id"] for r in listing.rows])
    totals = {s: await world.fetch_value(f"SELECT COUNT(*) FROM issues i WHERE {w}", tuple(p))
              for s in ("open", "closed") for w, p in [q.issue_filter(s, label, query)]}
    all_labels = await world.fetch_all("SELECT name FROM labels ORDER BY name")
    return await render(request, "microhub/issues.html", {
        "list": listing, "labels": labels, "state": state, "sort": sort, "label": label, "q": query,
        "totals": totals, "all_labels": [r["name"] for r in all_labels], "sorts": list(q.ISSUE_SORTS)})


@routes.get(r"/issues/{number:\d+}", "issue")
@routes.get(r"/pulls/{number:\d+}", "pull")
async def item_page(request: web.Request, values: dict[str, str] | None = None, errors: dict[str, str] | None = None,
                    status: int = 200) -> web.Response:
    """An issue's or pull request's page, labels and comments: opened, or a comment refused (`values`, `errors`)."""
    kind = "pr" if route_name(request).startswith("pull") else "issue"
    world, row = world_of(request), await numbered(request, kind, seen=request.method == "GET")
    people = q.People.of(world)
    item = people.signed(q.decode(row, "reviewers_json") if kind == "pr" else row)
    if kind == "pr":
        item["reviewers"] = [people.login(r) for r in item["reviewers"]]
    comments = await world.fetch_all("SELECT * FROM comments WHERE target_kind = ? AND target_id = ? "
                                     "ORDER BY created_at, rowid", (kind, row["id"]))
    labels = await q.labels_of(world, [row["id"]])
    page = TARGETS[kind][1]
    return await render(request, f"microhub/{page}.html", {
        page: item, "labels": labels.get(row["id"], []), "comments": [people.signed(r) for r in comments],
        "values": values or {}, "errors": errors or {}}, status=status)


@routes.get("/pulls", "pulls")
async def pulls(request: web.Request) -> web.Response:
    world, people = world_and_people(request)
    state = choice_param(request.query, "state", ("open", "closed"), "open", "State must be open or closed.")
    where = "state = 'open'" if state == "open" else "state IN ('closed', 'merged')"
    listing = await paged(request, per_page=q.PULLS_PER_PAGE,
                          count_sql=f"SELECT COUNT(*) FROM pull_requests WHERE {where}",
                          rows_sql=f"SELECT p.*, (SELECT COUNT(*) FROM comments c WHERE c.target_kind = 'pr' AND "
                                   f"c.target_id = p.id) AS comment_count FROM pull_requests p WHERE {where} "
                                   "ORDER BY created_at DESC, rowid DESC", row=people.signed)
    totals = {s: await world.fetch_value(f"SELECT COUNT(*) FROM pull_requests WHERE state {op} 'open'")
              for s, op in (("open", "="), ("closed", "!="))}
    return await render(request, "microhub/pulls.html", {
        "list": listing, "state": state, "totals": totals,
        "labels": await q.labels_of(world, [r["id"] for r in listing.rows])})


@routes.get("/actions", "actions")
async def actions(request: web.Request) -> web.Response:
    world, people = world_and_people(request)
    workflows = await world.fetch_all("SELECT * FROM workflows ORDER BY name")
    runs = await world.fetch_all("SELECT r.*, w.name AS workflow FROM workflow_runs r JOIN workflows w "
                                 "ON w.id = r.workflow_id ORDER BY r.created_at DESC, r.rowid DESC")
    return await render(request, "microhub/actions.html", {
        "workflows": workflows, "runs": [people.signed(r, "actor") for r in runs]})


@routes.get("/actions/runs/{id}", "run")
async def run(request: web.Request) -> web.Response:
    people = q.People.of(world_of(request))
    row = await fetch_or_404(request, "SELECT r.*, w.name AS workflow, w.path FROM workflow_runs r JOIN workflows w "
                                      "ON w.id = r.workflow_id WHERE r.id = ?", (request.match_info["id"],),
                             "This workflow run does not exist.")
    # Its one job's steps, derived from its outcome (a failed run fails at the tests).
    failed = {"Run tests": "failure", "Complete job": "skipped"} if row["conclusion"] == "failure" else {}
    share = max(1, row["duration_s"] // len(RUN_STEPS))
    steps = [{"name": name, "conclusion": failed.get(name, "success"), "seconds": share} for name in RUN_STEPS]
    return await render(request, "microhub/run.html", {"run": people.signed(row, "actor"), "jobs": [
        {"name": "build", "conclusion": row["conclusion"], "steps": steps}]})


@routes.get("/projects", "projects")
async def projects(request: web.Request) -> web.Response:
    world = world_of(request)
    boards = []
    for project in await world.fetch_all("SELECT * FROM projects ORDER BY rowid"):
        columns: dict[str, list[str]] = {}
        for card in await world.fetch_all("SELECT * FROM project_cards WHERE project_id = ? ORDER BY rowid",
                                          (project["id"],)):
            columns.setdefault(card["column_name"], []).append(card["title"])
        boards.append({"name": project["name"], "columns": columns})
    return await render(request, "microhub/projects.html", {"boards": boards})


@routes.get("/wiki", "wiki")
@routes.get("/wiki/{slug}", "wiki_page")
async def wiki(request: web.Request) -> web.Response:
    slug = request.match_info.get("slug")
    page = None if slug is None else await fetch_or_404(request, "SELECT * FROM wiki_pages WHERE slug = ?", (slug,),
                                                        "This wiki page does not exist.")
    pages = await world_of(request).fetch_all("SELECT slug, title FROM wiki_pages ORDER BY rowid")
    return await render(request, "microhub/wiki.html", {"pages": pages, "page": page})


@routes.get("/security", "security")
async def security(request: web.Request) -> web.Response:
    world = world_of(request)
    return await render(request, "microhub/security.html", {
        "advisories": await world.fetch_all("SELECT * FROM advisories ORDER BY state = 'open' DESC, rowid"),
        "alerts": await world.fetch_all("SELECT * FROM scanning_alerts ORDER BY state = 'open' DESC, rowid")})


@routes.get("/insights", "insights")
async def insights(request: web.Request) -> web.Response:
    world, people = world_and_people(request)
    rows = await world.fetch_all("SELECT author_id, COUNT(*) AS n, SUM(additions) AS adds, SUM(deletions) AS dels "
                                 "FROM commits GROUP BY author_id ORDER BY n DESC, author_id")
    weeks = await world.fetch_all("SELECT CAST((julianday(?) - julianday(created_at)) / 7 AS INTEGER) AS week, "
                                  "COUNT(*) AS n FROM commits GROUP BY week ORDER BY week", (world.created_at(),))
    activity = {r["week"]: r["n"] for r in weeks}
    repo = await q.repo_row(world)
    return await render(request, "microhub/insights.html", {
        "contributors": [people.signed(r) for r in rows],
        "weeks": [{"label": "this week" if w == 0 else f"{w} weeks ago", "n": activity.get(w, 0)} for w in range(8)],
        "peak": max(activity.values(), default=1), "traffic": repo["traffic"] if repo else None})


@routes.get("/releases", "releases")
async def releases(request: web.Request) -> web.Response:
    rows = await world_of(request).fetch_all("SELECT * FROM releases ORDER BY created_at DESC, rowid DESC")
    return await render(request, "microhub/releases.html", {"releases": [q.decode(r, "assets_json") for r in rows]})


@routes.get("/users/{login}", "user")
async def user(request: web.Request) -> web.Response:
    world, people = world_and_people(request)
    person = people.by_login(request.match_info["login"])
    if person is None:
        raise web.HTTPNotFound(text="This user does not exist.")
    followed = await world.fetch_value("SELECT 1 FROM follows WHERE persona_id = ?", (person["id"],)) is not None
    mine = await world.fetch_all("SELECT * FROM my_repos ORDER BY created_at DESC, rowid DESC") \
        if person.get("is_self") else []
    return await render(request, "microhub/user.html", {
        "person": person, "login": people.login(person["id"]), "followed": followed, "my_repos": mine,
        "commit_count": await world.fetch_value("SELECT COUNT(*) FROM commits WHERE author_id = ?", (person["id"],)),
        "followers": 3 + (sum(map(ord, person["id"])) % 140) + int(followed)})


@routes.get("/settings", "settings")
@routes.get("/issues/new", "issue_new")
@routes.get("/new", "repo_new")
async def form(request: web.Request) -> web.Response:
    """A form as it opens: the repository's settings, a new issue, or a new repository (public unless changed)."""
    name = route_name(request)
    values: dict[str, Any] = {"visibility": "public"} if name == "repo_new" else {}
    if name == "settings" and (repo := await q.repo_row(world_of(request))):
        values = {key: repo[key] for key in ("name", "description", "visibility")}
    return await render(request, f"microhub/{name}.html", {"values": values, "errors": {}})


# --- actions: star, watch, fork, settings and new repositories, issues, comments, merges, follows ---

MAX_TITLE, MAX_BODY = 200, 5000
REPO_NAME = re.compile(r"^[A-Za-z0-9._-]{1,100}$")
VISIBILITY = ("public", "private")
FLIPS = {"star": ("starred_by_me", "Starred brightline/atlas-web", "Unstarred brightline/atlas-web"),
         "watch": ("watching", "You are now watching this repository", "You are no longer watching this repository")}
STRATEGIES = {"merge": "Merged", "squash": "Squashed and merged", "rebase": "Rebased and merged"}


def text(form: Any, name: str, max_len: int) -> str:
    value = form.get(name, "")
    value = value.strip() if isinstance(value, str) else ""
    if len(value) > max_len:
        raise BadInput(f"{name.capitalize()} is too long ({max_len} characters at most).")
    return value


@routes.post("/star", "star")
@routes.post("/watch", "watch")
async def flip(request: web.Request) -> web.Response:
    """Star or watch the repository, or undo it: the route's FLIPS column and status lines."""
    column, on, off = FLIPS[route_name(request)]
    world, form = world_of(request), await form_of(request)
    async with world.write() as db:
        await db.execute(f"UPDATE repo SET {column} = 1 - {column}")
        value = await world.fetch_value(f"SELECT {column} FROM repo")
    if value is None:
        raise web.HTTPNotFound(text="This repository does not exist.")
    raise done(request, form, on if value else off, url_for(request, "home"))


@routes.post("/fork", "fork")
async def fork(request: web.Request) -> web.Response:
    world, form = world_of(request), await form_of(request)
    async with world.write() as db:
        forked = await world.fetch_value("SELECT forked FROM repo")
        if forked is None:
            raise web.HTTPNotFound(text="This repository does not exist.")
        await db.execute("UPDATE repo SET forked = 1 WHERE forked = 0")
    login = q.People.of(world).login(world.self_persona["id"])
    message = f"You already forked this repository to {login}/atlas-web" if forked else f"Forked to {login}/atlas-web"
    raise done(request, form, message, url_for(request, "home"))


@routes.post("/settings", "settings_save")
@routes.post("/new", "repo_create")
async def save_repo(request: web.Request) -> web.Response:
    """The repository's settings, or (repo_create) a new repository of the self user's."""
    world, form = world_of(request), await form_of(request)
    new = route_name(request) == "repo_create"
    values = {"name": text(form, "name", 100), "description": text(form, "description", 350),
              "visibility": text(form, "visibility", 10) or "public"}
    errors = {}
    if not REPO_NAME.match(values["name"]):
        errors["name"] = "Use letters, digits, '.', '-' or '_' (1 to 100 characters)."
    elif new and await world.fetch_value("SELECT 1 FROM my_repos WHERE name = ?", (values["name"],)):
        errors["name"] = "You already have a repository with this name."
    if values["visibility"] not in VISIBILITY:
        errors["visibility"] = "Choose public or private."
    if errors:
        return await render(request, f"microhub/{'repo_new' if new else 'settings'}.html",
                            {"values": values, "errors": errors}, status=400)
    if not new:
        async with world.write() as db:
            await db.execute("UPDATE repo SET name = ?, description = ?, visibility = ?", tuple(values.values()))
        raise done(request, form, "Settings saved", url_for(request, "settings"))
    async with world.write():
        await world.insert("my_repos", {"id": await world.next_self_id("my_repos"), **values}, origin="self")
    login = q.People.of(world).login(world.self_persona["id"])
    raise done(request, form, f"Created {login}/{values['name']}", url_for(request, "user", login=login))


@routes.post("/issues/new", "issue_create")
async def issue_create(request: web.Request) -> web.Response:
    world, form = world_of(request), await form_of(request)
    values = {"title": text(form, "title", MAX_TITLE), "body": text(form, "body", MAX_BODY)}
    if not values["title"]:
        return await render(request, "microhub/issue_new.html",
                            {"values": values, "errors": {"title": "Give the issue a title."}}, status=400)
    async with world.write():
        number = await next_number(world)
        await world.insert("issues", {"id": await world.next_self_id("issues"), "number": number, **values,
                                      "state": "open", "author_id": world.self_persona["id"], "viewed": 1},
                           origin="self")
    raise done(request, form, f"Opened issue #{number}", url_for(request, "issue", number=number))


@routes.post(r"/issues/{number:\d+}/comment", "issue_comment")
@routes.post(r"/pulls/{number:\d+}/comment", "pull_comment")
async def add_comment(request: web.Request) -> web.Response:
    """A comment by the self user on the issue or pull request the URL numbers."""
    kind, page = ("issue", "issue") if route_name(request) == "issue_comment" else ("pr", "pull")
    world, row, form = world_of(request), await numbered(request, kind), await form_of(request)
    body = text(form, "body", MAX_BODY)
    error = "This conversation is locked: only collaborators can comment." if kind == "issue" and row["locked"] \
        else ("Write a comment first." if not body else None)
    if error:
        return await item_page(request, {"body": body}, {"body": error}, status=400)
    async with world.write():
        await world.insert("comments", {"id": await world.next_self_id("comments"), "target_kind": kind,
                                        "target_id": row["id"], "author_id": world.self_persona["id"], "body": body},
                           origin="self")
    raise done(request, form, f"Comment added to #{row['number']}", url_for(request, page, number=row["number"]))


@routes.post(r"/issues/{number:\d+}/state", "issue_state")
async def issue_state(request: web.Request) -> web.Response:
    world, row, form = world_of(request), await numbered(request, "issue"), await form_of(request)
    wanted = form.get("state")
    if wanted not in ("open", "closed"):
        raise BadInput("State must be open or closed.")
    if row["locked"]:
        raise BadInput("This conversation is locked: only collaborators can change it.")
    async with world.write() as db:
        await db.execute("UPDATE issues SET state = ? WHERE id = ?", (wanted, row["id"]))
    message = f"Closed issue #{row['number']}" if wanted == "closed" else f"Reopened issue #{row['number']}"
    raise done(request, form, message, url_for(request, "issue", number=row["number"]))


@routes.post(r"/pulls/{number:\d+}/merge", "pull_merge")
async def pull_merge(request: web.Request) -> web.Response:
    world, row, form = world_of(request), await numbered(request, "pr"), await form_of(request)
    strategy = form.get("strategy", "merge")
    if strategy not in STRATEGIES:
        raise BadInput("Choose merge, squash or rebase.")
    if row["state"] != "open":
        raise BadInput(f"Pull request #{row['number']} is already {row['state']}.")
    async with world.write() as db:
        await db.execute("UPDATE pull_requests SET state = 'merged', merged_by_me = 1, merge_strategy = ? WHERE id = ?",
                         (strategy, row["id"]))
    raise done(request, form, f"{STRATEGIES[strategy]} pull request #{row['number']}",
               url_for(request, "pull", number=row["number"]))


@routes.post("/users/{login}/follow", "follow")
async def follow(request: web.Request) -> web.Response:
    world = world_of(request)
    login = request.match_info["login"]
    person = q.People.of(world).by_login(login)
    if person is None:
        raise web.HTTPNotFound(text="This user does not exist.")
    form = await form_of(request)
    async with world.write() as db:
        if await world.fetch_value("SELECT 1 FROM follows WHERE persona_id = ?", (person["id"],)):
            await db.execute("DELETE FROM follows WHERE persona_id = ?", (person["id"],))
            message = f"You unfollowed {login}"
        else:
            await world.insert("follows", {"persona_id": person["id"]}, origin="self")
            message = f"You are now following {login}"
    raise done(request, form, message, url_for(request, "user", login=login))
