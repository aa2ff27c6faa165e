"""MicroChat events: the preload (always every team, channel and conversation), new messages and calls,
a sender deleting a message; and the check that a message is deleted only after it arrived."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sentinel.core.environment import EventType
from sentinel.envs.kit import insert_timing, oldest_first, preload_type, selected

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Event, Scenario
    from sentinel.world.state import World


def mention_of(world: World) -> str:
    """How a message @mentions the self user: "@Alex Morgan"."""
    return "@" + world.self_persona["name"]


async def insert_workspace(world: World) -> None:
    """Every team, channel and conversation with its members (they are not timeline items)."""
    for team in world.catalog.records("teams").values():
        await world.insert("teams", {"id": team["id"], "name": team["name"], "description": team["description"]},
                           origin="preload", age_minutes=400 * 1440)
        await world.db.executemany("INSERT INTO team_members (team_id, persona_id) VALUES (?, ?)",
                                   [(team["id"], person) for person in team["members"]])
    for conv in world.catalog.records("conversations").values():
        await world.insert("conversations", {
            "id": conv["id"], "kind": conv["kind"], "title": conv.get("title", ""), "team_id": conv.get("team_id"),
            "counterpart_id": conv.get("counterpart_id"), "topic": conv.get("topic", ""),
            "is_pinned": int(bool(conv.get("is_pinned"))), "is_muted": int(bool(conv.get("is_muted")))},
            origin="preload", age_minutes=float(conv.get("age_minutes", 0)))
        await world.db.executemany("INSERT INTO conversation_members (conversation_id, persona_id) VALUES (?, ?)",
                                   [(conv["id"], person) for person in conv["members"]])


async def insert_message(world: World, event: Event, message_id: str = "") -> None:
    """One catalog message, preloaded (its read state kept) or the event's (unread unless the self user sent it)."""
    record = world.catalog.get("messages", message_id or str(event.fields["message_id"]))
    own = record["sender_id"] == world.self_persona["id"]
    await world.insert("messages", {
        "id": record["id"], "conversation_id": record["conversation_id"], "sender_id": record["sender_id"],
        "body": record["body"], "is_urgent": int(bool(record.get("is_urgent"))),
        "mentions_me": int(mention_of(world) in record["body"]),
        "has_attachment": int(bool(record.get("attachment_name"))), "attachment_name": record.get("attachment_name"),
        "attachment_size": record.get("attachment_size"), "reply_to_id": record.get("reply_to_id"),
        "is_read": int(own or (event.type == "preload" and bool(record.get("is_read"))))},
        **insert_timing(event, record))
    await world.db.executemany("INSERT OR IGNORE INTO reactions (message_id, emoji, persona_id) VALUES (?, ?, ?)",
                               [(record["id"], emoji, person)
                                for emoji, people in (record.get("reactions") or {}).items() for person in people])


async def insert_call(world: World, event: Event, call_id: str = "") -> None:
    record = world.catalog.get("calls", call_id or str(event.fields["call_id"]))
    await world.insert("calls", {"id": record["id"], "persona_id": record["persona_id"],
                                 "direction": record["direction"], "missed": int(bool(record.get("missed"))),
                                 "duration_s": int(record.get("duration_s", 0))}, **insert_timing(event, record))


async def apply_preload(world: World, event: Event) -> None:
    await insert_workspace(world)
    for collection, insert in (("messages", insert_message), ("calls", insert_call)):
        ids = oldest_first(world.catalog, collection, selected(world.catalog, collection, event.fields.get(collection)))
        for item_id in ids:
            await insert(world, event, item_id)


async def apply_delete_message(world: World, event: Event) -> None:
    """The sender deletes a message: a tombstone stays in the thread ("This message was deleted"),
    its text, urgency, file and reactions go. Deleting a message that never arrived changes nothing."""
    message_id = str(event.fields["message_id"])
    await world.db.execute("UPDATE messages SET is_deleted = 1, body = '', is_urgent = 0, mentions_me = 0,"
                           " has_attachment = 0, attachment_name = NULL, attachment_size = NULL WHERE id = ?",
                           (message_id,))
    await world.db.execute("DELETE FROM reactions WHERE message_id = ?", (message_id,))


EVENT_TYPES = {
    "preload": preload_type(apply_preload, {"messages": "messages", "calls": "calls"}),
    "new_message": EventType(insert_message, refs={"message_id": "messages"}, inserts=("message_id",),
                             required=("message_id",)),
    "new_call": EventType(insert_call, refs={"call_id": "calls"}, inserts=("call_id",), required=("call_id",)),
    "delete_message": EventType(apply_delete_message, refs={"message_id": "messages"}, required=("message_id",)),
}


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """A message is deleted only after it arrived (validate checks that arrivals come after 0)."""
    problems: list[tuple[str, str]] = []
    arrived: set[str] = set()
    for event in scenario.events:
        preloaded, message_id = event.fields.get("messages"), str(event.fields.get("message_id"))
        if event.type == "preload" and isinstance(preloaded, list):
            arrived |= {str(i) for i in preloaded}
        elif event.type == "new_message":
            arrived.add(message_id)
        elif event.type == "delete_message" and message_id not in arrived:
            problems.append((f"events[{event.index}].message_id", f"{message_id} is deleted before it arrives"))
    return problems
