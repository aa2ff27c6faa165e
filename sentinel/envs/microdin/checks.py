"""MicroDin's own scenario checks: what the generic validator cannot know."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sentinel.catalog import Catalog
    from sentinel.config import Timing
    from sentinel.scenario import Scenario

ARRIVALS = ("new_post", "new_invitation", "new_message", "new_notification", "new_job", "close_job")


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """Arrivals belong on the timeline, and a posting closes only after it was posted."""
    problems: list[tuple[str, str]] = []
    posted: set[str] = set()
    for event in scenario.events:
        where = f"events[{event.index}]"
        if event.type in ARRIVALS and event.at <= 0:
            problems.append((f"{where}.at", f"{event.type} belongs on the timeline (at > 0)"))
        if event.type == "preload":
            jobs = event.fields.get("jobs")
            posted |= set(catalog.raw("jobs")) if jobs == "*" else {str(j) for j in jobs or []}
        elif event.type == "new_job":
            posted.add(str(event.fields.get("job_id")))
        elif event.type == "close_job" and str(event.fields.get("job_id")) not in posted:
            problems.append((f"{where}.job_id", f"{event.fields.get('job_id')} closes before it was posted"))
    return problems
