"""MicroMail's own scenario checks: what the generic validator cannot know."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sentinel.envs.micromail.events import ARRIVAL_FOLDERS

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Scenario


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """What the generic validator cannot know: only inbox or junk mail arrives on the timeline."""
    problems: list[tuple[str, str]] = []
    emails = catalog.raw("emails")
    for event in scenario.events:
        where = f"events[{event.index}]"
        if event.type == "new_email":
            record = emails.get(str(event.fields.get("email_id")))
            if record is not None and record.get("folder", "inbox") not in ARRIVAL_FOLDERS:
                problems.append((f"{where}.email_id",
                                 f"{record['id']} is a {record['folder']} message; only inbox or junk mail can arrive"))
    return problems
