"""MicroMail events: `preload` fills the mailbox, `new_email` delivers one catalog message.

Both insert an email row with the fields derived from the catalog record (cc_me,
is_external, has_attachment) and its attachments. They run inside the session's
world.write() transaction, so they only execute statements.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sentinel.envs.base import EventType

if TYPE_CHECKING:
    from sentinel.catalog import Catalog
    from sentinel.scenario import Event, Scenario
    from sentinel.world import World

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


async def insert_email(world: World, record: dict[str, Any], *, arrived_at: float,
                       created_at: str, origin: str,
                       files: list[dict[str, Any]]) -> None:
    self_email = world.self_persona["email"]
    flags = derived_flags(record, self_email)
    await world.db.execute(
        "INSERT INTO emails (id, folder, sender_id, sender_name, sender_email, to_list, cc_list,"
        " cc_me, subject, body, importance, is_external, mentions_me, has_attachment, is_read,"
        " is_flagged, is_pinned, created_at, arrived_at, origin)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (record["id"], record.get("folder", "inbox"), record.get("sender_id"),
         record["sender_name"], record["sender_email"], join_addresses(record.get("to", [])),
         join_addresses(record.get("cc", [])), flags["cc_me"], record["subject"], record["body"],
         record.get("importance", "normal"), flags["is_external"],
         int(bool(record.get("mentions_me"))), int(bool(files)),
         int(bool(record.get("is_read"))), int(bool(record.get("is_flagged"))),
         int(bool(record.get("is_pinned"))), created_at, arrived_at, origin))
    for file in files:
        await world.db.execute(
            "INSERT INTO attachments (id, email_id, file_name, size_bytes, created_at, arrived_at, origin)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (file["id"], record["id"], file["file_name"], int(file["size_bytes"]), created_at,
             arrived_at, origin))


def _preload_ids(catalog: Catalog, value: Any) -> list[str]:
    emails = catalog.records("emails")
    if value == "*":
        return list(emails)
    return [str(v) for v in value]


async def apply_preload(world: World, event: Event) -> None:
    """Load the listed catalog emails (or "*" for all) with their catalog ages."""
    offset = float(event.fields.get("age_offset_minutes", 0) or 0)
    emails = world.catalog.records("emails")
    files = attachments_by_email(world.catalog)
    ids = _preload_ids(world.catalog, event.fields.get("emails", []))
    # Oldest first, so insertion order (the tie-break for equal times) follows age.
    ids.sort(key=lambda i: -float(emails[i].get("age_minutes", 0)))
    for email_id in ids:
        record = emails[email_id]
        age = float(record.get("age_minutes", 0)) + offset
        await insert_email(world, record, arrived_at=0.0, created_at=world.preload_created_at(age),
                           origin="preload", files=files.get(email_id, []))


async def apply_new_email(world: World, event: Event) -> None:
    """Deliver one catalog email now, into its catalog folder (inbox or junk)."""
    email_id = str(event.fields["email_id"])
    record = world.catalog.get("emails", email_id)
    files = attachments_by_email(world.catalog).get(email_id, [])
    await insert_email(world, record, arrived_at=event.at, created_at=world.created_at(event.at),
                       origin="event", files=files)


async def apply_recall_email(world: World, event: Event) -> None:
    """The sender recalls a message: it disappears from every folder, with its attachments.

    Recalling mail that never arrived (or was already deleted for good) changes nothing.
    """
    email_id = str(event.fields["email_id"])
    await world.db.execute("DELETE FROM attachments WHERE email_id = ?", (email_id,))
    await world.db.execute("DELETE FROM emails WHERE id = ?", (email_id,))


EVENT_TYPES = {
    "preload": EventType(apply=apply_preload, refs={"emails": "emails"}, inserts=("emails",),
                         required=("emails",), optional=("age_offset_minutes",)),
    "new_email": EventType(apply=apply_new_email, refs={"email_id": "emails"},
                           inserts=("email_id",), required=("email_id",)),
    "recall_email": EventType(apply=apply_recall_email, refs={"email_id": "emails"}, required=("email_id",)),
}


def check_scenario(scenario: Scenario, catalog: Catalog) -> list[tuple[str, str]]:
    """What the generic validator cannot know: folder rules and the preload's field shapes."""
    problems: list[tuple[str, str]] = []
    emails = catalog.raw("emails")
    for event in scenario.events:
        where = f"events[{event.index}]"
        if event.type == "preload":
            value = event.fields.get("emails")
            if value != "*" and not isinstance(value, list):
                problems.append((f"{where}.emails", 'expected a list of email ids or "*"'))
            offset = event.fields.get("age_offset_minutes", 0)
            if isinstance(offset, bool) or not isinstance(offset, (int, float)) or offset < 0:
                problems.append((f"{where}.age_offset_minutes", "expected minutes ≥ 0"))
            if event.at > 0:
                problems.append((f"{where}.at", "a preload must be at time 0"))
        elif event.type == "new_email":
            record = emails.get(str(event.fields.get("email_id")))
            if record is not None and record.get("folder", "inbox") not in ARRIVAL_FOLDERS:
                problems.append((f"{where}.email_id",
                                 f"{record['id']} is a {record['folder']} message; only inbox or junk mail can arrive"))
            if event.at <= 0:
                problems.append((f"{where}.at", "new_email belongs on the timeline (at > 0)"))
    return problems
