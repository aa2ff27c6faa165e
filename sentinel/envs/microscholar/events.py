"""MicroScholar events: the preload, new papers and alerts (`read: true`: already read), citation
counts, withdrawn papers. They run inside the session's write transaction, so they only execute statements."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sentinel.core.environment import EventType
from sentinel.envs.kit import insert_timing, oldest_first, preload_type, selected

if TYPE_CHECKING:
    from sentinel.core.scenario import Event
    from sentinel.world.state import World


async def insert_paper(world: World, event: Event, paper_id: str = "", saved: bool = False) -> None:
    paper_id = paper_id or str(event.fields["paper_id"])
    record = world.catalog.get("papers", paper_id)
    authors = record["authors"]
    await world.insert("papers", {
        "id": paper_id, "title": record["title"], "authors": ", ".join(a["name"] for a in authors),
        "venue": record.get("venue", ""), "year": int(record["year"]), "abstract": record.get("abstract", ""),
        "cited_by_count": int(record.get("cited_by", 0)), "versions": int(record.get("versions", 1)),
        "is_book": int(bool(record.get("is_book"))), "saved": int(saved), "saved_at": 0.0 if saved else None,
    }, **insert_timing(event, record))
    await world.db.executemany(
        "INSERT OR IGNORE INTO paper_authors (paper_id, persona_id, position) VALUES (?, ?, ?)",
        [(paper_id, a["persona_id"], i) for i, a in enumerate(authors, 1) if a.get("persona_id")])


async def insert_alert(world: World, event: Event, alert_id: str = "") -> None:
    """One catalog alert (the preload's or the new_alert event's), read as the event's `read` says, else the catalog."""
    alert_id = alert_id or str(event.fields["alert_id"])
    record = world.catalog.get("alerts", alert_id)
    is_read = bool(record.get("read") if event.fields.get("read") is None else event.fields["read"])
    await world.insert("alerts", {
        "id": alert_id, "kind": record["kind"], "title": record["title"], "description": record["description"],
        "paper_id": record.get("paper_id"), "is_read": int(is_read), "arrived_read": int(is_read),
    }, **insert_timing(event, record))


async def apply_preload(world: World, event: Event) -> None:
    catalog = world.catalog
    saved = set(selected(catalog, "papers", event.fields.get("saved")))
    for paper_id in oldest_first(catalog, "papers", selected(catalog, "papers", event.fields.get("papers"))):
        await insert_paper(world, event, paper_id, saved=paper_id in saved)
    for alert_id in oldest_first(catalog, "alerts", selected(catalog, "alerts", event.fields.get("alerts"))):
        await insert_alert(world, event, alert_id)


async def update_paper(world: World, event: Event) -> None:
    """citations: the cited-by count becomes `cited_by`; withdraw_paper: withdrawn (a paper not indexed: no change)."""
    column, value = ("cited_by_count", int(event.fields["cited_by"])) if event.type == "citations" else ("withdrawn", 1)
    await world.db.execute(f"UPDATE papers SET {column} = ? WHERE id = ?", (value, str(event.fields["paper_id"])))


EVENT_TYPES = {
    "preload": preload_type(apply_preload, {"papers": "papers", "alerts": "alerts"}, required=("papers",),
                            refs={"saved": "papers"}),
    "new_paper": EventType(insert_paper, refs={"paper_id": "papers"}, inserts=("paper_id",), required=("paper_id",)),
    "new_alert": EventType(insert_alert, refs={"alert_id": "alerts"}, inserts=("alert_id",),
                           required=("alert_id",), optional=("read",)),
    "citations": EventType(update_paper, refs={"paper_id": "papers"}, required=("paper_id", "cited_by")),
    "withdraw_paper": EventType(update_paper, refs={"paper_id": "papers"}, required=("paper_id",)),
}
