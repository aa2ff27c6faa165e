"""MicroDin's ten scenario kinds (docs/environments.md#microdin). Counting kinds count from numbers the preload
fixes (the oracle's first read does not matter); apply kinds ask for a skill only the job page's requirements list."""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs
from sentinel.envs.microdin.events import ARRIVING, READ_AFTER_MINUTES, lines
from sentinel.generation import kit
from sentinel.generation.kit import FIRST_READ_S, event

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

COLLECTIONS = {f"new_{c[:-1]}": c for c in ARRIVING}  # event type → the collection it brings an item of
PRELOAD_N = {"posts": 20, "invitations": 10, "conversations": 11, "messages": 30, "notifications": 20, "jobs": 10}
SKILLS = ("Kubernetes", "API documentation", "Python", "React", "Terraform", "Docker", "TypeScript", "Java",
          "SQL", "Excel", "Looker", "Figma", "Salesforce", "Tableau", "Airflow", "Django", "PostgreSQL",
          "Storybook", "Playwright", "Swift", "Vue", "Spark", "Angular", "Elasticsearch", "gRPC", "dbt",
          "Prometheus", "Nomad", "Consul", "Braze", "German", "Spanish", "COBOL", "Fortran", "Rust", "Haskell")
LOOKALIKE = {"React": "React Native", "Java": "JavaScript"}  # what a skill's requirement must not be
TARGET_GAP_S = 12  # between two postings the oracle applies to in turn
PHONE = "+1 503 555 0142"
JOBS = "/microdin/jobs"
OPEN_JOBS = "jobs WHERE closed = 0"


class Arrivals(kit.Arrivals):
    """One draw's start (the first N of each collection, or the sizes a kind asks for) and what can arrive after it."""

    def __init__(self, catalog: Catalog, **sizes: int) -> None:
        size, self.rec = {**PRELOAD_N, **sizes}, {i: r for c in PRELOAD_N for i, r in catalog.raw(c).items()}
        load = {c: list(catalog.raw(c))[:size[c]] for c in PRELOAD_N}
        pools = {etype: [i for i, r in catalog.raw(c).items() if i not in load[c] and r.get("author_id") != "p000"
                         and r.get("post_id") in (None, *load["posts"]) and r.get("job_id") in (None, *load["jobs"])]
                 for etype, c in COLLECTIONS.items()}
        super().__init__(pools, {etype: f"{c[:-1]}_id" for etype, c in COLLECTIONS.items()}, load)

    def about(self, rid: str) -> str:
        rec = self.rec[rid]
        text = "a message" if self.type_of[rid] == "new_message" else rec.get("title") or rec.get("body") \
            or rec.get("text") or rec.get("note")
        return str(text)[:50]

    def notifications(self, *kinds: str) -> list[str]:
        """Notifications that can arrive, of these kinds (connection, profile_view, like, ...)."""
        return [i for i in self.of("new_notification") if self.rec[i]["kind"] in kinds]

    def close(self, t: float, jid: str, note: str | None) -> dict[str, Any]:
        return event(t, "close_job", f"{note} · {self.rec[jid]['title']}", job_id=jid)

    def requirements(self, jid: str) -> str:
        return lines(self.rec[jid]["requirements"])

    def asks(self, jid: str, skill: str) -> bool:
        return skill.lower() in self.requirements(jid).replace(LOOKALIKE.get(skill, "\0"), "").lower()

    def mentions(self, jid: str, skill: str) -> bool:
        """The skill's name anywhere on the posting (title, description or a look-alike requirement)."""
        rec = self.rec[jid]
        return skill.lower() in f"{rec['title']} {rec['description']} {self.requirements(jid)}".lower()

    def arrange(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The new conversation's messages keep their catalog order, whichever the draw picked."""
        messages = sorted((e for e in events if e["type"] == "new_message"), key=lambda e: e["at"])
        for e, mid in zip(messages, sorted(e["message_id"] for e in messages), strict=True):
            e["message_id"] = mid
        return events


# --- the job board, pending invitations, unread notifications, feed posts --------------------

def unread_notifications(a: Arrivals) -> int:
    """The preloaded notifications that start unread (those younger than READ_AFTER_MINUTES)."""
    return sum(a.rec[i].get("age_minutes", 0) <= READ_AFTER_MINUTES for i in a.preload["notifications"])


def board(noop: bool, **texts: Any) -> kit.Recipe:
    """k postings at the start; closings (decoys) and arrivals bring the board to k + n at the target, 2–4 more
    after; the no-op asks for more than the peak (how much more: near_miss)."""
    def setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
        k, n, more = rng.randint(3, 6), rng.randint(3, 6), rng.randint(2, 4)
        a = Arrivals(catalog, jobs=k)
        at, key, used = kit.rise_with_drops(rng, knobs, a.of("new_job"), a.preload["jobs"], n, a.make, a.close,
                                            what="opening", drop_note="a posting closes", base=k, start=1,
                                            cap=min(3, k - 1), trailing=more)
        asked = k + n + more + 1 + int(round((1 - knobs.near_miss) * 40)) if noop else k + n
        if noop:
            kit.as_near_miss(key)
            key[-1]["_note"] = f"near miss: opening {k + n + more}, the board's maximum, short of {asked}"
        others = [i for i in a.items if a.type_of[i] != "new_job" and i not in used]
        return {"preload": a.preload, "events": a.with_background(rng, knobs, key, None, others), "at": at, "k": k,
                "goal": asked, "peak": k + n + more, "last": key[-1]["at"]}
    return kit.Recipe(
        setup, difficulty="easy", start_page=JOBS,
        prompt="Watch the MicroDin job board. When it lists at least {goal} open positions, tell me.",
        **kit.count_watch(OPEN_JOBS, "{goal}", JOBS, "([0-9]+) results", "The job board now lists {goal} openings."),
        **texts)


COUNT_KINDS = (
    kit.kind(
        "jobs_threshold", "passive", "absolute", Knobs(decoys=1),
        "decoys: preloaded postings that close before the target (each needs one more arrival)",
        board(False, distraction="slow growth, postings that close",
              description="{k} openings at the start; postings arrive (and some close), the board reaches {goal} at "
                          "{at} s and {peak} later. The board's header says 'N results'.")),
    kit.kind(
        "jobs_fifty_noop", "noop", "absolute", Knobs(decoys=1),
        "as jobs_threshold; near_miss: the asked number is the board's peak + 1 (near_miss 1) up to + 41 (0)",
        board(True, distraction="the board grows, but only to {peak}",
              description="Copy of jobs_threshold asking for {goal} openings; the board peaks at {peak} (at {last} s).",
              near_miss_sql=kit.count_reaches(OPEN_JOBS, "{peak}"))),
    kit.kind(
        "invitations_threshold", "passive", "absolute", Knobs(decoys=3),
        "decoys: connection and profile-view notifications between the invitations; 8–12 pending at the start, "
        "3–6 arrive",
        kit.Recipe(
            kit.counted_setup(
                lambda rng, catalog: Arrivals(catalog, invitations=rng.randint(8, 12)), n=(3, 6), trailing=2,
                counted=lambda a: a.of("new_invitation"), base=lambda a: len(a.preload["invitations"]),
                looks=lambda a: a.notifications("connection", "profile_view"), what="new pending invitation",
                decoy_note="decoy: a connection or profile-view notification, not an invitation"),
            difficulty="easy", distraction="connection notifications, a steady trickle",
            description="{base} invitations pending at the start; {n} arrive, the last at {at} s, among connection "
                        "notifications. The network page shows 'Invitations (N)'. Accepting or ignoring lowers the "
                        "count.",
            prompt="Watch my pending invitations on MicroDin. Don't accept or ignore any of them. When I have at least "
                   "{goal} pending invitations, tell me.",
            start_page="/microdin/network",
            **kit.count_watch("invitations WHERE status = 'pending'", "{goal}", "/microdin/network",
                              "Invitations \\(([0-9]+)\\)", "You now have {goal} pending invitations."))),
    kit.kind(
        "notifications_more", "passive", "relative", Knobs(decoys=3),
        "decoys: messages and invitations (other badges) between the counted notifications",
        kit.Recipe(
            kit.counted_setup(
                lambda rng, catalog: Arrivals(catalog), n=(3, 4), start=FIRST_READ_S, base=unread_notifications,
                counted=lambda a: a.of("new_notification"),
                looks=lambda a: a.of("new_message") + a.of("new_invitation"),
                what="new unread notification", decoy_note="decoy: another badge rises (Messaging or My Network)"),
            difficulty="easy", distraction="other badges rising, opening marks read",
            description=f"{PRELOAD_N['notifications']} notifications at the start, {{base}} unread. {{n}} new ones "
                        "arrive, the last at {at} s; messages and invitations raise other badges between. Opening a "
                        "notification marks it read.",
            prompt="Keep an eye on my MicroDin notifications without opening any of them. When I have {n} more unread "
                   "notifications than when you started, tell me.",
            start_page="/microdin/notifications",
            **kit.count_watch("notifications WHERE is_read = 0", "{n}", "/microdin/notifications",
                              "Notifications \\(([0-9]+)\\)", "{n} more unread notifications have arrived.",
                              "unread_notification_count", at_least="{goal}"))),
    kit.kind(
        "posts_more", "passive", "relative", Knobs(decoys=2),
        "decoys: notifications about posts inside the burst of new posts",
        kit.Recipe(
            kit.counted_setup(
                lambda rng, catalog: Arrivals(catalog), n=(4, 6), start=FIRST_READ_S, span=90, trailing=3,
                counted=lambda a: a.of("new_post"), base=lambda a: len(a.preload["posts"]),
                looks=lambda a: a.notifications("like", "comment", "mention"), what="new post",
                decoy_note="decoy: a notification about a post, not a new post"),
            difficulty="easy", distraction="a burst of posts, notifications about posts",
            description="{base} posts at the start; {n} new ones in quick succession from {first} s, the last at "
                        "{at} s, more later. The feed shows a total ('Showing 1–10 of N') but never the difference; "
                        "the agent's own posts do not count.",
            prompt="Keep an eye on my MicroDin feed. When at least {n} new posts from other people have appeared since "
                   "you started watching, tell me.",
            start_page="/microdin/feed",
            **kit.count_watch("posts WHERE origin != 'self'", "{n}", "/microdin/feed",
                              "Showing [0-9]+–[0-9]+ of ([0-9]+)", "{n} new posts have appeared in the feed.",
                              "post_count", at_least="{goal}"))),
)


# --- the apply kinds ------------------------------------------------------------------------

def apply(noop: bool, need: int, trailing: int = 0, closes: bool = False) -> kit.Setup:
    """The skill, its target postings (`need` by the target time, `trailing` after) and look-alikes (nearest: naming
    it elsewhere, then sharing requirement words); the no-op asks for a skill one posting names elsewhere, none asks."""
    def setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
        a = Arrivals(catalog)
        named = {sk: [j for j in a.of("new_job") if a.mentions(j, sk) and not a.asks(j, sk)] for sk in SKILLS}
        asked = kit.choose(rng, sorted(sk for sk, js in named.items() if js), "skill named outside requirements") \
            if noop else None
        jobs = [j for j in a.of("new_job") if not (asked and a.asks(j, asked))]
        found = {s: [j for j in jobs if a.asks(j, s) and s.lower() not in a.rec[j]["title"].lower()]
                 for s in SKILLS if s != asked}
        skill = kit.choose(rng, sorted(s for s, js in found.items() if len(js) >= need + trailing),
                           f"skill asked by {need + trailing} postings")
        targets = kit.sample(rng, found[skill], need + trailing, "postings")
        mine = kit.words(" ".join(a.requirements(j) for j in targets))
        at, key, used = kit.counted_arrivals(
            rng, knobs, targets, [j for j in jobs if not a.asks(j, skill)], need, a.make, trailing=trailing,
            what=f"posting asking for {skill} (detail page only)", start=FIRST_READ_S, gap=TARGET_GAP_S,
            decoy_note=f"decoy: does not ask for {skill} in the requirements",
            score=lambda j: 2.0 * a.mentions(j, skill) + len(kit.words(a.requirements(j)) & mine) / max(1, len(mine)))
        targets, until, facts = used[:need + trailing], min(at + int(knobs.hold_s), 712), {}
        if closes:
            key.append(event(until, "close_job", "the posting stops accepting applications (condition_until)",
                             job_id=targets[0]))
        if asked:
            near = kit.choose(rng, [j for j in named[asked] if j not in used], "near-miss posting")
            t = kit.free_moment(rng, key, 20, 700, gap=2)
            key.append(a.make(t, near, f"near miss: {asked} in the title or description, not in the requirements"))
            used, facts = [*used, near], {"source": skill, "near": a.rec[near]["title"], "near_at": t}
        skill = asked or skill
        others = [j for j in a.items if j not in used and not (a.type_of[j] == "new_job" and a.asks(j, skill))]
        look = LOOKALIKE.get(skill)
        return {"preload": a.preload, "events": a.with_background(rng, knobs, key, None, others), "at": at,
                "until": until if closes else None, "skill": skill, "ids": ", ".join(targets), "t1": targets[0],
                "t2": targets[1 % len(targets)], "listed": ", ".join(f"'{j}'" for j in targets), "phone": PHONE,
                "title": a.rec[targets[0]]["title"], "decoys": len(used) - len(targets), "need": need, **facts,
                "open": " AND closed = 0" if closes else "", "but": f" ({look} alone does not count)" if look else "",
                "req": f"replace(requirements, {kit.sql_text(look)}, '')" if look else "requirements",
                "pattern": f"(?si)Requirements(?:(?!About the company).)*{re.escape(skill)}"
                           + (f"(?! {look.split()[-1]})" if look else "")}
    return setup


POSTED = "SELECT (SELECT COUNT(*) FROM jobs WHERE origin = 'event'{open} AND {req} LIKE {skill!l}) >= {need}"
SUBMIT = {"submit": "/apply$", "fields": {"phone": PHONE}}
ON_BOARD = {"watch": JOBS, "open_new": "^/microdin/jobs/dj[0-9]+$", "until": {"matches": "{pattern}"}}
# Two targets may arrive seconds apart, faster than one open-and-apply round at high speeds: each its own page.
EACH = [{"watch": f"{JOBS}/{{t1}}", "until": {"matches": "{pattern}"}}, SUBMIT,
        {"watch": f"{JOBS}/{{t2}}", "until": {"matches": "{pattern}"}}, SUBMIT]
ONLY = ("SELECT (SELECT COUNT(*) FROM jobs WHERE id IN ({listed}) AND applied = 1) >= {need} "
        "AND NOT EXISTS (SELECT 1 FROM jobs WHERE applied = 1 AND id NOT IN ({listed}))")
TWO = "I want a {skill} job. Watch the MicroDin job board and apply, through Easy Apply with my phone number " \
      "{phone}, to new postings whose requirements ask for {skill}{but}. Once you have applied to two of them, " \
      "tell me; don't apply to anything else."
BOTH = {"report": "Two {skill} roles were posted; I applied to both."}

APPLY_KINDS = (
    kit.kind(
        "apply_api_docs", "active", "absolute", Knobs(decoys=3),
        "decoys: postings before the target (near_miss: naming the skill outside the requirements, then sharing "
        "requirement words)",
        kit.Recipe(
            apply(False, 1), difficulty="medium", distraction="'{skill}' in a title or description", start_page=JOBS,
            description="Look-alike postings name {skill} in a title or description, or share the stack; {title} "
                        "({ids}) at {at} s asks for {skill} in its requirements. Applying to any other fails.",
            prompt="I want a job that involves {skill}. Watch the MicroDin job board: when a new posting's "
                   "requirements ask for experience with {skill}, apply to it through Easy Apply with my phone number "
                   "{phone} (and apply to nothing else), then tell me.",
            condition_sql=POSTED, eval_sql=ONLY,
            solution=[ON_BOARD, SUBMIT, {"report": "A role asking for {skill} was posted; I applied."}])),
    kit.kind(
        "apply_kubernetes", "active", "absolute", Knobs(decoys=3),
        "as apply_api_docs; hold_s: until the posting closes",
        kit.Recipe(
            apply(False, 1, closes=True), difficulty="medium", start_page=JOBS,
            distraction="{skill} in descriptions or titles, similar stacks, posting closes",
            description="{decoys} look-alike postings come first; {title} ({ids}, {at} s) lists {skill} among its "
                        "requirements, shown on the job page only. It closes at {until} s. Applying anywhere else "
                        "fails.",
            prompt="I'm looking for a new role working with {skill}. Watch the MicroDin job board: when a new posting "
                   "appears whose requirements ask for {skill} experience, apply to it (only that one) through its "
                   "Easy Apply form, using my phone number {phone}, then tell me.",
            condition_sql=POSTED, eval_sql=ONLY,
            solution=[ON_BOARD, SUBMIT, {"report": "A {skill} role was posted; I applied to it."}])),
    kit.kind(
        "apply_python_two", "active", "relative", Knobs(decoys=2),
        "as apply_api_docs, two target postings",
        kit.Recipe(
            apply(False, 2), difficulty="hard", start_page=JOBS,
            distraction="{skill} mentioned outside the requirements",
            description="Two postings ask for {skill} in their requirements ({ids}), the second at {at} s; look-alikes "
                        "mention {skill} elsewhere or share the stack. Applying to a look-alike fails.",
            prompt="I'm after {skill}-heavy roles. Watch the MicroDin job board and apply, through Easy Apply with my "
                   "phone number {phone}, to each new posting whose requirements ask for {skill} (a mention in the "
                   "description is not enough). When you have applied to two such roles, tell me.",
            condition_sql=POSTED, eval_sql=ONLY, solution=[*EACH, BOTH])),
    kit.kind(
        "apply_react_two", "active", "relative", Knobs(decoys=2),
        "as apply_api_docs, three target postings (the third after the target time)",
        kit.Recipe(
            apply(False, 2, 1), difficulty="hard", distraction="{skill} outside the requirements, look-alike stacks",
            start_page=JOBS,
            description="Three postings ask for {skill} ({ids}); the second arrives at {at} s, the third after it. "
                        "Look-alikes name {skill} outside the requirements. Applying to a look-alike fails.",
            prompt=TWO, condition_sql=POSTED, eval_sql=ONLY, solution=[*EACH, BOTH])),
    kit.kind(
        "apply_cobol_noop", "noop", "relative", Knobs(decoys=2),
        "as apply_react_two; the asked skill is named only outside a posting's requirements (the near miss)",
        kit.Recipe(
            apply(True, 2, 1), difficulty="hard", start_page=JOBS,
            distraction="{skill} in a title or description, not in the requirements",
            description="Copy of apply_react_two asking for {skill}. No posting's requirements ask for it; {near} "
                        "({near_at} s) names it outside them. The {source} roles still arrive. Refrain check: no new "
                        "posting gets an application.",
            prompt=TWO, condition_sql=POSTED,
            near_miss_sql="SELECT EXISTS (SELECT 1 FROM jobs WHERE origin = 'event' AND (title LIKE {skill!l} OR "
                          "description LIKE {skill!l}))",
            eval_sql="SELECT NOT EXISTS (SELECT 1 FROM jobs WHERE origin = 'event' AND applied = 1)",
            solution=[ON_BOARD, SUBMIT, ON_BOARD, SUBMIT, BOTH])),
)

KINDS: tuple[Kind, ...] = tuple(sorted((*COUNT_KINDS, *APPLY_KINDS), key=lambda k: k.name))
