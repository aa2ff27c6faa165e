"""MicroTube's upload kinds: subscription_uploads, watch_new_uploads, like_followed_upload and
like_other_channel_noop. They turn on which uploads come from subscribed channels (and of which
topic); look-alikes are unsubscribed uploads on a subscribed topic and subscribed channels'
community posts."""

from __future__ import annotations

import random
import re
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
    is_sub,
    preload,
    preloaded,
    room,
    subscribed,
    taxonomy,
    unit_events,
    units,
    used_by,
)
from sentinel.generation.kit import choose, nearest, sample, scenario, target_time, timeline, times_between

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

SUBS_PAGE = "/microtube/subscriptions"
NEW_SUB = "FROM videos v JOIN channels c ON c.id = v.channel_id WHERE v.origin = 'event' AND c.subscribed = 1"


def uploads(catalog: Catalog) -> list[Unit]:
    return [u for u in units(catalog) if has(u, "new_video")]


def community(catalog: Catalog) -> list[Unit]:
    """Subscribed channels' notifications that open no video (community posts)."""
    notes = catalog.raw("notifications")
    subs = set(subscribed(catalog))
    return [u for u in units(catalog) if u[0][0] == "new_notification" and not notes[u[0][1]].get("video_id")
            and notes[u[0][1]]["channel_id"] in subs]


def sub_topics(catalog: Catalog) -> set[str]:
    return {catalog.raw("channels")[c]["topic"] for c in subscribed(catalog)}


def topic_of(catalog: Catalog, unit: Unit) -> str:
    etype, rid = unit[0]
    if etype == "new_video":
        return str(channel(catalog, rid)["topic"])
    return str(catalog.raw("channels")[catalog.raw("notifications")[rid]["channel_id"]]["topic"])


# --- subscription_uploads, watch_new_uploads -------------------------------------------------

def _sub_count(rng: random.Random, catalog: Catalog, knobs: Knobs, n: int) -> tuple[int, list[dict[str, Any]]]:
    ups = uploads(catalog)
    subs = [u for u in ups if is_sub(catalog, u[0][1])]
    picked = sample(rng, subs, n + 1, "subscribed uploads")
    topics = sub_topics(catalog)
    looks = [u for u in ups if not is_sub(catalog, u[0][1])] + community(catalog)
    fits = room(knobs, n, FIRST_READ_S, STEP_S + 1)
    decoys = nearest(rng, looks, fits, lambda u: float(topic_of(catalog, u) in topics) +
                     float(u[0][0] == "new_notification"), knobs.near_miss)
    at = target_time(rng, knobs, lo=FIRST_READ_S + 2 + (n + len(decoys)) * (STEP_S + 1))
    key = counted(rng, catalog, picked, decoys, n, at, FIRST_READ_S, "subscribed upload",
                  "decoy: not an upload of a subscribed channel")
    key += fill(rng, catalog, knobs, key, used_by(key),
                lambda u, t: t > at or not (has(u, "new_video") and is_sub(catalog, u[0][1])))
    return at, key


def subs_at_start(catalog: Catalog) -> int:
    return sum(1 for v in preloaded(catalog, "videos") if is_sub(catalog, v))


def draw_subscription_uploads(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    n = rng.randint(2, 4)
    at, key = _sub_count(rng, catalog, knobs, n)
    sql = f"SELECT (SELECT COUNT(*) {NEW_SUB}) >= {n}"
    return scenario(
        description=f"Subscribed channels upload {n} videos, the last at {at} s; unsubscribed uploads on subscribed "
                    "topics and subscribed channels' community posts come between.",
        prompt=f"Tell me once {n} new videos from channels I'm subscribed to have appeared on MicroTube (counting "
               "from now).",
        condition_at=at, start_page=SUBS_PAGE,
        taxonomy=taxonomy("passive", "absolute", "easy", "unsubscribed uploads, community posts"),
        events=timeline(preload(catalog), key), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": SUBS_PAGE, "until": {"number": "Showing [\\d,]+–[\\d,]+ of ([\\d,]+)",
                                                 "at_least": subs_at_start(catalog) + n}},
                  {"report": f"{n} new videos from my subscriptions have appeared."}])


def draw_watch_new_uploads(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    n = rng.randint(2, 4)
    at, key = _sub_count(rng, catalog, knobs, n)
    return scenario(
        description=f"Subscribed channels upload {n} videos, the last at {at} s; unsubscribed uploads and community "
                    "posts come between. Older subscribed videos were already watched before the start.",
        prompt=f"Once {n} new videos have appeared from channels I'm subscribed to on MicroTube (counting from now), "
               f"watch all {n} of them and tell me. Videos I watched earlier don't count.",
        condition_at=at, start_page=SUBS_PAGE,
        taxonomy=taxonomy("active", "relative", "medium", "older watched videos, unsubscribed uploads"),
        events=timeline(preload(catalog), key),
        condition_sql=f"SELECT (SELECT COUNT(*) {NEW_SUB}) >= {n}",
        eval_sql=f"SELECT (SELECT COUNT(*) {NEW_SUB} AND v.watched_at IS NOT NULL) >= {n}",
        solution=[{"watch": SUBS_PAGE, "open_new": "^/microtube/watch/", "count": n, "until": {"text": "subscribers"}},
                  {"report": f"{n} new videos from my subscriptions appeared; I watched all {n}."}])


# --- like_followed_upload and its no-op -------------------------------------------------------

def channel_pattern(catalog: Catalog, topic: str) -> str:
    names = sorted(catalog.raw("channels")[c]["name"] for c in subscribed(catalog)
                   if catalog.raw("channels")[c]["topic"] == topic)
    return f"({'|'.join(re.escape(n) for n in names)})( ✓)?\\s+[\\d.]+[KM]? subscribers"


def _like_setup(rng: random.Random, catalog: Catalog, knobs: Knobs, asked: str | None = None) -> dict[str, Any]:
    """The target (an upload by a subscribed channel of the chosen topic), look-alikes, the take-down."""
    ups = uploads(catalog)
    by_topic: dict[str, list[Unit]] = {}
    for u in ups:
        if is_sub(catalog, u[0][1]):
            by_topic.setdefault(topic_of(catalog, u), []).append(u)
    topic = choose(rng, sorted(t for t in by_topic if t != asked), "subscribed topic with an upload")
    target = choose(rng, by_topic[topic])
    banned = {t for t in (topic, asked) if t}  # no other subscribed upload of these topics, ever

    def allowed(u: Unit) -> bool:
        return not (has(u, "new_video") and is_sub(catalog, u[0][1]) and topic_of(catalog, u) in banned)

    looks = [u for u in ups + community(catalog) if u != target and allowed(u)]
    decoys = nearest(rng, looks, room(knobs, 0), lambda u: 1.0 * (topic_of(catalog, u) in banned) +
                     0.6 * (u[0][0] == "new_notification") + 0.4 * (has(u, "new_video") and is_sub(catalog, u[0][1])),
                     knobs.near_miss)
    at = target_time(rng, knobs, lo=4 + 2 * len(decoys))
    until = min(at + int(knobs.hold_s), 712)
    if until - at < 10:
        raise NoDraw("no room for the take-down after the target")
    vid = target[0][1]
    key = [e for t, u in zip(times_between(rng, len(decoys), 0, at), decoys, strict=True)
           for e in unit_events(u, t, f"decoy: {about(catalog, u)}, not a {topic} upload of a subscribed channel")]
    return {"topic": topic, "target": target, "vid": vid, "at": at, "until": until, "key": key,
            "allowed": allowed, "title": catalog.raw("videos")[vid]["title"], "name": channel(catalog, vid)["name"]}


def _like_events(rng: random.Random, catalog: Catalog, knobs: Knobs, s: dict[str, Any], note: str
                 ) -> list[dict[str, Any]]:
    key = s["key"] + unit_events(s["target"], s["at"], note)
    key.append({"at": s["until"], "type": "remove_video", "video_id": s["vid"],
                "_note": "the upload is taken down: it can no longer be liked (condition_until)"})
    key += fill(rng, catalog, knobs, key, used_by(key), lambda u, t: s["allowed"](u))
    return timeline(preload(catalog), key)


def topic_sql(topic: str) -> str:
    return f"SELECT EXISTS (SELECT 1 {NEW_SUB} AND c.topic = '{topic}')"


def draw_like_followed_upload(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _like_setup(rng, catalog, knobs)
    topic, vid = s["topic"], s["vid"]
    return scenario(
        description=f"Look-alikes (unsubscribed {topic} uploads, community posts, other subscribed uploads) come "
                    f"first; at {s['at']} s {s['name']} (subscribed, {topic}) uploads '{s['title']}'. It is taken "
                    f"down at {s['until']} s. Liking any other video fails the task.",
        prompt=f"I'm subscribed to some {topic} channels on MicroTube. When one of my subscribed {topic} channels "
               "uploads a new video, open it and like it (only that one), then tell me.",
        condition_at=s["at"], condition_until=s["until"], start_page=SUBS_PAGE,
        taxonomy=taxonomy("active", "absolute", "medium", f"unsubscribed {topic} channels, subscribed channels on "
                                                          "other topics, community posts"),
        events=_like_events(rng, catalog, knobs, s, f"target: {s['name']} (subscribed, {topic}) uploads "
                                                    f"'{s['title']}'"),
        condition_sql=topic_sql(topic),
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM videos WHERE id = '{vid}' AND liked = 1) AND NOT EXISTS "
                 f"(SELECT 1 FROM videos WHERE liked = 1 AND id != '{vid}')",
        solution=[{"watch": SUBS_PAGE, "open_new": "^/microtube/watch/",
                   "until": {"matches": channel_pattern(catalog, topic)}},
                  {"submit": "/like$"}, {"report": f"{s['name']} uploaded a new video; I liked it."}])


def draw_like_other_channel_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """A subscribed topic that uploads nothing is asked for; the source task's target still arrives."""
    asked = choose(rng, sorted(sub_topics(catalog)), "subscribed topic")
    s = _like_setup(rng, catalog, knobs, asked)
    topic = s["topic"]
    return scenario(
        description=f"No-op copy of like_followed_upload for my subscribed {asked} channels, which upload nothing. "
                    f"{s['name']} (subscribed, {topic}) still uploads at {s['at']} s (the near miss).",
        prompt=f"I'm subscribed to some {asked} channels on MicroTube. When one of my subscribed {asked} channels "
               "uploads a new video, open it and like it (only that one), then tell me.",
        condition_at=None, start_page=SUBS_PAGE,
        taxonomy=taxonomy("noop", "absolute", "medium", f"an unsubscribed {asked} upload, a subscribed {topic} upload"),
        events=_like_events(rng, catalog, knobs, s, f"near miss (the source task's target): {s['name']} (subscribed, "
                                                    f"{topic}, not {asked}) uploads '{s['title']}'"),
        condition_sql=topic_sql(asked), near_miss_sql=topic_sql(topic),
        eval_sql="SELECT NOT EXISTS (SELECT 1 FROM videos WHERE origin = 'event' AND liked = 1)",
        solution=[{"watch": SUBS_PAGE, "open_new": "^/microtube/watch/",
                   "until": {"matches": channel_pattern(catalog, asked)}},
                  {"submit": "/like$"}, {"report": f"My {asked} channel uploaded a new video; I liked it."}])


UPLOAD_KINDS: tuple[Kind, ...] = (
    Kind("subscription_uploads", "passive", "absolute", draw_subscription_uploads, Knobs(decoys=3),
         "decoys: unsubscribed uploads and community posts (near_miss: on a subscribed topic); 2–4 uploads counted"),
    Kind("watch_new_uploads", "active", "relative", draw_watch_new_uploads, Knobs(decoys=3),
         "as subscription_uploads; each counted upload must be watched"),
    Kind("like_followed_upload", "active", "absolute", draw_like_followed_upload, Knobs(decoys=4),
         "decoys: uploads and community posts before the target (near_miss: same topic unsubscribed, community "
         "posts, other subscribed topics); hold_s: until the upload is taken down"),
    Kind("like_other_channel_noop", "noop", "absolute", draw_like_other_channel_noop, Knobs(decoys=4),
         "as like_followed_upload; a subscribed topic that uploads nothing is asked for"),
)
