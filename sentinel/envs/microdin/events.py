"""MicroDin events, run inside the session's write transaction: the preload fills the network, then
posts, invitations, messages, notifications and job postings arrive; a posting can close. Members and
companies are always loaded whole by the preload: they are the directory the rest refers to. The one
scenario check MicroDin adds (check_scenario) is about these events."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sentinel.core.environment import EventType
from sentinel.envs.kit import oldest_first, preload_type, preloaded_age, selected

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Event, Scenario
    from sentinel.world.state import World

READ_AFTER_MINUTES = 24 * 60  # preloaded notifications older than a day were already seen
COLLECTIONS = {c: c for c in ("posts", "invitations", "conversations", "messages", "notifications", "jobs")}


def when(event: Event, record: dict[str, Any]) -> dict[str, Any]:
    """world.insert's timing arguments: a preloaded item keeps its catalog age, an arrival is now."""
    if event.type == "preload":
        return {"origin": "preload", "age_minutes": preloaded_age(event, record)}
    return {"origin": "event", "at": event.at}


def lines(values: list[str] | str | None) -> str:
    return "\n".join(values) if isinstance(values, list) else values or ""


async def apply_preload(world: World, event: Event) -> None:
    """The directory, then each listed collection oldest first."""
    for c in world.catalog.records("companies").values():
        await world.insert("companies", {k: c[k] for k in ("id", "name", "industry", "size", "location", "about")},
                           origin="preload")
    for m in world.catalog.records("members").values():
        await world.insert("members", {
            "id": m["id"], "headline": m["headline"], "company_id": m.get("company_id"),
            "connected": int(bool(m.get("connected"))), "about": m.get("about", ""),
            "experience": lines(m.get("experience")), "education": lines(m.get("education")),
            "skills": lines(m.get("skills"))}, origin="preload")
    for conversation_id in selected(world.catalog, "conversations", event.fields.get("conversations")):
        await ensure_conversation(world, event, conversation_id)
    for field, insert in INSERTERS.items():
        for item_id in oldest_first(world.catalog, field, selected(world.catalog, field, event.fields.get(field))):
            await insert(world, event, world.catalog.get(field, item_id))


async def insert_post(world: World, event: Event, record: dict[str, Any]) -> None:
    comments = [c for c in world.catalog.records("post_comments").values()  # a post that arrives has none yet
                if c["post_id"] == record["id"]] if event.type == "preload" else []
    await world.insert("posts", {
        "id": record["id"], "author_id": record["author_id"], "body": record["body"], "image": record.get("image"),
        "image_alt": record.get("image_alt"), "like_count": int(record.get("like_count", 0)),
        "comment_count": len(comments), "share_count": int(record.get("share_count", 0))}, **when(event, record))
    age = preloaded_age(event, record)
    for n, comment in enumerate(comments):
        await world.insert("post_comments", {k: comment[k] for k in ("id", "post_id", "author_id", "body")},
                           origin="preload", age_minutes=max(0.0, age - 11 * (n + 1)))


async def insert_invitation(world: World, event: Event, record: dict[str, Any]) -> None:
    await world.insert("invitations", {"id": record["id"], "persona_id": record["persona_id"],
                                       "mutual_count": int(record.get("mutual_count", 0)),
                                       "note": record.get("note", "")}, **when(event, record))


async def ensure_conversation(world: World, event: Event, conversation_id: str) -> None:
    found = await world.fetch_value("SELECT 1 FROM conversations WHERE id = ?", (conversation_id,))
    if not found:
        record = world.catalog.get("conversations", conversation_id)
        await world.insert("conversations", {"id": conversation_id, "counterpart_id": record["counterpart_id"]},
                           **when(event, record))


async def insert_message(world: World, event: Event, record: dict[str, Any]) -> None:
    await ensure_conversation(world, event, record["conversation_id"])
    is_read = int(bool(record.get("is_read"))) if event.type == "preload" else 0
    await world.insert("messages", {"id": record["id"], "conversation_id": record["conversation_id"],
                                    "sender_id": record["sender_id"], "body": record["body"], "is_read": is_read},
                       **when(event, record))


async def insert_notification(world: World, event: Event, record: dict[str, Any]) -> None:
    seen = event.type == "preload" and preloaded_age(event, record) > READ_AFTER_MINUTES
    await world.insert("notifications", {
        "id": record["id"], "kind": record["kind"], "actor_id": record["actor_id"], "text": record["text"],
        "post_id": record.get("post_id"), "job_id": record.get("job_id"), "is_read": int(seen)},
        **when(event, record))


async def insert_job(world: World, event: Event, record: dict[str, Any]) -> None:
    await world.insert("jobs", {
        **{k: record[k] for k in ("id", "title", "company_id", "location", "employment_type", "description")},
        "requirements": lines(record["requirements"]), "applicant_count": int(record.get("applicant_count", 0))},
        **when(event, record))


# collection → its inserter; each also arrives by itself: new_post (post_id), new_invitation, ...
INSERTERS = {"posts": insert_post, "invitations": insert_invitation, "messages": insert_message,
             "notifications": insert_notification, "jobs": insert_job}


def arrival(collection: str, insert: Any) -> EventType:
    field = f"{collection[:-1]}_id"

    async def apply(world: World, event: Event) -> None:
        await insert(world, event, world.catalog.get(collection, str(event.fields[field])))
    return EventType(apply=apply, refs={field: collection}, inserts=(field,), required=(field,))


async def apply_close_job(world: World, event: Event) -> None:
    """The employer stops accepting applications: the posting leaves the board (its page stays)."""
    await world.db.execute("UPDATE jobs SET closed = 1 WHERE id = ?", (str(event.fields["job_id"]),))


EVENT_TYPES = {
    "preload": preload_type(apply_preload, COLLECTIONS),
    **{f"new_{collection[:-1]}": arrival(collection, insert) for collection, insert in INSERTERS.items()},
    "close_job": EventType(apply=apply_close_job, refs={"job_id": "jobs"}, required=("job_id",)),
}


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """A posting closes only after it was posted (validate checks that arrivals come after 0)."""
    problems: list[tuple[str, str]] = []
    posted: set[str] = set()
    for event in scenario.events:
        where = f"events[{event.index}]"
        if event.type == "preload":
            jobs = event.fields.get("jobs")
            posted |= set(catalog.raw("jobs")) if jobs == "*" else {str(j) for j in jobs or []}
        elif event.type == "new_job":
            posted.add(str(event.fields.get("job_id")))
        elif event.type == "close_job" and str(event.fields.get("job_id")) not in posted:
            problems.append((f"{where}.job_id", f"{event.fields.get('job_id')} closes before it was posted"))
    return problems
