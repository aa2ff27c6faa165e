"""MicroTube's actions (form POSTs under /microtube/, post/redirect/get): like, dislike, Watch later,
subscribe, comment, dismiss and read-all for notifications, create a playlist, add a video to one."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from sentinel.envs.microtube.views import GONE_CHANNEL, GONE_NOTIFICATION, GONE_PLAYLIST, GONE_VIDEO, routes
from sentinel.web.kit import BadInput, done, fetch_or_404, form_of, text_param, url_for, world_of

MAX_COMMENT = 500
MAX_PLAYLIST_NAME = 80


async def video_of(request: web.Request) -> Any:
    return await fetch_or_404(request, "SELECT id, liked, disliked, saved FROM videos WHERE id = ?",
                              (request.match_info["id"],), GONE_VIDEO)


async def update(request: web.Request, sql: str, params: tuple[Any, ...] = ()) -> None:
    """One UPDATE in its own write transaction."""
    async with world_of(request).write() as db:
        await db.execute(sql, params)


@routes.post("/watch/{id}/like", "like")
async def like(request: web.Request) -> web.StreamResponse:
    form, video = await form_of(request), await video_of(request)
    liked = 1 - video["liked"]
    await update(request, "UPDATE videos SET liked = ?, disliked = CASE WHEN ? = 1 THEN 0 ELSE disliked END, "
                 "like_count = MAX(0, like_count + ?) WHERE id = ?", (liked, liked, 1 if liked else -1, video["id"]))
    raise done(request, form, "Added to Liked videos" if liked else "Removed from Liked videos",
               url_for(request, "watch", id=video["id"]))


@routes.post("/watch/{id}/dislike", "dislike")
async def dislike(request: web.Request) -> web.StreamResponse:
    form, video = await form_of(request), await video_of(request)
    disliked = 1 - video["disliked"]
    await update(request, "UPDATE videos SET disliked = ?, liked = CASE WHEN ? = 1 THEN 0 ELSE liked END, "
                 "like_count = MAX(0, like_count - ?) WHERE id = ?",
                 (disliked, disliked, 1 if disliked and video["liked"] else 0, video["id"]))
    raise done(request, form, "You disliked this video" if disliked else "Dislike removed",
               url_for(request, "watch", id=video["id"]))


@routes.post("/watch/{id}/save", "save")
async def save(request: web.Request) -> web.StreamResponse:
    form, video = await form_of(request), await video_of(request)
    await update(request, "UPDATE videos SET saved = 1 - saved WHERE id = ?", (video["id"],))
    raise done(request, form, "Removed from Watch later" if video["saved"] else "Saved to Watch later",
               url_for(request, "watch", id=video["id"]))


@routes.post("/watch/{id}/comment", "comment")
async def comment(request: web.Request) -> web.StreamResponse:
    form, video = await form_of(request), await video_of(request)
    body = text_param(form, "body", max_len=MAX_COMMENT, label="The comment")
    if not body:
        raise BadInput("Write a comment before posting it.")
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
    name = text_param(form, "name", max_len=MAX_PLAYLIST_NAME, label="The playlist name")
    if not name:
        raise BadInput("Give the playlist a name.")
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
