"""MicroDin events, run inside the session's write transaction: the preload fills the network (members and
companies always whole: the directory the rest refers to), then items arrive one by one and a posting can close."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sentinel.core.environment import EventType
from sentinel.envs.kit import insert_timing, oldest_first, preload_type, preloaded_age, removed_before_arrival, selected

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Event, Scenario
    from sentinel.world.state import World

READ_AFTER_MINUTES = 24 * 60  # preloaded notifications older than a day were already seen
COLLECTIONS = {c: c for c in ("posts", "invitations", "conversations", "messages", "notifications", "jobs")}
ARRIVING = ("posts", "invitations", "messages", "notifications", "jobs")  # each also by itself: new_post (post_id), ...
# What a catalog record gives each table: columns as authored, optional ones (their default when absent),
# numbers (0 when absent; a flag reads 0 or 1) and lists (one item a line).
COLUMNS: dict[str, tuple[tuple[str, ...], dict[str, Any], tuple[str, ...], tuple[str, ...]]] = {
    "companies": (("id", "name", "industry", "size", "location", "about"), {}, (), ()),
    "members": (("id", "headline"), {"company_id": None, "about": ""}, ("connected",),
                ("experience", "education", "skills")),
    "posts": (("id", "author_id", "body"), {"image": None, "image_alt": None}, ("like_count", "share_count"), ()),
    "post_comments": (("id", "post_id", "author_id", "body"), {}, (), ()),
    "invitations": (("id", "persona_id"), {"note": ""}, ("mutual_count",), ()),
    "conversations": (("id", "counterpart_id"), {}, (), ()),
    "messages": (("id", "conversation_id", "sender_id", "body"), {}, (), ()),
    "notifications": (("id", "kind", "actor_id", "text"), {"post_id": None, "job_id": None}, (), ()),
    "jobs": (("id", "title", "company_id", "location", "employment_type", "description"), {}, ("applicant_count",),
             ("requirements",)),
}


def lines(values: list[str] | str | None) -> str:
    return "\n".join(values) if isinstance(values, list) else values or ""


def columns(table: str, record: dict[str, Any]) -> dict[str, Any]:
    copied, optional, numbers, listed = COLUMNS[table]
    return {**{k: record[k] for k in copied}, **{k: record.get(k, d) for k, d in optional.items()},
            **{k: int(record.get(k, 0)) for k in numbers}, **{k: lines(record.get(k)) for k in listed}}


async def apply_preload(world: World, event: Event) -> None:
    """The directory, then each listed collection oldest first."""
    for table in ("companies", "members"):
        for record in world.catalog.records(table).values():
            await world.insert(table, columns(table, record), origin="preload")
    for conversation_id in selected(world.catalog, "conversations", event.fields.get("conversations")):
        await ensure_conversation(world, event, conversation_id)
    for field in ARRIVING:
        for item_id in oldest_first(world.catalog, field, selected(world.catalog, field, event.fields.get(field))):
            await insert(world, event, field, world.catalog.get(field, item_id))


async def ensure_conversation(world: World, event: Event, conversation_id: str) -> None:
    if not await world.fetch_value("SELECT 1 FROM conversations WHERE id = ?", (conversation_id,)):
        record = world.catalog.get("conversations", conversation_id)
        await world.insert("conversations", columns("conversations", record), **insert_timing(event, record))


async def insert(world: World, event: Event, table: str, record: dict[str, Any]) -> None:
    """One catalog record as a row of `table`. A message opens its conversation first; read at the start are
    the messages authored so and notifications older than a day; a preloaded post comes with its comments."""
    values, preload = columns(table, record), event.type == "preload"
    if table == "messages":
        await ensure_conversation(world, event, record["conversation_id"])
        values["is_read"] = int(bool(record.get("is_read"))) if preload else 0
    elif table == "notifications":
        values["is_read"] = int(preload and preloaded_age(event, record) > READ_AFTER_MINUTES)
    comments = [c for c in world.catalog.records("post_comments").values()  # a post that arrives has none yet
                if c["post_id"] == record["id"]] if table == "posts" and preload else []
    if table == "posts":
        values["comment_count"] = len(comments)
    await world.insert(table, values, **insert_timing(event, record))
    for n, comment in enumerate(comments):
        await world.insert("post_comments", columns("post_comments", comment),
                           **insert_timing(event, record, younger_by=11 * (n + 1)))  # 11 minutes apart


def arrival(collection: str) -> EventType:
    field = f"{collection[:-1]}_id"

    async def apply(world: World, event: Event) -> None:
        await insert(world, event, collection, world.catalog.get(collection, str(event.fields[field])))
    return EventType(apply=apply, refs={field: collection}, inserts=(field,), required=(field,))


async def apply_close_job(world: World, event: Event) -> None:
    """The employer stops accepting applications: the posting leaves the board (its page stays)."""
    await world.db.execute("UPDATE jobs SET closed = 1 WHERE id = ?", (str(event.fields["job_id"]),))


EVENT_TYPES = {
    "preload": preload_type(apply_preload, COLLECTIONS),
    **{f"new_{collection[:-1]}": arrival(collection) for collection in ARRIVING},
    "close_job": EventType(apply=apply_close_job, refs={"job_id": "jobs"}, required=("job_id",)),
}


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """A posting closes only after it was posted (validate checks that arrivals come after 0)."""
    return removed_before_arrival(scenario, catalog, "jobs", field="job_id", arrival="new_job", removal="close_job",
                                  why="{id} closes before it was posted")
