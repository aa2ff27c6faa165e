"""MicroTube events: `preload` fills the site, `new_video`, `new_comment` and `new_notification`
deliver one catalog item, `remove_video` takes an upload down again (its comments, playlist
entries and Watch-later mark go with it; notifications stay and open "video unavailable").

They run inside the session's world.write() transaction, so they only execute statements.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sentinel.core.environment import EventType
from sentinel.envs.kit import oldest_first, preload_type, preloaded_age, selected

if TYPE_CHECKING:
    from sentinel.core.scenario import Event
    from sentinel.world.state import World

PRELOAD_COLLECTIONS = {"channels": "channels", "videos": "videos", "comments": "video_comments",
                       "notifications": "notifications", "playlists": "playlists"}


def timing(event: Event, record: dict[str, Any]) -> dict[str, Any]:
    """world.insert's keyword arguments: a preload item's age, or an arrival's event time."""
    if event.type == "preload":
        return {"origin": "preload", "age_minutes": preloaded_age(event, record)}
    return {"origin": "event", "at": event.at}


async def insert_channel(world: World, event: Event, record: dict[str, Any], subscribed: bool) -> None:
    await world.insert("channels", {
        "id": record["id"], "name": record["name"], "handle": record["handle"], "topic": record["topic"],
        "description": record.get("description", ""), "subscriber_count": int(record["subscriber_count"]),
        "is_verified": int(bool(record.get("is_verified"))), "is_self": int(bool(record.get("is_self"))),
        "subscribed": int(subscribed)}, **timing(event, record))


async def insert_video(world: World, event: Event, record: dict[str, Any]) -> None:
    await world.insert("videos", {
        "id": record["id"], "channel_id": record["channel_id"], "title": record["title"],
        "description": record.get("description", ""), "category": record["category"],
        "duration_s": int(record.get("duration_s", 0)), "view_count": int(record.get("view_count", 0)),
        "like_count": int(record.get("like_count", 0)), "is_live": int(bool(record.get("is_live"))),
        "is_short": int(bool(record.get("is_short")))}, **timing(event, record))


async def insert_comment(world: World, event: Event, record: dict[str, Any]) -> None:
    """A comment on a video that is there; one whose video was taken down is dropped."""
    if await world.fetch_value("SELECT 1 FROM videos WHERE id = ?", (record["video_id"],)) is None:
        return
    await world.insert("video_comments", {
        "id": record["id"], "video_id": record["video_id"], "author_id": record["author_id"],
        "body": record["body"], "like_count": int(record.get("like_count", 0))}, **timing(event, record))


async def insert_notification(world: World, event: Event, record: dict[str, Any]) -> None:
    await world.insert("notifications", {
        "id": record["id"], "kind": record["kind"], "channel_id": record["channel_id"],
        "video_id": record.get("video_id"), "message": record["message"],
        "is_read": int(bool(record.get("is_read"))), "dismissed": int(bool(record.get("dismissed")))},
        **timing(event, record))


async def insert_playlist(world: World, event: Event, record: dict[str, Any]) -> None:
    """One of the self user's playlists, with those of its videos that are on the site."""
    await world.insert("playlists", {"id": record["id"], "name": record["name"]}, **timing(event, record))
    for position, video_id in enumerate(record.get("video_ids", []), 1):
        await world.db.execute("INSERT INTO playlist_videos (playlist_id, video_id, position) "
                               "SELECT ?, id, ? FROM videos WHERE id = ?", (record["id"], position, video_id))


async def apply_preload(world: World, event: Event) -> None:
    """Channels (the `subscribed` ones marked), videos, comments, notifications and playlists with
    their catalog ages, oldest first; then the `watched` videos get a first and latest watch time."""
    catalog, fields = world.catalog, event.fields
    subscribed = set(selected(catalog, "channels", fields.get("subscribed")))
    for channel_id in selected(catalog, "channels", fields.get("channels")):
        await insert_channel(world, event, catalog.get("channels", channel_id), channel_id in subscribed)
    for field, collection in (("videos", "videos"), ("comments", "video_comments"),
                              ("notifications", "notifications")):
        insert = {"videos": insert_video, "comments": insert_comment, "notifications": insert_notification}[field]
        for item_id in oldest_first(catalog, collection, selected(catalog, collection, fields.get(field))):
            await insert(world, event, catalog.get(collection, item_id))
    for playlist_id in oldest_first(catalog, "playlists", selected(catalog, "playlists", fields.get("playlists"))):
        await insert_playlist(world, event, catalog.get("playlists", playlist_id))
    for video_id in selected(catalog, "videos", fields.get("watched")):
        record = catalog.get("videos", video_id)
        seen = world.preload_created_at(preloaded_age(event, record) / 2)
        await world.db.execute("UPDATE videos SET watched_at = ?, last_watched_at = ? WHERE id = ?",
                               (seen, seen, video_id))


async def apply_new_video(world: World, event: Event) -> None:
    await insert_video(world, event, world.catalog.get("videos", str(event.fields["video_id"])))


async def apply_new_comment(world: World, event: Event) -> None:
    await insert_comment(world, event, world.catalog.get("video_comments", str(event.fields["comment_id"])))


async def apply_new_notification(world: World, event: Event) -> None:
    await insert_notification(world, event, world.catalog.get("notifications", str(event.fields["notification_id"])))


async def apply_remove_video(world: World, event: Event) -> None:
    """The uploader takes the video down: it leaves every list; liking or saving it is no longer possible."""
    video_id = str(event.fields["video_id"])
    for sql in ("DELETE FROM video_comments WHERE video_id = ?", "DELETE FROM playlist_videos WHERE video_id = ?",
                "DELETE FROM videos WHERE id = ?"):
        await world.db.execute(sql, (video_id,))


EVENT_TYPES = {
    "preload": preload_type(apply_preload, PRELOAD_COLLECTIONS, required=("channels", "videos"),
                            refs={"subscribed": "channels", "watched": "videos"}),
    "new_video": EventType(apply_new_video, refs={"video_id": "videos"}, inserts=("video_id",), required=("video_id",)),
    "new_comment": EventType(apply_new_comment, refs={"comment_id": "video_comments"}, inserts=("comment_id",),
                             required=("comment_id",)),
    "new_notification": EventType(apply_new_notification, refs={"notification_id": "notifications"},
                                  inserts=("notification_id",), required=("notification_id",)),
    "remove_video": EventType(apply_remove_video, refs={"video_id": "videos"}, required=("video_id",)),
}
