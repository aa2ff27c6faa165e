"""MicroHub's ten scenario kinds (docs/environments.md#microhub): issue kinds watch new issues' descriptions
or count issues; star kinds move the count along legs that stall just short of the line, then cross it."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs
from sentinel.generation import kit
from sentinel.generation.kit import Facts, Leg

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sentinel.core.catalog import Catalog

HOME, ISSUES, ISSUE_LINK = "/microhub/", "/microhub/issues", "^/microhub/issues/\\d+$"
PRELOAD_ISSUES = tuple(f"iss{n:03d}" for n in range(1, 21))
PRELOAD_PRS = tuple(f"pr{n:03d}" for n in range(1, 9))
STAR_PATH = [[60, 1850], [300, 1872], [700, 1901]]  # the authored issue tasks' slow climb
STARS, OPEN, STAR_CLIMB = "★ ([\\d,]+) stars", "([\\d,]+) Open", "+stars"  # STAR_CLIMB: background or decoy climb
LIMIT_AT, GAIN_AT = 60, 50  # the earliest target times of stars_target and stars_gain (room for the climb)
GLUE = {"a", "an", "the", "to", "of", "in", "on", "for", "and", "or", "is", "it", "at", "by", "as", "be", "we"}
# Plain words that make poor keywords, and words the issue page shows after the body anyway.
PLAIN = set(("several sometimes removing depending reloaded building returns happen purpose waited listed removes "
              "computed pasting exported covers alternative please accept passes faster longer missing already "
              "appears arrives cannot actual expected bottom review support string should within before because "
              "anyone comment labels milestone assignees issue close reopen nobody").split())


# --- catalog views -------------------------------------------------------------------------------

def issue(catalog: Catalog, iid: str) -> dict[str, Any]:
    return catalog.raw("issues")[iid]


def arrivals(catalog: Catalog, exclude: Iterable[str] = ()) -> list[str]:
    """Issues that can arrive (not preloaded), in catalog order."""
    return kit.ids_where(catalog, "issues", lambda r: True, exclude=[*PRELOAD_ISSUES, *exclude])


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z][a-z-]{5,}", text.lower()))


def keywords(catalog: Catalog) -> set[str]:
    """Words fit to be asked about: not plain, not part of a label shown on every issue page."""
    labels = " ".join(r["name"].lower() for r in catalog.raw("labels").values())
    every = set().union(*(words(f"{r['title']} {r['body']}") for r in catalog.raw("issues").values()))
    return {w for w in every if w not in PLAIN and w not in labels and not any(w in p for p in PLAIN)}


def bodies_with(catalog: Catalog, term: str) -> list[str]:
    return [iid for iid, r in catalog.raw("issues").items() if term in r["body"].lower()]


def shared_terms(catalog: Catalog, phrases: bool) -> dict[str, list[str]]:
    """Words (or two- and three-word phrases) in exactly two descriptions, one of which can arrive."""
    fit, can_arrive, terms = keywords(catalog), set(arrivals(catalog)), set[str]()
    for r in catalog.raw("issues").values():
        ws = re.findall(r"[a-z][a-z-]*", r["body"].lower())
        terms |= {" ".join(ws[i:i + n]) for n in (2, 3) for i in range(len(ws) - n + 1)
                  if (ws[i + n - 1] in fit or ws[i] in fit) and ws[i] not in GLUE and ws[i + n - 1] not in GLUE} \
            if phrases else set(ws) & fit
    has = {term: bodies_with(catalog, term) for term in sorted(terms)}
    return {term: ids for term, ids in has.items() if len(ids) == 2 and set(ids) & can_arrive}


# --- events and background ---------------------------------------------------------------------------

class Repo(kit.Arrivals):
    """What may arrive: any issue (a note is followed by its title), pull request, or STAR_CLIMB: a small climb of
    the star count, sized by its time (so it draws nothing)."""

    def __init__(self, catalog: Catalog) -> None:
        self.issues = catalog.raw("issues")
        super().__init__({"new_issue": list(self.issues), "new_pull_request": list(catalog.raw("pull_requests"))},
                         {"new_issue": "issue_id", "new_pull_request": "pr_id"})

    def about(self, rid: str) -> str | None:
        return str(self.issues[rid]["title"]) if rid in self.issues else None

    def make(self, at: float, rid: str, note: str | None = None, **fields: Any) -> dict[str, Any]:
        if rid == STAR_CLIMB:
            return kit.event(at, "star_waypoint", note, delta=10 + int(at) % 30, ramp_s=10 + int(at) % 20)
        return super().make(at, rid, note, **fields)


def traffic(rng: random.Random, catalog: Catalog, knobs: Knobs, events: list[dict[str, Any]], *,
            without: str | None = None, issues_after: float = 0, stars: bool = False,
            issues: Iterable[str] = PRELOAD_ISSUES, star_legs: list[Leg] | None = None,
            initial: int | None = None) -> Facts:
    """Facts `preload` (stars from `initial` moved by `star_legs`, else the slow climb) and `events`: these and
    background that cannot decide it: issues (none before `issues_after` or describing `without`), PRs, star climbs."""
    used = {*issues, *(str(e[field]) for e in events for field in ("issue_id", "pr_id") if field in e)}
    pool = [i for i in arrivals(catalog, used) if not without or without not in issue(catalog, i)["body"].lower()]
    pool += [p for p in catalog.raw("pull_requests") if p not in {*PRELOAD_PRS, *used}]
    pool += [STAR_CLIMB] * (8 if stars else 0)
    events = [*events, *(kit.event(leg.at, "star_waypoint", leg.note, stars=leg.value, ramp_s=leg.ramp_s,
                                    target=leg.target) for leg in star_legs or [])]
    picked = kit.mixed_background(rng, knobs.density, [e["at"] for e in events], pool,
                                  lambda it, t: t > issues_after + 2 or it.startswith(("pr", STAR_CLIMB)))
    own = {"initial_stars": initial} if initial is not None else {"star_waypoints": STAR_PATH}
    make = Repo(catalog).make
    return {"preload": {"issues": list(dict.fromkeys(issues)), "pull_requests": list(PRELOAD_PRS), **own},
            "events": [*events, *(make(t, it) for t, it in picked)]}


def look_alikes(rng: random.Random, catalog: Catalog, knobs: Knobs, term: str, target: str, exclude: list[str],
                at: int) -> list[dict[str, Any]]:
    """knobs.decoys issues before `at` without `term` in the description: it in the title first, then the most alike."""
    like = words(f"{issue(catalog, target)['title']} {issue(catalog, target)['body']}")

    def score(i: str) -> float:
        r = issue(catalog, i)
        return 2.0 * (term in r["title"].lower()) + kit.overlap(like, words(f"{r['title']} {r['body']}"))
    others = [i for i in arrivals(catalog, exclude) if term not in issue(catalog, i)["body"].lower()]
    decoys, make = kit.nearest(rng, others, knobs.decoys, score, knobs.near_miss), Repo(catalog).make
    return [make(t, i, f"decoy: '{term}' in the title only" if term in issue(catalog, i)["title"].lower()
                 else f"decoy: no '{term}' in the description")
            for t, i in zip(kit.times_between(rng, len(decoys), 0, at), decoys, strict=True)]


# Watch the list, open each new issue until one's page shows the term after "wrote".
SEEN = {"watch": ISSUES, "open_new": ISSUE_LINK, "until": {"matches": "(?is)wrote\\b.*{term!e}"}}


# --- a word only the target's description holds: comment_on_compliance, comment_on_totp, the no-op

def word_target(rng: random.Random, catalog: Catalog, knobs: Knobs, locks: bool = False) -> Facts:
    """Look-alikes, then the one issue whose description holds the word (a keyword only this arriving
    issue's description holds, and not its title); with `locks`, its author locks it after hold_s."""
    fit = keywords(catalog)
    own = [(i, w) for i in arrivals(catalog) for w in sorted(words(issue(catalog, i)["body"]) & fit)
           if bodies_with(catalog, w) == [i] and w not in issue(catalog, i)["title"].lower()]
    target, word = kit.choose(rng, own, "issue with a word of its own")
    at = kit.target_time(rng, knobs, 4 + 2 * knobs.decoys)
    until = kit.hold_until(knobs, at) if locks else None
    events = [*look_alikes(rng, catalog, knobs, word, target, [target], at),
              Repo(catalog).make(at, target, f"the description mentions '{word}' (the target)", target=True)]
    if until is not None:
        events.append(kit.event(until, "lock_issue", "the author closes and locks the target issue: comments are no "
                                                     "longer possible (condition_until)", issue_id=target))
    return {"target": target, "term": word, "at": at, "until": until, "decoys": knobs.decoys,
            "open": " AND state = 'open' AND locked = 0" if locks else "",
            "then": f"at {until} s its author closes and locks it." if until else "a comment on any other issue "
                                                                                   "fails the task.",
            **traffic(rng, catalog, knobs, events, without=word)}


def title_only(rng: random.Random, catalog: Catalog, facts: Facts) -> Facts:
    """The no-op's word: in one issue's title (that issue arrives at a free moment) and in no description."""
    used = {e.get("issue_id") for e in facts["events"] if "_note" in e}
    decoy, asked = kit.choose(rng, [(i, w) for i in arrivals(catalog, used) for w in
                                    sorted(words(issue(catalog, i)["title"]) & keywords(catalog))
                                    if not bodies_with(catalog, w)], "word in a title only")
    at = kit.free_moment(rng, facts["events"], 20, 699)
    kept = [e for e in facts["events"] if "_note" in e or e.get("issue_id") != decoy]  # its background arrival
    return {"term": asked, "decoy_at": at,
            "events": [*kept, Repo(catalog).make(at, decoy, f"decoy: '{asked}' in the title only")]}


WORD = kit.Recipe(
    word_target, start_page=ISSUES, difficulty="medium", distraction="the word in a title only, related issues",
    description="{decoys} look-alike issues arrive first (the word in a title only, or shared words); at {at} s an "
                "issue whose description (never shown in the list) mentions '{term}'; {then}",
    prompt="On MicroHub, watch the issues of brightline/atlas-web. When a new issue comes in whose description "
           "mentions {term}, leave a comment on it (and on no other issue) saying we will look into it, then let me "
           "know.",
    condition_sql="SELECT EXISTS (SELECT 1 FROM issues WHERE origin = 'event' AND body LIKE {term!l}{open})",
    eval_sql="SELECT EXISTS (SELECT 1 FROM comments WHERE target_kind = 'issue' AND target_id = {target!q} AND "
             "author_id = SELF) AND NOT EXISTS (SELECT 1 FROM comments WHERE author_id = SELF AND NOT "
             "(target_kind = 'issue' AND target_id = {target!q}))",
    solution=[SEEN, {"submit": "/comment$", "fields": {"body": "Thanks, we will look into the {term} part."}},
              {"report": "A new issue mentions {term} in its description; I commented."}])


# --- a term two descriptions share: repro_steps_second, unresponsive_second -------------------------

def second_issue(rng: random.Random, catalog: Catalog, knobs: Knobs, phrases: bool = True) -> Facts:
    """One issue with the term (a phrase, or a word) in its description preloaded; look-alikes; the second."""
    table = shared_terms(catalog, phrases)
    term = kit.choose(rng, sorted(table), "shared term")
    target = kit.choose(rng, [i for i in table[term] if i in set(arrivals(catalog))], "second issue")
    first = next(i for i in table[term] if i != target)
    at = kit.target_time(rng, knobs, 4 + 2 * knobs.decoys)
    events = [*look_alikes(rng, catalog, knobs, term, target, [target, first], at),
              Repo(catalog).make(at, target, f"the second issue whose description has '{term}' (the target)",
                     target=True)]
    return {"term": term, "target": target, "first": issue(catalog, first)["title"], "at": at,
            **traffic(rng, catalog, knobs, events, without=term, issues=[*PRELOAD_ISSUES, first])}


SECOND = kit.Recipe(
    second_issue, start_page=ISSUES, difficulty="medium", distraction="the words in a title, reports without them",
    description="Issue \"{first}\" (preloaded) has '{term}' in its description. Decoys put the words in a title or "
                "share others; at {at} s a second issue with '{term}' in its description arrives.",
    prompt="One issue on MicroHub (brightline/atlas-web) already says \"{term}\" in its description. When a second "
           "issue whose description says \"{term}\" comes in, open it so it is marked as seen, then tell me.",
    condition_sql="SELECT (SELECT COUNT(*) FROM issues WHERE origin != 'self' AND body LIKE {term!l}) >= 2",
    eval_sql="SELECT viewed = 1 FROM issues WHERE id = {target!q}",
    solution=[SEEN, {"report": "A second issue saying {term} arrived; I opened it."}])


# --- counts of issues: open_issues_threshold, issues_more ---------------------------------------------

def open_issues(rng: random.Random, catalog: Catalog, knobs: Knobs) -> Facts:
    """New issues raise the open count to a threshold; closures (locks) and pull requests between."""
    make = Repo(catalog).make
    opened = [i for i in PRELOAD_ISSUES if issue(catalog, i).get("state", "open") == "open"]
    closes, n = min(2, knobs.decoys // 2), rng.randint(3, 5)
    order = kit.order_under(rng, n, closes)
    prs = [p for p in catalog.raw("pull_requests") if p not in PRELOAD_PRS][:max(0, knobs.decoys - closes)]
    at = kit.target_time(rng, knobs, 6 + len(order) + len(prs))
    slots = kit.times_between(rng, len(order) + len(prs), 0, at)
    rng.shuffle(slots)
    new = kit.sample(rng, arrivals(catalog), n + closes + 1, "new issues")
    shut = kit.sample(rng, opened, closes, "open issues to close")
    events = [make(t, p, "decoy: a pull request, not an issue") for t, p in zip(slots, prs, strict=False)]
    count, threshold = len(opened), len(opened) + n
    for t, step in zip(sorted(slots[len(prs):]), order, strict=True):
        count += 1 if step == "add" else -1
        events.append(make(t, new.pop(), f"{count} open") if step == "add" else
                      kit.event(t, "lock_issue", f"an open issue is closed and locked: back to {count} open",
                                issue_id=shut.pop()))
    events += [make(at, new.pop(), f"the open issue that makes {threshold} (the target)", target=True),
               make(rng.randint(min(at + 10, 715), 715), new.pop(), "trailing: one more open issue")]
    return {"at": at, "start": len(opened), "closes": closes, "goal": threshold,
            **traffic(rng, catalog, knobs, events, issues_after=at)}


def four_issues(rng: random.Random, catalog: Catalog, knobs: Knobs) -> Facts:
    prs = [p for p in catalog.raw("pull_requests") if p not in PRELOAD_PRS]
    at, events, _ = kit.counting(rng, knobs, arrivals(catalog), [*prs, *[STAR_CLIMB] * 8], 4, Repo(catalog).make,
                                 what="new issue", decoy_note=lambda item: "decoy: not an issue", first_s=kit.FLAT_S)
    return {"at": at, "n": 4, **traffic(rng, catalog, knobs, events, issues_after=at, stars=True)}


OPEN_ISSUES = kit.Recipe(
    open_issues, start_page=ISSUES, difficulty="easy", distraction="issues close on the way, pull requests arrive",
    description="The repository starts with {start} open issues. New issues arrive, {closes} older ones are closed "
                "and locked on the way, pull requests arrive; the open count reaches {goal} at {at} s.",
    prompt="Watch the open issues of brightline/atlas-web on MicroHub and tell me once there are {goal} or more open "
           "issues. Don't close any.",
    **kit.count_watch("issues WHERE state = 'open'", "{goal}", ISSUES, OPEN, "There are now {goal} open issues."))
FOUR_MORE = kit.Recipe(
    four_issues, start_page=ISSUES, difficulty="easy", distraction="pull requests and star movement",
    description="Four new issues, the fourth at {at} s, with pull requests and the star count rising between them. "
                "The issue list shows only the open and closed totals, never a change.",
    prompt="Keep an eye on brightline/atlas-web on MicroHub and tell me once four more issues have been opened than "
           "there are right now. Pull requests don't count.",
    **kit.count_watch("issues WHERE origin != 'self'", "{n}", ISSUES, OPEN,
                      "Four more issues have been opened since you asked.", "issue_count"))


# --- the star count: stars_target, stars_gain, stars_unreachable_noop ----------------------------------

def star_climb(rng: random.Random, catalog: Catalog, knobs: Knobs, gain: bool = False) -> Facts:
    """From a drawn start, flat, the stars climb, stall just short of the `goal` (near_miss 1: 2 stars short),
    cross it at the target time and go on up. The goal: a round `limit` or, with `gain`, the start + `gain`."""
    start = rng.randint(1200, 4600)
    if gain:
        n = kit.choose(rng, (100, 150, 200, 250, 300))
        line, at = start + n, kit.target_time(rng, knobs, GAIN_AT)
    else:
        n, line = 0, int(kit.round_line(start + 101, 500 if start < 3000 else 1000))
        at = kit.target_time(rng, knobs, LIMIT_AT)
    stall = line - int(kit.shortfall(knobs.near_miss, 2, 32 if gain else 42))
    what = f"+{n} on the start" if gain else "the limit"
    legs = [*kit.cross_once(kit.FLAT_S, at, [start + (stall - start) * rng.randint(30, 80) // 100,
                                             (stall, f"the stars stall at {stall:,}: a near miss"), stall],
                            line, f"the stars reach {line:,} at {at} s, {what} (the target)"),
            Leg(at + 1, line + rng.randint(40, 200), max(5, 700 - at))]
    return {"start": start, "limit": line, "gain": n, "goal": line, "flat": kit.FLAT_S, "at": at,
            **traffic(rng, catalog, knobs, [], initial=start, star_legs=legs)}


def far_above(rng: random.Random, catalog: Catalog, facts: Facts) -> Facts:
    return {"goal": facts["limit"] * kit.choose(rng, (10, 20, 50))}


STARS_TARGET = kit.Recipe(
    star_climb, start_page=HOME, difficulty="easy", distraction="a stall just short of the target",
    description="From {start:,} stars the count climbs and stalls just short of {limit:,} (a near miss); it reaches "
                "{limit:,} at {at} s and goes on.",
    prompt="Tell me when brightline/atlas-web on MicroHub reaches {goal:,} stars.",
    condition_sql="SELECT stars >= {goal} FROM repo_stats",
    solution=kit.watch_number(HOME, STARS, "{goal}", "The repository has reached {goal:,} stars."))
STARS_GAIN = kit.Recipe(
    partial(star_climb, gain=True), start_page=HOME, difficulty="easy", distraction="steady growth, new issues",
    description="The repository starts at {start:,} stars, flat until {flat} s, then climbs to {goal:,} (+{gain}, the "
                "target) at {at} s and on. The page shows the current count only.",
    prompt="Watch the star count of brightline/atlas-web on MicroHub and tell me once it has grown by {gain} stars or "
           "more from what it is now.",
    condition_sql=f"SELECT stars >= {kit.baseline('star_count')} + {{gain}} FROM repo_stats",
    solution=kit.watch_number(HOME, STARS, "first + {gain}", "The repository has gained {gain} stars since you asked."))

KINDS: tuple[Kind, ...] = (
    kit.kind("comment_on_compliance", "active", "absolute", Knobs(decoys=2),
             "decoys: issues with the word in a title only, then issues sharing words (near_miss: how alike)", WORD),
    kit.kind("comment_on_telemetry_noop", "noop", "absolute", Knobs(decoys=2),
             "as comment_on_compliance; the asked word is in one issue's title and no description",
             WORD.noop(title_only, distraction="the word in a title only, another word's issue arrives",
                       description="No-op copy of comment_on_compliance: no description ever mentions {term}; one "
                                   "title does ({decoy_at} s), and the issue about {source[term]} still arrives at "
                                   "{at} s (the near miss). Refrain check: the user comments nowhere.",
                       eval_sql="SELECT NOT EXISTS (SELECT 1 FROM comments WHERE author_id = SELF)")),
    kit.kind("comment_on_totp", "active", "absolute", Knobs(decoys=2),
             "as comment_on_compliance; hold_s: until the author locks the issue",
             replace(WORD, setup=partial(word_target, locks=True),
                     distraction="the word in a title, the issue gets locked",
                     prompt="Keep an eye on new issues in brightline/atlas-web on MicroHub. When one comes in whose "
                            "description names {term}, comment on it (only that issue) that the team will pick it "
                            "up, then tell me.")),
    kit.kind("issues_more", "passive", "relative", Knobs(decoys=2),
             "decoys: pull requests and star climbs between the four new issues", FOUR_MORE),
    kit.kind("open_issues_threshold", "passive", "absolute", Knobs(decoys=3),
             "decoys: older issues closed on the way (up to 2) and pull requests", OPEN_ISSUES),
    kit.kind("repro_steps_second", "active", "relative", Knobs(decoys=2),
             "decoys: issues with the phrase's words in a title or sharing words (near_miss: how alike)", SECOND),
    kit.kind("stars_gain", "passive", "relative", Knobs(decoys=0),
             "near_miss: how close the last waypoint before the target comes to the gain (1: 2 stars short)",
             STARS_GAIN, earliest=GAIN_AT),
    kit.kind("stars_target", "passive", "absolute", Knobs(decoys=0),
             "near_miss: how close the stall comes to the limit (1: 2 stars short)", STARS_TARGET,
             earliest=LIMIT_AT),
    kit.kind("stars_unreachable_noop", "noop", "absolute", Knobs(decoys=0),
             "as stars_target; the asked limit is 10–50 times the one reached",
             STARS_TARGET.noop(far_above, distraction="the source task's {limit:,} stars are reached",
                               description="No-op copy of stars_target: the count reaches {limit:,} at {at} s (the "
                                           "source task's target, the near miss) and tops out far below the {goal:,} "
                                           "asked.")),
    kit.kind("unresponsive_second", "active", "relative", Knobs(decoys=2),
             "decoys: issues with the word in a title or sharing words (near_miss: how alike)",
             replace(SECOND, setup=partial(second_issue, phrases=False), distraction="the word in a title, near words",
                     prompt="One issue on MicroHub (brightline/atlas-web) already mentions {term} in its description. "
                            "When another issue comes in whose description mentions it too, open it so it is marked "
                            "as seen, then tell me.",
                     solution=[SEEN, {"report": "Another issue mentions {term}; I opened it."}])),
)
