"""MicroMail events (`preload`, `new_email`, `recall_email`) and the scenario check only this app can make."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sentinel.core.environment import EventType
from sentinel.envs.kit import insert_timing, oldest_first, preload_type, selected

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Event, Scenario
    from sentinel.world.state import World


def split_addresses(text: str) -> list[str]:
    """'a@x, b@y; c@z' → ['a@x', 'b@y', 'c@z'] (commas or semicolons, blanks dropped)."""
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]


def domain(address: str) -> str:
    return address.rsplit("@", 1)[-1].strip().lower()


def derived_flags(record: dict[str, Any], self_email: str) -> dict[str, int]:
    """cc_me and is_external, computed the same way for catalog and agent-written mail."""
    cc = [a.lower() for a in record.get("cc", [])]
    external = record.get("sender_id") is None or domain(record.get("sender_email", "")) != domain(self_email)
    return {"cc_me": int(self_email.lower() in cc), "is_external": int(external)}


def attachments_by_email(catalog: Catalog) -> dict[str, list[dict[str, Any]]]:
    by_email: dict[str, list[dict[str, Any]]] = {}
    for record in catalog.records("attachments").values():
        by_email.setdefault(record["email_id"], []).append(record)
    return by_email


async def apply_emails(world: World, event: Event) -> None:
    """The preload's emails with their catalog ages, oldest first, or the one a new_email delivers; with their files."""
    by_email = attachments_by_email(world.catalog)
    ids = [str(event.fields["email_id"])] if event.type == "new_email" else oldest_first(
        world.catalog, "emails", selected(world.catalog, "emails", event.fields.get("emails")))
    for email_id in ids:
        record, files = world.catalog.get("emails", email_id), by_email.get(email_id, [])
        when = insert_timing(event, record)
        await world.insert("emails", {
            "id": record["id"], "folder": record.get("folder", "inbox"), "sender_id": record.get("sender_id"),
            **{key: record[key] for key in ("sender_name", "sender_email", "subject", "body")},
            "to_list": ", ".join(record.get("to", [])), "cc_list": ", ".join(record.get("cc", [])),
            "importance": record.get("importance", "normal"), "has_attachment": int(bool(files)),
            **derived_flags(record, world.self_persona["email"]),
            **{key: int(bool(record.get(key))) for key in ("mentions_me", "is_read", "is_flagged", "is_pinned")}},
            **when)
        for file in files:
            await world.insert("attachments", {"id": file["id"], "email_id": email_id, "file_name": file["file_name"],
                                               "size_bytes": int(file["size_bytes"])}, **when)


async def apply_recall_email(world: World, event: Event) -> None:
    """The sender recalls a message: gone from every folder with its files (a no-op if it is not there)."""
    email_id = str(event.fields["email_id"])
    await world.db.execute("DELETE FROM attachments WHERE email_id = ?", (email_id,))
    await world.db.execute("DELETE FROM emails WHERE id = ?", (email_id,))


EVENT_TYPES = {
    "preload": preload_type(apply_emails, {"emails": "emails"}, required=("emails",)),
    "new_email": EventType(apply_emails, refs={"email_id": "emails"}, inserts=("email_id",), required=("email_id",)),
    "recall_email": EventType(apply_recall_email, refs={"email_id": "emails"}, required=("email_id",)),
}


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """What the generic validator cannot know: only inbox or junk mail arrives on the timeline."""
    emails = catalog.raw("emails")
    arriving = [(e.index, emails.get(str(e.fields.get("email_id")))) for e in scenario.events if e.type == "new_email"]
    return [(f"events[{i}].email_id", f"{r['id']} is a {r['folder']} message; only inbox or junk mail can arrive")
            for i, r in arriving if r is not None and r.get("folder", "inbox") not in ("inbox", "junk")]
