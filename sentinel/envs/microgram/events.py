"""MicroGram events: the preload, arrivals (a post brings its catalog comments), and `unsend_dm`.
They run inside the session's write transaction, so they only execute statements."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from sentinel.core.environment import EventType
from sentinel.envs.kit import oldest_first, preload_type, preloaded_age, selected

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.scenario import Event
    from sentinel.world.state import World

# The accounts the self user follows in `sentinel serve` (scenarios list theirs in the preload's `followed`)
SERVE_FOLLOWED = ["p001", "p002", "p003", "p004", "p006", "p011", "p012", "p017", "p018", "p021", "p024", "p029",
                  "p033", "p041", "p042", "p045", "p061", "p066", "p072", "p077", "p084", "p086", "p088", "p094",
                  "p097"]


def timing(event: Event, record: dict[str, Any], minus_minutes: float = 0.0) -> dict[str, Any]:
    """world.insert's timing arguments: a preloaded item's age, or the event's moment."""
    if event.type == "preload":
        return {"origin": "preload", "age_minutes": max(0.0, preloaded_age(event, record) - minus_minutes)}
    return {"origin": "event", "at": event.at}


def comments_of(catalog: Catalog, post_id: str) -> list[dict[str, Any]]:
    return [c for c in catalog.records("post_comments").values() if c["post_id"] == post_id]


async def insert_post(world: World, event: Event, post_id: str, liked: bool = False, saved: bool = False) -> None:
    record = world.catalog.get("posts", post_id)
    await world.insert("posts", {
        "id": post_id, "author_id": record["author_id"], "image_alt": record["image_alt"],
        "caption": record["caption"], "location": record.get("location", ""),
        "like_count": int(record.get("like_count", 0)) + int(liked), "liked": int(liked), "saved": int(saved),
        "viewed": 0}, **timing(event, record))
    for comment in comments_of(world.catalog, post_id):
        await world.insert("post_comments", {"id": comment["id"], "post_id": post_id, "author_id": comment["author_id"],
                                             "body": comment["body"]},
                           **timing(event, record, float(comment.get("after_minutes", 0))))


async def insert_story(world: World, event: Event, story_id: str, viewed: bool = False) -> None:
    record = world.catalog.get("stories", story_id)
    await world.insert("stories", {"id": story_id, "author_id": record["author_id"], "image_alt": record["image_alt"],
                                   "viewed": int(viewed)}, **timing(event, record))


async def insert_message(world: World, event: Event, message_id: str) -> None:
    record = world.catalog.get("dm_messages", message_id)
    when = timing(event, record)
    thread = record["thread_id"]
    if await world.fetch_value("SELECT COUNT(*) FROM dm_threads WHERE id = ?", (thread,)) == 0:
        await world.insert("dm_threads", {"id": thread, "counterpart_id": record["counterpart_id"]}, **when)
    mine = record["sender_id"] == world.self_persona["id"]
    is_read = mine or (event.type == "preload" and bool(record.get("is_read")))
    await world.insert("dm_messages", {"id": message_id, "thread_id": thread, "sender_id": record["sender_id"],
                                       "body": record["body"], "is_read": int(is_read)}, **when)


async def insert_activity(world: World, event: Event, activity_id: str) -> None:
    record = world.catalog.get("activity", activity_id)
    await world.insert("activity", {"id": activity_id, "kind": record["kind"], "actor_id": record["actor_id"],
                                    "post_id": record.get("post_id"), "text": record["text"]}, **timing(event, record))


async def apply_preload(world: World, event: Event) -> None:
    """Fill the world: posts (liked/saved as listed), stories (viewed as listed), messages,
    activity, and the accounts followed."""
    catalog, fields = world.catalog, event.fields

    def preloaded(field: str, collection: str) -> list[str]:
        return oldest_first(catalog, collection, selected(catalog, collection, fields.get(field)))
    liked = set(selected(catalog, "posts", fields.get("liked")))
    saved = set(selected(catalog, "posts", fields.get("saved")))
    viewed = set(selected(catalog, "stories", fields.get("viewed_stories")))
    for post_id in preloaded("posts", "posts"):
        await insert_post(world, event, post_id, post_id in liked, post_id in saved)
    for story_id in preloaded("stories", "stories"):
        await insert_story(world, event, story_id, story_id in viewed)
    for message_id in preloaded("dms", "dm_messages"):
        await insert_message(world, event, message_id)
    for activity_id in preloaded("activity", "activity"):
        await insert_activity(world, event, activity_id)
    for persona_id in selected(catalog, "personas", fields.get("followed")):
        await world.insert("follows", {"persona_id": persona_id}, origin="preload", age_minutes=60 * 24 * 30)


def arrival(insert: Callable[[World, Event, str], Awaitable[None]], field: str, collection: str) -> EventType:
    """An event that brings the catalog item its `field` names."""
    async def apply(world: World, event: Event) -> None:
        await insert(world, event, str(event.fields[field]))
    return EventType(apply, refs={field: collection}, inserts=(field,), required=(field,))


async def apply_unsend_dm(world: World, event: Event) -> None:
    """The sender unsends a message: it disappears, and so does its thread if nothing is left.
    Unsending a message that never arrived changes nothing."""
    message_id = str(event.fields["message_id"])
    thread = await world.fetch_value("SELECT thread_id FROM dm_messages WHERE id = ?", (message_id,))
    await world.db.execute("DELETE FROM dm_messages WHERE id = ?", (message_id,))
    if thread is not None and not await world.fetch_value("SELECT COUNT(*) FROM dm_messages WHERE thread_id = ?",
                                                          (thread,)):
        await world.db.execute("DELETE FROM dm_threads WHERE id = ?", (thread,))


EVENT_TYPES = {
    "preload": preload_type(apply_preload, {"posts": "posts", "stories": "stories", "dms": "dm_messages",
                                            "activity": "activity"},
                            refs={"liked": "posts", "saved": "posts", "viewed_stories": "stories",
                                  "followed": "personas"}),
    "new_post": arrival(insert_post, "post_id", "posts"),
    "new_story": arrival(insert_story, "story_id", "stories"),
    "new_dm": arrival(insert_message, "message_id", "dm_messages"),
    "new_activity": arrival(insert_activity, "activity_id", "activity"),
    "unsend_dm": EventType(apply_unsend_dm, refs={"message_id": "dm_messages"}, required=("message_id",)),
}
