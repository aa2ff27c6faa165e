"""MicroHub's ten scenario kinds (docs/environments.md#microhub): the authored scenarios made into templates.

Issue kinds watch for a word only the target issue's description holds (comment on it), a term
two descriptions share (open the second) or a count of issues (kit counting). Star kinds move the
count along star_waypoint legs that stall just short of the limit and reach it at the target time
(kit.cross_once). Knobs: `decoys` look-alike issues (or pull requests, closures and star climbs)
before the target, `near_miss` how alike (or how short the stall), `hold_s` until the author locks
the issue to comment on, `density` background issues and pull requests per sim minute.
"""

from __future__ import annotations

import random
import re
from functools import partial
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs
from sentinel.generation import kit
from sentinel.generation.kit import Leg

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sentinel.core.catalog import Catalog

HOME, ISSUES, ISSUE_LINK = "/microhub/", "/microhub/issues", "^/microhub/issues/\\d+$"
PRELOAD_ISSUES = tuple(f"iss{n:03d}" for n in range(1, 21))
PRELOAD_PRS = tuple(f"pr{n:03d}" for n in range(1, 9))
STAR_PATH = [[60, 1850], [300, 1872], [700, 1901]]  # the authored issue tasks' slow climb
STARS, STAR_CLIMB = "★ ([\\d,]+) stars", "+stars"  # STAR_CLIMB: a background or decoy star climb
LIMIT_AT, GAIN_AT = 60, 50  # the earliest target times of stars_target and stars_gain (room for the climb)
GLUE = {"a", "an", "the", "to", "of", "in", "on", "for", "and", "or", "is", "it", "at", "by", "as", "be", "we"}
# Plain words that make poor keywords, and words the issue page shows after the body anyway.
PLAIN = {"several", "sometimes", "removing", "depending", "reloaded", "building", "returns", "happen", "purpose",
         "waited", "listed", "removes", "computed", "pasting", "exported", "covers", "alternative", "please",
         "accept", "passes", "faster", "longer", "missing", "already", "appears", "arrives", "cannot", "actual",
         "expected", "bottom", "review", "support", "string", "should", "within", "before", "because", "anyone",
         "comment", "labels", "milestone", "assignees", "issue", "close", "reopen", "nobody"}


_declared: list[Kind] = []
kind = partial(kit.kind, _declared)


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
    fit, can_arrive, terms = keywords(catalog), set(arrivals(catalog)), set()
    for r in catalog.raw("issues").values():
        ws = re.findall(r"[a-z][a-z-]*", r["body"].lower())
        terms |= {" ".join(ws[i:i + n]) for n in (2, 3) for i in range(len(ws) - n + 1)
                  if (ws[i + n - 1] in fit or ws[i] in fit) and ws[i] not in GLUE and ws[i + n - 1] not in GLUE} \
            if phrases else set(ws) & fit
    has = {term: bodies_with(catalog, term) for term in sorted(terms)}
    return {term: ids for term, ids in has.items() if len(ids) == 2 and set(ids) & can_arrive}


# --- events and background ---------------------------------------------------------------------------

def preload(issues: Iterable[str], initial: int | None) -> dict[str, Any]:
    """The issues and pull requests loaded, and the stars: from `initial` (flat until a star kind's
    own events move them) or, without it, the catalog's count on the authored slow climb."""
    out: dict[str, Any] = {"issues": list(dict.fromkeys(issues)), "pull_requests": list(PRELOAD_PRS)}
    return {**out, "initial_stars": initial} if initial is not None else {**out, "star_waypoints": STAR_PATH}


def arrive(catalog: Catalog, at: float, item: str, note: str | None = None) -> dict[str, Any]:
    """A new issue, a new pull request or (STAR_CLIMB) a small star climb at `at` (its size and
    ramp follow from the time, so building it draws nothing)."""
    if item.startswith("pr"):
        return kit.event(at, "new_pull_request", note, pr_id=item)
    if item == STAR_CLIMB:
        return kit.event(at, "star_waypoint", note, delta=10 + int(at) % 30, ramp_s=10 + int(at) % 20)
    return kit.event(at, "new_issue", note and f"{note} · {issue(catalog, item)['title']}", issue_id=item)


def timeline_of(rng: random.Random, catalog: Catalog, knobs: Knobs, events: list[dict[str, Any]], *,
                without: str | None = None, issues_after: float = 0, stars: bool = False,
                issues: Iterable[str] = PRELOAD_ISSUES, star_legs: list[Leg] | None = None,
                initial: int | None = None) -> list[dict[str, Any]]:
    """The preload (`star_legs`: a star path of the kind's own instead of the slow climb), the
    events, and background at the density knob: new issues that cannot decide the task (none
    before `issues_after`, none whose description holds `without`), pull requests and, with
    `stars`, small star climbs."""
    used = {*issues, *(e.get("issue_id") for e in events), *(e.get("pr_id") for e in events)}
    pool = [i for i in arrivals(catalog, used) if not without or without not in issue(catalog, i)["body"].lower()]
    pool += [p for p in catalog.raw("pull_requests") if p not in {*PRELOAD_PRS, *used}]
    pool += [STAR_CLIMB] * (8 if stars else 0)
    events = [*events, *(kit.event(leg.at, "star_waypoint", leg.note, stars=leg.value, ramp_s=leg.ramp_s)
                         for leg in star_legs or [])]
    picked = kit.mixed_background(rng, knobs.density, [e["at"] for e in events], pool,
                                  lambda it, t: t > issues_after + 2 or it.startswith(("pr", STAR_CLIMB)))
    return kit.timeline(preload(issues, initial),
                        [*events, *(arrive(catalog, t, it) for t, it in picked)])


def look_alikes(rng: random.Random, catalog: Catalog, knobs: Knobs, term: str, target: str, exclude: list[str],
                at: int) -> list[dict[str, Any]]:
    """knobs.decoys issues without `term` in their description before `at`: those with it in the
    title first, then those sharing the most words with the target (near_miss: how strictly)."""
    like = words(f"{issue(catalog, target)['title']} {issue(catalog, target)['body']}")

    def score(i: str) -> float:
        r = issue(catalog, i)
        return 2.0 * (term in r["title"].lower()) + kit.overlap(like, words(f"{r['title']} {r['body']}"))
    others = [i for i in arrivals(catalog, exclude) if term not in issue(catalog, i)["body"].lower()]
    decoys = kit.nearest(rng, others, knobs.decoys, score, knobs.near_miss)
    return [arrive(catalog, t, i, f"decoy: '{term}' in the title only" if term in issue(catalog, i)["title"].lower()
                   else f"decoy: no '{term}' in the description")
            for t, i in zip(kit.times_between(rng, len(decoys), 0, at), decoys, strict=True)]


def seen_step(term: str) -> dict[str, Any]:
    """Watch the list, open each new issue until one's page shows the term after "wrote"."""
    return {"watch": ISSUES, "open_new": ISSUE_LINK, "until": {"matches": f"(?is)wrote\\b.*{re.escape(term)}"}}


def comment_steps(word: str) -> list[dict[str, Any]]:
    return [seen_step(word), {"submit": "/comment$", "fields": {"body": f"Thanks, we will look into the {word} part."}},
            {"report": f"A new issue mentions {word} in its description; I commented."}]


def body_sql(term: str, extra: str = "") -> str:
    return f"SELECT EXISTS (SELECT 1 FROM issues WHERE origin = 'event' AND body LIKE {kit.like_text(term)}{extra})"


# --- a word only the target's description holds: comment_on_compliance, comment_on_totp, the no-op

ASK_WORD = ("On MicroHub, watch the issues of brightline/atlas-web. When a new issue comes in whose description "
            "mentions {}, leave a comment on it (and on no other issue) saying we will look into it, then let me know.")
ASK_LOCKED = ("Keep an eye on new issues in brightline/atlas-web on MicroHub. When one comes in whose description "
              "names {}, comment on it (only that issue) that the team will pick it up, then tell me.")


def keyword_pick(rng: random.Random, catalog: Catalog) -> tuple[str, str]:
    """(issue, word): a keyword only this arriving issue's description holds, and not its title."""
    fit = keywords(catalog)
    return kit.choose(rng, [(i, w) for i in arrivals(catalog) for w in sorted(words(issue(catalog, i)["body"]) & fit)
                            if bodies_with(catalog, w) == [i] and w not in issue(catalog, i)["title"].lower()],
                      "issue with a word of its own")


@kind("active", "absolute", Knobs(decoys=2),
      "decoys: issues with the word in a title only, then issues sharing words (near_miss: how alike)")
@kind("active", "absolute", Knobs(decoys=2), "as comment_on_compliance; hold_s: until the author locks the issue",
      name="comment_on_totp", locks=True)
def comment_on_compliance(rng: random.Random, catalog: Catalog, knobs: Knobs, locks: bool = False,
                          pick: tuple[str, str] | None = None) -> dict[str, Any]:
    """Look-alike issues, then at the target time the one issue whose description (never shown in
    the list) holds the word; with `locks`, its author closes and locks it after hold_s."""
    target, word = pick or keyword_pick(rng, catalog)
    at = kit.target_time(rng, knobs, 4 + 2 * knobs.decoys)
    until = kit.hold_until(knobs, at) if locks else None
    events = [*look_alikes(rng, catalog, knobs, word, target, [target], at),
              arrive(catalog, at, target, f"the description mentions '{word}' (the target)")]
    if until is not None:
        events.append(kit.event(until, "lock_issue", "the author closes and locks the target issue: comments are no "
                                                     "longer possible (condition_until)", issue_id=target))
    tid = kit.sql_text(target)
    then = f"at {until} s its author closes and locks it." if until else "a comment on any other issue fails the task."
    return kit.scenario(
        description=f"{knobs.decoys} look-alike issues arrive first (the word in a title only, or shared words); at "
                    f"{at} s an issue whose description (never shown in the list) mentions '{word}'; {then}",
        prompt=(ASK_LOCKED if locks else ASK_WORD).format(word),
        condition_at=at, condition_until=until, start_page=ISSUES,
        taxonomy=kit.taxonomy("active", "absolute", "medium", "the word in a title, the issue gets locked" if locks
                              else "the word in a title only, related issues"),
        events=timeline_of(rng, catalog, knobs, events, without=word),
        condition_sql=body_sql(word, " AND state = 'open' AND locked = 0" if locks else ""),
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM comments WHERE target_kind = 'issue' AND target_id = {tid} AND "
                 f"author_id = SELF) AND NOT EXISTS (SELECT 1 FROM comments WHERE author_id = SELF AND NOT "
                 f"(target_kind = 'issue' AND target_id = {tid}))",
        solution=comment_steps(word))


@kind("noop", "absolute", Knobs(decoys=2),
      "as comment_on_compliance; the asked word is in one issue's title and no description")
def comment_on_telemetry_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """comment_on_compliance's timeline, and a word in one issue's title but in no description."""
    pick = keyword_pick(rng, catalog)
    source = comment_on_compliance(rng, catalog, knobs, pick=pick)
    used = {e.get("issue_id") for e in source["events"] if "_note" in e}
    decoy, asked = kit.choose(rng, [(i, w) for i in arrivals(catalog, used) for w in
                                    sorted(words(issue(catalog, i)["title"]) & keywords(catalog))
                                    if not bodies_with(catalog, w)], "word in a title only")
    decoy_at = kit.free_moment(rng, source["events"], 20, 699)
    return kit.noop_twin(
        source, near=[arrive(catalog, decoy_at, decoy, f"decoy: '{asked}' in the title only")],
        drop=lambda e: e.get("issue_id") == decoy,
        description=f"No-op copy of comment_on_compliance: no description ever mentions {asked}; one title does "
                    f"({decoy_at} s), and the issue about {pick[1]} still arrives at {source['condition_at']} s (the "
                    "near miss). Refrain check: the user comments nowhere.",
        prompt=ASK_WORD.format(asked),
        taxonomy=kit.taxonomy("noop", "absolute", "medium", "the word in a title only, another word's issue arrives"),
        condition_sql=body_sql(asked), near_miss_sql=body_sql(pick[1]),
        eval_sql="SELECT NOT EXISTS (SELECT 1 FROM comments WHERE author_id = SELF)", solution=comment_steps(asked))


# --- a term two descriptions share: repro_steps_second, unresponsive_second -------------------------

SECOND = {  # phrases (repro_steps_second) or words (unresponsive_second): prompt, distraction, report
    True: ("One issue on MicroHub (brightline/atlas-web) already says \"{0}\" in its description. When a second "
           "issue whose description says \"{0}\" comes in, open it so it is marked as seen, then tell me.",
           "the words in a title, reports without them", "A second issue saying {0} arrived; I opened it."),
    False: ("One issue on MicroHub (brightline/atlas-web) already mentions {0} in its description. When another "
            "issue comes in whose description mentions it too, open it so it is marked as seen, then tell me.",
            "the word in a title, near words", "Another issue mentions {0}; I opened it."),
}


@kind("active", "relative", Knobs(decoys=2),
      "decoys: issues with the phrase's words in a title or sharing words (near_miss: how alike)")
@kind("active", "relative", Knobs(decoys=2),
      "decoys: issues with the word in a title or sharing words (near_miss: how alike)",
      name="unresponsive_second", phrases=False)
def repro_steps_second(rng: random.Random, catalog: Catalog, knobs: Knobs, phrases: bool = True) -> dict[str, Any]:
    """One issue with the term in its description is preloaded; look-alikes, then the second one."""
    table = shared_terms(catalog, phrases)
    term = kit.choose(rng, sorted(table), "shared term")
    target = kit.choose(rng, [i for i in table[term] if i in set(arrivals(catalog))], "second issue")
    first = next(i for i in table[term] if i != target)
    at = kit.target_time(rng, knobs, 4 + 2 * knobs.decoys)
    events = [*look_alikes(rng, catalog, knobs, term, target, [target, first], at),
              arrive(catalog, at, target, f"the second issue whose description has '{term}' (the target)")]
    prompt, distraction, report = SECOND[phrases]
    return kit.scenario(
        description=f"Issue \"{issue(catalog, first)['title']}\" (preloaded) has '{term}' in its description. Decoys "
                    f"put the words in a title or share others; at {at} s a second issue with '{term}' in its "
                    "description arrives.",
        prompt=prompt.format(term), condition_at=at, start_page=ISSUES,
        taxonomy=kit.taxonomy("active", "relative", "medium", distraction),
        events=timeline_of(rng, catalog, knobs, events, without=term, issues=[*PRELOAD_ISSUES, first]),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM issues WHERE origin != 'self' AND body LIKE "
                      f"{kit.like_text(term)}) >= 2",
        eval_sql=f"SELECT viewed = 1 FROM issues WHERE id = {kit.sql_text(target)}",
        solution=[seen_step(term), {"report": report.format(term)}])


# --- counts of issues: open_issues_threshold, issues_more ---------------------------------------------

@kind("passive", "absolute", Knobs(decoys=3),
      "decoys: older issues closed on the way (up to 2) and pull requests")
def open_issues_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """New issues raise the open count to a threshold; closures (locks) and pull requests between."""
    opened = [i for i in PRELOAD_ISSUES if issue(catalog, i).get("state", "open") == "open"]
    closes, n = min(2, knobs.decoys // 2), rng.randint(3, 5)
    order = kit.order_under(rng, n, closes)
    prs = [p for p in catalog.raw("pull_requests") if p not in PRELOAD_PRS][:max(0, knobs.decoys - closes)]
    at = kit.target_time(rng, knobs, 6 + len(order) + len(prs))
    slots = kit.times_between(rng, len(order) + len(prs), 0, at)
    rng.shuffle(slots)
    new = kit.sample(rng, arrivals(catalog), n + closes + 1, "new issues")
    shut = kit.sample(rng, opened, closes, "open issues to close")
    events = [arrive(catalog, t, p, "decoy: a pull request, not an issue") for t, p in zip(slots, prs, strict=False)]
    count, threshold = len(opened), len(opened) + n
    for t, step in zip(sorted(slots[len(prs):]), order, strict=True):
        count += 1 if step == "add" else -1
        events.append(arrive(catalog, t, new.pop(), f"{count} open") if step == "add" else
                      kit.event(t, "lock_issue", f"an open issue is closed and locked: back to {count} open",
                                issue_id=shut.pop()))
    events += [arrive(catalog, at, new.pop(), f"the open issue that makes {threshold} (the target)"),
               arrive(catalog, rng.randint(min(at + 10, 715), 715), new.pop(), "trailing: one more open issue")]
    sql = f"SELECT (SELECT COUNT(*) FROM issues WHERE state = 'open') >= {threshold}"
    return kit.scenario(
        description=f"The repository starts with {len(opened)} open issues. New issues arrive, {closes} older ones "
                    f"are closed and locked on the way, pull requests arrive; the open count reaches {threshold} at "
                    f"{at} s.",
        prompt=f"Watch the open issues of brightline/atlas-web on MicroHub and tell me once there are {threshold} or "
               "more open issues. Don't close any.",
        condition_at=at, start_page=ISSUES,
        taxonomy=kit.taxonomy("passive", "absolute", "easy", "issues close on the way, pull requests arrive"),
        events=timeline_of(rng, catalog, knobs, events, issues_after=at), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": ISSUES, "until": {"number": "([\\d,]+) Open", "at_least": threshold}},
                  {"report": f"There are now {threshold} open issues."}])


@kind("passive", "relative", Knobs(decoys=2),
      "decoys: pull requests and star climbs between the four new issues")
def issues_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Four new issues (kit counting); pull requests and star climbs between them do not count."""
    prs = [p for p in catalog.raw("pull_requests") if p not in PRELOAD_PRS]
    at, events, _ = kit.counting(rng, knobs, arrivals(catalog), [*prs, *[STAR_CLIMB] * 8], 4,
                             lambda t, item, note: arrive(catalog, t, item, note), what="new issue",
                             decoy_note=lambda item: "decoy: not an issue", first_s=kit.FLAT_S)
    sql = f"SELECT (SELECT COUNT(*) FROM issues WHERE origin != 'self') >= {kit.baseline('issue_count')} + 4"
    return kit.scenario(
        description=f"Four new issues, the fourth at {at} s, with pull requests and the star count rising between "
                    "them. The issue list shows only the open and closed totals, never a change.",
        prompt="Keep an eye on brightline/atlas-web on MicroHub and tell me once four more issues have been opened "
               "than there are right now. Pull requests don't count.",
        condition_at=at, start_page=ISSUES,
        taxonomy=kit.taxonomy("passive", "relative", "easy", "pull requests and star movement"),
        events=timeline_of(rng, catalog, knobs, events, issues_after=at, stars=True), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": ISSUES, "until": {"number": "([\\d,]+) Open", "at_least": "first + 4"}},
                  {"report": "Four more issues have been opened since you asked."}])


# --- the star count: stars_target, stars_gain, stars_unreachable_noop ----------------------------------

def star_legs(rng: random.Random, knobs: Knobs, start: int, line: int, at: int, widest: int, what: str) -> list[Leg]:
    """Flat until the first read, a climb that stalls just short of `line` (near_miss 1: 2 stars
    short, 0: `widest`), the line reached at `at`, then on up."""
    short = int(kit.shortfall(knobs.near_miss, 2, widest))
    return [*kit.cross_once(kit.FLAT_S, at, [start + (line - short - start) * rng.randint(30, 80) // 100,
                                             (line - short, f"the stars stall at {line - short:,}: a near miss"),
                                             line - short],
                            line, f"the stars reach {line:,} at {at} s, {what} (the target)"),
            Leg(at + 1, line + rng.randint(40, 200), max(5, 700 - at))]


@kind("passive", "absolute", Knobs(decoys=0),
      "near_miss: how close the stall comes to the limit (1: 2 stars short)", earliest=LIMIT_AT)
def stars_target(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    start = rng.randint(1200, 4600)
    limit, at = int(kit.round_line(start + 101, 500 if start < 3000 else 1000)), kit.target_time(rng, knobs, LIMIT_AT)
    sql = f"SELECT stars >= {limit} FROM repo_stats"
    return kit.scenario(
        description=f"From {start:,} stars the count climbs and stalls just short of {limit:,} (a near miss); it "
                    f"reaches {limit:,} at {at} s and goes on.",
        prompt=f"Tell me when brightline/atlas-web on MicroHub reaches {limit:,} stars.",
        condition_at=at, start_page=HOME, condition_sql=sql, eval_sql=sql,
        taxonomy=kit.taxonomy("passive", "absolute", "easy", "a stall just short of the target"),
        events=timeline_of(rng, catalog, knobs, [], initial=start,
                           star_legs=star_legs(rng, knobs, start, limit, at, 42, "the limit")),
        solution=[{"watch": HOME, "until": {"number": STARS, "at_least": limit}},
                  {"report": f"The repository has reached {limit:,} stars."}])


@kind("noop", "absolute", Knobs(decoys=0),
      "as stars_target; the asked limit is 10–50 times the one reached")
def stars_unreachable_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    source = stars_target(rng, catalog, knobs)
    limit = source["solution"][0]["until"]["at_least"]
    asked = limit * kit.choose(rng, (10, 20, 50))
    return kit.noop_twin(
        source, description=f"No-op copy of stars_target: the count reaches {limit:,} at {source['condition_at']} s "
                            f"(the source task's target, the near miss) and tops out far below the {asked:,} asked.",
        prompt=f"Tell me when brightline/atlas-web on MicroHub reaches {asked:,} stars.",
        taxonomy=kit.taxonomy("noop", "absolute", "easy", f"the source task's {limit:,} stars are reached"),
        condition_sql=f"SELECT stars >= {asked} FROM repo_stats",
        near_miss_sql=f"SELECT stars >= {limit} FROM repo_stats",
        solution=[{"watch": HOME, "until": {"number": STARS, "at_least": asked}},
                  {"report": f"The repository has reached {asked:,} stars."}])


@kind("passive", "relative", Knobs(decoys=0),
      "near_miss: how close the last waypoint before the target comes to the gain (1: 2 stars short)",
      earliest=GAIN_AT)
def stars_gain(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    start, gain = rng.randint(1200, 4600), kit.choose(rng, (100, 150, 200, 250, 300))
    at = kit.target_time(rng, knobs, GAIN_AT)
    sql = f"SELECT stars >= {kit.baseline('star_count')} + {gain} FROM repo_stats"
    return kit.scenario(
        description=f"The repository starts at {start:,} stars, flat until {kit.FLAT_S} s, then climbs to "
                    f"{start + gain:,} (+{gain}, the target) at {at} s and on. The page shows the current count only.",
        prompt=f"Watch the star count of brightline/atlas-web on MicroHub and tell me once it has grown by {gain} "
               "stars or more from what it is now.",
        condition_at=at, start_page=HOME, condition_sql=sql, eval_sql=sql,
        taxonomy=kit.taxonomy("passive", "relative", "easy", "steady growth, new issues"),
        events=timeline_of(rng, catalog, knobs, [], initial=start,
                           star_legs=star_legs(rng, knobs, start, start + gain, at, 32, f"+{gain} on the start")),
        solution=[{"watch": HOME, "until": {"number": STARS, "at_least": f"first + {gain}"}},
                  {"report": f"The repository has gained {gain} stars since you asked."}])


KINDS: tuple[Kind, ...] = tuple(sorted(_declared, key=lambda k: k.name))
