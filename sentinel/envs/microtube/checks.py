"""MicroTube's own scenario checks: what the generic validator cannot know."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sentinel.envs.kit import selected

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Scenario


def check_scenario(scenario: Scenario, catalog: Catalog, timing: Timing | None = None) -> list[tuple[str, str]]:
    """Comments and notifications only point at videos that are on the site at their instant (a
    notification may come at the same instant as its upload); a preloaded comment's video is
    preloaded."""
    problems: list[tuple[str, str]] = []
    preloaded: set[str] = set()
    arrivals = {str(e.fields.get("video_id")): e.at for e in scenario.events if e.type == "new_video"}
    removals = {str(e.fields.get("video_id")): e.at for e in scenario.events if e.type == "remove_video"}

    def present(video: str, t: float) -> bool:
        return (video in preloaded or arrivals.get(video, float("inf")) <= t) and removals.get(video, float("inf")) > t

    for event in scenario.events:
        where = f"events[{event.index}]"
        if event.type == "preload":
            preloaded |= set(selected(catalog, "videos", event.fields.get("videos")))
            for comment_id in selected(catalog, "video_comments", event.fields.get("comments")):
                video = catalog.raw("video_comments").get(comment_id, {}).get("video_id")
                if video is not None and video not in preloaded:
                    problems.append((f"{where}.comments", f"{comment_id} is on {video}, which the preload lacks"))
            continue
        field, collection = {"new_comment": ("comment_id", "video_comments"),
                             "new_notification": ("notification_id", "notifications")}.get(event.type, (None, None))
        if field is None or collection is None:
            continue
        record = catalog.raw(collection).get(str(event.fields.get(field)), {})
        video = record.get("video_id")
        if video and not present(video, event.at):
            problems.append((f"{where}.{field}", f"{record['id']} points at {video}, which is not on the site "
                                                 f"at {event.at:g} s"))
    return problems
