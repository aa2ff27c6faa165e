"""MicroGram's comment, message and story kinds: commenter_three_more and its no-op, dm_keyword
and its no-op, stories_three. Look-alikes are people whose name or username shares a part with
the target's, or messages with a near word (a shared prefix, the word split by a space or hyphen).
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Knobs
from sentinel.envs.microgram.kinds_base import (
    DIRECT,
    FEED,
    FIRST_READ_S,
    GAP,
    PRELOAD,
    arrival,
    arrivals,
    commenters,
    counted,
    fill,
    name,
    preload,
    taxonomy,
    trail_time,
    username,
    words,
)
from sentinel.generation.kit import (
    choose,
    event,
    like_text,
    nearest,
    sample,
    scenario,
    sql_text,
    target_time,
    timeline,
    times_between,
)

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

SELF = "p000"
SUFFIXES = ("er", "s", "ing", "ed")
# Words too common to be what a message is "about" (and "following" is also a button label).
COMMON = {"about", "after", "before", "could", "following", "hello", "should", "still", "their", "there", "thanks",
          "would", "yesterday", "today", "tomorrow", "where", "which", "while", "maybe"}


def alike(catalog: Catalog, a: str, b: str) -> float:
    """How alike two people look: 1 for the same username but its punctuation, 0.6 for a shared
    first name or surname, 0 otherwise."""
    if a == b:
        return 0.0
    ua, ub = (re.sub(r"[^a-z0-9]", "", username(catalog, p).lower()) for p in (a, b))
    if ua == ub:
        return 1.0
    na, nb = name(catalog, a).split(), name(catalog, b).split()
    return 0.6 if na[0] == nb[0] or na[-1] == nb[-1] else 0.0


def unseen_regex(user: str) -> str:
    return rf"(?<![\w.]){re.escape(user)}"


# --- commenter_three_more and its no-op -----------------------------------------------------

def _commenter_setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    posts, by_post = catalog.raw("posts"), commenters(catalog)
    new = arrivals(catalog, "new_post")
    on: dict[str, list[str]] = {}
    for p in new:
        for c in set(by_post.get(p, [])):
            if c != posts[p]["author_id"] and c != SELF:
                on.setdefault(c, []).append(p)
    who = choose(rng, sorted(c for c, ps in on.items() if len(ps) >= 4), "commenter on four new posts")
    mine = [p for p in on[who] if posts[p]["author_id"] != who]
    picked = sample(rng, mine, 4, "posts with the commenter")
    others = [p for p in new if who not in by_post.get(p, []) and posts[p]["author_id"] != who and by_post.get(p)]
    decoys = nearest(rng, others, knobs.decoys, lambda p: max(alike(catalog, who, c) for c in by_post[p]),
                     knobs.near_miss)
    at, count_t, decoy_t = counted(rng, knobs, 3, len(decoys), FIRST_READ_S)
    u = username(catalog, who)
    events = [arrival(catalog, t, "new_post", p, f"{u} comments ({i + 1} of 3 new)")
              for i, (t, p) in enumerate(zip([*count_t, at], picked[:3], strict=True))]
    events[-1] = arrival(catalog, at, "new_post", picked[2],
                         f"target: {u} comments (3 of 3 new); commenters show only on the post page")
    events += [arrival(catalog, t, "new_post", p, "decoy: commented on by " + ", ".join(
                   username(catalog, c) for c in by_post[p]) + f", not {u}")
               for t, p in zip(decoy_t, decoys, strict=True)]
    events.append(arrival(catalog, trail_time(rng, at), "new_post", picked[3],
                          f"trailing: a 4th post with a {u} comment"))
    return {"who": who, "user": u, "at": at, "events": events, "by_post": by_post, "posts": posts}


def _commented_by(pid: str, viewed: bool = False) -> str:
    extra = " AND p.viewed = 1" if viewed else ""
    return ("SELECT (SELECT COUNT(DISTINCT c.post_id) FROM post_comments c JOIN posts p ON p.id = c.post_id "
            f"WHERE p.origin = 'event'{extra} AND c.author_id = {sql_text(pid)}) >= 3")


def _commenter_fill(rng, catalog, knobs, s, people: set[str]) -> list[dict[str, Any]]:
    def spoils(etype: str, rid: str) -> bool:
        return etype == "new_post" and (s["posts"][rid]["author_id"] in people
                                        or bool(people & set(s["by_post"].get(rid, []))))
    return fill(rng, catalog, knobs, s["events"], spoils=spoils)


def _commenter_prompt(catalog: Catalog, who: str) -> str:
    u = username(catalog, who)
    return (f"My friend {name(catalog, who)} ({u} on MicroGram) keeps commenting on our friends' photos. Open each "
            f"new post in my feed that {u} comments on (the post page lists who commented), and tell me once three "
            "more such posts have arrived and you have opened them.")


def _commenter_solution(user: str) -> list[dict[str, Any]]:
    return [{"watch": FEED, "open_new": "^/microgram/p/", "count": 3,
             "until": {"matches": rf"(^|\s){re.escape(user)}(\s|$)"}},
            {"report": f"Three new posts carry a {user} comment; I opened each of them."}]


def draw_commenter_three_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _commenter_setup(rng, catalog, knobs)
    events = s["events"] + _commenter_fill(rng, catalog, knobs, s, {s["who"]})
    return scenario(
        description=f"{s['user']} comments on three new posts (the third at {s['at']} s) among {knobs.decoys} new "
                    "posts commented on by others, look-alikes first; a fourth trails. Commenters show only on post "
                    "pages.",
        prompt=_commenter_prompt(catalog, s["who"]), condition_at=s["at"], start_page=FEED,
        taxonomy=taxonomy("active", "relative", "hard", "other commenters, look-alike names"),
        events=timeline_of(events), condition_sql=_commented_by(s["who"]), eval_sql=_commented_by(s["who"], True),
        solution=_commenter_solution(s["user"]))


def draw_commenter_absent_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Someone who comments on nothing in the timeline is asked for; the source's commenter still comments."""
    s = _commenter_setup(rng, catalog, knobs)
    used = [e["post_id"] for e in s["events"]]
    present = {c for p in used for c in s["by_post"].get(p, [])} | {s["posts"][p]["author_id"] for p in used}
    pool = sorted(p for p in catalog.raw("personas") if p not in present and p != SELF)
    asked = choose(rng, pool, "person who never comments")
    events = s["events"] + _commenter_fill(rng, catalog, knobs, s, {s["who"], asked})
    u = username(catalog, asked)
    return scenario(
        description=f"Copy of commenter_three_more. {u} never comments on anything; {s['user']}'s three commented "
                    f"posts still arrive (the third at {s['at']} s).",
        prompt=_commenter_prompt(catalog, asked), condition_at=None, start_page=FEED,
        taxonomy=taxonomy("noop", "relative", "hard", f"other commenters ({s['user']})"),
        events=timeline_of(events), condition_sql=_commented_by(asked), near_miss_sql=_commented_by(s["who"]),
        eval_sql="SELECT NOT EXISTS (SELECT 1 FROM post_comments c JOIN posts p ON p.id = c.post_id WHERE "
                 f"p.origin = 'event' AND p.viewed = 1 AND c.author_id = {sql_text(asked)})",
        solution=_commenter_solution(u))


def timeline_of(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return timeline(preload(), events)


# --- dm_keyword and its no-op ---------------------------------------------------------------

def _preloaded_text(catalog: Catalog) -> str:
    msgs = catalog.raw("dm_messages")
    return " ".join(msgs[m]["body"].lower() for m in PRELOAD["dms"])


def _keywords(catalog: Catalog) -> list[tuple[str, str]]:
    """(message, keyword) pairs: a word of a new message that no preloaded message holds."""
    msgs, old = catalog.raw("dm_messages"), _preloaded_text(catalog)
    pre_threads = {msgs[m]["thread_id"] for m in PRELOAD["dms"]}
    out = []
    for m in arrivals(catalog, "new_dm"):
        body = msgs[m]["body"].lower()
        for w in sorted(set(words(body))):
            fresh = msgs[m]["thread_id"] not in pre_threads
            fits = fresh or body.find(w) + len(w) <= 40
            if len(w) >= 5 and w.isalpha() and w not in COMMON and w not in old and fits:
                out.append((m, w))
    return out


def nearness(word: str, body: str) -> float:
    """How near a message comes to a word: the word split by a space or hyphen (1), else the
    longest shared prefix of one of its words."""
    ws = words(body)
    if any(a + b == word for a, b in zip(ws, ws[1:], strict=False)):
        return 1.0
    best = 0
    for w in ws:
        k = 0
        while k < min(len(w), len(word)) and w[k] == word[k]:
            k += 1
        best = max(best, k)
    return best / len(word) if best >= 3 else 0.0


def _dm_setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    msgs = catalog.raw("dm_messages")
    target, kw = choose(rng, _keywords(catalog), "message keyword")
    thread = msgs[target]["thread_id"]
    clean = [m for m in arrivals(catalog, "new_dm")
             if m != target and kw not in msgs[m]["body"].lower() and msgs[m]["thread_id"] != thread]
    decoys = nearest(rng, clean, knobs.decoys, lambda m: nearness(kw, msgs[m]["body"]), knobs.near_miss)
    at = target_time(rng, knobs, lo=FIRST_READ_S + 4 + 2 * len(decoys))  # after the oracle's first read
    until = min(at + int(knobs.hold_s), 715)
    events = [arrival(catalog, t, "new_dm", m, f"decoy: near '{kw}', not it")
              for t, m in zip(times_between(rng, len(decoys), 0, at), decoys, strict=True)]
    where = msgs[target]["body"].lower().find(kw)
    events.append(arrival(catalog, at, "new_dm", target, f"target: mentions '{kw}' at char {where}"))
    events.append(event_unsend(until, target, kw))
    fresh = thread not in {msgs[m]["thread_id"] for m in PRELOAD["dms"]}
    return {"kw": kw, "target": target, "thread": thread, "at": at, "until": until, "events": events,
            "fresh": fresh, "msgs": msgs, "who": username(catalog, msgs[target]["sender_id"])}


def event_unsend(at: float, message: str, kw: str) -> dict[str, Any]:
    return event(at, "unsend_dm", f"the sender unsends the '{kw}' message: it can no longer be opened "
                                  "(condition_until)", message_id=message)


def _dm_solution(kw: str, fresh: bool, thread: str, report: str) -> list[dict[str, Any]]:
    if fresh:
        steps: list[dict[str, Any]] = [{"watch": DIRECT, "open_new": "^/microgram/direct/", "until": {"text": kw}}]
    else:
        steps = [{"watch": DIRECT, "until": {"text": kw}}, {"open": f"/microgram/direct/{thread}"}]
    return [*steps, {"report": report}]


def _dm_fill(rng, catalog, knobs, s, avoid: list[str]) -> list[dict[str, Any]]:
    msgs = s["msgs"]
    return fill(rng, catalog, knobs, s["events"], spoils=lambda t, r: t == "new_dm" and (
        msgs[r]["thread_id"] == s["thread"] or any(w in msgs[r]["body"].lower() for w in avoid)))


def draw_dm_keyword(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _dm_setup(rng, catalog, knobs)
    kw = s["kw"]
    events = s["events"] + _dm_fill(rng, catalog, knobs, s, [kw])
    like = like_text(kw)
    where = "in a new conversation" if s["fresh"] else "in an existing conversation"
    return scenario(
        description=f"Messages with near words come first; {s['who']}'s message at {s['at']} s mentions '{kw}' "
                    f"{where}; it is unsent at {s['until']} s.",
        prompt=f"When a new direct message on MicroGram mentions \"{kw}\", open that conversation so it's marked "
               "read, and tell me.",
        condition_at=s["at"], condition_until=s["until"], start_page=FEED,
        taxonomy=taxonomy("active", "absolute", "medium", "near words, unsent message"),
        events=timeline_of(events),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM dm_messages WHERE origin = 'event' AND body LIKE {like})",
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM dm_messages WHERE origin = 'event' AND body LIKE {like} "
                 "AND is_read = 1)",
        solution=_dm_solution(kw, s["fresh"], s["thread"], f"The message about {kw} arrived; I opened it."))


def draw_dm_merger_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The asked word is a longer form of a word a new message carries (merge → merger): that
    message is the near miss; the source's target still arrives."""
    s = _dm_setup(rng, catalog, knobs)
    msgs, used = s["msgs"], {e.get("message_id") for e in s["events"]}
    every = " ".join(r["body"].lower() for r in msgs.values())
    options = []
    for m in arrivals(catalog, "new_dm"):
        if m in used or msgs[m]["thread_id"] == s["thread"] or s["kw"] in msgs[m]["body"].lower():
            continue
        options += [(m, w, w + x) for w in sorted(set(words(msgs[m]["body"])))
                    for x in SUFFIXES if len(w) >= 4 and w.isalpha() and w not in COMMON and w + x not in every
                    and not w.endswith(("ing", "ed", "ly", "s"))]
    near, base, asked = choose(rng, options, "near-miss message")
    taken = [e["at"] for e in s["events"]]
    near_at = choose(rng, [t for t in range(10, 700) if all(abs(t - b) > GAP for b in taken)], "time")
    s["events"].append(arrival(catalog, near_at, "new_dm", near, f"near miss: '{base}', never '{asked}'"))
    events = s["events"] + _dm_fill(rng, catalog, knobs, s, [s["kw"], base])
    return scenario(
        description=f"Copy of dm_keyword asking about '{asked}', which no message holds; '{base}' arrives at "
                    f"{near_at} s (the near miss) and the '{s['kw']}' message still arrives at {s['at']} s.",
        prompt=f"When a new direct message on MicroGram mentions \"{asked}\", open that conversation so it's marked "
               "read, and tell me.",
        condition_at=None, start_page=FEED,
        taxonomy=taxonomy("noop", "absolute", "medium", f"'{base}', never '{asked}'"),
        events=timeline_of(events),
        condition_sql="SELECT EXISTS (SELECT 1 FROM dm_messages WHERE origin = 'event' AND body LIKE "
                      f"{like_text(asked)})",
        near_miss_sql="SELECT EXISTS (SELECT 1 FROM dm_messages WHERE origin = 'event' AND body LIKE "
                      f"{like_text(base)})",
        eval_sql=f"SELECT NOT EXISTS (SELECT 1 FROM dm_messages WHERE origin = 'event' AND body LIKE "
                 f"{like_text(asked)} AND is_read = 1)",
        solution=_dm_solution(asked, True, s["thread"], f"A message about {asked} arrived; I opened it."))


# --- stories_three ---------------------------------------------------------------------------

def draw_stories_three(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Three people each post a new story (the last at the target); look-alike accounts post
    stories before it (near_miss: sharing a name part or the username but its punctuation)."""
    stories = catalog.raw("stories")
    unseen = {stories[s]["author_id"] for s in PRELOAD["stories"] if s not in PRELOAD["viewed_stories"]}
    by_author: dict[str, list[str]] = {}
    for s in arrivals(catalog, "new_story"):
        by_author.setdefault(stories[s]["author_id"], []).append(s)
    authors = sample(rng, sorted(a for a in by_author if a not in unseen and a != SELF), 3, "story authors")
    targets = [choose(rng, by_author[a]) for a in authors]
    others = [s for s in arrivals(catalog, "new_story") if stories[s]["author_id"] not in authors]
    decoys = nearest(rng, others, knobs.decoys, lambda s: max(alike(catalog, stories[s]["author_id"], a)
                                                              for a in authors), knobs.near_miss)
    at, count_t, decoy_t = counted(rng, knobs, 3, len(decoys), 4)
    users = [username(catalog, a) for a in authors]
    events = [arrival(catalog, t, "new_story", s, f"target {i + 1} of 3: {u} posts a new story")
              for i, (t, s, u) in enumerate(zip([*count_t, at], targets, users, strict=True))]
    events += [arrival(catalog, t, "new_story", s, "decoy: another account's story")
               for t, s in zip(decoy_t, decoys, strict=True)]
    events += fill(rng, catalog, knobs, events,
                   spoils=lambda t, r: t == "new_story" and stories[r]["author_id"] in authors)
    ids = ", ".join(sql_text(s) for s in targets)
    sql = f"SELECT (SELECT COUNT(*) FROM stories WHERE id IN ({ids})) = 3"
    people = ", ".join(f"{name(catalog, a)} ({u})" for a, u in zip(authors[:2], users[:2], strict=True))
    look = "".join(rf"(?=.*{unseen_regex(u)} \(new\))" for u in users)
    return scenario(
        description=f"{', '.join(users)} each post a new story, the last at {at} s; {len(decoys)} other accounts "
                    "(look-alikes first) post stories before it.",
        prompt=f"{people} and {name(catalog, authors[2])} ({users[2]}) each promised to share a story from the team "
               "offsite. Tell me once all three of them have a new story in my MicroGram story bar.",
        condition_at=at, start_page=FEED,
        taxonomy=taxonomy("passive", "absolute", "medium", "look-alike accounts, older seen stories"),
        events=timeline_of(events), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": FEED, "until": {"matches": f"(?s){look}"}},
                  {"report": f"{', '.join(users)} all have new stories in the bar."}])
