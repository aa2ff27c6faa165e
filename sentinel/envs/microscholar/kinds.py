"""MicroScholar's ten scenario kinds (ENVIRONMENTS §9): the authored scenarios made into templates.

Every draw starts from the authored standard preload (95 papers, 4 saved, 8 alerts) and picks
its target, look-alikes, near miss and background (new papers, alerts, citation changes) from
the papers and alerts the preload leaves out. Paper kinds (titles, phrases, authors, counts)
live here; the alert kinds in kinds_alerts.py. Knobs: `decoys` look-alikes before the target,
`near_miss` how alike they are (shared title words, a phrase's words, a shared surname),
`hold_s` until the authors withdraw a paper to cite, `density` background events per sim minute.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import quote_plus

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.envs.microscholar.kinds_alerts import (
    FIRST_READ_S,
    SAVED,
    fill,
    paper,
    preload,
    scholar_arrivals,
    sequence,
    taxonomy,
    title_of,
    when,
)
from sentinel.envs.microscholar.kinds_alerts import KINDS as ALERT_KINDS
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

HOME = "/microscholar/"
PAPER_LINK = "^/microscholar/paper/sp\\d+$"
SNIPPET = 160  # result rows cut the abstract here: a phrase past it shows only on the paper page
STEP_GAP_S = 3  # multi-target kinds keep their targets this far apart
STOP = {"with", "from", "over", "under", "into", "only", "that", "this", "than", "when", "which", "their", "more",
        "most", "also", "each", "both", "what", "these", "those", "where", "while", "after", "before", "about"}


def words(text: str) -> list[str]:
    return re.findall(r"[a-z][a-z-]*", text.lower())


def jaccard(a: str, b: str) -> float:
    wa, wb = set(words(a)) - STOP, set(words(b)) - STOP
    return len(wa & wb) / max(1, len(wa | wb))


def search_url(query: str) -> str:
    return f"/microscholar/search?q={quote_plus(query)}&sort=date"


def all_text(catalog: Catalog) -> dict[str, str]:
    return {rid: f"{r['title']} {r.get('abstract', '')}".lower() for rid, r in catalog.raw("papers").items()}


# --- titles: title_appears, cite_title, title_absent_noop ---------------------------------

def _title_setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """A paper whose exact title is nowhere else in the catalog, look-alike titles before it."""
    texts = all_text(catalog)
    unique = [rid for rid in scholar_arrivals(catalog)
              if not any(title_of(catalog, rid).lower() in t for o, t in texts.items() if o != rid)]
    target = choose(rng, unique, "paper with a unique title")
    title = title_of(catalog, target)
    query = max((w for w in words(title) if w not in STOP), key=len)
    others = scholar_arrivals(catalog, exclude=[target])
    decoys = nearest(rng, others, knobs.decoys, lambda rid: jaccard(title, title_of(catalog, rid)), knobs.near_miss)
    at = when(rng, knobs, lo=4 + 2 * len(decoys))
    events = [event(t, "new_paper", f"decoy: a look-alike title, not the one asked · {title_of(catalog, rid)}",
                    paper_id=rid) for t, rid in zip(times_between(rng, len(decoys), 0, at), decoys, strict=True)]
    events.append(event(at, "new_paper", f"target: the exact title · {title}", paper_id=target))
    return {"target": target, "title": title, "query": query, "at": at, "events": events,
            "used": {target, *decoys}}


def draw_title_appears(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _title_setup(rng, catalog, knobs)
    title, at = s["title"], s["at"]
    events = s["events"] + fill(rng, catalog, knobs, [e["at"] for e in s["events"]], s["used"])
    return scenario(
        description=f"{len(s['used']) - 1} look-alike titles come first; the exact title appears at {at} s.",
        prompt=f"A colleague told me their paper \"{title}\" should be indexed soon. Tell me as soon as it appears "
               "on MicroScholar.",
        condition_at=at, start_page=HOME, taxonomy=taxonomy("passive", "absolute", "easy", "near-identical titles"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM papers WHERE title = {sql_text(title)})",
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM papers WHERE id = {sql_text(s['target'])})",
        solution=[{"watch": search_url(s["query"]), "until": {"text": title}},
                  {"report": f"The paper {title} is now indexed."}])


def draw_cite_title(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _title_setup(rng, catalog, knobs)
    title, at, target = s["title"], s["at"], s["target"]
    until = min(at + int(knobs.hold_s), 715)
    events = s["events"] + [event(until, "withdraw_paper", "the authors withdraw the target: it can no longer be "
                                                           f"cited (condition_until) · {title}", paper_id=target)]
    events += fill(rng, catalog, knobs, [e["at"] for e in events], s["used"])
    tid = sql_text(target)
    return scenario(
        description=f"Look-alike titles come first; the exact title appears at {at} s and is withdrawn by its authors "
                    f"at {until} s, after which it cannot be cited. Citing any other paper fails the task.",
        prompt=f"I need to cite \"{title}\" as soon as it is out. When that paper appears on MicroScholar, use its "
               "Cite button (that paper only, not look-alikes) and tell me.",
        condition_at=at, condition_until=until, start_page=HOME,
        taxonomy=taxonomy("active", "absolute", "medium", "near-identical titles, withdrawn later"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM papers WHERE id = {tid} AND withdrawn = 0)",
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM papers WHERE id = {tid} AND cited = 1) "
                 f"AND NOT EXISTS (SELECT 1 FROM papers WHERE cited = 1 AND id != {tid})",
        solution=[{"watch": search_url(s["query"]), "open_new": PAPER_LINK,
                   "until": {"matches": f"(?m)^{re.escape(title)}$"}},
                  {"submit": "/cite$"}, {"report": f"{title} appeared; I cited it."}])


def draw_title_absent_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The source title with another title's subject after its last preposition: never indexed."""
    s = _title_setup(rng, catalog, knobs)
    title = s["title"]
    head, tail = split_title(title)
    tails = sorted({t for rid in catalog.raw("papers") if (t := split_title(title_of(catalog, rid))[1]) and t != tail})
    if not head or not tails:
        raise NoDraw(f"{title!r} has no subject to swap")
    asked = f"{head} {choose(rng, tails)}"
    if any(asked.lower() in t for t in all_text(catalog).values()):
        raise NoDraw(f"{asked!r} is in the catalog")
    events = [{**e, "_note": e["_note"].replace("target: the exact title", "near miss: the source task's title, "
                                                 f"not {asked}")} for e in s["events"]]
    events += fill(rng, catalog, knobs, [e["at"] for e in events], s["used"])
    return scenario(
        description=f"No-op copy of title_appears asking for \"{asked}\", never indexed; the title the source task "
                    f"waits for still appears at {s['at']} s (the near miss).",
        prompt=f"A colleague told me their paper \"{asked}\" should be indexed soon. Tell me as soon as it appears "
               "on MicroScholar.",
        condition_at=None, start_page=HOME, taxonomy=taxonomy("noop", "absolute", "easy", "near-identical titles"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM papers WHERE title = {sql_text(asked)})",
        near_miss_sql=f"SELECT EXISTS (SELECT 1 FROM papers WHERE title = {sql_text(title)})",
        solution=[{"watch": search_url(s["query"]), "until": {"text": asked}},
                  {"report": f"The paper {asked} is now indexed."}])


def split_title(title: str) -> tuple[str, str]:
    """"Deep State-Space Models for Electricity Load" → ("Deep State-Space Models for", "Electricity Load")."""
    m = re.match(r"^(.+ (?:for|in|over|of|from|under|with|on)) ([A-Z][^:?]+)$", title)
    return (m.group(1), m.group(2)) if m else ("", "")


# --- phrases in abstracts: save_phrase, abstract_save_more -----------------------------------

def phrases(catalog: Catalog) -> dict[str, list[str]]:
    """Two- and three-word phrases of content words that some title also uses (so they read as a
    subject, and a title can carry one as a look-alike) → the papers whose abstract holds them."""
    titles = " | ".join(" ".join(words(r["title"])) for r in catalog.raw("papers").values())
    found: dict[str, set[str]] = {}
    for rid, rec in catalog.raw("papers").items():
        ws = words(rec.get("abstract", ""))
        for n in (2, 3):
            for i in range(len(ws) - n + 1):
                gram = ws[i:i + n]
                if all(len(w) > 3 and w not in STOP for w in gram) and " ".join(gram) in titles:
                    found.setdefault(" ".join(gram), set()).add(rid)
    return {p: sorted(ids) for p, ids in sorted(found.items())}


def past_snippet(catalog: Catalog, rid: str, phrase: str) -> bool:
    rec = paper(catalog, rid)
    return rec["abstract"].lower().find(phrase) >= SNIPPET and phrase not in rec["title"].lower()


def phrase_decoys(rng, catalog, knobs, phrase, exclude) -> list[str]:
    """Papers without the phrase in the abstract: first those with it in the title, then shared words."""
    others = [rid for rid in scholar_arrivals(catalog, exclude=exclude)
              if phrase not in paper(catalog, rid)["abstract"].lower()]
    return nearest(rng, others, knobs.decoys, lambda rid: float(phrase in title_of(catalog, rid).lower())
                   + jaccard(phrase, f"{title_of(catalog, rid)} {paper(catalog, rid)['abstract']}"), knobs.near_miss)


def phrase_note(catalog: Catalog, rid: str, phrase: str) -> str:
    rec = paper(catalog, rid)
    where = "in the title only" if phrase in rec["title"].lower() else "shares words, not the phrase"
    return f"decoy: '{phrase}' {where} · {rec['title']}"


def saved_only_with(phrase: str) -> str:
    """¬decoy: nothing saved during the session lacks the phrase in its abstract."""
    return (f"NOT EXISTS (SELECT 1 FROM papers WHERE saved = 1 AND saved_at > 0 "
            f"AND NOT (abstract LIKE {like_text(phrase)}))")


def draw_save_phrase(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    arrivals = set(scholar_arrivals(catalog))
    table = {p: [r for r in ids if r in arrivals] for p, ids in phrases(catalog).items()}
    phrase = choose(rng, [p for p, ids in table.items() if any(past_snippet(catalog, r, p) for r in ids)], "phrase")
    target = choose(rng, [r for r in table[phrase] if past_snippet(catalog, r, phrase)], "target")
    rest = [r for r in table[phrase] if r != target]
    decoys = phrase_decoys(rng, catalog, knobs, phrase, [target, *rest])
    at = when(rng, knobs, lo=4 + 2 * len(decoys))
    events = [event(t, "new_paper", phrase_note(catalog, rid, phrase), paper_id=rid)
              for t, rid in zip(times_between(rng, len(decoys), 0, at), decoys, strict=True)]
    events.append(event(at, "new_paper", f"target: '{phrase}' in the abstract, past the {SNIPPET}-character snippet "
                                         f"· {title_of(catalog, target)}", paper_id=target))
    if rest and at < 700:
        trail = choose(rng, rest)
        events.append(event(rng.randint(at + 3, 715), "new_paper", f"trailing: another abstract with '{phrase}' · "
                                                                    f"{title_of(catalog, trail)}", paper_id=trail))
    used = {target, *rest, *decoys}
    events += fill(rng, catalog, knobs, [e["at"] for e in events], used,
                   paper_ok=lambda rid: phrase not in paper(catalog, rid)["abstract"].lower())
    like = like_text(phrase)
    return scenario(
        description=f"The phrase '{phrase}' sits past the {SNIPPET}-character snippet of the target (at {at} s), so "
                    "only the paper page shows it; look-alikes carry it in a title or share its words. Saving a "
                    "paper without the phrase in its abstract fails the task.",
        prompt=f"When a new paper whose abstract mentions \"{phrase}\" shows up on MicroScholar, save it to my "
               "library (only papers whose abstract says that; a title is not enough) and tell me.",
        condition_at=at, start_page=HOME,
        taxonomy=taxonomy("active", "absolute", "medium", "phrase in titles, shared words, phrase past the snippet"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM papers WHERE origin = 'event' AND abstract LIKE {like})",
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM papers WHERE origin = 'event' AND saved = 1 AND abstract LIKE {like}) "
                 f"AND {saved_only_with(phrase)}",
        solution=[{"watch": search_url(f'"{phrase}"'), "open_new": PAPER_LINK,
                   "until": {"matches": f"(?i)Abstract: .*{re.escape(phrase)}"}},
                  {"submit": "/save$"},
                  {"report": f"A new paper whose abstract mentions {phrase} arrived; I saved it."}])


def draw_abstract_save_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """A paper with the phrase is in the library from the start; two new ones arrive to be saved."""
    arrivals = set(scholar_arrivals(catalog))
    table = phrases(catalog)
    fit = [p for p, ids in table.items() if sum(r in arrivals for r in ids) >= 2 and len(ids) >= 3]
    phrase = choose(rng, fit, "phrase in three abstracts")
    new = [r for r in table[phrase] if r in arrivals]
    old = [r for r in table[phrase] if r not in arrivals]
    first = choose(rng, old) if old else choose(rng, new)
    targets = sample(rng, [r for r in new if r != first], 2, "new papers with the phrase")
    rest = [r for r in new if r not in targets and r != first]
    decoys = phrase_decoys(rng, catalog, knobs, phrase, [first, *targets, *rest])
    at = when(rng, knobs, lo=FIRST_READ_S + STEP_GAP_S + 2 + len(decoys))
    times = sequence(rng, 2, decoys, FIRST_READ_S, at, STEP_GAP_S)
    events = [event(times["targets"][i], "new_paper", f"target: '{phrase}' in the abstract ({i + 1} of 2) · "
                                                      f"{title_of(catalog, rid)}", paper_id=rid)
              for i, rid in enumerate(targets)]
    events += [event(t, "new_paper", phrase_note(catalog, rid, phrase), paper_id=rid)
               for t, rid in zip(times["decoys"], decoys, strict=True)]
    if rest and at < 700:
        events.append(event(rng.randint(at + 3, 715), "new_paper", f"trailing: a third new abstract with '{phrase}'",
                            paper_id=rest[0]))
    used = {first, *targets, *rest, *decoys}
    events += fill(rng, catalog, knobs, [e["at"] for e in events], used,
                   paper_ok=lambda rid: phrase not in paper(catalog, rid)["abstract"].lower())
    like = like_text(phrase)
    return scenario(
        description=f"\"{title_of(catalog, first)}\" (its abstract mentions '{phrase}') is in the library from the "
                    f"start. New papers with the phrase in the abstract arrive at {times['targets'][0]} s and {at} s "
                    "among look-alikes. Saving a paper without the phrase in its abstract fails the task.",
        prompt=f"My MicroScholar library has a paper whose abstract mentions \"{phrase}\". Save every new paper whose "
               f"abstract mentions \"{phrase}\" (only those), and tell me once two more such papers are in my library.",
        condition_at=at, start_page=HOME,
        taxonomy=taxonomy("active", "relative", "hard", "phrase in titles, shared words, phrase past the snippet"),
        events=timeline(preload(saved=[*SAVED, first], extra=[first]), events),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM papers WHERE origin = 'event' AND abstract LIKE {like}) >= 2",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM papers WHERE origin = 'event' AND saved = 1 AND abstract LIKE {like}) "
                 f">= 2 AND {saved_only_with(phrase)}",
        solution=save_each(search_url(f'"{phrase}"'), {"matches": f"(?i)Abstract: .*{re.escape(phrase)}"}, targets,
                           f"Two more papers mentioning {phrase} arrived; both are saved."))


# --- authors and counts: save_by_author, papers_more -----------------------------------------

def save_each(url: str, until: dict[str, Any], targets: list[str], report: str) -> list[dict[str, Any]]:
    """Open every new paper on the watched page until all targets matched, then save each one.

    One watch for all of them: a watch of its own per target would count a target that arrived
    while the previous one was being saved as already seen (the oracle opens only new links).
    Save toggles, so each target is opened by the address the watch found and saved once."""
    steps: list[dict[str, Any]] = [{"watch": url, "open_new": PAPER_LINK, "count": len(targets), "until": until}]
    for rid in targets:
        steps += [{"open": f"/microscholar/paper/{rid}"}, {"submit": "/save$"}]
    return [*steps, {"report": report}]


def authors(catalog: Catalog, rid: str) -> list[dict[str, Any]]:
    return list(paper(catalog, rid)["authors"])


def draw_save_by_author(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    by_persona: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    for rid in scholar_arrivals(catalog):
        for a in authors(catalog, rid):
            if a.get("persona_id") and a["persona_id"] != "p000":
                by_persona.setdefault(a["persona_id"], []).append(rid)
                names[a["persona_id"]] = a["name"]
    pid = choose(rng, sorted(p for p, ids in by_persona.items() if len(ids) >= 3), "author with three new papers")
    name = names[pid]
    first, last = name.split()[0], name.split()[-1]
    picked = sample(rng, by_persona[pid], min(4, len(by_persona[pid])), "papers")
    targets, rest = picked[:3], picked[3:]
    def named(r: str) -> bool:
        return r in by_persona[pid] or any(a["name"] == name for a in authors(catalog, r))

    others = [r for r in scholar_arrivals(catalog) if not named(r)]
    decoys = nearest(rng, others, knobs.decoys, lambda r: max(
        (a["name"].split()[-1] == last) + 0.5 * (a["name"].split()[0] == first) for a in authors(catalog, r)),
        knobs.near_miss)
    at = when(rng, knobs, lo=FIRST_READ_S + 2 * STEP_GAP_S + 2 + len(decoys))
    times = sequence(rng, 3, decoys, FIRST_READ_S, at, STEP_GAP_S)
    events = [event(t, "new_paper", f"target: by {name} ({i + 1} of 3) · {title_of(catalog, rid)}", paper_id=rid)
              for i, (t, rid) in enumerate(zip(times["targets"], targets, strict=True))]
    events += [event(t, "new_paper", f"decoy: by {', '.join(a['name'] for a in authors(catalog, rid))}, not {name}",
                     paper_id=rid) for t, rid in zip(times["decoys"], decoys, strict=True)]
    if rest and at < 700:
        events.append(event(rng.randint(at + 3, 715), "new_paper", f"trailing: a fourth paper by {name}",
                            paper_id=rest[0]))
    events += fill(rng, catalog, knobs, [e["at"] for e in events], {*picked, *decoys},
                   paper_ok=lambda r: not named(r))
    mine = f"id IN (SELECT paper_id FROM paper_authors WHERE persona_id = {sql_text(pid)})"
    return scenario(
        description=f"Papers by {name} arrive at {', '.join(str(t) for t in times['targets'])} s among papers by "
                    "look-alike names (a shared surname or first name). Saving any other paper fails the task.",
        prompt=f"{name} is about to put out several papers. Save each new paper {name} co-authors to my MicroScholar "
               f"library (nobody else's), and tell me once three new papers by {name} are saved.",
        condition_at=at, start_page=HOME,
        taxonomy=taxonomy("active", "relative", "medium", "authors with the same surname or first name"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM papers WHERE origin = 'event' AND {mine}) >= 3",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM papers WHERE origin = 'event' AND saved = 1 AND {mine}) >= 3 AND NOT "
                 f"EXISTS (SELECT 1 FROM papers WHERE saved = 1 AND saved_at > 0 AND NOT ({mine}))",
        solution=save_each(search_url(last), {"text": name}, targets,
                           f"Three new papers by {name} arrived; I saved all three."))


def draw_papers_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Five new papers, citation changes and read alerts between them (they do not count)."""
    picked = sample(rng, scholar_arrivals(catalog), 6, "new papers")
    at = when(rng, knobs, lo=FIRST_READ_S + 6 + knobs.decoys)
    times = sequence(rng, 5, list(range(knobs.decoys)), FIRST_READ_S, at, 1)
    events = [event(t, "new_paper", f"new paper {i + 1} of 5" + (" (the target)" if i == 4 else "") +
                    f" · {title_of(catalog, rid)}", paper_id=rid)
              for i, (t, rid) in enumerate(zip(times["targets"], picked[:5], strict=True))]
    used = set(picked)
    events += fill(rng, catalog, knobs, [], used, papers=False, times=times["decoys"],
                   note="decoy: no new paper")
    events.append(event(rng.randint(min(at + 10, 715), 715), "new_paper", "trailing: a sixth new paper",
                        paper_id=picked[5]))
    taken = [e["at"] for e in events]
    events += fill(rng, catalog, knobs, taken, used, papers=False, stop=at - 3)
    events += fill(rng, catalog, knobs, taken, used, start=at + 3)
    sql = ("SELECT (SELECT COUNT(*) FROM papers WHERE origin != 'self') >= "
           "CAST((SELECT value FROM session_meta WHERE key = 'baseline_paper_count') AS REAL) + 5")
    return scenario(
        description=f"Five new papers are indexed one by one, the fifth at {at} s; citation counts and alerts change "
                    "between them and more papers follow. The home page shows the index size, never the difference.",
        prompt="I want to know when MicroScholar has picked up a batch of new work. Watch the Recommended for you "
               "list and tell me once at least five more papers have been added to it than were there when you "
               "started.",
        condition_at=at, start_page=HOME,
        taxonomy=taxonomy("passive", "relative", "easy", "citation count changes, alerts"),
        events=timeline(preload(), events),
        condition_sql="SELECT (SELECT COUNT(*) FROM papers WHERE origin = 'event') >= 5", eval_sql=sql,
        solution=[{"watch": HOME, "until": {"number": "Showing \\S+ of (\\d+)", "at_least": "first + 5"}},
                  {"report": "Five more papers have been added to Recommended for you."}])


KINDS: tuple[Kind, ...] = tuple(sorted((
    Kind("abstract_save_more", "active", "relative", draw_abstract_save_more, Knobs(decoys=2),
         "decoys: papers with the phrase in a title only or sharing its words (near_miss: how near); a paper with "
         "the phrase is saved from the start"),
    *ALERT_KINDS[:1],
    Kind("cite_title", "active", "absolute", draw_cite_title, Knobs(decoys=2),
         "decoys: papers whose titles share words with the asked title (near_miss: how many); hold_s: until the "
         "authors withdraw it"),
    Kind("papers_more", "passive", "relative", draw_papers_more, Knobs(decoys=3),
         "decoys: citation changes and alerts between the five new papers"),
    Kind("save_by_author", "active", "relative", draw_save_by_author, Knobs(decoys=2),
         "decoys: papers by authors sharing the surname or first name (near_miss: how many)"),
    Kind("save_phrase", "active", "absolute", draw_save_phrase, Knobs(decoys=3),
         "decoys: papers with the phrase in a title only or sharing its words (near_miss: how near)"),
    Kind("title_appears", "passive", "absolute", draw_title_appears, Knobs(decoys=2),
         "decoys: papers whose titles share words with the asked title (near_miss: how many)"),
    Kind("title_absent_noop", "noop", "absolute", draw_title_absent_noop, Knobs(decoys=2),
         "as title_appears; the asked title puts another title's subject after the source title's last "
         "preposition, and the source title arrives as the near miss"),
    *ALERT_KINDS[1:],
), key=lambda k: k.name))
