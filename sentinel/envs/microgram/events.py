"""MicroGram events: the preload, arrivals (a post brings its catalog comments), and `unsend_dm`.
They run inside the session's write transaction, so they only execute statements."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from sentinel.core.environment import EventType
from sentinel.envs.kit import insert_timing, oldest_first, preload_type, selected

if TYPE_CHECKING:
    from sentinel.core.scenario import Event
    from sentinel.world.state import World

# The accounts the self user follows in `sentinel serve` (scenarios list theirs in the preload's `followed`)
SERVE_FOLLOWED = [f"p{n:03d}" for n in (1, 2, 3, 4, 6, 11, 12, 17, 18, 21, 24, 29, 33, 41, 42, 45, 61, 66, 72, 77, 84,
                                        86, 88, 94, 97)]


def listed(world: World, event: Event, field: str, collection: str, rid: str) -> bool:
    """Whether the preload lists the item under `field` (liked, saved, viewed_stories); an arrival lists none."""
    return rid in selected(world.catalog, collection, event.fields.get(field))


async def insert_post(world: World, event: Event, post_id: str) -> None:
    record = world.catalog.get("posts", post_id)
    liked, saved = (listed(world, event, field, "posts", post_id) for field in ("liked", "saved"))
    await world.insert("posts", {
        "id": post_id, "author_id": record["author_id"], "image_alt": record["image_alt"],
        "caption": record["caption"], "location": record.get("location", ""),
        "like_count": int(record.get("like_count", 0)) + int(liked), "liked": int(liked), "saved": int(saved),
        "viewed": 0}, **insert_timing(event, record))
    for comment in [c for c in world.catalog.records("post_comments").values() if c["post_id"] == post_id]:
        await world.insert("post_comments", {"id": comment["id"], "post_id": post_id, "author_id": comment["author_id"],
                                             "body": comment["body"]},
                           **insert_timing(event, record, younger_by=float(comment.get("after_minutes", 0))))


async def insert_story(world: World, event: Event, story_id: str) -> None:
    record = world.catalog.get("stories", story_id)
    await world.insert("stories", {"id": story_id, "author_id": record["author_id"], "image_alt": record["image_alt"],
                                   "viewed": int(listed(world, event, "viewed_stories", "stories", story_id))},
                       **insert_timing(event, record))


async def insert_message(world: World, event: Event, message_id: str) -> None:
    record = world.catalog.get("dm_messages", message_id)
    when = insert_timing(event, record)
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
                                    "post_id": record.get("post_id"), "text": record["text"]},
                       **insert_timing(event, record))


ITEMS = (  # preload field, catalog collection, arrival event type and its id field, insert
    ("posts", "posts", "new_post", "post_id", insert_post),
    ("stories", "stories", "new_story", "story_id", insert_story),
    ("dms", "dm_messages", "new_dm", "message_id", insert_message),
    ("activity", "activity", "new_activity", "activity_id", insert_activity),
)


async def apply_preload(world: World, event: Event) -> None:
    """Fill the world: posts, stories, messages and activity, each oldest first, then the accounts followed."""
    catalog = world.catalog
    for field, collection, _, _, insert in ITEMS:
        for rid in oldest_first(catalog, collection, selected(catalog, collection, event.fields.get(field))):
            await insert(world, event, rid)
    for persona_id in selected(catalog, "personas", event.fields.get("followed")):
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
    "preload": preload_type(apply_preload, {field: collection for field, collection, *_ in ITEMS},
                            refs={"liked": "posts", "saved": "posts", "viewed_stories": "stories",
                                  "followed": "personas"}),
    **{etype: arrival(insert, field, collection) for _, collection, etype, field, insert in ITEMS},
    "unsend_dm": EventType(apply_unsend_dm, refs={"message_id": "dm_messages"}, required=("message_id",)),
}
