"""MicroHub's actions (POST under /microhub/). Each answers 303 to the form's `next` page with a
one-line status; bad input re-renders the form with status 400 and the message beside the field."""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web

from sentinel.envs.microhub import queries as q
from sentinel.envs.microhub.events import next_number
from sentinel.envs.microhub.views import item_page, numbered, routes
from sentinel.web.kit import BadInput, done, form_of, url_for, world_of
from sentinel.web.render import render

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
    column, on, off = FLIPS[request.match_info.route.name]
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
        if not forked:
            await db.execute("UPDATE repo SET forked = 1")
    login = q.People.of(world).login(world.self_persona["id"])
    message = f"You already forked this repository to {login}/atlas-web" if forked else f"Forked to {login}/atlas-web"
    raise done(request, form, message, url_for(request, "home"))


@routes.post("/settings", "settings_save")
@routes.post("/new", "repo_create")
async def save_repo(request: web.Request) -> web.Response:
    """The repository's settings, or (repo_create) a new repository of the self user's."""
    world, form = world_of(request), await form_of(request)
    new = request.match_info.route.name == "repo_create"
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
        await world.insert("issues", {"id": await world.next_self_id("issues"), "number": number,
                                      "title": values["title"], "body": values["body"], "state": "open",
                                      "author_id": world.self_persona["id"], "viewed": 1}, origin="self")
    raise done(request, form, f"Opened issue #{number}", url_for(request, "issue", number=number))


@routes.post(r"/issues/{number:\d+}/comment", "issue_comment")
@routes.post(r"/pulls/{number:\d+}/comment", "pull_comment")
async def add_comment(request: web.Request) -> web.Response:
    """A comment by the self user on the issue or pull request the URL numbers."""
    kind, page = ("issue", "issue") if request.match_info.route.name == "issue_comment" else ("pr", "pull")
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
