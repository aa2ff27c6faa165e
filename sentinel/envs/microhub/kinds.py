"""MicroHub's ten scenario kinds (ENVIRONMENTS §7): the authored scenarios made into templates.

Issue kinds live here: a word only the target issue's description uses (comment on it, or its
no-op asking for a word that only a title carries), a word two descriptions share (open the
second), and counts of issues. The star kinds and the shared helpers are in kinds_stars.py.
Knobs: `decoys` look-alike issues (or pull requests and closures) before the target,
`near_miss` how alike (the word in a title only, shared words), `hold_s` until the author locks
the issue to comment on, `density` background issues and pull requests per sim minute.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.envs.microhub.kinds_stars import (
    ISSUES,
    PRELOAD_ISSUES,
    PRELOAD_PRS,
    fill,
    issue,
    issue_arrivals,
    preload,
    taxonomy,
    when,
)
from sentinel.envs.microhub.kinds_stars import KINDS as STAR_KINDS
from sentinel.generation.kit import (
    choose,
    event,
    like_text,
    nearest,
    sample,
    scenario,
    sql_text,
    timeline,
    times_between,
)

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

GLUE = {"a", "an", "the", "to", "of", "in", "on", "for", "and", "or", "is", "it", "at", "by", "as", "be", "we"}
ISSUE_LINK = "^/microhub/issues/\\d+$"
FIRST_READ_S = 10
# Plain words that make poor keywords, and words the issue page shows after the body anyway.
PLAIN = {"several", "sometimes", "removing", "depending", "reloaded", "building", "returns", "happen", "purpose",
         "waited", "listed", "removes", "computed", "pasting", "exported", "covers", "alternative", "please",
         "accept", "passes", "faster", "longer", "missing", "already", "appears", "arrives", "cannot", "actual",
         "expected", "bottom", "review", "support", "string", "should", "within", "before", "because", "anyone",
         "comment", "labels", "milestone", "assignees", "issue", "close", "reopen", "nobody"}


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z][a-z-]{5,}", text.lower()))


def keywords(catalog: Catalog) -> set[str]:
    """Words fit to be asked about: not plain, not part of a label shown on every issue page."""
    labels = " ".join(r["name"].lower() for r in catalog.raw("labels").values())
    every = set().union(*(words(f"{r['title']} {r['body']}") for r in catalog.raw("issues").values()))
    return {w for w in every if w not in PLAIN and w not in labels and not any(w in p for p in PLAIN)}


def bodies_with(catalog: Catalog, word: str) -> list[str]:
    return [iid for iid, r in catalog.raw("issues").items() if word in r["body"].lower()]


def similarity(a: str, b: str) -> float:
    wa, wb = words(a), words(b)
    return len(wa & wb) / max(1, len(wa | wb))


def text_of(catalog: Catalog, iid: str) -> str:
    r = issue(catalog, iid)
    return f"{r['title']} {r['body']}"


def look_alikes(rng: random.Random, catalog: Catalog, knobs: Knobs, word: str, like: str,
                exclude: list[str]) -> list[str]:
    """Issues without the word in their description: the word in the title first, then shared words."""
    others = [i for i in issue_arrivals(catalog, exclude=exclude) if word not in issue(catalog, i)["body"].lower()]
    return nearest(rng, others, knobs.decoys, lambda i: 2.0 * (word in issue(catalog, i)["title"].lower())
                   + similarity(like, text_of(catalog, i)), knobs.near_miss)


def decoy_note(catalog: Catalog, iid: str, word: str) -> str:
    r = issue(catalog, iid)
    where = f"'{word}' in the title only" if word in r["title"].lower() else f"no '{word}' in the description"
    return f"decoy: {where} · {r['title']}"


def comment_step(word: str) -> list[dict[str, Any]]:
    return [{"watch": ISSUES, "open_new": ISSUE_LINK, "until": {"matches": f"(?is)wrote\\b.*{re.escape(word)}"}},
            {"submit": "/comment$", "fields": {"body": f"Thanks, we will look into the {word} part."}}]


def commented_only(iid: str) -> str:
    tid = sql_text(iid)
    return (f"SELECT EXISTS (SELECT 1 FROM comments WHERE target_kind = 'issue' AND target_id = {tid} AND author_id = "
            f"SELF) AND NOT EXISTS (SELECT 1 FROM comments WHERE author_id = SELF AND NOT (target_kind = 'issue' "
            f"AND target_id = {tid}))")


# --- a word only the target's description holds: comment_on_compliance, comment_on_totp, the no-op

def _keyword_setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    fit = keywords(catalog)
    pairs = [(i, w) for i in issue_arrivals(catalog) for w in sorted(words(issue(catalog, i)["body"]) & fit)
             if bodies_with(catalog, w) == [i] and w not in issue(catalog, i)["title"].lower()]
    target, word = choose(rng, pairs, "issue with a word of its own")
    decoys = look_alikes(rng, catalog, knobs, word, text_of(catalog, target), [target])
    at = when(rng, knobs, lo=4 + 2 * len(decoys))
    events = [event(t, "new_issue", decoy_note(catalog, i, word), issue_id=i)
              for t, i in zip(times_between(rng, len(decoys), 0, at), decoys, strict=True)]
    events.append(event(at, "new_issue", f"target: the description (never shown in the list) mentions '{word}' · "
                                         f"{issue(catalog, target)['title']}", issue_id=target))
    return {"target": target, "word": word, "at": at, "events": events, "used": {target, *decoys}}


def _no_word(catalog: Catalog, word: str):
    return lambda i: word not in issue(catalog, i)["body"].lower()


def draw_comment_on_compliance(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _keyword_setup(rng, catalog, knobs)
    word, at = s["word"], s["at"]
    events = s["events"] + fill(rng, catalog, knobs, [e["at"] for e in s["events"]], s["used"],
                                issue_ok=_no_word(catalog, word))
    return scenario(
        description=f"{len(s['used']) - 1} look-alike issues arrive first (the word in a title only, or shared "
                    f"words); at {at} s an issue whose description (never shown in the list) mentions '{word}'. A "
                    "comment by the user on any other issue fails the task.",
        prompt=f"On MicroHub, watch the issues of brightline/atlas-web. When a new issue comes in whose description "
               f"mentions {word}, leave a comment on it (and on no other issue) saying we will look into it, then let "
               "me know.",
        condition_at=at, start_page=ISSUES,
        taxonomy=taxonomy("active", "absolute", "medium", "the word in a title only, related issues"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM issues WHERE origin = 'event' AND body LIKE {like_text(word)})",
        eval_sql=commented_only(s["target"]),
        solution=[*comment_step(word), {"report": f"A new issue mentions {word} in its description; I commented."}])


def draw_comment_on_totp(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """As comment_on_compliance, but the author closes and locks the issue after hold_s."""
    s = _keyword_setup(rng, catalog, knobs)
    word, at, target = s["word"], s["at"], s["target"]
    until = min(at + int(knobs.hold_s), 715)
    events = s["events"] + [event(until, "lock_issue", "the author closes and locks the target issue: comments are "
                                                       "no longer possible (condition_until)", issue_id=target)]
    events += fill(rng, catalog, knobs, [e["at"] for e in events], s["used"], issue_ok=_no_word(catalog, word))
    return scenario(
        description=f"Look-alike issues first; at {at} s an issue whose description names {word}; at {until} s its "
                    "author closes and locks it, after which no comment is possible.",
        prompt=f"Keep an eye on new issues in brightline/atlas-web on MicroHub. When one comes in whose description "
               f"names {word}, comment on it (only that issue) that the team will pick it up, then tell me.",
        condition_at=at, condition_until=until, start_page=ISSUES,
        taxonomy=taxonomy("active", "absolute", "medium", "the word in a title, the issue gets locked"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM issues WHERE origin = 'event' AND body LIKE {like_text(word)} "
                      "AND state = 'open' AND locked = 0)",
        eval_sql=commented_only(target),
        solution=[*comment_step(word), {"report": f"An issue naming {word} arrived; I commented on it."}])


def draw_comment_on_telemetry_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The asked word is in one issue's title but in no description; the source target still arrives."""
    s = _keyword_setup(rng, catalog, knobs)
    fit = keywords(catalog)
    titled = [(i, w) for i in issue_arrivals(catalog, exclude=s["used"])
              for w in sorted(words(issue(catalog, i)["title"]) & fit) if not bodies_with(catalog, w)]
    decoy, asked = choose(rng, titled, "word in a title only")
    taken = [e["at"] for e in s["events"]]
    decoy_at = choose(rng, [t for t in range(20, 700) if all(abs(t - b) > 3 for b in taken)], "time")
    events = [{**e, "_note": e["_note"].replace("target:", "near miss (the source task's target):")}
              for e in s["events"]]
    events.append(event(decoy_at, "new_issue", f"decoy: '{asked}' in the title only · {issue(catalog, decoy)['title']}",
                        issue_id=decoy))
    events += fill(rng, catalog, knobs, [e["at"] for e in events], {*s["used"], decoy},
                   issue_ok=_no_word(catalog, asked))
    return scenario(
        description=f"No-op copy of comment_on_compliance: no description ever mentions {asked}; one title does "
                    f"({decoy_at} s), and the issue about {s['word']} still arrives at {s['at']} s (the near miss). "
                    "Refrain check: the user comments nowhere.",
        prompt=f"On MicroHub, watch the issues of brightline/atlas-web. When a new issue comes in whose description "
               f"mentions {asked}, leave a comment on it (and on no other issue) saying we will look into it, then "
               "let me know.",
        condition_at=None, start_page=ISSUES,
        taxonomy=taxonomy("noop", "absolute", "medium", "the word in a title only, another word's issue arrives"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM issues WHERE origin = 'event' AND body LIKE {like_text(asked)})",
        near_miss_sql=f"SELECT EXISTS (SELECT 1 FROM issues WHERE origin = 'event' AND body LIKE "
                      f"{like_text(s['word'])})",
        eval_sql="SELECT NOT EXISTS (SELECT 1 FROM comments WHERE author_id = SELF)",
        solution=[*comment_step(asked), {"report": f"A new issue mentions {asked} in its description; I commented."}])


# --- words two descriptions share: repro_steps_second, unresponsive_second ---------------------

def shared_terms(catalog: Catalog, phrases: bool) -> dict[str, list[str]]:
    """Words (or two- and three-word phrases) in exactly two descriptions, one of which can arrive."""
    fit = keywords(catalog)
    arrivals = set(issue_arrivals(catalog))
    terms: set[str] = set()
    for r in catalog.raw("issues").values():
        ws = re.findall(r"[a-z][a-z-]*", r["body"].lower())
        if phrases:
            terms |= {" ".join(ws[i:i + n]) for n in (2, 3) for i in range(len(ws) - n + 1)
                      if (ws[i + n - 1] in fit or ws[i] in fit) and ws[i] not in GLUE and ws[i + n - 1] not in GLUE}
        else:
            terms |= set(ws) & fit
    out = {}
    for term in sorted(terms):
        has = bodies_with(catalog, term)
        if len(has) == 2 and set(has) & arrivals:
            out[term] = has
    return out


def _second(rng: random.Random, catalog: Catalog, knobs: Knobs, phrases: bool) -> dict[str, Any]:
    table = shared_terms(catalog, phrases)
    term = choose(rng, sorted(table), "shared term")
    arrivals = set(issue_arrivals(catalog))
    target = choose(rng, [i for i in table[term] if i in arrivals], "second issue")
    first = next(i for i in table[term] if i != target)
    decoys = look_alikes(rng, catalog, knobs, term, text_of(catalog, target), [target, first])
    at = when(rng, knobs, lo=4 + 2 * len(decoys))
    events = [event(t, "new_issue", decoy_note(catalog, i, term), issue_id=i)
              for t, i in zip(times_between(rng, len(decoys), 0, at), decoys, strict=True)]
    events.append(event(at, "new_issue", f"target: the second issue whose description has '{term}' · "
                                         f"{issue(catalog, target)['title']}", issue_id=target))
    events += fill(rng, catalog, knobs, [e["at"] for e in events], {target, first, *decoys},
                   issue_ok=_no_word(catalog, term))
    return {"term": term, "target": target, "first": first, "at": at, "events": events,
            "preload": preload(issues=[*PRELOAD_ISSUES, first]),
            "condition_sql": f"SELECT (SELECT COUNT(*) FROM issues WHERE origin != 'self' AND body LIKE "
                             f"{like_text(term)}) >= 2",
            "eval_sql": f"SELECT viewed = 1 FROM issues WHERE id = {sql_text(target)}",
            "solution": [{"watch": ISSUES, "open_new": ISSUE_LINK,
                          "until": {"matches": f"(?is)wrote\\b.*{re.escape(term)}"}}]}


def draw_repro_steps_second(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _second(rng, catalog, knobs, phrases=True)
    term, first = s["term"], issue(catalog, s["first"])["title"]
    return scenario(
        description=f"Issue \"{first}\" (preloaded) has '{term}' in its description. Decoys put the words in a title "
                    f"or share others; at {s['at']} s a second issue with '{term}' in its description arrives.",
        prompt=f"One issue on MicroHub (brightline/atlas-web) already says \"{term}\" in its description. When a "
               f"second issue whose description says \"{term}\" comes in, open it so it is marked as seen, then tell "
               "me.",
        condition_at=s["at"], start_page=ISSUES,
        taxonomy=taxonomy("active", "relative", "medium", "the words in a title, reports without them"),
        events=timeline(s["preload"], s["events"]), condition_sql=s["condition_sql"], eval_sql=s["eval_sql"],
        solution=[*s["solution"], {"report": f"A second issue saying {term} arrived; I opened it."}])


def draw_unresponsive_second(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _second(rng, catalog, knobs, phrases=False)
    term, first = s["term"], issue(catalog, s["first"])["title"]
    return scenario(
        description=f"Issue \"{first}\" (preloaded) mentions {term} in its description. Decoys carry the word in a "
                    f"title or share others; at {s['at']} s another issue whose description mentions {term} arrives.",
        prompt=f"One issue on MicroHub (brightline/atlas-web) already mentions {term} in its description. When another "
               "issue comes in whose description mentions it too, open it so it is marked as seen, then tell me.",
        condition_at=s["at"], start_page=ISSUES,
        taxonomy=taxonomy("active", "relative", "medium", "the word in a title, near words"),
        events=timeline(s["preload"], s["events"]), condition_sql=s["condition_sql"], eval_sql=s["eval_sql"],
        solution=[*s["solution"], {"report": f"Another issue mentions {term}; I opened it."}])


# --- counts: open_issues_threshold, issues_more --------------------------------------------------

def open_at_start(catalog: Catalog) -> list[str]:
    return [i for i in PRELOAD_ISSUES if issue(catalog, i).get("state", "open") == "open"]


def draw_open_issues_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """New issues raise the open count to a threshold; closures (locks) and pull requests between."""
    start = len(open_at_start(catalog))
    closes = min(2, knobs.decoys // 2)
    news = rng.randint(3, 5) + closes
    order = [1] * (news - 1) + [-1] * closes
    for _ in range(20):
        rng.shuffle(order)
        running = [start + sum(order[:k + 1]) for k in range(len(order))]
        if not running or max(running) < start + sum(order) + 1:
            break
    else:
        raise NoDraw("no order of closures keeps the count under the threshold")
    threshold = start + sum(order) + 1
    prs = ids_free_prs(catalog)[:max(0, knobs.decoys - closes)]
    at = when(rng, knobs, lo=6 + len(order) + len(prs))
    times = times_between(rng, len(order) + len(prs), 0, at)
    slots = list(range(len(times)))
    rng.shuffle(slots)
    pr_slots, seq_slots = sorted(slots[:len(prs)]), sorted(slots[len(prs):])
    new_ids = sample(rng, issue_arrivals(catalog), news + 2, "new issues")
    closed = sample(rng, open_at_start(catalog), closes, "open issues to close")
    events, n_new, n_closed, count = [], 0, 0, start
    for j, step in zip(seq_slots, order, strict=True):
        count += step
        if step > 0:
            events.append(event(times[j], "new_issue", f"{count} open", issue_id=new_ids[n_new]))
            n_new += 1
        else:
            events.append(event(times[j], "lock_issue", f"an open issue is closed and locked: back to {count} open",
                                issue_id=closed[n_closed]))
            n_closed += 1
    events += [event(times[j], "new_pull_request", "decoy: a pull request, not an issue", pr_id=p)
               for j, p in zip(pr_slots, prs, strict=True)]
    events.append(event(at, "new_issue", f"the open issue that makes {threshold} (the target)",
                        issue_id=new_ids[n_new]))
    events.append(event(rng.randint(min(at + 10, 715), 715), "new_issue", "trailing: one more open issue",
                        issue_id=new_ids[n_new + 1]))
    used = {*new_ids, *prs}
    taken = [e["at"] for e in events]
    events += fill(rng, catalog, knobs, taken, used, issues=False, stop=at - 3)
    events += fill(rng, catalog, knobs, taken, used, start=at + 3)
    sql = f"SELECT (SELECT COUNT(*) FROM issues WHERE state = 'open') >= {threshold}"
    return scenario(
        description=f"The repository starts with {start} open issues. New issues arrive, {closes} older ones are "
                    f"closed and locked on the way, pull requests arrive; the open count reaches {threshold} at "
                    f"{at} s.",
        prompt=f"Watch the open issues of brightline/atlas-web on MicroHub and tell me once there are {threshold} or "
               "more open issues. Don't close any.",
        condition_at=at, start_page=ISSUES,
        taxonomy=taxonomy("passive", "absolute", "easy", "issues close on the way, pull requests arrive"),
        events=timeline(preload(), events), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": ISSUES, "until": {"number": "([\\d,]+) Open", "at_least": threshold}},
                  {"report": f"There are now {threshold} open issues."}])


def ids_free_prs(catalog: Catalog) -> list[str]:
    return [p for p in catalog.raw("pull_requests") if p not in PRELOAD_PRS]


def draw_issues_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Four new issues; pull requests and star climbs between them (they do not count)."""
    picked = sample(rng, issue_arrivals(catalog), 6, "new issues")
    at = when(rng, knobs, lo=FIRST_READ_S + 6 + knobs.decoys)
    times = times_between(rng, 3 + knobs.decoys, FIRST_READ_S, at)
    slots = list(range(len(times)))
    rng.shuffle(slots)
    counted = sorted(slots[:3])
    events = [event(times[j], "new_issue", f"new issue {i + 1} of 4", issue_id=picked[i])
              for i, j in enumerate(counted)]
    used = set(picked)
    events += fill(rng, catalog, knobs, [], used, issues=False, stars=True, note="decoy: not an issue",
                   times=[times[j] for j in sorted(slots[3:])])
    events.append(event(at, "new_issue", "the fourth new issue (the target)", issue_id=picked[3]))
    taken = [e["at"] for e in events]
    events += fill(rng, catalog, knobs, taken, used, issues=False, stars=True, stop=at - 3)
    events += fill(rng, catalog, knobs, taken, used, stars=True, start=at + 3)
    sql = ("SELECT (SELECT COUNT(*) FROM issues WHERE origin != 'self') >= "
           "CAST((SELECT value FROM session_meta WHERE key = 'baseline_issue_count') AS REAL) + 4")
    return scenario(
        description=f"Four new issues, the fourth at {at} s, with pull requests and the star count rising between "
                    "them. The issue list shows only the open and closed totals, never a change.",
        prompt="Keep an eye on brightline/atlas-web on MicroHub and tell me once four more issues have been opened "
               "than there are right now. Pull requests don't count.",
        condition_at=at, start_page=ISSUES,
        taxonomy=taxonomy("passive", "relative", "easy", "pull requests and star movement"),
        events=timeline(preload(), events), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": ISSUES, "until": {"number": "([\\d,]+) Open", "at_least": "first + 4"}},
                  {"report": "Four more issues have been opened since you asked."}])


KINDS: tuple[Kind, ...] = tuple(sorted((
    Kind("comment_on_compliance", "active", "absolute", draw_comment_on_compliance, Knobs(decoys=2),
         "decoys: issues with the word in a title only, then issues sharing words (near_miss: how alike)"),
    Kind("comment_on_telemetry_noop", "noop", "absolute", draw_comment_on_telemetry_noop, Knobs(decoys=2),
         "as comment_on_compliance; the asked word is in one issue's title and no description"),
    Kind("comment_on_totp", "active", "absolute", draw_comment_on_totp, Knobs(decoys=2),
         "as comment_on_compliance; hold_s: until the author locks the issue"),
    Kind("issues_more", "passive", "relative", draw_issues_more, Knobs(decoys=2),
         "decoys: pull requests and star climbs between the four new issues"),
    Kind("open_issues_threshold", "passive", "absolute", draw_open_issues_threshold, Knobs(decoys=3),
         "decoys: older issues closed on the way (up to 2) and pull requests"),
    Kind("repro_steps_second", "active", "relative", draw_repro_steps_second, Knobs(decoys=2),
         "decoys: issues with the phrase's words in a title or sharing words (near_miss: how alike)"),
    Kind("unresponsive_second", "active", "relative", draw_unresponsive_second, Knobs(decoys=2),
         "decoys: issues with the word in a title or sharing words (near_miss: how alike)"),
    *STAR_KINDS,
), key=lambda k: k.name))
