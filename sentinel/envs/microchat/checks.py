"""MicroChat's own scenario checks: what the generic validator cannot know."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Scenario

def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """A message is deleted only after it arrived (validate checks that arrivals come after 0)."""
    problems: list[tuple[str, str]] = []
    arrived: set[str] = set()
    for event in scenario.events:
        where = f"events[{event.index}]"
        preloaded = event.fields.get("messages")
        if event.type == "preload" and isinstance(preloaded, list):
            arrived |= {str(i) for i in preloaded}
        elif event.type == "new_message":
            arrived.add(str(event.fields.get("message_id")))
        elif event.type == "delete_message" and str(event.fields.get("message_id")) not in arrived:
            problems.append((f"{where}.message_id", f"{event.fields.get('message_id')} is deleted before it arrives"))
    return problems
