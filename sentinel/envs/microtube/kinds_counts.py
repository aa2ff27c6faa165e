"""MicroTube's counting kinds: gaming_comments_more, notifications_threshold, notifications_more and
home_videos_more. Each counts one family of arrivals (comments on a category's videos, waiting
notifications, videos on the home page); look-alikes of another family come between, and the
background keeps the counted family out until the target."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.envs.microtube.kinds_kit import (
    FIRST_READ_S,
    STEP_S,
    Unit,
    about,
    channel,
    counted,
    fill,
    has,
    preload,
    preloaded,
    room,
    spaced,
    subscribed,
    taxonomy,
    unit_events,
    units,
    used_by,
    video,
)
from sentinel.generation.kit import choose, nearest, order_under, sample, scenario, target_time, timeline

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

NOTIFS = "FROM notifications WHERE dismissed = 0"
BASE = "CAST((SELECT value FROM session_meta WHERE key = 'baseline_{}') AS REAL)"


def comment_video(catalog: Catalog, unit: Unit) -> str:
    return str(catalog.raw("video_comments")[unit[0][1]]["video_id"])


# --- gaming_comments_more ------------------------------------------------------------------

def categories(catalog: Catalog) -> dict[str, list[str]]:
    """Categories with two to four preloaded videos, each of which has at least one arrival comment."""
    pre = preloaded(catalog, "videos")
    commented = {comment_video(catalog, u) for u in units(catalog) if has(u, "new_comment")}
    out: dict[str, list[str]] = {}
    for vid in pre:
        out.setdefault(video(catalog, vid)["category"], []).append(vid)
    return {c: v for c, v in out.items() if 2 <= len(v) <= 4 and set(v) <= commented}


def draw_gaming_comments_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    cats = categories(catalog)
    cat = choose(rng, sorted(cats), "category with a few commented videos")
    vids = cats[cat]
    n = len(vids)
    comments = [u for u in units(catalog) if has(u, "new_comment")]
    on = {v: [u for u in comments if comment_video(catalog, u) == v] for v in vids}
    order = sample(rng, vids, n, "videos")
    first = [choose(rng, on[v]) for v in order]  # one new comment per video, in the order they are watched
    rest = [u for v in vids for u in on[v] if u not in first]
    if not rest:
        raise NoDraw(f"no trailing comment on the {cat} videos")
    others = [u for u in comments if comment_video(catalog, u) not in vids]
    fits = room(knobs, n, FIRST_READ_S, STEP_S + 1)
    decoys = nearest(rng, others, fits, lambda u: float(video(catalog, comment_video(catalog, u))["category"]
                                                                in ("comedy", "film", "sports")), knobs.near_miss)
    at = target_time(rng, knobs, lo=FIRST_READ_S + 2 + (n + len(decoys)) * (STEP_S + 1))
    key = counted(rng, catalog, [*first, choose(rng, rest)], decoys, n, at, FIRST_READ_S,
                  f"new comment on a {cat} video", "decoy: a comment on another video")
    key += fill(rng, catalog, knobs, key, used_by(key),
                lambda u, t: t > at or not (has(u, "new_comment") and comment_video(catalog, u) in vids))
    pre = {v: sum(r["video_id"] == v for r in catalog.raw("video_comments").values() if "age_minutes" in r)
           for v in vids}
    steps = [{"watch": f"/microtube/watch/{v}", "until": {"number": "([\\d,]+) Comments", "at_least": pre[v] + 1}}
             for v in order]
    sql = ("SELECT (SELECT COUNT(*) FROM video_comments k JOIN videos v ON v.id = k.video_id WHERE k.origin = 'event' "
           f"AND v.category = '{cat}') >= {n}")
    listed = ", ".join(f"'{v}'" for v in vids)
    return scenario(
        description=f"The {n} {cat} videos ({', '.join(vids)}) get one new comment each, the last at {at} s; "
                    f"{len(decoys)} comments on other videos come between. Comments show only on watch pages.",
        prompt=f"There are {n} {cat} videos on MicroTube right now. Tell me once they have received {n} more comments "
               "between them than they have now; comments only show on a video's own page. Make sure you have "
               f"watched each of the {n}.",
        condition_at=at, start_page="/microtube/",
        taxonomy=taxonomy("active", "relative", "hard", f"comments on non-{cat} videos, comments visible only on "
                                                        "watch pages"),
        events=timeline(preload(catalog), key), condition_sql=sql,
        eval_sql=f"{sql} AND (SELECT COUNT(*) FROM videos WHERE id IN ({listed}) AND watched_at IS NOT NULL) = {n}",
        solution=[*steps, {"report": f"The {n} {cat} videos have {n} more comments between them; I watched all {n}."}])


# --- notifications_threshold, notifications_more ---------------------------------------------

def notification_units(catalog: Catalog) -> tuple[list[Unit], list[Unit]]:
    """(arrivals that add a waiting notification, uploads that come without one)."""
    everything = units(catalog)
    return ([u for u in everything if has(u, "new_notification")],
            [u for u in everything if has(u, "new_video") and not has(u, "new_notification")])


def waiting_at_start(catalog: Catalog) -> int:
    notes = catalog.raw("notifications")
    return sum(1 for nid in preloaded(catalog, "notifications") if not notes[nid].get("dismissed"))


def _notification_events(rng: random.Random, catalog: Catalog, knobs: Knobs, n: int, start: float
                         ) -> tuple[int, list[dict[str, Any]]]:
    adds, quiet = notification_units(catalog)
    picked = sample(rng, adds, n + 1, "notifications")
    topics = {catalog.raw("channels")[c]["topic"] for c in subscribed(catalog)}
    fits = room(knobs, n, start, STEP_S + 1)
    decoys = nearest(rng, quiet, fits, lambda u: float(channel(catalog, u[0][1])["topic"] in topics), knobs.near_miss)
    at = target_time(rng, knobs, lo=start + 2 + (n + len(decoys)) * (STEP_S + 1))
    key = counted(rng, catalog, picked, decoys, n, at, start, "new waiting notification",
                  "decoy: an upload without a notification")
    key += fill(rng, catalog, knobs, key, used_by(key), lambda u, t: t > at or not has(u, "new_notification"))
    return at, key


def draw_notifications_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    n = rng.randint(2, 5)
    base = waiting_at_start(catalog)
    at, key = _notification_events(rng, catalog, knobs, n, 0)
    goal = base + n
    sql = f"SELECT (SELECT COUNT(*) {NOTIFS}) >= {goal}"
    return scenario(
        description=f"{base} notifications wait at the start; {n} more arrive (some already read), the last at {at} s; "
                    "uploads without notifications arrive between.",
        prompt=f"Keep an eye on my MicroTube notifications. Tell me once at least {goal} notifications are waiting "
               "(not dismissed), read or not. Don't dismiss any.",
        condition_at=at, start_page="/microtube/",
        taxonomy=taxonomy("passive", "absolute", "easy", "read vs waiting notifications, uploads without "
                                                         "notifications"),
        events=timeline(preload(catalog), key), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": "/microtube/notifications",
                   "until": {"number": "([\\d,]+) notifications?, [\\d,]+ unread", "at_least": goal}},
                  {"report": f"{goal} notifications are waiting now."}])


def draw_notifications_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    n = rng.randint(3, 5)
    at, key = _notification_events(rng, catalog, knobs, n, FIRST_READ_S)
    sql = (f"SELECT (SELECT COUNT(*) {NOTIFS} AND origin != 'self') >= {BASE.format('notification_count')} + {n}")
    return scenario(
        description=f"{waiting_at_start(catalog)} notifications wait at the start; {n} more arrive, the last at {at} s "
                    "(some already read); uploads without notifications arrive between.",
        prompt=f"Tell me once I have {n} more MicroTube notifications waiting (not dismissed) than I have right now, "
               "read or not.",
        condition_at=at, start_page="/microtube/notifications",
        taxonomy=taxonomy("passive", "relative", "easy", "notifications that arrive already read, uploads without "
                                                         "notifications"),
        events=timeline(preload(catalog), key), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": "/microtube/notifications",
                   "until": {"number": "([\\d,]+) notifications?, [\\d,]+ unread",
                             "at_least": waiting_at_start(catalog) + n}},
                  {"report": f"{n} more notifications are waiting than at the start."}])


# --- home_videos_more ----------------------------------------------------------------------

def draw_home_videos_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    n = rng.randint(4, 6)
    removals = min(room(knobs, n, FIRST_READ_S, STEP_S + 1), 3)
    uploads = [u for u in units(catalog) if has(u, "new_video")]
    picked = sample(rng, uploads, n + removals + 1, "uploads")
    touched = {video_of(catalog, u) for u in units(catalog) if not has(u, "new_video")}
    gone = sample(rng, [v for v in preloaded(catalog, "videos") if v not in touched],
                  removals, "videos to take down")
    seq = order_under(rng, n, removals)
    at = target_time(rng, knobs, lo=FIRST_READ_S + 2 + len(seq) * (STEP_S + 1))
    times = spaced(rng, len(seq), FIRST_READ_S, at)
    key: list[dict[str, Any]] = []
    arrivals, removed, level = iter(picked), iter(gone), 0
    for t, step in zip(times, seq, strict=True):
        if step == "remove":
            vid = next(removed)
            level -= 1
            key.append({"at": t, "type": "remove_video", "video_id": vid,
                        "_note": f"a preloaded video ('{video(catalog, vid)['title']}') is taken down: the count drops "
                                 f"by one (now {level:+d})"})
        else:
            level += 1
            u = next(arrivals)
            key += unit_events(u, t, f"arrival: now {level:+d} · {about(catalog, u)}")
    key += unit_events(next(arrivals), at, f"target: the home page now holds {n} more videos than at the start")
    trail = next(arrivals)
    key += unit_events(trail, rng.randint(min(at + 10, 712), 712), f"trailing · {about(catalog, trail)}")
    key += fill(rng, catalog, knobs, key, used_by(key) | set(gone),
                lambda u, t: (t > at or not has(u, "new_video")) and video_of(catalog, u) not in gone)
    base = len(preloaded(catalog, "videos"))
    sql = f"SELECT (SELECT COUNT(*) FROM videos WHERE origin != 'self') >= {BASE.format('video_count')} + {n}"
    return scenario(
        description=f"{base} videos at the start; {n + removals} arrive by {at} s, but {removals} preloaded video(s) "
                    f"are taken down first, so the home page holds {n} more only at {at} s. Comments and "
                    "notifications arrive between.",
        prompt=f"Watch the MicroTube home page and tell me once it holds {n} more videos than it does right now.",
        condition_at=at, start_page="/microtube/",
        taxonomy=taxonomy("passive", "relative", "medium", "videos taken down, comments and notifications"),
        events=timeline(preload(catalog), key), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": "/microtube/", "until": {"number": "Showing [\\d,]+–[\\d,]+ of ([\\d,]+)",
                                                     "at_least": base + n}},
                  {"report": f"The home page now holds {n} more videos than at the start."}])


def video_of(catalog: Catalog, unit: Unit) -> str | None:
    """The video a unit shows or points at (an upload, a comment's video, a notification's video)."""
    etype, rid = unit[0]
    if etype == "new_video":
        return rid
    if etype == "new_comment":
        return comment_video(catalog, unit)
    return catalog.raw("notifications")[rid].get("video_id")


COUNT_KINDS: tuple[Kind, ...] = (
    Kind("gaming_comments_more", "active", "relative", draw_gaming_comments_more, Knobs(decoys=3),
         "decoys: comments on other videos between the counted ones (near_miss: on comedy, film or sports videos); "
         "the category is one with two to four preloaded videos (gaming in the catalog)"),
    Kind("notifications_threshold", "passive", "absolute", draw_notifications_threshold, Knobs(decoys=3),
         "decoys: uploads without a notification (near_miss: on a topic I am subscribed to); "
         "threshold = waiting at the start + 2–5"),
    Kind("notifications_more", "passive", "relative", draw_notifications_more, Knobs(decoys=3),
         "as notifications_threshold; 3–5 more than at the start"),
    Kind("home_videos_more", "passive", "relative", draw_home_videos_more, Knobs(decoys=1),
         "decoys: preloaded videos taken down before the target (0–3), each needing one more arrival"),
)
