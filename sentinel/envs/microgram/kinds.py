"""MicroGram's ten scenario kinds (ENVIRONMENTS §5): the authored scenarios made into templates.

Every draw keeps the authored preload and picks targets, look-alikes, near misses and background
arrivals from the rest of the catalog (helpers in kinds_base.py; the comment, message and story
kinds in kinds_social.py). What each knob means per kind is in KINDS' notes.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.envs.microgram.kinds_base import (
    ACTIVITY,
    COLLECTIONS,
    FEED,
    FIRST_READ_S,
    FOLLOWED,
    GAP,
    PRELOADED_POSTS,
    arrival,
    arrivals,
    baseline,
    commenters,
    counted,
    fill,
    preload,
    taxonomy,
    trail_time,
    username,
)
from sentinel.envs.microgram.kinds_social import (
    draw_commenter_absent_noop,
    draw_commenter_three_more,
    draw_dm_keyword,
    draw_dm_merger_noop,
    draw_stories_three,
)
from sentinel.generation.kit import choose, nearest, sample, scenario, sql_text, target_time, timeline, times_between

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

# --- counting kinds: posts_more, activity_more ---------------------------------------------

def _more(rng: random.Random, catalog: Catalog, knobs: Knobs, etype: str, n: int, what: str) -> tuple[int, list]:
    """n arrivals of etype (the n-th at the target), other arrivals between them, one more trailing."""
    picked = sample(rng, arrivals(catalog, etype), n + 1, what)
    others = [t for t in COLLECTIONS if t != etype]
    at, count_t, decoy_t = counted(rng, knobs, n, knobs.decoys, FIRST_READ_S)
    events = [arrival(catalog, t, etype, rid, f"{i + 1} of {n} new {what}")
              for i, (t, rid) in enumerate(zip(count_t, picked, strict=False))]
    events.append(arrival(catalog, at, etype, picked[n - 1], f"target: {n} of {n} new {what}"))
    pools = {t: rng.sample(arrivals(catalog, t), len(arrivals(catalog, t))) for t in others}
    for t in decoy_t:
        kind = choose(rng, others)
        events.append(arrival(catalog, t, kind, pools[kind].pop(), "decoy: another kind of arrival, not counted"))
    events.append(arrival(catalog, trail_time(rng, at), etype, picked[n], f"trailing: more {what}"))
    events += fill(rng, catalog, knobs, events, others, start=1, stop=at - GAP)
    events += fill(rng, catalog, knobs, events, start=at + GAP, stop=715)
    return at, events


def draw_posts_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    at, events = _more(rng, catalog, knobs, "new_post", 5, "posts")
    sql = f"SELECT (SELECT COUNT(*) FROM posts WHERE origin != 'self') >= {baseline('post_count')} + 5"
    return scenario(
        description=f"Five posts arrive (the fifth at {at} s) between {knobs.decoys} stories, messages and activity "
                    "entries; more posts follow. The feed header shows only the total.",
        prompt="Watch my MicroGram feed and tell me once it holds five more posts than it does now.",
        condition_at=at, start_page=FEED, taxonomy=taxonomy("passive", "relative", "easy", "other arrivals"),
        events=timeline(preload(), events), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": FEED, "until": {"number": r"Showing \S+ of (\d+)", "at_least": "first + 5"}},
                  {"report": "Five more posts have arrived in the feed."}])


def draw_activity_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    at, events = _more(rng, catalog, knobs, "new_activity", 4, "activity entries")
    sql = f"SELECT (SELECT COUNT(*) FROM activity WHERE origin != 'self') >= {baseline('activity_count')} + 4"
    return scenario(
        description=f"Four activity entries arrive (the fourth at {at} s) between {knobs.decoys} posts, stories and "
                    "messages; more follow. The nav counts only the last hour's entries, preloaded ones included.",
        prompt="Keep an eye on my MicroGram activity (likes, follows, comments and mentions). Tell me once there are "
               "four more activity entries than there are now.",
        condition_at=at, start_page=FEED, taxonomy=taxonomy("passive", "relative", "easy", "other arrivals"),
        events=timeline(preload(), events), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": ACTIVITY, "until": {"number": r"Showing \S+ of (\d+)", "at_least": "first + 4"}},
                  {"report": "Four more activity entries have arrived."}])


# --- comment_pileup -----------------------------------------------------------------------

def draw_comment_pileup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Posts with up to three comments come first (near_miss: how many carry exactly three); the
    first post with four or more is the target; another one may trail."""
    counts = {pid: len(c) for pid, c in commenters(catalog).items()}
    posts = arrivals(catalog, "new_post")
    heavy = [p for p in posts if counts.get(p, 0) >= 4]
    light = [p for p in posts if 0 < counts.get(p, 0) <= 3]
    target = choose(rng, heavy, "post with four comments")
    decoys = nearest(rng, light, knobs.decoys, lambda p: counts[p] / 3, knobs.near_miss)
    at = target_time(rng, knobs, lo=6 + 2 * len(decoys))
    events = [arrival(catalog, t, "new_post", p, f"decoy: arrives with {counts[p]} comments")
              for t, p in zip(times_between(rng, len(decoys), 0, at), decoys, strict=True)]
    n = counts[target]
    events.append(arrival(catalog, at, "new_post", target, f"target: arrives with {n} comments"))
    rest = [p for p in heavy if p != target]
    if rest:
        trail = choose(rng, rest)
        events.append(arrival(catalog, trail_time(rng, at), "new_post", trail,
                              f"trailing: arrives with {counts[trail]} comments"))
    events += fill(rng, catalog, knobs, events, spoils=lambda t, r: t == "new_post" and counts.get(r, 0) >= 4)
    sql = ("SELECT EXISTS (SELECT 1 FROM posts p WHERE (SELECT COUNT(*) FROM post_comments c WHERE c.post_id = p.id "
           "AND c.origin != 'self') >= 4)")
    return scenario(
        description=f"Every preloaded post has at most three comments; {len(decoys)} posts with up to three arrive "
                    f"first; the first post with four or more ({n}) arrives at {at} s.",
        prompt="Tell me as soon as any post in my MicroGram feed has four or more comments.",
        condition_at=at, start_page=FEED, taxonomy=taxonomy("passive", "absolute", "easy", "posts with three comments"),
        events=timeline(preload(), events), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": FEED, "until": {"matches": r"View all ([4-9]|\d{2,}) comments"}},
                  {"report": "A post in the feed has four or more comments."}])


# --- next posts: like_next_three, follow_new_creators ---------------------------------------

def open_nth(k: int, post: str, action: str) -> list[dict[str, Any]]:
    """Wait until the feed counts the k-th new post, open it, act on it."""
    return [{"watch": FEED, "until": {"number": r"Showing \S+ of (\d+)", "at_least": PRELOADED_POSTS + k}},
            {"open": f"/microgram/p/{post}"}, {"submit": action}]


def draw_like_next_three(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The first three posts to arrive are the targets; `decoys` later posts trail (liking one fails)."""
    picked = sample(rng, arrivals(catalog, "new_post"), 3 + max(1, knobs.decoys), "posts")
    targets, trailing = picked[:3], picked[3:]
    at = target_time(rng, knobs, lo=FIRST_READ_S + 8)
    t1, t2 = times_between(rng, 2, FIRST_READ_S, at)
    events = [arrival(catalog, t, "new_post", p, f"{i + 1} of the next 3 posts")
              for i, (t, p) in enumerate(zip((t1, t2), targets, strict=False))]
    events.append(arrival(catalog, at, "new_post", targets[2], "target: the third post to arrive (3 of 3)"))
    events += [arrival(catalog, t, "new_post", p, "trailing: a 4th+ post; liking it is collateral")
               for t, p in zip(times_between(rng, len(trailing), at + 4, 715), trailing, strict=True)]
    events += fill(rng, catalog, knobs, events, ("new_story", "new_dm", "new_activity"))
    ids = ", ".join(sql_text(p) for p in targets)
    solution = [s for k, p in enumerate(targets, 1) for s in open_nth(k, p, "/like$")]
    return scenario(
        description=f"No post arrives before {t1} s; the next three arrive at {t1}, {t2} and {at} s; "
                    f"{len(trailing)} more follow. Liking any other post (or an old one) fails the task.",
        prompt="Watch my MicroGram feed. Like each of the next three posts that arrive (those three only, not older "
               "ones and not later ones), then tell me once you have liked all three.",
        condition_at=at, start_page=FEED, taxonomy=taxonomy("active", "absolute", "easy", "later posts, older posts"),
        events=timeline(preload(), events),
        condition_sql="SELECT (SELECT COUNT(*) FROM posts WHERE origin = 'event') >= 3",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM posts WHERE id IN ({ids}) AND liked = 1) = 3 AND NOT EXISTS "
                 f"(SELECT 1 FROM posts WHERE liked = 1 AND origin = 'event' AND id NOT IN ({ids})) AND "
                 f"(SELECT COUNT(*) FROM posts WHERE origin = 'preload' AND liked = 1) <= {baseline('liked_count')}",
        solution=[*solution, {"report": "Three new posts arrived; I liked each of them."}])


def draw_follow_new_creators(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Posts by followed accounts are the decoys; the first three posts by accounts not followed
    are the targets (three different authors); one more such post trails."""
    posts = catalog.raw("posts")
    new = [p for p in arrivals(catalog, "new_post") if posts[p]["author_id"] not in FOLLOWED]
    by_author: dict[str, str] = {}
    for p in rng.sample(new, len(new)):
        by_author.setdefault(posts[p]["author_id"], p)
    if len(by_author) < 4:
        raise NoDraw("fewer than four accounts not followed post")
    creators = [by_author[a] for a in sorted(by_author)]
    picked = sample(rng, creators, 4, "posts by accounts not followed")
    targets, trailing = picked[:3], picked[3]
    known = [p for p in arrivals(catalog, "new_post") if posts[p]["author_id"] in FOLLOWED]
    decoys = sample(rng, known, knobs.decoys, "posts by followed accounts")
    at, count_t, decoy_t = counted(rng, knobs, 3, len(decoys), FIRST_READ_S)
    times = sorted([*count_t, at])
    who = [posts[p]["author_id"] for p in targets]
    events = [arrival(catalog, t, "new_post", p, f"new creator {i + 1} of 3: {username(catalog, a)}, not followed")
              for i, (t, p, a) in enumerate(zip(times, targets, who, strict=True))]
    events += [arrival(catalog, t, "new_post", p, "decoy: a post by an account already followed")
               for t, p in zip(decoy_t, decoys, strict=True)]
    events.append(arrival(catalog, trail_time(rng, at), "new_post", trailing,
                          "trailing: a 4th account not followed; following it is collateral"))
    events += fill(rng, catalog, knobs, events, spoils=lambda t, r: t == "new_post" and r in new)
    order = sorted(events, key=lambda e: e["at"])
    rank = [i + 1 for i, e in enumerate(e for e in order if e["type"] == "new_post") if e["post_id"] in targets]
    ids = ", ".join(sql_text(a) for a in who)
    names = ", ".join(username(catalog, a) for a in who)
    solution = [s for k, p in zip(rank, targets, strict=True) for s in open_nth(k, p, "/follow$")]
    return scenario(
        description=f"{len(decoys)} posts by followed accounts arrive among the first three by accounts not yet "
                    f"followed ({names}); the third at {at} s. Following anyone else fails.",
        prompt="On MicroGram, follow the authors of the next three posts in my feed from accounts I don't follow yet "
               "(open each post and press Follow; only those three), then tell me.",
        condition_at=at, start_page=FEED,
        taxonomy=taxonomy("active", "absolute", "medium", "posts by accounts already followed"),
        events=timeline(preload(followed=FOLLOWED), events),
        condition_sql="SELECT (SELECT COUNT(DISTINCT author_id) FROM posts WHERE origin = 'event' AND author_id NOT IN "
                      "(SELECT persona_id FROM follows WHERE origin = 'preload')) >= 3",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM follows WHERE persona_id IN ({ids})) = 3 AND NOT EXISTS (SELECT 1 FROM "
                 f"follows WHERE origin = 'self' AND persona_id NOT IN ({ids})) AND (SELECT COUNT(*) FROM follows "
                 f"WHERE origin = 'preload') = {baseline('followed_count')}",
        solution=[*solution, {"report": f"Three posts from accounts I didn't follow arrived; I followed {names}."}])



KINDS: tuple[Kind, ...] = (
    Kind("activity_more", "passive", "relative", draw_activity_more, Knobs(decoys=4),
         "decoys: posts, stories and messages between the four counted activity entries"),
    Kind("comment_pileup", "passive", "absolute", draw_comment_pileup, Knobs(decoys=4),
         "decoys: posts with up to three comments before the target (near_miss: how many carry exactly three)"),
    Kind("commenter_absent_noop", "noop", "relative", draw_commenter_absent_noop, Knobs(decoys=3),
         "as commenter_three_more; the asked user never comments, the source's commenter does (the near miss)"),
    Kind("commenter_three_more", "active", "relative", draw_commenter_three_more, Knobs(decoys=3),
         "decoys: new posts commented on by others (near_miss: a look-alike name or username first)"),
    Kind("dm_keyword", "active", "absolute", draw_dm_keyword, Knobs(decoys=2, hold_s=90),
         "decoys: messages with a near word (near_miss: sharing more of it); hold_s: until the target is unsent"),
    Kind("dm_merger_noop", "noop", "absolute", draw_dm_merger_noop, Knobs(decoys=2, hold_s=90),
         "as dm_keyword; the asked word extends a word a new message carries (the near miss)"),
    Kind("follow_new_creators", "active", "absolute", draw_follow_new_creators, Knobs(decoys=4),
         "decoys: posts by accounts already followed among the three targets"),
    Kind("like_next_three", "active", "absolute", draw_like_next_three, Knobs(decoys=3),
         "decoys: later posts trailing the three targets (liking one fails)"),
    Kind("posts_more", "passive", "relative", draw_posts_more, Knobs(decoys=4),
         "decoys: stories, messages and activity between the five counted posts"),
    Kind("stories_three", "passive", "absolute", draw_stories_three, Knobs(decoys=2),
         "decoys: stories by other accounts before the last target (near_miss: sharing a name or username part)"),
)

