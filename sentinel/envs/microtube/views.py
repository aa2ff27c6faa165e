"""MicroTube's pages (GET, under /microtube/) and what they compute (video cards, counts in words), then its actions
(form POSTs, post/redirect/get). Opening a video records the watch, opening a notification marks it read."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from sentinel.core.environment import Header, Routes
from sentinel.envs.kit import contains, like_pattern
from sentinel.web.kit import (
    BadInput,
    done,
    fetch_or_404,
    form_of,
    mark_seen,
    paged,
    route_name,
    text_param,
    url_for,
    world_of,
)
from sentinel.web.render import render
from sentinel.world.state import World

CARD_SELECT = ("SELECT v.*, c.name AS channel_name, c.handle AS channel_handle, c.is_verified AS channel_verified, "
               "c.subscribed AS channel_subscribed FROM videos v JOIN channels c ON c.id = v.channel_id")
NEWEST = "ORDER BY v.arrived_at DESC, v.created_at DESC, v.rowid DESC"
CATEGORIES = ("gaming", "science", "music", "film", "tech", "education", "cooking", "howto", "sports",
              "nature", "travel", "comedy", "people")
LABELS = {"howto": "How-to", "tech": "Tech"}  # the others capitalized
OPEN_NOTIFICATIONS = "FROM notifications WHERE dismissed = 0"
RATINGS = {"like": ("liked", "disliked", "Added to Liked videos", "Removed from Liked videos"),
           "dislike": ("disliked", "liked", "You disliked this video", "Dislike removed")}  # column, the one it clears


def compact(n: int) -> str:
    """1234 → '1.2K', 2_400_000 → '2.4M' (as video sites print counts)."""
    for size, suffix in ((1_000_000_000, "B"), (1_000_000, "M"), (1_000, "K")):
        if n >= size:
            value = n / size
            text = f"{value:.1f}" if value < 10 else f"{int(value)}"
            return text.removesuffix(".0") + suffix
    return str(n)


def duration_text(seconds: int) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def card(row: Any) -> dict[str, Any]:
    """A video row as every list prints it."""
    video = dict(row)
    video["length"] = "LIVE" if video["is_live"] else duration_text(video["duration_s"])
    video["views"] = f"{compact(video['view_count'])} {'watching' if video['is_live'] else 'views'}"
    video["likes"] = compact(video["like_count"])
    video["thumbnail"] = f"/static/microtube/{video['id']}.svg"
    return video


async def playlists_with_counts(world: World) -> list[dict[str, Any]]:
    rows = await world.fetch_all("SELECT p.id, p.name, p.created_at, COUNT(pv.video_id) AS size FROM playlists p "
                                 "LEFT JOIN playlist_videos pv ON pv.playlist_id = p.id "
                                 "GROUP BY p.id ORDER BY p.created_at, p.rowid")
    return [dict(r) for r in rows]


GRID, LIST, COMMENTS = 24, 20, 100  # videos in a grid, in a list, comments on a watch page
UP_NEXT = 8  # the watch page's suggestions: the same category first, then the newest others
MAX_QUERY, MAX_COMMENT, MAX_PLAYLIST_NAME = 100, 500, 80
GONE_VIDEO, GONE_CHANNEL = "This video isn't available anymore.", "This channel doesn't exist."
GONE_PLAYLIST, GONE_NOTIFICATION = "This playlist doesn't exist.", "This notification no longer exists."

routes = Routes()


async def header(world: World) -> Header:
    """The bell: notifications not dismissed ("Notifications (N)", and the title's "(N) ")."""
    waiting = int(await world.fetch_value(f"SELECT COUNT(*) {OPEN_NOTIFICATIONS}") or 0)
    return Header(unread=waiting, counts={"notifications": waiting})


async def video_grid(request: web.Request, where: str = "1", params: tuple = (), per_page: int = GRID,
                     order: str = NEWEST):
    return await paged(request, per_page=per_page, params=params, row=card,
                       count_sql=f"SELECT COUNT(*) FROM videos v JOIN channels c ON c.id = v.channel_id WHERE {where}",
                       rows_sql=f"{CARD_SELECT} WHERE {where} {order}")


@routes.get("/", "home")
async def home(request: web.Request) -> web.StreamResponse:
    category = request.query.get("category", "")
    if category and category not in CATEGORIES:
        raise BadInput("There is no such category.")
    where, params = ("v.category = ?", (category,)) if category else ("1", ())
    listing = await video_grid(request, where, params)
    found = {r[0] for r in await world_of(request).fetch_all("SELECT DISTINCT category FROM videos")}
    categories = [{"key": c, "label": LABELS.get(c, c.capitalize())} for c in CATEGORIES if c in found]
    return await render(request, "microtube/home.html", {"list": listing, "categories": categories,
                                                         "category": category})


@routes.get("/watch/{id}", "watch")
async def watch(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    video_id = request.match_info["id"]
    await fetch_or_404(request, "SELECT id FROM videos WHERE id = ?", (video_id,), GONE_VIDEO)
    now = world.created_at()
    await mark_seen(request, "UPDATE videos SET view_count = view_count + (watched_at IS NULL), "
                             "watched_at = COALESCE(watched_at, ?), last_watched_at = ? WHERE id = ?",
                    (now, now, video_id))
    video = card(await fetch_or_404(request, f"{CARD_SELECT} WHERE v.id = ?", (video_id,), GONE_VIDEO))
    channel = dict(await fetch_or_404(request, "SELECT * FROM channels WHERE id = ?", (video["channel_id"],),
                                      GONE_CHANNEL))
    channel["subscribers"] = compact(channel["subscriber_count"])
    comments = await world.fetch_all(
        "SELECT k.*, p.name AS author_name, p.username AS author_username, p.avatar_color FROM video_comments k "
        "LEFT JOIN personas p ON p.id = k.author_id WHERE k.video_id = ? "
        "ORDER BY k.created_at DESC, k.rowid DESC LIMIT ?", (video_id, COMMENTS))
    total = int(await world.fetch_value("SELECT COUNT(*) FROM video_comments WHERE video_id = ?", (video_id,)) or 0)
    up_next = await world.fetch_all(f"{CARD_SELECT} WHERE v.id != ? AND v.is_short = 0 ORDER BY (v.category = ?) DESC, "
                                    "v.created_at DESC, v.rowid DESC LIMIT ?", (video_id, video["category"], UP_NEXT))
    return await render(request, "microtube/watch.html", {
        "v": video, "channel": channel, "comments": [dict(c) for c in comments], "comment_total": total,
        "suggestions": [card(r) for r in up_next], "playlists": await playlists_with_counts(world),
        "error": None, "draft": ""})


@routes.get("/shorts", "shorts")
async def shorts(request: web.Request) -> web.StreamResponse:
    listing = await video_grid(request, "v.is_short = 1", per_page=LIST)
    return await render(request, "microtube/shorts.html", {"list": listing})


@routes.get("/subscriptions", "subscriptions")
async def subscriptions(request: web.Request) -> web.StreamResponse:
    listing = await video_grid(request, "c.subscribed = 1")
    channels = await world_of(request).fetch_all("SELECT id, name FROM channels WHERE subscribed = 1 ORDER BY name")
    return await render(request, "microtube/subscriptions.html", {"list": listing, "channels": channels})


@routes.get("/history", "history")
async def history(request: web.Request) -> web.StreamResponse:
    listing = await video_grid(request, "v.watched_at IS NOT NULL", per_page=LIST,
                               order="ORDER BY v.last_watched_at DESC, v.rowid DESC")
    return await render(request, "microtube/history.html", {"list": listing})


@routes.get("/library", "library")
async def library(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    liked = [card(r) for r in await world.fetch_all(f"{CARD_SELECT} WHERE v.liked = 1 {NEWEST}")]
    later = [card(r) for r in await world.fetch_all(f"{CARD_SELECT} WHERE v.saved = 1 {NEWEST}")]
    return await render(request, "microtube/library.html", {
        "liked": liked, "later": later, "playlists": await playlists_with_counts(world), "error": None})


@routes.get("/playlist/{id}", "playlist")
async def playlist(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    found = await fetch_or_404(request, "SELECT * FROM playlists WHERE id = ?", (request.match_info["id"],),
                               GONE_PLAYLIST)
    rows = await world.fetch_all(f"{CARD_SELECT} JOIN playlist_videos pv ON pv.video_id = v.id "
                                 "WHERE pv.playlist_id = ? ORDER BY pv.position", (found["id"],))
    return await render(request, "microtube/playlist.html", {"p": dict(found), "videos": [card(r) for r in rows]})


@routes.get("/channel/{id}", "channel")
async def channel(request: web.Request) -> web.StreamResponse:
    found = dict(await fetch_or_404(request, "SELECT * FROM channels WHERE id = ?", (request.match_info["id"],),
                                    GONE_CHANNEL))
    found["subscribers"] = compact(found["subscriber_count"])
    listing = await video_grid(request, "v.channel_id = ?", (found["id"],))
    return await render(request, "microtube/channel.html", {"ch": found, "list": listing})


@routes.get("/results", "results")
async def results(request: web.Request) -> web.StreamResponse:
    query = text_param(request.query, "q", max_len=MAX_QUERY, label="The search")
    listing = None
    if query:
        pattern = like_pattern(query)
        listing = await video_grid(request, contains("v.title", "c.name"), (pattern, pattern), per_page=LIST)
    return await render(request, "microtube/results.html", {"q": query, "list": listing})


@routes.get("/notifications", "notifications")
async def notifications(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    listing = await paged(request, per_page=LIST, row=dict,
                          count_sql=f"SELECT COUNT(*) {OPEN_NOTIFICATIONS}",
                          rows_sql="SELECT n.*, c.name AS channel_name FROM notifications n "
                                   "JOIN channels c ON c.id = n.channel_id WHERE n.dismissed = 0 "
                                   "ORDER BY n.created_at DESC, n.rowid DESC")
    unread = int(await world.fetch_value(f"SELECT COUNT(*) {OPEN_NOTIFICATIONS} AND is_read = 0") or 0)
    return await render(request, "microtube/notifications.html", {"list": listing, "unread": unread})


@routes.get("/notifications/{id}", "notification_open")
async def notification_open(request: web.Request) -> web.StreamResponse:
    note: Any = await fetch_or_404(request, "SELECT id, video_id, channel_id FROM notifications WHERE id = ?",
                                   (request.match_info["id"],), GONE_NOTIFICATION)
    await mark_seen(request, "UPDATE notifications SET is_read = 1 WHERE id = ?", (note["id"],))
    raise web.HTTPSeeOther(url_for(request, "watch", id=note["video_id"]) if note["video_id"]
                           else url_for(request, "channel", id=note["channel_id"]))


# --- actions: like, dislike, Watch later, subscribe, comment, dismiss and read-all for notifications, playlists ---

async def video_of(request: web.Request) -> Any:
    return await fetch_or_404(request, "SELECT id, liked, disliked, saved FROM videos WHERE id = ?",
                              (request.match_info["id"],), GONE_VIDEO)


async def update(request: web.Request, sql: str, params: tuple[Any, ...] = ()) -> None:
    """One UPDATE in its own write transaction."""
    async with world_of(request).write() as db:
        await db.execute(sql, params)


@routes.post("/watch/{id}/like", "like")
@routes.post("/watch/{id}/dislike", "dislike")
async def rate(request: web.Request) -> web.StreamResponse:
    """Like or dislike the video, or take it back: either clears the other, and like_count follows `liked`."""
    form, video = await form_of(request), await video_of(request)
    column, other, on, off = RATINGS[route_name(request)]
    now = 1 - video[column]
    rated = {column: now, other: 0 if now else video[other]}
    await update(request, "UPDATE videos SET liked = ?, disliked = ?, like_count = MAX(0, like_count + ?) WHERE id = ?",
                 (rated["liked"], rated["disliked"], rated["liked"] - video["liked"], video["id"]))
    raise done(request, form, on if now else off, url_for(request, "watch", id=video["id"]))


@routes.post("/watch/{id}/save", "save")
async def save(request: web.Request) -> web.StreamResponse:
    form, video = await form_of(request), await video_of(request)
    await update(request, "UPDATE videos SET saved = 1 - saved WHERE id = ?", (video["id"],))
    raise done(request, form, "Removed from Watch later" if video["saved"] else "Saved to Watch later",
               url_for(request, "watch", id=video["id"]))


@routes.post("/watch/{id}/comment", "comment")
async def comment(request: web.Request) -> web.StreamResponse:
    form, video = await form_of(request), await video_of(request)
    body = text_param(form, "body", max_len=MAX_COMMENT, label="The comment",
                      required="Write a comment before posting it.")
    world = world_of(request)
    async with world.write():
        comment_id = await world.next_self_id("video_comments")
        await world.insert("video_comments", {"id": comment_id, "video_id": video["id"],
                                              "author_id": world.self_persona["id"], "body": body}, origin="self")
    raise done(request, form, "Comment posted", url_for(request, "watch", id=video["id"]))


@routes.post("/channel/{id}/subscribe", "subscribe")
async def subscribe(request: web.Request) -> web.StreamResponse:
    form = await form_of(request)
    channel = await fetch_or_404(request, "SELECT id, name, subscribed FROM channels WHERE id = ?",
                                 (request.match_info["id"],), GONE_CHANNEL)
    now = 1 - channel["subscribed"]
    await update(request, "UPDATE channels SET subscribed = ?, subscriber_count = MAX(0, subscriber_count + ?) "
                 "WHERE id = ?", (now, 1 if now else -1, channel["id"]))
    raise done(request, form, f"Subscribed to {channel['name']}" if now else f"Unsubscribed from {channel['name']}",
               url_for(request, "channel", id=channel["id"]))


@routes.post("/notifications/{id}/dismiss", "dismiss")
async def dismiss(request: web.Request) -> web.StreamResponse:
    form = await form_of(request)
    note = await fetch_or_404(request, "SELECT id FROM notifications WHERE id = ?", (request.match_info["id"],),
                              GONE_NOTIFICATION)
    await update(request, "UPDATE notifications SET dismissed = 1, is_read = 1 WHERE id = ?", (note["id"],))
    raise done(request, form, "Notification dismissed", url_for(request, "notifications"))


@routes.post("/notifications/read_all", "read_all")
async def read_all(request: web.Request) -> web.StreamResponse:
    form = await form_of(request)
    await update(request, "UPDATE notifications SET is_read = 1 WHERE dismissed = 0")
    raise done(request, form, "All notifications marked as read", url_for(request, "notifications"))


@routes.post("/playlists", "create_playlist")
async def create_playlist(request: web.Request) -> web.StreamResponse:
    form = await form_of(request)
    name = text_param(form, "name", max_len=MAX_PLAYLIST_NAME, label="The playlist name",
                      required="Give the playlist a name.")
    world = world_of(request)
    async with world.write():
        playlist_id = await world.next_self_id("playlists")
        await world.insert("playlists", {"id": playlist_id, "name": name}, origin="self")
    raise done(request, form, f"Playlist “{name}” created", url_for(request, "playlist", id=playlist_id))


@routes.post("/playlist/{id}/add", "playlist_add")
async def playlist_add(request: web.Request) -> web.StreamResponse:
    form = await form_of(request)
    found = await fetch_or_404(request, "SELECT id, name FROM playlists WHERE id = ?", (request.match_info["id"],),
                               GONE_PLAYLIST)
    video_id = text_param(form, "video_id", max_len=40, label="The video")
    world = world_of(request)
    if await world.fetch_value("SELECT 1 FROM videos WHERE id = ?", (video_id,)) is None:
        raise BadInput("Choose a video that exists.")
    async with world.write() as db:
        position = int(await world.fetch_value("SELECT COALESCE(MAX(position), 0) + 1 FROM playlist_videos "
                                               "WHERE playlist_id = ?", (found["id"],)) or 1)
        await db.execute("INSERT OR IGNORE INTO playlist_videos (playlist_id, video_id, position) VALUES (?, ?, ?)",
                         (found["id"], video_id, position))
    raise done(request, form, f"Added to {found['name']}", url_for(request, "playlist", id=found["id"]))
