"""MicroGram's ten scenario kinds (docs/environments.md#microgram): every draw keeps the authored
preload and brings in posts, stories, direct messages and activity not preloaded."""

from __future__ import annotations

import random
import re
from typing import Any

from sentinel.core.catalog import Catalog
from sentinel.core.kinds import Kind, Knobs
from sentinel.envs.microgram.events import ITEMS, SERVE_FOLLOWED
from sentinel.generation import kit

FEED, DIRECT, ACTIVITY = "/microgram/", "/microgram/direct", "/microgram/activity"
PRELOAD: dict[str, list[str]] = {
    "posts": [f"gp{n:04d}" for n in range(1, 61)], "liked": ["gp0008", "gp0012", "gp0020", "gp0031"],
    "saved": ["gp0009", "gp0027"], "stories": [f"gs{n:03d}" for n in range(1, 17)],
    "viewed_stories": ["gs003", "gs005", "gs008", "gs010", "gs012", "gs014", "gs016"],
    "dms": [f"gm{n:03d}" for n in range(1, 31)], "activity": [f"ga{n:03d}" for n in range(1, 21)], "followed": [],
}
SELF = "p000"
SUFFIXES = ("er", "s", "ing", "ed")
# Words too common to be what a message is "about" (and "following" is also a button label).
COMMON = {"about", "after", "before", "could", "following", "hello", "should", "still", "their", "there", "thanks",
          "would", "yesterday", "today", "tomorrow", "where", "which", "while", "maybe"}
SHOWING = r"Showing \S+ of (\d+)"  # the feed's and the activity page's total


class Gram(kit.Arrivals):
    """MicroGram's catalog as kinds read it: posts, stories, messages and activity not preloaded arrive."""

    def __init__(self, catalog: Catalog) -> None:
        self.posts, self.stories, self.msgs = catalog.raw("posts"), catalog.raw("stories"), catalog.raw("dm_messages")
        self.activity, self.people = catalog.raw("activity"), catalog.raw("personas")
        super().__init__({etype: [r for r in catalog.raw(collection) if r not in PRELOAD[field]]
                          for field, collection, etype, *_ in ITEMS}, {e: f for _, _, e, f, _ in ITEMS}, PRELOAD, FEED)
        self.commenters: dict[str, list[str]] = {}
        for c in catalog.raw("post_comments").values():
            self.commenters.setdefault(c["post_id"], []).append(c["author_id"])
        self.author = {p: str(r["author_id"]) for p, r in self.posts.items()}
        self.user = {p: str(r["username"]) for p, r in self.people.items()}
        self.name = {p: str(r["name"]) for p, r in self.people.items()}

    def about(self, rid: str) -> str:
        if rid in self.posts:
            return f"post by {self.user[self.author[rid]]} · {self.posts[rid]['image_alt']}"
        if rid in self.stories:
            return f"story by {self.user[self.stories[rid]['author_id']]}"
        if rid in self.msgs:
            return f"DM from {self.user[self.msgs[rid]['sender_id']]} · {self.msgs[rid]['body'][:50]}"
        return f"{self.user[self.activity[rid]['actor_id']]} {self.activity[rid]['text']}"



# --- counted arrivals: posts_more, activity_more, comment_pileup -----------------------------------

def more_arrivals(etype: str, n: int, table: str, page: str, *, description: str, prompt: str,
                  report: str) -> kit.Recipe:
    """n arrivals of etype are counted (one more trails), other arrivals come between them; the `page` shows the
    total of `table`."""
    def setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> kit.Facts:
        g = Gram(catalog)
        at, _, events = g.counted(rng, knobs, g.of(etype), [r for r, t in g.type_of.items() if t != etype], n,
                                  what=etype[4:], decoy_note="decoy: another kind of arrival, not counted")
        return {"at": at, "events": events, "preload": g.preload}
    counts = kit.count_watch(f"{table} WHERE origin != 'self'", n, page, SHOWING, report, f"{etype[4:]}_count")
    return kit.Recipe(setup, difficulty="easy", distraction="other arrivals", start_page=FEED, prompt=prompt,
                      description=description, **counts)


def comment_pileup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The first new post with four or more comments, posts with up to three before it."""
    g = Gram(catalog)
    counts = {p: len(g.commenters.get(p, [])) for p in g.of("new_post")}
    at, picked, events = g.counted(rng, knobs, [p for p, c in counts.items() if c >= 4],
                                   [p for p, c in counts.items() if 0 < c <= 3], 1, near=lambda p: counts[p] / 3,
                                   what="post with four or more comments", spoils=lambda r: counts.get(r, 0) >= 4,
                                   decoy_note=lambda p: f"decoy: arrives with {counts[p]} comments")
    sql = ("SELECT EXISTS (SELECT 1 FROM posts p WHERE (SELECT COUNT(*) FROM post_comments c WHERE c.post_id = p.id "
           "AND c.origin != 'self') >= 4)")
    return g.scenario(
        at, events, "easy", "posts with three comments", condition_sql=sql, eval_sql=sql,
        description=f"Every preloaded post has at most three comments; {knobs.decoys} posts with up to three arrive "
                    f"first; the first post with four or more ({counts[picked[0]]}) arrives at {at} s; one trails.",
        prompt="Tell me as soon as any post in my MicroGram feed has four or more comments.",
        solution=[{"watch": FEED, "until": {"matches": r"View all ([4-9]|\d{2,}) comments"}},
                  {"report": "A post in the feed has four or more comments."}])


# --- next posts: like_next_three, follow_new_creators -------------------------------------------

def open_nth(k: int, post: str, action: str) -> list[dict[str, Any]]:
    """Wait until the feed counts the k-th new post, open it, act on it."""
    return [{"watch": FEED, "until": {"number": SHOWING, "at_least": len(PRELOAD["posts"]) + k}},
            {"open": f"/microgram/p/{post}"}, {"submit": action}]


def like_next_three(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The next three posts are the targets; later ones trail."""
    g = Gram(catalog)
    at, targets, events = g.counted(rng, knobs, g.of("new_post"), g.of("new_post"), 3, what="next post",
                                    decoy_note="trailing: a 4th+ post; liking it is collateral", trailing=False,
                                    after=True)
    ids = kit.sql_list(targets)
    return g.scenario(
        at, events, "easy", "later posts, older posts",
        condition_sql="SELECT (SELECT COUNT(*) FROM posts WHERE origin = 'event') >= 3",
        description=f"No post arrives before the next three, the third at {at} s; {knobs.decoys} more follow. "
                    "Liking any other post (or an old one) fails the task.",
        prompt="Watch my MicroGram feed. Like each of the next three posts that arrive (those three only, not older "
               "ones and not later ones), then tell me once you have liked all three.",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM posts WHERE id IN ({ids}) AND liked = 1) = 3 AND NOT EXISTS "
                 f"(SELECT 1 FROM posts WHERE liked = 1 AND origin = 'event' AND id NOT IN ({ids})) AND (SELECT "
                 f"COUNT(*) FROM posts WHERE origin = 'preload' AND liked = 1) <= {kit.baseline('liked_count')}",
        solution=[*(s for k, p in enumerate(targets, 1) for s in open_nth(k, p, "/like$")),
                  {"report": "Three new posts arrived; I liked each of them."}])


def follow_new_creators(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The first three posts by accounts not followed (three authors) are the targets; one more trails."""
    g = Gram(catalog)
    new = [p for p in g.of("new_post") if g.author[p] not in SERVE_FOLLOWED]
    one_each = sorted({g.author[p]: p for p in rng.sample(new, len(new))}.values())
    at, picked, events = g.counted(rng, knobs, one_each, [p for p in g.of("new_post") if p not in new], 3,
                                   what="new creator", decoy_note="decoy: a post by an account already followed",
                                   spoils=set(new).__contains__)
    in_order = [e["post_id"] for e in sorted(events, key=lambda e: e["at"]) if "post_id" in e]
    who = [g.author[p] for p in picked[:3]]
    ids, names = kit.sql_list(who), ", ".join(g.user[a] for a in who)
    return g.scenario(
        at, events, "medium", "posts by accounts already followed", preload={**PRELOAD, "followed": SERVE_FOLLOWED},
        description=f"{knobs.decoys} posts by followed accounts arrive among the first three by accounts not yet "
                    f"followed ({names}); the third at {at} s. Following anyone else fails.",
        prompt="On MicroGram, follow the authors of the next three posts in my feed from accounts I don't follow yet "
               "(open each post and press Follow; only those three), then tell me.",
        condition_sql="SELECT (SELECT COUNT(DISTINCT author_id) FROM posts WHERE origin = 'event' AND author_id NOT IN "
                      "(SELECT persona_id FROM follows WHERE origin = 'preload')) >= 3",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM follows WHERE persona_id IN ({ids})) = 3 AND NOT EXISTS (SELECT 1 FROM "
                 f"follows WHERE origin = 'self' AND persona_id NOT IN ({ids})) AND (SELECT COUNT(*) FROM follows "
                 f"WHERE origin = 'preload') = {kit.baseline('followed_count')}",
        solution=[*(s for p in picked[:3] for s in open_nth(in_order.index(p) + 1, p, "/follow$")),
                  {"report": f"Three posts from accounts I didn't follow arrived; I followed {names}."}])


def _commented_by(pid: str, viewed: bool = False) -> str:
    return ("SELECT (SELECT COUNT(DISTINCT c.post_id) FROM post_comments c JOIN posts p ON p.id = c.post_id WHERE "
            f"p.origin = 'event'{' AND p.viewed = 1' if viewed else ''} AND c.author_id = {kit.sql_text(pid)}) >= 3")


def commenter_three_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Someone comments on three new posts (a fourth trails), posts others comment on between them."""
    return commented(rng, Gram(catalog), knobs)[1]


def commented(rng: random.Random, g: Gram, knobs: Knobs) -> tuple[str, dict[str, Any]]:
    """commenter_three_more's draw, with the commenter (commenter_absent_noop asks for someone else)."""
    involved = {p: {*g.commenters.get(p, []), g.author[p]} for p in g.of("new_post")}
    on = {c: [p for p in g.of("new_post") if c in g.commenters.get(p, []) and c != g.author[p]]
          for c in sorted(set(g.people) - {SELF})}
    who = kit.choose(rng, [c for c, ps in on.items() if len(ps) >= 4], "commenter on four new posts")
    others = [p for p in g.of("new_post") if g.commenters.get(p) and who not in involved[p]]
    u, by = g.user[who], {p: ", ".join(g.user[c] for c in cs) for p, cs in g.commenters.items()}
    at, _, events = g.counted(rng, knobs, on[who], others, 3, what=f"new post with a {u} comment",
                              near=lambda p: max(kit.alike(g.people[who], g.people[c]) for c in g.commenters[p]),
                              decoy_note=lambda p: f"decoy: commented on by {by[p]}, not {u}",
                              spoils=lambda r: who in involved.get(r, ()))
    return who, g.scenario(
        at, events, "hard", "other commenters, look-alike names",
        description=f"{u} comments on three new posts (the third at {at} s) among {knobs.decoys} new posts commented "
                    "on by others, look-alikes first; a fourth trails. Commenters show only on post pages.",
        prompt=f"My friend {g.name[who]} ({u} on MicroGram) keeps commenting on our friends' photos. Open each new "
               f"post in my feed that {u} comments on (the post page lists who commented), and tell me once three "
               "more such posts have arrived and you have opened them.",
        condition_sql=_commented_by(who), eval_sql=_commented_by(who, True), solution=_opened(u))


def _opened(user: str) -> list[dict[str, Any]]:
    return [{"watch": FEED, "open_new": "^/microgram/p/", "count": 3,
             "until": {"matches": rf"(^|\s){re.escape(user)}(\s|$)"}},
            {"report": f"Three new posts carry a {user} comment; I opened each of them."}]


def commenter_absent_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """commenter_three_more asking for someone who never comments; the source's commenter does (the near miss)."""
    g = Gram(catalog)
    who, source = commented(rng, g, knobs)
    used = [e["post_id"] for e in source["events"] if "post_id" in e]
    present = {c for p in used for c in g.commenters.get(p, [])} | {g.author[p] for p in used}
    asked = kit.choose(rng, sorted(set(g.people) - present - {SELF}), "person who never comments")
    prompt = source["prompt"].replace(g.name[who], g.name[asked]).replace(g.user[who], g.user[asked])
    return kit.noop_twin(
        source, distraction=f"other commenters ({g.user[who]})", prompt=prompt, solution=_opened(g.user[asked]),
        description=f"Copy of commenter_three_more. {g.user[asked]} never comments on anything; {g.user[who]}'s "
                    f"three commented posts still arrive (the third at {source['condition_at']} s).",
        condition_sql=_commented_by(asked), near_miss_sql=_commented_by(who),
        eval_sql="SELECT NOT EXISTS (SELECT 1 FROM post_comments c JOIN posts p ON p.id = c.post_id WHERE "
                 f"p.origin = 'event' AND p.viewed = 1 AND c.author_id = {kit.sql_text(asked)})")


def _keywords(g: Gram) -> list[tuple[str, str]]:
    """(message, keyword): a word of a new message that no preloaded one holds (in an old thread, one the
    inbox shows: within 40 characters)."""
    old = " ".join(g.msgs[m]["body"].lower() for m in PRELOAD["dms"])
    old_threads = {g.msgs[m]["thread_id"] for m in PRELOAD["dms"]}
    return [(m, w) for m in g.of("new_dm") for body in [g.msgs[m]["body"].lower()]
            for w in sorted(kit.words(body)) if len(w) >= 5 and w.isalpha() and w not in COMMON
            and w not in old and (g.msgs[m]["thread_id"] not in old_threads or body.find(w) + len(w) <= 40)]


def _mention(word: str, read: bool = False) -> str:
    """SQL: a message that arrived mentions the word (and was read)."""
    return (f"EXISTS (SELECT 1 FROM dm_messages WHERE origin = 'event' AND body LIKE {kit.like_text(word)}"
            + (" AND is_read = 1)" if read else ")"))


def dm_keyword(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """A message mentions the keyword (unsent hold_s later), messages with near words before it."""
    return keyword_message(rng, Gram(catalog), knobs)[1]


def keyword_message(rng: random.Random, g: Gram, knobs: Knobs) -> tuple[str, dict[str, Any]]:
    """dm_keyword's draw, with the keyword (dm_merger_noop asks for a word no message holds)."""
    target, kw = kit.choose(rng, _keywords(g), "message keyword")
    thread = g.msgs[target]["thread_id"]
    clean = [m for m in g.of("new_dm") if kw not in g.msgs[m]["body"].lower() and g.msgs[m]["thread_id"] != thread]
    at, _, events = g.counted(rng, knobs, [target], clean, 1, what=f"message mentioning '{kw}'", trailing=False,
                              near=lambda m: kit.nearness(kw, g.msgs[m]["body"]),
                              decoy_note=f"decoy: near '{kw}', not it", counts=lambda r: False,
                              spoils=lambda r: r in g.msgs and (g.msgs[r]["thread_id"] == thread
                                                                or kw in g.msgs[r]["body"].lower()))
    until = kit.hold_until(knobs, at)
    events.append(kit.event(until, "unsend_dm", f"the sender unsends the '{kw}' message: it can no longer be opened "
                            "(condition_until)", message_id=target))
    fresh = thread not in {g.msgs[m]["thread_id"] for m in PRELOAD["dms"]}
    find = {"open_new": "^/microgram/direct/"} if fresh else {}
    return kw, g.scenario(
        at, events, "medium", "near words, unsent message", condition_until=until,
        description=f"Messages with near words come first; the one at {at} s mentions '{kw}' in "
                    f"{'a new' if fresh else 'an existing'} conversation; it is unsent at {until} s.",
        prompt=f"When a new direct message on MicroGram mentions \"{kw}\", open that conversation so it's marked "
               "read, and tell me.",
        condition_sql=f"SELECT {_mention(kw)}", eval_sql=f"SELECT {_mention(kw, read=True)}",
        solution=[{"watch": DIRECT, **find, "until": {"text": kw}}, *([] if fresh else [
            {"open": f"/microgram/direct/{thread}"}]), {"report": f"The message about {kw} arrived; I opened it."}])


def dm_merger_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The asked word extends a word a new message carries (merge → merger): that message is the near miss."""
    g = Gram(catalog)
    kw, source = keyword_message(rng, g, knobs)
    used = {e.get("message_id") for e in source["events"]}
    threads = {g.msgs[m]["thread_id"] for m in used if m}
    every = " ".join(r["body"].lower() for r in g.msgs.values())
    options = [(m, w, w + x) for m in g.of("new_dm") if m not in used and g.msgs[m]["thread_id"] not in threads
               and kw not in g.msgs[m]["body"].lower() for w in sorted(kit.words(g.msgs[m]["body"]))
               for x in SUFFIXES if len(w) >= 4 and w.isalpha() and w not in COMMON and w + x not in every
               and not w.endswith(("ing", "ed", "ly", "s"))]
    near, base, asked = kit.choose(rng, options, "near-miss message")
    near_at = kit.free_moment(rng, source["events"])
    return kit.noop_twin(
        source, near=[g.make(near_at, near, f"near miss: '{base}', never '{asked}'")], swap=(f'"{kw}"', f'"{asked}"'),
        distraction=f"'{base}', never '{asked}'",
        description=f"Copy of dm_keyword asking about '{asked}', which no message holds; '{base}' arrives at "
                    f"{near_at} s (the near miss) and the '{kw}' message still arrives at {source['condition_at']} s.",
        condition_sql=f"SELECT {_mention(asked)}", near_miss_sql=f"SELECT {_mention(base)}",
        eval_sql=f"SELECT NOT {_mention(asked, read=True)}",
        solution=[{"watch": DIRECT, "open_new": "^/microgram/direct/", "until": {"text": asked}},
                  {"report": f"A message about {asked} arrived; I opened it."}])


def stories_three(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Three people whose stories were all seen each post a new one (the last at the target)."""
    g = Gram(catalog)
    author = {s: str(r["author_id"]) for s, r in g.stories.items()}
    unseen = {author[s] for s in PRELOAD["stories"] if s not in PRELOAD["viewed_stories"]}
    new = g.of("new_story")
    authors = kit.sample(rng, sorted({author[s] for s in new} - unseen - {SELF}), 3, "story authors")
    at, targets, events = g.counted(rng, knobs, [kit.choose(rng, [s for s in new if author[s] == a]) for a in authors],
                                    [s for s in new if author[s] not in authors], 3, what="new story",
                                    near=lambda s: max(kit.alike(g.people[author[s]], g.people[a]) for a in authors),
                                    decoy_note="decoy: another account's story", first_s=4, trailing=False,
                                    spoils=lambda r: author.get(r) in authors)
    users = [g.user[a] for a in authors]
    sql = f"SELECT (SELECT COUNT(*) FROM stories WHERE id IN ({kit.sql_list(targets)})) = 3"
    people = ", ".join(f"{g.name[a]} ({u})" for a, u in zip(authors[:2], users[:2], strict=True))
    look = "".join(rf"(?=.*(?<![\w.]){re.escape(u)} \(new\))" for u in users)
    return g.scenario(
        at, events, "medium", "look-alike accounts, older seen stories", condition_sql=sql, eval_sql=sql,
        description=f"{', '.join(users)} each post a new story, the last at {at} s; {knobs.decoys} other accounts "
                    "(look-alikes first) post stories before it.",
        prompt=f"{people} and {g.name[authors[2]]} ({users[2]}) each promised to share a story from the team "
               "offsite. Tell me once all three of them have a new story in my MicroGram story bar.",
        solution=[{"watch": FEED, "until": {"matches": rf"(?s)\A{look}"}},
                  {"report": f"{', '.join(users)} all have new stories in the bar."}])


KINDS: tuple[Kind, ...] = (
    kit.kind("activity_more", "passive", "relative", Knobs(decoys=4),
             "decoys: posts, stories and messages between the four counted activity entries",
             more_arrivals(
                 "new_activity", 4, "activity", ACTIVITY,
                 description="Four activity entries arrive (the fourth at {at} s) between {decoys} posts, stories and "
                             "messages; more follow. The nav counts only the last hour's entries.",
                 prompt="Keep an eye on my MicroGram activity (likes, follows, comments and mentions). Tell me once "
                        "there are four more activity entries than there are now.",
                 report="Four more activity entries have arrived.")),
    kit.kind("comment_pileup", "passive", "absolute", Knobs(decoys=4),
             "decoys: posts with up to three comments before the target (near_miss: how many carry exactly three)",
             comment_pileup),
    kit.kind("commenter_absent_noop", "noop", "relative", Knobs(decoys=3),
             "as commenter_three_more; the asked user never comments, the source's commenter does (the near miss)",
             commenter_absent_noop),
    kit.kind("commenter_three_more", "active", "relative", Knobs(decoys=3),
             "decoys: new posts commented on by others (near_miss: a look-alike name or username first)",
             commenter_three_more),
    kit.kind("dm_keyword", "active", "absolute", Knobs(decoys=2, hold_s=90),
             "decoys: messages with a near word (near_miss: sharing more of it); hold_s: until the target is unsent",
             dm_keyword),
    kit.kind("dm_merger_noop", "noop", "absolute", Knobs(decoys=2, hold_s=90),
             "as dm_keyword; the asked word extends a word a new message carries (the near miss)", dm_merger_noop),
    kit.kind("follow_new_creators", "active", "absolute", Knobs(decoys=4),
             "decoys: posts by accounts already followed among the three targets", follow_new_creators),
    kit.kind("like_next_three", "active", "absolute", Knobs(decoys=3),
             "decoys: later posts trailing the three targets (liking one fails)", like_next_three),
    kit.kind("posts_more", "passive", "relative", Knobs(decoys=4),
             "decoys: stories, messages and activity between the five counted posts",
             more_arrivals(
                 "new_post", 5, "posts", FEED,
                 description="Five posts arrive (the fifth at {at} s) between {decoys} stories, messages and activity "
                             "entries; more posts follow. The feed header shows only the total.",
                 prompt="Watch my MicroGram feed and tell me once it holds five more posts than it does now.",
                 report="Five more posts have arrived in the feed.")),
    kit.kind("stories_three", "passive", "absolute", Knobs(decoys=2),
             "decoys: stories by other accounts before the last target (near_miss: sharing a name or username part)",
             stories_three),
)
