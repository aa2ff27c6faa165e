"""MicroGram pages (GET); actions.py adds the POSTs. Opening a post, a story or a thread marks it
viewed or read (not on live refreshes); lists never mark anything."""

from __future__ import annotations

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.microgram import queries as q
from sentinel.web.kit import choice_param, fetch_or_404, mark_seen, paged, paged_list, text_param, url_for, world_of
from sentinel.web.render import render

GONE_POST = "This post isn't available anymore."
GONE_STORY = "This story isn't available anymore."
GONE_THREAD = "This conversation no longer exists."
GONE_USER = "Sorry, this page isn't available: the account may not exist."
NOT_FOLLOWED = "p.author_id NOT IN (SELECT persona_id FROM follows) AND p.author_id != ?"

routes = Routes()


async def post_grid(request: web.Request, people: q.People, per_page: int, where: str = "", params: tuple = ()):
    """A page of post cards, newest first: all posts, or those `where` keeps."""
    where = f" WHERE {where}" if where else ""
    return await paged(request, per_page=per_page, params=params, row=lambda r: q.card(r, people),
                       count_sql=f"SELECT COUNT(*) FROM posts p{where}",
                       rows_sql=f"SELECT {q.POST_COLUMNS} FROM posts p{where} ORDER BY {q.POST_ORDER}")


@routes.get("/", "home")
async def feed(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    people = await q.People.load(world)
    return await render(request, "microgram/feed.html", {"stories": await q.story_bar(world, people),
                                                          "list": await post_grid(request, people, q.FEED_PAGE)})


@routes.get("/p/{id}", "post")
async def post_page(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    post_id = request.match_info["id"]
    row = await fetch_or_404(request, f"SELECT {q.POST_COLUMNS} FROM posts p WHERE p.id = ?", (post_id,), GONE_POST)
    await mark_seen(request, "UPDATE posts SET viewed = 1 WHERE id = ?", (post_id,))  # not a column the page shows
    people = await q.People.load(world)
    comments = await world.fetch_all("SELECT id, author_id, body, created_at FROM post_comments WHERE post_id = ?"
                                     " ORDER BY created_at, rowid", (post_id,))
    return await render(request, "microgram/post.html", {
        "post": q.card(row, people),
        "comments": [{**dict(c), "author": people.must(c["author_id"])} for c in comments]})


@routes.get("/stories/{id}", "story")
async def story_page(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    story_id = request.match_info["id"]
    await fetch_or_404(request, "SELECT id FROM stories WHERE id = ?", (story_id,), GONE_STORY)
    people = await q.People.load(world)
    bar = await q.story_bar(world, people)  # the order the bar showed, before this visit
    at = next(i for i, s in enumerate(bar) if s["id"] == story_id)
    await mark_seen(request, "UPDATE stories SET viewed = 1 WHERE id = ?", (story_id,))
    return await render(request, "microgram/story.html", {
        "story": bar[at], "position": at + 1, "total": len(bar),
        "previous": bar[at - 1] if at > 0 else None, "next": bar[at + 1] if at + 1 < len(bar) else None})


@routes.get("/explore", "explore")
async def explore(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    listing = await post_grid(request, await q.People.load(world), q.GRID_PAGE, NOT_FOLLOWED,
                              (world.self_persona["id"],))
    return await render(request, "microgram/explore.html", {"list": listing})


@routes.get("/search", "search")
async def search(request: web.Request) -> web.StreamResponse:
    query = text_param(request.query, "q", max_len=100, label="The search")
    listing = None
    if query:
        people = await q.People.load(world_of(request))
        listing = paged_list(request, people.search(query), per_page=q.ACTIVITY_PAGE)
    return await render(request, "microgram/search.html", {"list": listing})


@routes.get("/direct", "direct")
async def direct(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    return await render(request, "microgram/direct.html",
                        {"threads": await q.threads(world, await q.People.load(world))})


@routes.get("/direct/{id}", "thread")
async def thread_page(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    thread = await fetch_or_404(request, "SELECT id, counterpart_id FROM dm_threads WHERE id = ?",
                                (request.match_info["id"],), GONE_THREAD)
    await mark_seen(request, "UPDATE dm_messages SET is_read = 1 WHERE thread_id = ? AND is_read = 0", (thread["id"],))
    people = await q.People.load(world)
    messages = await world.fetch_all("SELECT id, sender_id, body, created_at FROM dm_messages WHERE thread_id = ?"
                                     " ORDER BY created_at, rowid", (thread["id"],))
    me = world.self_persona["id"]
    return await render(request, "microgram/thread.html", {
        "thread": thread, "counterpart": people.must(thread["counterpart_id"]),
        "messages": [{**dict(m), "mine": m["sender_id"] == me} for m in messages]})


@routes.get("/activity", "activity")
async def activity(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    people = await q.People.load(world)
    since = q.new_since(world)
    listing = await paged(request, per_page=q.ACTIVITY_PAGE, count_sql="SELECT COUNT(*) FROM activity",
                          rows_sql="SELECT * FROM activity ORDER BY created_at DESC, rowid DESC",
                          row=lambda r: {**dict(r), "actor": people.must(r["actor_id"]),
                                         "new": r["created_at"] > since})
    return await render(request, "microgram/activity.html", {"list": listing})


@routes.get("/u/{id}", "profile")
async def profile(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    people = await q.People.load(world)
    pid = request.match_info["id"]
    if pid == "me":
        pid = world.self_persona["id"]
    person = people.get(pid)
    if person is None:
        raise web.HTTPNotFound(text=GONE_USER)
    tab = choice_param(request.query, "tab", ("posts", "saved") if person.is_self else ("posts",), "posts",
                       "Unknown tab: choose posts (or saved, on your own profile).")
    where, params = ("p.saved = 1", ()) if tab == "saved" else ("p.author_id = ?", (pid,))
    listing = await post_grid(request, people, q.GRID_PAGE, where, params)
    post_count = await world.fetch_value("SELECT COUNT(*) FROM posts WHERE author_id = ?", (pid,))
    return await render(request, "microgram/profile.html", {
        "person": person, "post_count": int(post_count or 0), "tab": tab, "list": listing,
        "self_url": url_for(request, "profile", id=pid)})
