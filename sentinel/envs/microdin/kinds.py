"""MicroDin's ten scenario kinds (ENVIRONMENTS §3): the authored scenarios made into templates.

Counting kinds (the job board, pending invitations, unread notifications, feed posts) count against
numbers known from the preload, so the oracle does not depend on when its first read lands. Apply
kinds ask for a skill of SKILLS: the targets list it among their requirements (shown on the job page
only); look-alikes name it in their title or description, or share requirement words with them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.envs.microdin.events import READ_AFTER_MINUTES
from sentinel.generation import kit
from sentinel.generation.kit import FIRST_READ_S, event, scenario, taxonomy

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

COLLECTIONS = {"new_post": "posts", "new_invitation": "invitations", "new_message": "messages",
               "new_notification": "notifications", "new_job": "jobs"}
PRELOAD_N = {"posts": 20, "invitations": 10, "conversations": 11, "messages": 30, "notifications": 20, "jobs": 10}
SKILLS = ("Kubernetes", "API documentation", "Python", "React", "Terraform", "Docker", "TypeScript", "Java",
          "SQL", "Excel", "Looker", "Figma", "Salesforce", "Tableau", "Airflow", "Django", "PostgreSQL",
          "Storybook", "Playwright", "Swift", "Vue", "Spark", "Angular", "Elasticsearch", "gRPC", "dbt",
          "Prometheus", "Nomad", "Consul", "Braze", "German", "Spanish", "COBOL", "Fortran", "Rust", "Haskell")
LOOKALIKE = {"React": "React Native", "Java": "JavaScript"}  # what a skill's requirement must not be
TARGET_GAP_S = 12  # between two postings the oracle applies to in turn
PHONE = "+1 503 555 0142"
JOBS = "/microdin/jobs"
OPEN_JOBS = "SELECT COUNT(*) FROM jobs WHERE closed = 0"


class Arrivals(kit.Arrivals):
    """One draw's start (the first N of each collection; a kind may change a size) and what can arrive
    after it: posts by others, invitations, the new conversation's messages, jobs, and notifications
    whose post or job is there."""

    fields = {etype: f"{c[:-1]}_id" for etype, c in COLLECTIONS.items()}

    def __init__(self, catalog: Catalog, **sizes: int) -> None:
        size, self.rec = {**PRELOAD_N, **sizes}, {i: r for c in PRELOAD_N for i, r in catalog.raw(c).items()}
        self.load = {c: list(catalog.raw(c))[:size[c]] for c in PRELOAD_N}
        self.type = {i: etype for etype, c in COLLECTIONS.items() for i, r in catalog.raw(c).items()
                     if i not in self.load[c] and r.get("author_id") != "p000"
                     and r.get("post_id") in (None, *self.load["posts"])
                     and r.get("job_id") in (None, *self.load["jobs"])}

    def about(self, rid: str) -> str:
        rec = self.rec[rid]
        text = "a message" if self.type[rid] == "new_message" else rec.get("title") or rec.get("body") \
            or rec.get("text") or rec.get("note")
        return str(text)[:50]

    def close(self, t: float, jid: str, note: str | None) -> dict[str, Any]:
        return event(t, "close_job", f"{note} · {self.rec[jid]['title']}", job_id=jid)

    def arrange(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The new conversation's messages keep their catalog order, whichever the draw picked."""
        messages = sorted((e for e in events if e["type"] == "new_message"), key=lambda e: e["at"])
        for e, mid in zip(messages, sorted(e["message_id"] for e in messages), strict=True):
            e["message_id"] = mid
        return events


# --- the job board, pending invitations, unread notifications, feed posts --------------------

def _board(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """k preloaded postings, closings (the decoys knob) and arrivals so the board reaches k + n at the
    target, then two to four more."""
    k, n, more = rng.randint(3, 6), rng.randint(3, 6), rng.randint(2, 4)
    a = Arrivals(catalog, jobs=k)
    at, key, used = kit.rise_with_drops(rng, knobs, a.of("new_job"), a.load["jobs"], n, a.make, a.close, start=1,
                                        what="opening", drop_note="a posting closes", base=k, cap=min(3, k - 1),
                                        trailing=more)
    events = a.events(rng, knobs, key, None, [i for i in a.of("new_post") + a.of("new_invitation")
                                              + a.of("new_message") + a.of("new_notification") if i not in used])
    return {"k": k, "goal": k + n, "peak": k + n + more, "at": at, "key": key, "events": events}


def draw_jobs_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    b = _board(rng, catalog, knobs)
    goal, at, sql = b["goal"], b["at"], f"SELECT ({OPEN_JOBS}) >= {b['goal']}"
    return scenario(
        description=f"{b['k']} openings at the start; postings arrive (and some close), the board reaches {goal} at "
                    f"{at} s and {b['peak']} later. The board's header says 'N results'.",
        prompt=f"Watch the MicroDin job board. When it lists at least {goal} open positions, tell me.",
        condition_at=at, start_page=JOBS, taxonomy=taxonomy("passive", "absolute", "easy", "slow growth, postings "
                                                                                         "that close"),
        events=b["events"], condition_sql=sql, eval_sql=sql,
        solution=kit.watch_number(JOBS, "([0-9]+) results", goal, f"The job board now lists {goal} openings."))


def draw_jobs_fifty_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    b = _board(rng, catalog, knobs)
    peak, last = b["peak"], b["key"][-1]
    asked = peak + 1 + int(round((1 - knobs.near_miss) * 40))
    last["_note"] = f"near miss: opening {peak}, the board's maximum, short of {asked}"
    for e in b["key"]:
        if e["_note"].startswith("target:"):
            e["_note"] = "near miss of the source task (jobs_threshold's target)" + e["_note"].removeprefix("target")
    return scenario(
        description=f"Copy of jobs_threshold asking for {asked} openings; the board peaks at {peak} "
                    f"(at {last['at']} s).",
        prompt=f"Watch the MicroDin job board. When it lists at least {asked} open positions, tell me.",
        condition_at=None, start_page=JOBS, taxonomy=taxonomy("noop", "absolute", "easy", f"the board grows, but "
                                                                                         f"only to {peak}"),
        events=b["events"], condition_sql=f"SELECT ({OPEN_JOBS}) >= {asked}",
        near_miss_sql=f"SELECT ({OPEN_JOBS}) >= {peak}",
        solution=kit.watch_number(JOBS, "([0-9]+) results", asked, f"The job board now lists {asked} openings."))


def unread(a: Arrivals) -> int:
    return sum(a.rec[i].get("age_minutes", 0) <= READ_AFTER_MINUTES for i in a.load["notifications"])


COUNT_KINDS = (
    kit.count_kind(
        "invitations_threshold", "absolute", Knobs(decoys=3), "decoys: connection and profile-view notifications "
        "between the invitations; 8–12 pending at the start, 3–6 arrive",
        lambda rng, catalog: Arrivals(catalog, invitations=rng.randint(8, 12)), n=(3, 6), trailing=2,
        counted=lambda a: a.of("new_invitation"),
        looks=lambda a: a.of("new_notification", lambda r: r["kind"] in ("connection", "profile_view")),
        base=lambda a: len(a.load["invitations"]), what="new pending invitation",
        decoy_note="decoy: a connection or profile-view notification, not an invitation",
        page="/microdin/network", number="Invitations \\(([0-9]+)\\)",
        sql="SELECT (SELECT COUNT(*) FROM invitations WHERE status = 'pending') >= {goal}",
        description="{base} invitations pending at the start; {n} arrive, the last at {at} s, among connection "
                    "notifications. The network page shows 'Invitations (N)'. Accepting or ignoring lowers the count.",
        prompt="Watch my pending invitations on MicroDin. Don't accept or ignore any of them. When I have at least "
               "{goal} pending invitations, tell me.",
        report="You now have {goal} pending invitations.", distraction="connection notifications, a steady trickle"),
    kit.count_kind(
        "notifications_more", "relative", Knobs(decoys=3), "decoys: messages and invitations (other badges) between "
        "the counted notifications", lambda rng, catalog: Arrivals(catalog), n=(3, 4), start=FIRST_READ_S,
        counted=lambda a: a.of("new_notification"), looks=lambda a: a.of("new_message") + a.of("new_invitation"),
        base=unread, what="new unread notification",
        decoy_note="decoy: another badge rises (Messaging or My Network)",
        page="/microdin/notifications", number="Notifications \\(([0-9]+)\\)",
        sql="SELECT (SELECT COUNT(*) FROM notifications WHERE is_read = 0) >= "
            f"{kit.baseline('unread_notification_count')} + {{n}}",
        description=f"{PRELOAD_N['notifications']} notifications at the start, {{base}} unread. {{n}} new ones "
                    "arrive, the last at {at} s; messages and invitations raise other badges between. Opening a "
                    "notification marks it read.",
        prompt="Keep an eye on my MicroDin notifications without opening any of them. When I have {n} more unread "
               "notifications than when you started, tell me.",
        report="{n} more unread notifications have arrived.", distraction="other badges rising, opening marks read"),
    kit.count_kind(
        "posts_more", "relative", Knobs(decoys=2), "decoys: notifications about posts inside the burst of new posts",
        lambda rng, catalog: Arrivals(catalog), n=(4, 6), start=FIRST_READ_S, span=90, trailing=3,
        counted=lambda a: a.of("new_post"),
        looks=lambda a: a.of("new_notification", lambda r: r["kind"] in ("like", "comment", "mention")),
        base=lambda a: len(a.load["posts"]), what="new post",
        decoy_note="decoy: a notification about a post, not a new post",
        page="/microdin/feed", number="Showing [0-9]+–[0-9]+ of ([0-9]+)",
        sql=f"SELECT (SELECT COUNT(*) FROM posts WHERE origin != 'self') >= {kit.baseline('post_count')} + {{n}}",
        description="{base} posts at the start; {n} new ones in quick succession from {first} s, the last at {at} s, "
                    "more later. The feed shows a total ('Showing 1–10 of N') but never the difference; the agent's "
                    "own posts do not count.",
        prompt="Keep an eye on my MicroDin feed. When at least {n} new posts from other people have appeared since "
               "you started watching, tell me.",
        report="{n} new posts have appeared in the feed.", distraction="a burst of posts, notifications about posts"),
)


# --- the apply kinds ------------------------------------------------------------------------

def requirements(a: Arrivals, jid: str) -> str:
    req = a.rec[jid]["requirements"]
    return "\n".join(req) if isinstance(req, list) else str(req)


def asks(a: Arrivals, jid: str, skill: str) -> bool:
    return skill.lower() in requirements(a, jid).replace(LOOKALIKE.get(skill, "\0"), "").lower()


def mentions(a: Arrivals, jid: str, skill: str) -> bool:
    """The skill's name anywhere on the posting (title, description or a look-alike requirement)."""
    return skill.lower() in f"{a.rec[jid]['title']} {a.rec[jid]['description']} {requirements(a, jid)}".lower()


def words(text: str) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", text.lower()) if len(w) > 2}


def postings(skill: str, need: int = 1, extra: str = "") -> str:
    column = f"replace(requirements, {kit.sql_text(LOOKALIKE[skill])}, '')" if skill in LOOKALIKE else "requirements"
    return (f"SELECT (SELECT COUNT(*) FROM jobs WHERE origin = 'event'{extra} AND {column} LIKE "
            f"{kit.sql_text(f'%{skill}%')}) >= {need}")


def apply_steps(skill: str, n: int, jobs: list[str] | None = None) -> list[dict[str, Any]]:
    """Watch the board for a new posting whose requirements name the skill and apply, n times; with
    `jobs`, watch each target's own page instead (two targets may arrive seconds apart, faster than
    one open-and-apply round at high speeds)."""
    tail = f"(?! {LOOKALIKE[skill].split()[-1]})" if skill in LOOKALIKE else ""
    until = {"matches": f"(?si)Requirements(?:(?!About the company).)*{re.escape(skill)}{tail}"}
    watches = ([{"watch": f"{JOBS}/{j}", "until": until} for j in jobs] if jobs else
               [{"watch": JOBS, "open_new": "^/microdin/jobs/dj[0-9]+$", "until": until}] * n)
    return [s for w in watches for s in (w, {"submit": "/apply$", "fields": {"phone": PHONE}})]


def _setup(rng: random.Random, a: Arrivals, knobs: Knobs, need: int, trailing: int,
           banned: Collection[str] = ()) -> dict[str, Any]:
    """The skill, its target postings (need by the target time, `trailing` after) and look-alikes,
    none of them asking for a `banned` skill."""
    jobs = [j for j in a.of("new_job") if not any(asks(a, j, b) for b in banned)]
    found = {s: [j for j in jobs if asks(a, j, s) and s.lower() not in a.rec[j]["title"].lower()]
             for s in SKILLS if s not in banned}
    skill = kit.choose(rng, sorted(s for s, js in found.items() if len(js) >= need + trailing),
                       f"skill asked by {need + trailing} postings")
    targets = kit.sample(rng, found[skill], need + trailing, "postings")
    mine = words(" ".join(requirements(a, j) for j in targets))
    at, key, used = kit.counted_arrivals(
        rng, knobs, targets, [j for j in jobs if not asks(a, j, skill)], need, a.make, trailing=trailing,
        what=f"posting asking for {skill} (detail page only)", start=FIRST_READ_S, gap=TARGET_GAP_S,
        decoy_note=f"decoy: does not ask for {skill} in the requirements",
        score=lambda j: 2.0 * mentions(a, j, skill) + len(words(requirements(a, j)) & mine) / max(1, len(mine)))
    return {"skill": skill, "targets": used[:need + trailing], "decoys": used[need + trailing:], "at": at, "key": key}


def _background(rng: random.Random, a: Arrivals, knobs: Knobs, key: list[dict[str, Any]], used: Collection[str],
                banned: Collection[str]) -> list[dict[str, Any]]:
    """The timeline with background of every family; jobs only those that ask for none of `banned`."""
    return a.events(rng, knobs, key, None, [j for j in a.items if j not in used and not (
        a.type[j] == "new_job" and any(asks(a, j, b) for b in banned))])


def apply_kind(name: str, criteria: str, knobs: Knobs, notes: str, *, need: int, trailing: int = 0,
               closes: bool = False, difficulty: str, distraction: str, description: str, prompt: str,
               report: str) -> Kind:
    """An apply kind as a declaration; the texts are str.format templates over skill, at, until, title
    (the first target's), ids (the targets'), decoys (how many), phone and but (a look-alike skill
    that does not count)."""
    def draw(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
        a = Arrivals(catalog)
        s = _setup(rng, a, knobs, need, trailing)
        skill, targets, at = s["skill"], s["targets"], s["at"]
        until = min(at + int(knobs.hold_s), 712) if closes else None
        key = s["key"] + ([event(until, "close_job", "the posting stops accepting applications (condition_until)",
                                 job_id=targets[0])] if until else [])
        listed = ", ".join(f"'{j}'" for j in targets)
        f = {"skill": skill, "at": at, "until": until, "title": a.rec[targets[0]]["title"], "ids": ", ".join(targets),
             "decoys": len(s["decoys"]), "phone": PHONE,
             "but": f" ({LOOKALIKE[skill]} alone does not count)" if skill in LOOKALIKE else ""}
        return scenario(
            description=description.format(**f), prompt=prompt.format(**f), condition_at=at, condition_until=until,
            start_page=JOBS, taxonomy=taxonomy("active", criteria, difficulty, distraction.format(**f)),
            events=_background(rng, a, knobs, key, s["targets"] + s["decoys"], {skill}),
            condition_sql=postings(skill, need, " AND closed = 0" if closes else ""),
            eval_sql=f"SELECT (SELECT COUNT(*) FROM jobs WHERE id IN ({listed}) AND applied = 1) >= {need} "
                     f"AND NOT EXISTS (SELECT 1 FROM jobs WHERE applied = 1 AND id NOT IN ({listed}))",
            solution=[*apply_steps(skill, need, targets[:need] if need > 1 else None),
                      {"report": report.format(**f)}])
    return Kind(name, "active", criteria, draw, knobs, notes)


def draw_apply_cobol_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """A skill no posting on the timeline asks for; one names it in its title or description."""
    a = Arrivals(catalog)
    named = {sk: [j for j in a.of("new_job") if mentions(a, j, sk) and not asks(a, j, sk)] for sk in SKILLS}
    asked = kit.choose(rng, sorted(sk for sk, js in named.items() if js), "skill named outside requirements")
    s = _setup(rng, a, knobs, 2, 1, {asked})
    used = s["targets"] + s["decoys"]
    if any(asks(a, j, asked) for j in used):
        raise NoDraw(f"a drawn posting asks for {asked}")
    near = kit.choose(rng, [j for j in named[asked] if j not in used], "near-miss posting")
    t = kit.free_times(rng, 1, 20, 700, [e["at"] for e in s["key"]])[0]
    key = [*s["key"], a.make(t, near, f"near miss: {asked} in the title or description, not in the requirements")]
    like = kit.sql_text(f"%{asked}%")
    return scenario(
        description=f"Copy of apply_react_two asking for {asked}. No posting's requirements ask for it; "
                    f"{a.rec[near]['title']} ({t} s) names it outside them. The {s['skill']} roles still arrive. "
                    "Refrain check: no new posting gets an application.",
        prompt=f"I'm looking for {asked} work. Watch the MicroDin job board and apply, through Easy Apply with my "
               f"phone number {PHONE}, to new postings whose requirements ask for {asked}. Once you have applied to "
               "two of them, tell me; don't apply to anything else.",
        condition_at=None, start_page=JOBS,
        taxonomy=taxonomy("noop", "relative", "hard", f"{asked} in a title or description, not in the requirements"),
        events=_background(rng, a, knobs, key, [*used, near], {asked, s["skill"]}), condition_sql=postings(asked),
        near_miss_sql=f"SELECT EXISTS (SELECT 1 FROM jobs WHERE origin = 'event' AND (title LIKE {like} OR "
                      f"description LIKE {like}))",
        eval_sql="SELECT NOT EXISTS (SELECT 1 FROM jobs WHERE origin = 'event' AND applied = 1)",
        solution=[*apply_steps(asked, 2), {"report": f"Two {asked} roles were posted; I applied to both."}])


APPLY_KINDS = (
    apply_kind(
        "apply_api_docs", "absolute", Knobs(decoys=3), "decoys: postings before the target (near_miss: naming the "
        "skill outside the requirements, then sharing requirement words)", need=1, difficulty="medium",
        distraction="'{skill}' in a title or description",
        description="Look-alike postings name {skill} in a title or description, or share the stack; {title} ({ids}) "
                    "at {at} s asks for {skill} in its requirements. Applying to any other fails.",
        prompt="I want a job that involves {skill}. Watch the MicroDin job board: when a new posting's requirements "
               "ask for experience with {skill}, apply to it through Easy Apply with my phone number {phone} (and "
               "apply to nothing else), then tell me.", report="A role asking for {skill} was posted; I applied."),
    apply_kind(
        "apply_kubernetes", "absolute", Knobs(decoys=3), "as apply_api_docs; hold_s: until the posting closes",
        need=1, closes=True, difficulty="medium",
        distraction="{skill} in descriptions or titles, similar stacks, posting closes",
        description="{decoys} look-alike postings come first; {title} ({ids}, {at} s) lists {skill} among its "
                    "requirements, shown on the job page only. It closes at {until} s. Applying anywhere else fails.",
        prompt="I'm looking for a new role working with {skill}. Watch the MicroDin job board: when a new posting "
               "appears whose requirements ask for {skill} experience, apply to it (only that one) through its Easy "
               "Apply form, using my phone number {phone}, then tell me.",
        report="A {skill} role was posted; I applied to it."),
    apply_kind(
        "apply_python_two", "relative", Knobs(decoys=2), "as apply_api_docs, two target postings", need=2,
        difficulty="hard", distraction="{skill} mentioned outside the requirements",
        description="Two postings ask for {skill} in their requirements ({ids}), the second at {at} s; look-alikes "
                    "mention {skill} elsewhere or share the stack. Applying to a look-alike fails.",
        prompt="I'm after {skill}-heavy roles. Watch the MicroDin job board and apply, through Easy Apply with my "
               "phone number {phone}, to each new posting whose requirements ask for {skill} (a mention in the "
               "description is not enough). When you have applied to two such roles, tell me.",
        report="Two {skill} roles were posted; I applied to both."),
    apply_kind(
        "apply_react_two", "relative", Knobs(decoys=2), "as apply_api_docs, three target postings (the third after "
        "the target time)", need=2, trailing=1, difficulty="hard",
        distraction="{skill} outside the requirements, look-alike stacks",
        description="Three postings ask for {skill} ({ids}); the second arrives at {at} s, the third after it. "
                    "Look-alikes name {skill} outside the requirements. Applying to a look-alike fails.",
        prompt="I want a {skill} job. Watch the MicroDin job board and apply, through Easy Apply with my phone number "
               "{phone}, to new postings whose requirements ask for {skill}{but}. Once you have applied to two of "
               "them, tell me; don't apply to anything else.",
        report="Two {skill} roles were posted; I applied to both."),
)

KINDS: tuple[Kind, ...] = tuple(sorted((
    *COUNT_KINDS, *APPLY_KINDS,
    Kind("apply_cobol_noop", "noop", "relative", draw_apply_cobol_noop, Knobs(decoys=2),
         "as apply_react_two; the asked skill is named only outside a posting's requirements (the near miss)"),
    Kind("jobs_threshold", "passive", "absolute", draw_jobs_threshold, Knobs(decoys=1),
         "decoys: preloaded postings that close before the target (each needs one more arrival)"),
    Kind("jobs_fifty_noop", "noop", "absolute", draw_jobs_fifty_noop, Knobs(decoys=1),
         "as jobs_threshold; near_miss: the asked number is the board's peak + 1 (near_miss 1) up to + 41 (0)"),
), key=lambda k: k.name))
