"""MicroGram actions (POST): each answers 303 to the form's `next` page with a one-line status;
bad input answers 400."""

from __future__ import annotations

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.microgram.views import GONE_POST, GONE_THREAD, GONE_USER, People
from sentinel.web.kit import BadInput, done, fetch_or_404, form_of, text_param, toggle, url_for, world_of
from sentinel.world.state import World

MAX_TEXT = 1000
routes = Routes()


async def post_row(request: web.Request):
    return await fetch_or_404(request, "SELECT id FROM posts WHERE id = ?", (request.match_info["id"],), GONE_POST)


@routes.post("/p/{id}/like", "like")
async def like(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    post = await post_row(request)
    async with world.write() as db:
        await db.execute("UPDATE posts SET like_count = like_count + CASE liked WHEN 1 THEN -1 ELSE 1 END,"
                         " liked = 1 - liked WHERE id = ?", (post["id"],))
    liked = await world.fetch_value("SELECT liked FROM posts WHERE id = ?", (post["id"],))
    raise done(request, form, "Liked" if liked else "Like removed", url_for(request, "post", id=post["id"]))


@routes.post("/p/{id}/save", "save")
async def save(request: web.Request) -> web.StreamResponse:
    form = await form_of(request)
    post = await post_row(request)
    saved = await toggle(request, "posts", "saved", post["id"])
    raise done(request, form, "Saved to your collection" if saved else "Removed from saved",
               url_for(request, "post", id=post["id"]))


async def write_own(world: World, form, table: str, label: str, **values: object) -> None:
    """The self user's comment or message: the form's `body` (never empty) as a row under the next self id."""
    body = text_param(form, "body", max_len=MAX_TEXT, label=label, required=f"{label} cannot be empty.")
    async with world.write():
        await world.insert(table, {"id": await world.next_self_id(table), **values, "body": body}, origin="self")


@routes.post("/p/{id}/comment", "comment")
async def comment(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    post = await post_row(request)
    await write_own(world, form, "post_comments", "A comment", post_id=post["id"], author_id=world.self_persona["id"])
    raise done(request, form, "Comment posted", url_for(request, "post", id=post["id"]))


@routes.post("/u/{id}/follow", "follow")
async def follow(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    people = await People.load(world)
    person = people.get(request.match_info["id"])
    if person is None:
        raise web.HTTPNotFound(text=GONE_USER)
    if person.is_self:
        raise BadInput("You cannot follow yourself.")
    async with world.write() as db:
        if person.followed:
            await db.execute("DELETE FROM follows WHERE persona_id = ?", (person.id,))
        else:
            await world.insert("follows", {"persona_id": person.id}, origin="self")
    status = f"Unfollowed {person.username}" if person.followed else f"Following {person.username}"
    raise done(request, form, status, url_for(request, "profile", id=person.id))


@routes.post("/direct/{id}/send", "send")
async def send(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    thread = await fetch_or_404(request, "SELECT id FROM dm_threads WHERE id = ?", (request.match_info["id"],),
                                GONE_THREAD)
    await write_own(world, form, "dm_messages", "A message", thread_id=thread["id"],
                    sender_id=world.self_persona["id"], is_read=1)
    raise done(request, form, "Message sent", url_for(request, "thread", id=thread["id"]))
