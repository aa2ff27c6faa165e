"""MicroGram pages (GET) and what they compute; actions.py adds the POSTs. Opening a post, a story or a
thread marks it viewed or read (not on live refreshes); lists never mark anything."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from aiohttp import web

from sentinel.core.environment import Header, Routes
from sentinel.web.kit import choice_param, fetch_or_404, mark_seen, paged, paged_list, text_param, url_for, world_of
from sentinel.web.render import render
from sentinel.world.state import World, iso

FEED_PAGE = 10
GRID_PAGE = 24
ACTIVITY_PAGE = 20
PREVIEW_CHARS = 40
NEW_ACTIVITY_MINUTES = 60  # the activity page's "New" section: entries of the last hour

POST_COLUMNS = ("p.id, p.author_id, p.image_alt, p.caption, p.location, p.like_count, p.liked, p.saved, "
                "p.created_at, (SELECT COUNT(*) FROM post_comments c WHERE c.post_id = p.id) AS comment_count")
POST_ORDER = "p.created_at DESC, p.rowid DESC"


@dataclass(frozen=True)
class Person:
    id: str
    name: str
    username: str
    avatar_color: str
    bio: str
    followers: int
    following: int
    verified: bool
    website: str | None
    followed: bool  # the self user follows them now
    is_self: bool

    @property
    def initials(self) -> str:
        return "".join(part[0] for part in self.name.split()[:2])


class People:
    """Every persona with its MicroGram profile numbers, and who the self user follows now."""

    def __init__(self, world: World, follows: dict[str, str]):
        self.follows = follows  # persona id → origin of the follows row
        self.catalog = world.catalog.personas()

    @classmethod
    async def load(cls, world: World) -> People:
        rows = await world.fetch_all("SELECT persona_id, origin FROM follows")
        return cls(world, {r["persona_id"]: r["origin"] for r in rows})

    def get(self, pid: str) -> Person | None:
        record = self.catalog.get(pid)
        if record is None:
            return None
        gram = record.get("gram") or {}
        followed = pid in self.follows
        was_counted = self.follows.get(pid) == "preload"  # the catalog count already includes us
        is_self = bool(record.get("is_self"))
        return Person(id=pid, name=record["name"], username=record["username"],
                      avatar_color=record.get("avatar_color", "#888"), bio=record.get("bio", ""),
                      followers=int(gram.get("followers", 0)) + int(followed) - int(was_counted),
                      following=len(self.follows) if is_self else int(gram.get("following", 0)),
                      verified=bool(gram.get("verified")), website=gram.get("website"),
                      followed=followed, is_self=is_self)

    def must(self, pid: str) -> Person:
        person = self.get(pid)
        if person is None:  # catalog rows always name a persona; keep pages readable if not
            return Person(pid, pid, pid, "#888", "", 0, 0, False, None, False, False)
        return person

    def search(self, query: str) -> list[Person]:
        folded = query.casefold()
        found = [self.must(pid) for pid, r in self.catalog.items()
                 if folded in r["username"].casefold() or folded in r["name"].casefold()]
        return sorted(found, key=lambda p: (not p.username.casefold().startswith(folded), p.username))


def card(row: Any, people: People) -> dict[str, Any]:
    """A post as the feed and grids show it (no commenters: those are on the post page only)."""
    post = dict(row)
    post["author"] = people.must(post["author_id"])
    post["suggested"] = not post["author"].followed and not post["author"].is_self
    return post


async def story_bar(world: World, people: People) -> list[dict[str, Any]]:
    """Unviewed stories first (newest first), then viewed ones."""
    rows = await world.fetch_all("SELECT id, author_id, image_alt, viewed, created_at FROM stories"
                                 " ORDER BY viewed, created_at DESC, rowid DESC")
    return [{**dict(r), "author": people.must(r["author_id"])} for r in rows]


def new_since(world: World) -> str:
    """Activity newer than this is in the "New" section."""
    return iso(world.now_dt() - timedelta(minutes=NEW_ACTIVITY_MINUTES))


async def header(world: World) -> Header:
    """Unread direct threads (also the title's "(N) ") and the activity page's "New" entries."""
    unread = int(await world.fetch_value("SELECT COUNT(DISTINCT thread_id) FROM dm_messages WHERE is_read = 0") or 0)
    recent = await world.fetch_value("SELECT COUNT(*) FROM activity WHERE created_at > ?", (new_since(world),))
    return Header(unread=unread, counts={"direct": unread, "activity": int(recent or 0)})


GONE_POST = "This post isn't available anymore."
GONE_STORY = "This story isn't available anymore."
GONE_THREAD = "This conversation no longer exists."
GONE_USER = "Sorry, this page isn't available: the account may not exist."
NOT_FOLLOWED = "p.author_id NOT IN (SELECT persona_id FROM follows) AND p.author_id != ?"

routes = Routes()


async def post_grid(request: web.Request, people: People, per_page: int, where: str = "", params: tuple = ()):
    """A page of post cards, newest first: all posts, or those `where` keeps."""
    where = f" WHERE {where}" if where else ""
    return await paged(request, per_page=per_page, params=params, row=lambda r: card(r, people),
                       count_sql=f"SELECT COUNT(*) FROM posts p{where}",
                       rows_sql=f"SELECT {POST_COLUMNS} FROM posts p{where} ORDER BY {POST_ORDER}")


@routes.get("/", "home")
async def feed(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    people = await People.load(world)
    return await render(request, "microgram/feed.html", {"stories": await story_bar(world, people),
                                                          "list": await post_grid(request, people, FEED_PAGE)})


@routes.get("/p/{id}", "post")
async def post_page(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    post_id = request.match_info["id"]
    row = await fetch_or_404(request, f"SELECT {POST_COLUMNS} FROM posts p WHERE p.id = ?", (post_id,), GONE_POST)
    await mark_seen(request, "UPDATE posts SET viewed = 1 WHERE id = ?", (post_id,))  # not a column the page shows
    people = await People.load(world)
    comments = await world.fetch_all("SELECT id, author_id, body, created_at FROM post_comments WHERE post_id = ?"
                                     " ORDER BY created_at, rowid", (post_id,))
    return await render(request, "microgram/post.html", {
        "post": card(row, people),
        "comments": [{**dict(c), "author": people.must(c["author_id"])} for c in comments]})


@routes.get("/stories/{id}", "story")
async def story_page(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    story_id = request.match_info["id"]
    await fetch_or_404(request, "SELECT id FROM stories WHERE id = ?", (story_id,), GONE_STORY)
    people = await People.load(world)
    bar = await story_bar(world, people)  # the order the bar showed, before this visit
    at = next(i for i, s in enumerate(bar) if s["id"] == story_id)
    await mark_seen(request, "UPDATE stories SET viewed = 1 WHERE id = ?", (story_id,))
    return await render(request, "microgram/story.html", {
        "story": bar[at], "position": at + 1, "total": len(bar),
        "previous": bar[at - 1] if at > 0 else None, "next": bar[at + 1] if at + 1 < len(bar) else None})


@routes.get("/explore", "explore")
async def explore(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    listing = await post_grid(request, await People.load(world), GRID_PAGE, NOT_FOLLOWED,
                              (world.self_persona["id"],))
    return await render(request, "microgram/explore.html", {"list": listing})


@routes.get("/search", "search")
async def search(request: web.Request) -> web.StreamResponse:
    query = text_param(request.query, "q", max_len=100, label="The search")
    listing = None
    if query:
        people = await People.load(world_of(request))
        listing = paged_list(request, people.search(query), per_page=ACTIVITY_PAGE)
    return await render(request, "microgram/search.html", {"list": listing})


@routes.get("/direct", "direct")
async def direct(request: web.Request) -> web.StreamResponse:
    """Threads, latest message first: counterpart, the last message cut to 40 characters, unread count."""
    world = world_of(request)
    people = await People.load(world)
    rows = await world.fetch_all(
        "SELECT t.id, t.counterpart_id, m.body, m.sender_id, m.created_at,"
        " (SELECT COUNT(*) FROM dm_messages u WHERE u.thread_id = t.id AND u.is_read = 0) AS unread"
        " FROM dm_threads t JOIN dm_messages m ON m.id = (SELECT id FROM dm_messages x WHERE x.thread_id = t.id"
        " ORDER BY x.created_at DESC, x.rowid DESC LIMIT 1) ORDER BY m.created_at DESC, m.rowid DESC")

    def preview(body: str) -> str:
        return body if len(body) <= PREVIEW_CHARS else body[:PREVIEW_CHARS].rstrip() + "…"
    return await render(request, "microgram/direct.html", {"threads": [
        {**dict(r), "counterpart": people.must(r["counterpart_id"]), "preview": preview(r["body"]),
         "mine": r["sender_id"] == world.self_persona["id"]} for r in rows]})


@routes.get("/direct/{id}", "thread")
async def thread_page(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    thread = await fetch_or_404(request, "SELECT id, counterpart_id FROM dm_threads WHERE id = ?",
                                (request.match_info["id"],), GONE_THREAD)
    await mark_seen(request, "UPDATE dm_messages SET is_read = 1 WHERE thread_id = ? AND is_read = 0", (thread["id"],))
    people = await People.load(world)
    messages = await world.fetch_all("SELECT id, sender_id, body, created_at FROM dm_messages WHERE thread_id = ?"
                                     " ORDER BY created_at, rowid", (thread["id"],))
    me = world.self_persona["id"]
    return await render(request, "microgram/thread.html", {
        "thread": thread, "counterpart": people.must(thread["counterpart_id"]),
        "messages": [{**dict(m), "mine": m["sender_id"] == me} for m in messages]})


@routes.get("/activity", "activity")
async def activity(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    people = await People.load(world)
    since = new_since(world)
    listing = await paged(request, per_page=ACTIVITY_PAGE, count_sql="SELECT COUNT(*) FROM activity",
                          rows_sql="SELECT * FROM activity ORDER BY created_at DESC, rowid DESC",
                          row=lambda r: {**dict(r), "actor": people.must(r["actor_id"]),
                                         "new": r["created_at"] > since})
    return await render(request, "microgram/activity.html", {"list": listing})


@routes.get("/u/{id}", "profile")
async def profile(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    people = await People.load(world)
    pid = world.self_persona["id"] if request.match_info["id"] == "me" else request.match_info["id"]
    person = people.get(pid)
    if person is None:
        raise web.HTTPNotFound(text=GONE_USER)
    tab = choice_param(request.query, "tab", ("posts", "saved") if person.is_self else ("posts",), "posts",
                       "Unknown tab: choose posts (or saved, on your own profile).")
    where, params = ("p.saved = 1", ()) if tab == "saved" else ("p.author_id = ?", (pid,))
    listing = await post_grid(request, people, GRID_PAGE, where, params)
    post_count = await world.fetch_value("SELECT COUNT(*) FROM posts WHERE author_id = ?", (pid,))
    return await render(request, "microgram/profile.html", {
        "person": person, "post_count": int(post_count or 0), "tab": tab, "list": listing,
        "self_url": url_for(request, "profile", id=pid)})
