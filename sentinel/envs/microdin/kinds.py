"""MicroDin's ten scenario kinds (ENVIRONMENTS §3): the authored scenarios made into templates.

The apply kinds live in kinds_jobs.py; here are the counting kinds: the job board reaching a
threshold (and its no-op), pending invitations reaching one, more unread notifications, more
posts in the feed. Knobs: `decoys` look-alikes between the counted arrivals (per kind below),
`near_miss` for jobs_fifty_noop how far above the board's peak the asked number lies,
`density` background arrivals per sim minute. Solutions count against numbers known from the
preload, so the oracle does not depend on when its first read lands.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs
from sentinel.envs.microdin.kinds_jobs import JOB_KINDS
from sentinel.envs.microdin.kinds_kit import (
    FIRST_READ_S,
    STEP_S,
    about,
    counted,
    fill,
    free_times,
    of,
    preload,
    room,
    spaced,
    taxonomy,
    unit_event,
    units,
)
from sentinel.generation.kit import order_under, sample, scenario, target_time, timeline

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

BASE = "CAST((SELECT value FROM session_meta WHERE key = 'baseline_{}') AS REAL)"
READ_AFTER_MINUTES = 24 * 60  # events.py: preloaded notifications older than a day are read


# --- jobs_threshold and its no-op -----------------------------------------------------------

def _board(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """k preloaded postings, closings (the decoys knob) and arrivals so the board reaches k + n at the
    target, then a few more trailing."""
    k, n = rng.randint(3, 6), rng.randint(3, 6)
    load = preload(catalog, jobs=k)
    closes = min(room(knobs, n, 4, STEP_S + 1), k - 1, 3)
    jobs = of(units(catalog, load), "new_job")
    extra = rng.randint(2, 4)
    picked = sample(rng, jobs, n + closes + extra, "postings")
    gone = sample(rng, load["jobs"], closes, "postings to close")
    seq = order_under(rng, n, closes)
    at = target_time(rng, knobs, lo=4 + len(seq) * (STEP_S + 1))
    times = spaced(rng, len(seq), 1, at)
    key: list[dict[str, Any]] = []
    arriving, closing, level = iter(picked), iter(gone), 0
    for t, step in zip(times, seq, strict=True):
        level += 1 if step == "add" else -1
        if step == "add":
            u = next(arriving)
            key.append(unit_event(u, t, f"opening {k + level} of {k + n} · {about(catalog, u)}"))
        else:
            jid = next(closing)
            key.append({"at": t, "type": "close_job", "job_id": jid,
                        "_note": f"a posting closes ({catalog.raw('jobs')[jid]['title']}): the board drops to "
                                 f"{k + level}"})
    key.append(unit_event(next(arriving), at, f"target: opening {k + n} of {k + n}"))
    later = free_times(rng, extra, at + 5, 714, [])
    key += [unit_event(next(arriving), t, f"trailing: opening {k + n + i + 1}") for i, t in enumerate(later)]
    key += fill(rng, catalog, knobs, key, load, lambda u, t: u[0] != "new_job")
    return {"k": k, "n": n, "goal": k + n, "peak": k + n + len(later), "at": at, "load": load, "key": key,
            "last": max([at, *later])}


def draw_jobs_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    b = _board(rng, catalog, knobs)
    goal, at = b["goal"], b["at"]
    sql = f"SELECT (SELECT COUNT(*) FROM jobs WHERE closed = 0) >= {goal}"
    return scenario(
        description=f"{b['k']} openings at the start; postings arrive (and some close), the board reaches {goal} at "
                    f"{at} s and {b['peak']} later. The board's header says 'N results'.",
        prompt=f"Watch the MicroDin job board. When it lists at least {goal} open positions, tell me.",
        condition_at=at, start_page="/microdin/jobs",
        taxonomy=taxonomy("passive", "absolute", "easy", "slow growth, postings that close"),
        events=timeline(b["load"], b["key"]), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": "/microdin/jobs", "until": {"number": "([0-9]+) results", "at_least": goal}},
                  {"report": f"The job board now lists {goal} openings."}])


def draw_jobs_fifty_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    b = _board(rng, catalog, knobs)
    peak = b["peak"]
    asked = peak + 1 + int(round((1 - knobs.near_miss) * 40))
    for e in b["key"]:
        if e.get("at") == b["last"] and e["type"] == "new_job":
            e["_note"] = f"near miss: opening {peak}, the board's maximum, short of {asked}"
        elif str(e.get("_note", "")).startswith("target:"):
            e["_note"] = "near miss of the source task (jobs_threshold's target)" + e["_note"].removeprefix("target")
    return scenario(
        description=f"Copy of jobs_threshold asking for {asked} openings; the board peaks at {peak} "
                    f"(at {b['last']} s).",
        prompt=f"Watch the MicroDin job board. When it lists at least {asked} open positions, tell me.",
        condition_at=None, start_page="/microdin/jobs",
        taxonomy=taxonomy("noop", "absolute", "easy", f"the board grows, but only to {peak}"),
        events=timeline(b["load"], b["key"]),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM jobs WHERE closed = 0) >= {asked}",
        near_miss_sql=f"SELECT (SELECT COUNT(*) FROM jobs WHERE closed = 0) >= {peak}",
        solution=[{"watch": "/microdin/jobs", "until": {"number": "([0-9]+) results", "at_least": asked}},
                  {"report": f"The job board now lists {asked} openings."}])


# --- invitations_threshold ------------------------------------------------------------------

def draw_invitations_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    pending, n = rng.randint(8, 12), rng.randint(3, 6)
    load = preload(catalog, invitations=pending)
    pool = units(catalog, load)
    notes = catalog.raw("notifications")
    looks = [u for u in of(pool, "new_notification") if notes[u[1]]["kind"] in ("connection", "profile_view")]
    decoys = sample(rng, looks, min(room(knobs, n, 1, STEP_S + 1), len(looks)), "connection notifications")
    at = target_time(rng, knobs, lo=4 + (n + len(decoys)) * (STEP_S + 1))
    picked = sample(rng, of(pool, "new_invitation"), n + 2, "invitations")
    key = counted(rng, catalog, picked, decoys, n, at, 1, "new pending invitation",
                  "decoy: a connection or profile-view notification, not an invitation", trailing=2)
    key += fill(rng, catalog, knobs, key, load, lambda u, t: t > at or u[0] != "new_invitation")
    goal = pending + n
    sql = f"SELECT (SELECT COUNT(*) FROM invitations WHERE status = 'pending') >= {goal}"
    return scenario(
        description=f"{pending} invitations pending at the start; {n} arrive, the last at {at} s, among connection "
                    "notifications. The network page shows 'Invitations (N)'. Accepting or ignoring lowers the count.",
        prompt=f"Watch my pending invitations on MicroDin. Don't accept or ignore any of them. When I have at least "
               f"{goal} pending invitations, tell me.",
        condition_at=at, start_page="/microdin/network",
        taxonomy=taxonomy("passive", "absolute", "easy", "connection notifications, a steady trickle"),
        events=timeline(load, key), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": "/microdin/network", "until": {"number": "Invitations \\(([0-9]+)\\)", "at_least": goal}},
                  {"report": f"You now have {goal} pending invitations."}])


# --- notifications_more, posts_more ---------------------------------------------------------

def draw_notifications_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    n = rng.randint(3, 4)
    load = preload(catalog)
    pool = units(catalog, load)
    looks = of(pool, "new_message") + of(pool, "new_invitation")
    decoys = sample(rng, looks, room(knobs, n, FIRST_READ_S, STEP_S + 1), "messages and invitations")
    decoys = sorted(decoys, key=lambda u: (u[0] != "new_message", u[1]))
    at = target_time(rng, knobs, lo=FIRST_READ_S + 2 + (n + len(decoys)) * (STEP_S + 1))
    picked = sample(rng, of(pool, "new_notification"), n + 1, "notifications")
    key = counted(rng, catalog, picked, decoys, n, at, FIRST_READ_S, "new unread notification",
                  "decoy: another badge rises (Messaging or My Network)")
    key += fill(rng, catalog, knobs, key, load, lambda u, t: t > at or u[0] != "new_notification")
    unread = sum(1 for nid in load["notifications"]
                 if catalog.raw("notifications")[nid].get("age_minutes", 0) <= READ_AFTER_MINUTES)
    sql = (f"SELECT (SELECT COUNT(*) FROM notifications WHERE is_read = 0) >= "
           f"{BASE.format('unread_notification_count')} + {n}")
    return scenario(
        description=f"{len(load['notifications'])} notifications at the start, {unread} unread. {n} new ones arrive, "
                    f"the last at {at} s; messages and invitations raise other badges between. Opening a notification "
                    "marks it read.",
        prompt=f"Keep an eye on my MicroDin notifications without opening any of them. When I have {n} more unread "
               "notifications than when you started, tell me.",
        condition_at=at, start_page="/microdin/notifications",
        taxonomy=taxonomy("passive", "relative", "easy", "other badges rising, opening marks read"),
        events=timeline(load, key), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": "/microdin/notifications",
                   "until": {"number": "Notifications \\(([0-9]+)\\)", "at_least": unread + n}},
                  {"report": f"{n} more unread notifications have arrived."}])


def draw_posts_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    n = rng.randint(4, 6)
    load = preload(catalog)
    pool = units(catalog, load)
    notes = catalog.raw("notifications")
    looks = [u for u in of(pool, "new_notification") if notes[u[1]]["kind"] in ("like", "comment", "mention")]
    decoys = sample(rng, looks, min(room(knobs, n, FIRST_READ_S, STEP_S + 1), len(looks)), "post notifications")
    at = target_time(rng, knobs, lo=FIRST_READ_S + 2 + (n + len(decoys)) * (STEP_S + 1))
    burst = max(FIRST_READ_S, at - rng.randint((n + len(decoys)) * (STEP_S + 1) + 2, 90))
    picked = sample(rng, of(pool, "new_post"), n + 3, "posts")
    key = counted(rng, catalog, picked, decoys, n, at, burst, "new post",
                  "decoy: a notification about a post, not a new post", trailing=3)
    key += fill(rng, catalog, knobs, key, load, lambda u, t: t > at or u[0] != "new_post")
    base = len(load["posts"])
    sql = f"SELECT (SELECT COUNT(*) FROM posts WHERE origin != 'self') >= {BASE.format('post_count')} + {n}"
    return scenario(
        description=f"{base} posts at the start; {n} new ones in quick succession from {burst} s, the last at {at} s, "
                    "more later. The feed shows a total ('Showing 1–10 of N') but never the difference; the agent's "
                    "own posts do not count.",
        prompt=f"Keep an eye on my MicroDin feed. When at least {n} new posts from other people have appeared since "
               "you started watching, tell me.",
        condition_at=at, start_page="/microdin/feed",
        taxonomy=taxonomy("passive", "relative", "easy", "a burst of posts, notifications about posts"),
        events=timeline(load, key), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": "/microdin/feed", "until": {"number": "Showing [0-9]+–[0-9]+ of ([0-9]+)",
                                                        "at_least": base + n}},
                  {"report": f"{n} new posts have appeared in the feed."}])


KINDS: tuple[Kind, ...] = tuple(sorted((
    *JOB_KINDS,
    Kind("invitations_threshold", "passive", "absolute", draw_invitations_threshold, Knobs(decoys=3),
         "decoys: connection and profile-view notifications between the invitations; 8–12 pending at the start, "
         "3–6 arrive"),
    Kind("jobs_threshold", "passive", "absolute", draw_jobs_threshold, Knobs(decoys=1),
         "decoys: preloaded postings that close before the target (each needs one more arrival)"),
    Kind("jobs_fifty_noop", "noop", "absolute", draw_jobs_fifty_noop, Knobs(decoys=1),
         "as jobs_threshold; near_miss: the asked number is the board's peak + 1 (near_miss 1) up to + 41 (0)"),
    Kind("notifications_more", "passive", "relative", draw_notifications_more, Knobs(decoys=3),
         "decoys: messages and invitations (other badges) between the counted notifications"),
    Kind("posts_more", "passive", "relative", draw_posts_more, Knobs(decoys=2),
         "decoys: notifications about posts inside the burst of new posts"),
), key=lambda k: k.name))
