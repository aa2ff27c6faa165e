"""MicroDin's own scenario checks: what the generic validator cannot know."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Scenario

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
