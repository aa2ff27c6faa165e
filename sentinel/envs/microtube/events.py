"""MicroTube's events: `preload` fills the site, `new_video`, `new_comment` and `new_notification` deliver
one catalog item, `remove_video` takes an upload down (notifications stay and open "video unavailable")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sentinel.core.environment import EventType
from sentinel.envs.kit import insert_timing, oldest_first, preload_type, preloaded_age, selected

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Event, Scenario
    from sentinel.world.state import World

PRELOAD_COLLECTIONS = {"channels": "channels", "videos": "videos", "comments": "video_comments",
                       "notifications": "notifications", "playlists": "playlists"}
ARRIVALS = {"new_video": ("video_id", "videos"), "new_comment": ("comment_id", "video_comments"),
            "new_notification": ("notification_id", "notifications")}  # event type → its id field, collection


# What a catalog record gives each table: columns as authored, optional ones (their default when absent),
# counts (0 when absent) and 0/1 flags.
COLUMNS: dict[str, tuple[tuple[str, ...], dict[str, Any], tuple[str, ...], tuple[str, ...]]] = {
    "channels": (("id", "name", "handle", "topic", "subscriber_count"), {"description": ""}, (),
                 ("is_verified", "is_self", "subscribed")),
    "videos": (("id", "channel_id", "title", "category"), {"description": ""},
               ("duration_s", "view_count", "like_count"), ("is_live", "is_short")),
    "video_comments": (("id", "video_id", "author_id", "body"), {}, ("like_count",), ()),
    "notifications": (("id", "kind", "channel_id", "message"), {"video_id": None}, (), ("is_read", "dismissed")),
    "playlists": (("id", "name"), {}, (), ()),
}


async def insert(world: World, event: Event, table: str, record: dict[str, Any]) -> None:
    """One catalog record as a row: a comment whose video was taken down is dropped; a playlist (the self
    user's) gets those of its videos that are on the site."""
    if table == "video_comments" and await world.fetch_value("SELECT 1 FROM videos WHERE id = ?",
                                                             (record["video_id"],)) is None:
        return
    copied, optional, counts, flags = COLUMNS[table]
    values = {**{k: record[k] for k in copied}, **{k: record.get(k, d) for k, d in optional.items()},
              **{k: int(record.get(k, 0)) for k in counts}, **{k: int(bool(record.get(k))) for k in flags}}
    await world.insert(table, values, **insert_timing(event, record))
    for position, video_id in enumerate(record.get("video_ids", []), 1):
        await world.db.execute("INSERT INTO playlist_videos (playlist_id, video_id, position) "
                               "SELECT ?, id, ? FROM videos WHERE id = ?", (record["id"], position, video_id))


async def apply_preload(world: World, event: Event) -> None:
    """Channels, then the other items oldest first; the `watched` videos get a first and latest watch time."""
    catalog, fields = world.catalog, event.fields
    subscribed = set(selected(catalog, "channels", fields.get("subscribed")))
    for channel_id in selected(catalog, "channels", fields.get("channels")):
        await insert(world, event, "channels", {**catalog.get("channels", channel_id),
                                                "subscribed": channel_id in subscribed})
    for field in ("videos", "comments", "notifications", "playlists"):
        collection = PRELOAD_COLLECTIONS[field]
        for item_id in oldest_first(catalog, collection, selected(catalog, collection, fields.get(field))):
            await insert(world, event, collection, catalog.get(collection, item_id))
    for video_id in selected(catalog, "videos", fields.get("watched")):
        record = catalog.get("videos", video_id)
        seen = world.preload_created_at(preloaded_age(event, record) / 2)
        await world.db.execute("UPDATE videos SET watched_at = ?, last_watched_at = ? WHERE id = ?",
                               (seen, seen, video_id))


def arrival(field: str, collection: str) -> EventType:
    """An event that delivers the one catalog item its `field` names."""
    async def apply(world: World, event: Event) -> None:
        await insert(world, event, collection, world.catalog.get(collection, str(event.fields[field])))
    return EventType(apply, refs={field: collection}, inserts=(field,), required=(field,))


async def apply_remove_video(world: World, event: Event) -> None:
    """The uploader takes the video down: it leaves every list; liking or saving it is no longer possible."""
    video_id = str(event.fields["video_id"])
    for sql in ("DELETE FROM video_comments WHERE video_id = ?", "DELETE FROM playlist_videos WHERE video_id = ?",
                "DELETE FROM videos WHERE id = ?"):
        await world.db.execute(sql, (video_id,))


EVENT_TYPES = {
    "preload": preload_type(apply_preload, PRELOAD_COLLECTIONS, required=("channels", "videos"),
                            refs={"subscribed": "channels", "watched": "videos"}),
    **{etype: arrival(field, collection) for etype, (field, collection) in ARRIVALS.items()},
    "remove_video": EventType(apply_remove_video, refs={"video_id": "videos"}, required=("video_id",)),
}


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """Comments and notifications only point at videos that are on the site at their instant (a
    notification may come at the same instant as its upload); a preloaded comment's video is preloaded."""
    problems: list[tuple[str, str]] = []
    preloaded: set[str] = set()
    arrivals = {str(e.fields.get("video_id")): e.at for e in scenario.events if e.type == "new_video"}
    removals = {str(e.fields.get("video_id")): e.at for e in scenario.events if e.type == "remove_video"}

    def present(video: str, t: float) -> bool:
        return (video in preloaded or arrivals.get(video, float("inf")) <= t) and removals.get(video, float("inf")) > t

    for event in scenario.events:
        where = f"events[{event.index}]"
        if event.type == "preload":
            preloaded |= set(selected(catalog, "videos", event.fields.get("videos")))
            for comment_id in selected(catalog, "video_comments", event.fields.get("comments")):
                video = catalog.raw("video_comments").get(comment_id, {}).get("video_id")
                if video is not None and video not in preloaded:
                    problems.append((f"{where}.comments", f"{comment_id} is on {video}, which the preload lacks"))
        elif event.type in ("new_comment", "new_notification"):  # the arrivals that point at a video
            field, collection = ARRIVALS[event.type]
            record = catalog.raw(collection).get(str(event.fields.get(field)), {})
            video = record.get("video_id")
            if video and not present(video, event.at):
                problems.append((f"{where}.{field}", f"{record['id']} points at {video}, which is not on the site "
                                                     f"at {event.at:g} s"))
    return problems
