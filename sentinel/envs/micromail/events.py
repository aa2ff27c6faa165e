"""MicroMail events: `preload` fills the mailbox, `new_email` delivers one catalog message.

Both insert an email row with the fields derived from the catalog record (cc_me,
is_external, has_attachment) and its attachments. They run inside the session's
world.write() transaction, so they only execute statements.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sentinel.core.environment import EventType
from sentinel.envs.kit import oldest_first, preload_type, preloaded_age, selected

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.scenario import Event
    from sentinel.world.state import World

CATALOG_FOLDERS = ("inbox", "junk", "drafts", "sent", "archive")
ARRIVAL_FOLDERS = ("inbox", "junk")  # where a scripted arrival may land


def split_addresses(text: str) -> list[str]:
    """'a@x, b@y; c@z' → ['a@x', 'b@y', 'c@z'] (commas or semicolons, blanks dropped)."""
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]


def join_addresses(addresses: list[str]) -> str:
    return ", ".join(addresses)


def domain(address: str) -> str:
    return address.rsplit("@", 1)[-1].strip().lower()


def derived_flags(record: dict[str, Any], self_email: str) -> dict[str, int]:
    """cc_me and is_external, computed the same way for catalog and agent-written mail."""
    cc = [a.lower() for a in record.get("cc", [])]
    sender_email = record.get("sender_email", "")
    external = record.get("sender_id") is None or domain(sender_email) != domain(self_email)
    return {"cc_me": int(self_email.lower() in cc), "is_external": int(external)}


def attachments_by_email(catalog: Catalog) -> dict[str, list[dict[str, Any]]]:
    by_email: dict[str, list[dict[str, Any]]] = {}
    for record in catalog.records("attachments").values():
        by_email.setdefault(record["email_id"], []).append(record)
    return by_email


async def insert_email(world: World, record: dict[str, Any], event: Event, files: list[dict[str, Any]]) -> None:
    """One catalog email and its attachments, as a preload item or a scripted arrival."""
    flags = derived_flags(record, world.self_persona["email"])
    when: dict[str, Any] = ({"origin": "preload", "age_minutes": preloaded_age(event, record)}
                            if event.type == "preload" else {"origin": "event", "at": event.at})
    await world.insert("emails", {
        "id": record["id"], "folder": record.get("folder", "inbox"), "sender_id": record.get("sender_id"),
        "sender_name": record["sender_name"], "sender_email": record["sender_email"],
        "to_list": join_addresses(record.get("to", [])), "cc_list": join_addresses(record.get("cc", [])),
        "cc_me": flags["cc_me"], "subject": record["subject"], "body": record["body"],
        "importance": record.get("importance", "normal"), "is_external": flags["is_external"],
        "mentions_me": int(bool(record.get("mentions_me"))), "has_attachment": int(bool(files)),
        "is_read": int(bool(record.get("is_read"))), "is_flagged": int(bool(record.get("is_flagged"))),
        "is_pinned": int(bool(record.get("is_pinned")))}, **when)
    for file in files:
        await world.insert("attachments", {"id": file["id"], "email_id": record["id"], "file_name": file["file_name"],
                                           "size_bytes": int(file["size_bytes"])}, **when)


async def apply_preload(world: World, event: Event) -> None:
    """Load the listed catalog emails (or "*" for all) with their catalog ages, oldest first."""
    files = attachments_by_email(world.catalog)
    ids = oldest_first(world.catalog, "emails", selected(world.catalog, "emails", event.fields.get("emails")))
    for email_id in ids:
        await insert_email(world, world.catalog.get("emails", email_id), event, files.get(email_id, []))


async def apply_new_email(world: World, event: Event) -> None:
    """Deliver one catalog email now, into its catalog folder (inbox or junk)."""
    email_id = str(event.fields["email_id"])
    files = attachments_by_email(world.catalog).get(email_id, [])
    await insert_email(world, world.catalog.get("emails", email_id), event, files)


async def apply_recall_email(world: World, event: Event) -> None:
    """The sender recalls a message: it disappears from every folder, with its attachments.

    Recalling mail that never arrived (or was already deleted for good) changes nothing.
    """
    email_id = str(event.fields["email_id"])
    await world.db.execute("DELETE FROM attachments WHERE email_id = ?", (email_id,))
    await world.db.execute("DELETE FROM emails WHERE id = ?", (email_id,))


EVENT_TYPES = {
    "preload": preload_type(apply_preload, {"emails": "emails"}, required=("emails",)),
    "new_email": EventType(apply=apply_new_email, refs={"email_id": "emails"},
                           inserts=("email_id",), required=("email_id",)),
    "recall_email": EventType(apply=apply_recall_email, refs={"email_id": "emails"}, required=("email_id",)),
}
