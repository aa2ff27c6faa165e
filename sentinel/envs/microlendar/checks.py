"""MicroLendar's own scenario checks: what the generic validator cannot know."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sentinel.envs.microlendar.events import preload_problems

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Scenario


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """The preload's `today` is a date; an event is cancelled only after it arrived (or was
    preloaded)."""
    problems: list[tuple[str, str]] = []
    present: set[str] = set()
    for event in scenario.events:
        where = f"events[{event.index}]"
        if event.type == "preload":
            problems += preload_problems(event)
            ids = event.fields.get("events")
            present |= set(catalog.raw("events")) if ids == "*" else set(map(str, ids or []))
            continue
        if event.type == "new_event":
            present.add(str(event.fields.get("event_id")))
        elif event.type == "cancel_event" and str(event.fields.get("event_id")) not in present:
            problems.append((f"{where}.event_id", "cancels an event that is not on the calendar yet"))
    return problems
