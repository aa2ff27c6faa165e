"""MicroScholar's ten scenario kinds (docs/environments.md#microscholar): recipes on the generation kit that
take target, look-alikes and background from what the authored standard preload leaves out."""

from __future__ import annotations

import random
import re
from functools import partial
from typing import TYPE_CHECKING, Any
from urllib.parse import quote_plus

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.generation import kit
from sentinel.generation.kit import counting

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from sentinel.core.catalog import Catalog
    from sentinel.generation.kit import Facts

HOME, ALERTS, PAPER_LINK = "/microscholar/", "/microscholar/alerts", "^/microscholar/paper/sp\\d+$"
PRELOAD = tuple(f"sp{n:04d}" for n in (  # the standard preload of the authored MicroScholar scenarios
    1, 2, 3, 4, 5, 6, 8, 10, 11, 12, 13, 14, 15, 17, 18, 19, 21, 22, 23, 24, 25, 26, 28, 29, 30, 31, 33, 34, 35,
    37, 38, 41, 42, 43, 46, 47, 50, 51, 54, 55, 56, 57, 58, 59, 60, 61, 62, 65, 66, 68, 69, 73, 74, 75, 76, 77, 79,
    80, 82, 83, 85, 87, 88, 89, 90, 91, 92, 94, 95, 96, 98, 100, 102, 103, 104, 107, 108, 111, 112, 113, 114, 117,
    119, 121, 123, 124, 127, 129, 130, 131, 132, 134, 135, 136, 137))
SAVED = ("sp0026", "sp0041", "sp0114", "sp0127")
PRELOAD_ALERTS = ("al005", "al007", "al008", "al011", "al015", "al021", "al022", "al023")
SNIPPET = 160  # result rows cut the abstract here: a phrase past it shows only on the paper page
STEP_GAP_S = 3  # multi-target kinds keep their targets this far apart
TOPIC = re.compile(r"^Topic: ([^.]+)\.")
PLACES = ("seismology", "marine biology", "astronomy", "agriculture", "archaeology", "glaciology")
STOP = {"with", "from", "over", "under", "into", "only", "that", "this", "than", "when", "which", "their", "more",
        "most", "also", "each", "both", "what", "these", "those", "where", "while", "after", "before", "about"}


def words(text: str) -> list[str]:
    return re.findall(r"[a-z][a-z-]*", text.lower())


def jaccard(a: str, b: str) -> float:
    return kit.overlap(set(words(a)) - STOP, set(words(b)) - STOP)


def texts(catalog: Catalog) -> dict[str, str]:
    return {**{rid: f"{r['title']} {r.get('abstract', '')}".lower() for rid, r in catalog.raw("papers").items()},
            **{aid: r["description"].lower() for aid, r in catalog.raw("alerts").items()}}


def arrivals(catalog: Catalog, exclude: Iterable[str] = (), alerts: bool = False) -> list[str]:
    """Papers (none by the self user) or alerts that can arrive: those the standard preload leaves out."""
    if alerts:
        return kit.ids_where(catalog, "alerts", lambda r: True, exclude=[*PRELOAD_ALERTS, *exclude])
    return kit.ids_where(catalog, "papers", lambda r: all(a.get("persona_id") != "p000" for a in r["authors"]),
                         exclude=[*PRELOAD, *exclude])


class Library(kit.Arrivals):
    """What may arrive: a new paper, a new alert (read as `read(id)` says), and for a preloaded paper a change of its
    citation count (by `rng`); a note is followed by the paper's title or the alert's description."""

    def __init__(self, rng: random.Random, catalog: Catalog,
                 read: Callable[[str], bool | None] = lambda aid: None) -> None:
        self.rng, self.read = rng, read
        self.papers, self.alerts = catalog.raw("papers"), catalog.raw("alerts")
        super().__init__({"new_paper": [p for p in self.papers if p not in PRELOAD], "citations": list(PRELOAD),
                          "new_alert": list(self.alerts)},
                         {"new_paper": "paper_id", "citations": "paper_id", "new_alert": "alert_id"})

    def about(self, rid: str) -> str:
        return str(self.alerts[rid]["description"] if rid in self.alerts else self.papers[rid]["title"])

    def make(self, at: float, rid: str, note: str | None = None, **fields: Any) -> dict[str, Any]:
        if self.type_of[rid] == "citations":  # no arrival: the count on the paper's page changes
            cited = int(self.papers[rid].get("cited_by", 0)) + self.rng.randint(1, 25)
            return kit.event(at, "citations", note and f"{note}: a citation count changes", paper_id=rid,
                             cited_by=cited)
        read = self.read(rid) if rid in self.alerts else None
        return super().make(at, rid, note, **fields, **({} if read is None else {"read": read}))


def finish(rng: random.Random, catalog: Catalog, knobs: Knobs, at: int, key: list[dict[str, Any]],
           harmless: Callable[[str], bool] = lambda rid: True, make=None, first: str | None = None) -> Facts:
    """A draw's facts: key events, background (before `at` only what `harmless` passes), the preload + `first` saved."""
    pool = [*arrivals(catalog), *arrivals(catalog, alerts=True), *PRELOAD]
    events = kit.traffic(rng, knobs, key, pool, make or Library(rng, catalog).make, lambda x: not harmless(x), at)
    papers = [*PRELOAD, *([first] if first and first not in PRELOAD else [])]
    saved = list(dict.fromkeys([*SAVED, *([first] if first else [])]))
    return {"at": at, "events": events, "preload": {"papers": papers, "saved": saved, "alerts": list(PRELOAD_ALERTS)}}


def search(query: str) -> str:
    return f"/microscholar/search?q={quote_plus(query)}&sort=date"


def save_each(until: dict[str, Any], report: str) -> Callable[[Facts], list[dict[str, Any]]]:
    """Open every new paper on {search} until all the facts' `targets` matched, then open each by its address and save
    it once (save toggles). One watch for all: a watch per target would count one arriving during a save as seen."""
    return lambda f: kit.fill_in([
        {"watch": "{search}", "open_new": PAPER_LINK, "count": len(f["targets"]), "until": until},
        *[step for rid in f["targets"] for step in ({"open": f"/microscholar/paper/{rid}"}, {"submit": "/save$"})],
        {"report": report}], f)


# --- titles: title_appears, cite_title, title_absent_noop -----------------------------------

def titled(rng: random.Random, catalog: Catalog, knobs: Knobs, withdraw: bool = False) -> Facts:
    """A paper whose exact title no other catalog text holds, after look-alikes; `withdraw`: withdrawn hold_s later."""
    title, text = {rid: r["title"] for rid, r in catalog.raw("papers").items()}, texts(catalog)
    target = kit.choose(rng, [rid for rid in arrivals(catalog) if not any(
        title[rid].lower() in t for o, t in text.items() if o != rid)], "paper with a unique title")
    decoys = kit.nearest(rng, arrivals(catalog, [target]), knobs.decoys, lambda rid: jaccard(title[target], title[rid]),
                         knobs.near_miss)
    at, until, key = kit.one_target(rng, knobs, Library(rng, catalog).make, target, decoys, hold=withdraw,
                                    note="target: the exact title",
                                    decoy_note=lambda rid: "decoy: a look-alike title, not the one asked")
    if until is not None:  # withdraw
        key.append(kit.event(until, "withdraw_paper", "the authors withdraw the target: it can no longer be cited "
                             f"(condition_until) · {title[target]}", paper_id=target))
    query = max((w for w in words(title[target]) if w not in STOP), key=len)  # the title's longest content word
    return {**finish(rng, catalog, knobs, at, key), "until": until, "target": target, "title": title[target],
            "search": search(query), "decoys": len(decoys)}


def split_title(title: str) -> tuple[str, str]:
    """"Deep State-Space Models for Electricity Load" → ("Deep State-Space Models for", "Electricity Load")."""
    m = re.match(r"^(.+ (?:for|in|over|of|from|under|with|on)) ([A-Z][^:?]+)$", title)
    return (m.group(1), m.group(2)) if m else ("", "")


def other_subject(rng: random.Random, catalog: Catalog, f: Facts) -> Facts:
    """The source title with another title's subject after its last preposition: never indexed."""
    head, tail = split_title(f["title"])
    tails = sorted({t for r in catalog.raw("papers").values() if (t := split_title(r["title"])[1]) and t != tail})
    if not head:
        raise NoDraw(f"{f['title']!r} has no subject to swap")
    return {"title": kit.unseen(rng, [f"{head} {t}" for t in tails], texts(catalog).values(), "title never indexed")}


TITLE = kit.Recipe(
    titled, difficulty="easy", distraction="near-identical titles", start_page=HOME,
    description="{decoys} look-alike titles come first; the exact title appears at {at} s.",
    prompt="A colleague told me their paper \"{title}\" should be indexed soon. Tell me as soon as it appears on "
           "MicroScholar.",
    condition_sql=kit.exists_sql("papers WHERE title = {title!q}"),
    eval_sql=kit.exists_sql("papers WHERE id = {target!q}"),
    solution=kit.watch_until("{search}", {"text": "{title}"}, "The paper {title} is now indexed."))


# --- phrases in abstracts: save_phrase, abstract_save_more -----------------------------------

def phrases(catalog: Catalog) -> dict[str, list[str]]:
    """Two- and three-word phrases of content words that some title also uses (so they read as a
    subject, and a title can carry one as a look-alike) → the papers whose abstract holds them."""
    titles = " | ".join(" ".join(words(r["title"])) for r in catalog.raw("papers").values())
    found: dict[str, set[str]] = {}
    for rid, rec in catalog.raw("papers").items():
        ws = words(rec.get("abstract", ""))
        for gram in (ws[i:i + n] for n in (2, 3) for i in range(len(ws) - n + 1)):
            if all(len(w) > 3 and w not in STOP for w in gram) and " ".join(gram) in titles:
                found.setdefault(" ".join(gram), set()).add(rid)
    return {p: sorted(ids) for p, ids in sorted(found.items())}


def look_alikes(rng: random.Random, catalog: Catalog, knobs: Knobs, phrase: str) -> tuple[list[str], Callable]:
    """Arriving papers without the phrase in the abstract (with it in the title first, then sharing its words)."""
    papers = catalog.raw("papers")
    title = {rid: r["title"].lower() for rid, r in papers.items()}
    decoys = kit.nearest(rng, [rid for rid in arrivals(catalog) if phrase not in papers[rid]["abstract"].lower()],
                         knobs.decoys, lambda rid: float(phrase in title[rid])
                         + jaccard(phrase, f"{title[rid]} {papers[rid]['abstract']}"), knobs.near_miss)
    return decoys, lambda rid: f"decoy: '{phrase}' " + ("in the title only" if phrase in title[rid]
                                                        else "shares words, not the phrase")


def phrase_facts(rng: random.Random, catalog: Catalog, knobs: Knobs, phrase: str, at: int, key: list[dict[str, Any]],
                 first: str | None = None) -> Facts:
    """A phrase kind's facts: its background keeps papers with the phrase out before the target."""
    papers = catalog.raw("papers")
    return {**finish(rng, catalog, knobs, at, key, lambda rid: phrase not in papers.get(rid, {}).get(
        "abstract", "").lower(), first=first), "phrase": phrase, "search": search(f'"{phrase}"')}


def past_snippet(rng: random.Random, catalog: Catalog, knobs: Knobs) -> Facts:
    """A new paper whose abstract holds the phrase past the snippet; another may trail."""
    papers, new = catalog.raw("papers"), set(arrivals(catalog))
    table = {p: [r for r in ids if r in new] for p, ids in phrases(catalog).items()}
    late = [(p, r) for p, ids in table.items() for r in ids
            if p not in papers[r]["title"].lower() and papers[r]["abstract"].lower().find(p) >= SNIPPET]
    phrase = kit.choose(rng, sorted({p for p, _ in late}), "phrase past the snippet")
    target = kit.choose(rng, [r for p, r in late if p == phrase], "target")
    rest, (decoys, note) = [r for r in table[phrase] if r != target], look_alikes(rng, catalog, knobs, phrase)
    at, _, key = kit.one_target(rng, knobs, Library(rng, catalog).make, target, decoys, decoy_note=note,
                          note=f"target: '{phrase}' in the abstract, past the {SNIPPET}-character snippet",
                          trailing=rng.sample(rest, min(1, len(rest))),
                          trail_note=lambda rid: f"trailing: another abstract with '{phrase}'")
    return phrase_facts(rng, catalog, knobs, phrase, at, key)


def two_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> Facts:
    """A paper with the phrase saved from the start; two new ones arrive after the first read, maybe a third."""
    papers, new, table = catalog.raw("papers"), set(arrivals(catalog)), phrases(catalog)
    phrase = kit.choose(rng, [p for p, ids in table.items() if len(ids) >= 3 and len(new.intersection(ids)) >= 2],
                        "phrase in three abstracts")
    arriving = [r for r in table[phrase] if r in new]
    first = kit.choose(rng, [r for r in table[phrase] if r not in new] or arriving)
    rest, (decoys, note) = [r for r in arriving if r != first], look_alikes(rng, catalog, knobs, phrase)
    at, key, picked = counting(rng, knobs, rest, decoys, 2, Library(rng, catalog).make,
                               what=f"new abstract with '{phrase}'", decoy_note=note, first_s=kit.FIRST_READ_S,
                               gap=STEP_GAP_S, trailing=len(rest) > 2)
    return {**phrase_facts(rng, catalog, knobs, phrase, at, key, first), "first_title": papers[first]["title"],
            "targets": picked[:2], "first_at": key[0]["at"]}


SAVED_ONLY = ("NOT EXISTS (SELECT 1 FROM papers WHERE saved = 1 AND saved_at > 0 AND NOT (abstract LIKE {phrase!l}))")
PHRASED = "papers WHERE origin = 'event' AND abstract LIKE {phrase!l}"


# --- alerts: alert_topic, alert_absent_noop ------------------------------------------------

def topics(catalog: Catalog) -> dict[str, str]:
    """Keyword alerts that can arrive → their topic, when no other alert's text holds that topic."""
    alerts, text = catalog.raw("alerts"), texts(catalog)
    found = {a: m.group(1) for a in arrivals(catalog, alerts=True) if (m := TOPIC.match(alerts[a]["description"]))}
    return {aid: t for aid, t in found.items() if not any(t.lower() in text[o] for o in alerts if o != aid)}


def topical(rng: random.Random, catalog: Catalog, knobs: Knobs) -> Facts:
    """An alert on a topic no other alert names; alerts sharing its words come first as near_miss rises."""
    found, text = topics(catalog), texts(catalog)
    target = kit.choose(rng, sorted(found), "alert topic")
    topic = found[target]
    decoys = kit.nearest(rng, arrivals(catalog, [target], alerts=True), knobs.decoys, lambda a: len(
        set(topic.lower().split()) & set(text[a].replace(".", " ").split())), knobs.near_miss)
    at, _, key = kit.one_target(rng, knobs, Library(rng, catalog).make, target, decoys,
                          note=f"target: an alert on the topic '{topic}'",
                          decoy_note=lambda a: f"decoy: another topic, not '{topic}'")
    return {**finish(rng, catalog, knobs, at, key, lambda rid: topic.lower() not in text[rid]), "topic": topic}


def narrower(rng: random.Random, catalog: Catalog, f: Facts) -> Facts:
    """A topic narrowing another arriving alert's to a field no alert covers; that broader alert arrives."""
    used, found = {e.get("alert_id") for e in f["events"]}, topics(catalog)
    broad = kit.choose(rng, sorted(a for a in found if a not in used), "broader alert")
    asked = kit.unseen(rng, [f"{found[broad]} in {p}" for p in PLACES], texts(catalog).values(), "narrower topic")
    at = kit.choose(rng, [t for t in range(20, 700) if all(abs(t - e["at"]) > 3 for e in f["events"])], "time")
    return {"topic": asked, "broad": found[broad], "broad_at": at, "events": [*f["events"], Library(rng, catalog).make(
        at, broad, f"decoy: {found[broad]}, not {asked}")]}


ALERT = kit.Recipe(
    topical, difficulty="easy", distraction="alerts on near topics", start_page=HOME,
    description="Alerts on other topics (those sharing words first) come first; the alert on {topic} arrives at "
                "{at} s.",
    prompt="I follow research on {topic}. Keep an eye on my MicroScholar alerts and tell me as soon as an alert about "
           "{topic} comes in.",
    condition_sql=kit.exists_sql("alerts WHERE description LIKE {topic!l}"),
    solution=kit.watch_until(ALERTS, {"text": "{topic}"}, "An alert about {topic} has arrived."))


# --- counted arrivals: papers_more, save_by_author, unread_alerts_more -----------------------

def new_papers(rng: random.Random, catalog: Catalog, knobs: Knobs) -> Facts:
    """Five new papers after the first read, citation changes and alerts between them (they do not count)."""
    quiet = [*arrivals(catalog, alerts=True), *PRELOAD]
    at, key, _ = counting(rng, knobs, arrivals(catalog), rng.sample(quiet, knobs.decoys), 5, Library(rng, catalog).make,
                          what="new paper", decoy_note=lambda rid: "decoy: no new paper", first_s=kit.FIRST_READ_S,
                          gap=2)
    return {**finish(rng, catalog, knobs, at, key, lambda rid: rid in quiet), "n": 5}


def by_author(rng: random.Random, catalog: Catalog, knobs: Knobs) -> Facts:
    """Three papers by a co-author after the first read; papers by authors sharing a name between them."""
    papers, new = catalog.raw("papers"), arrivals(catalog)
    called = {rid: [a["name"] for a in r["authors"]] for rid, r in papers.items()}
    names = {a["persona_id"]: a["name"] for rid in new for a in papers[rid]["authors"]
             if a.get("persona_id") not in (None, "p000")}
    by = {pid: [rid for rid in new if any(a.get("persona_id") == pid for a in papers[rid]["authors"])] for pid in names}
    pid = kit.choose(rng, sorted(p for p, ids in by.items() if len(ids) >= 3), "author with three new papers")
    name, mine = names[pid], by[pid]
    first, last = name.split()[0], name.split()[-1]
    decoys = kit.nearest(rng, [r for r in arrivals(catalog, mine) if name not in called[r]], knobs.decoys,
                         lambda r: max((n.split()[-1] == last) + 0.5 * (n.split()[0] == first) for n in called[r]),
                         knobs.near_miss)
    at, key, picked = counting(rng, knobs, mine, decoys, 3, Library(rng, catalog).make, what=f"paper by {name}",
                               decoy_note=lambda r: f"decoy: by {', '.join(called[r])}, not {name}",
                               first_s=kit.FIRST_READ_S, gap=STEP_GAP_S, trailing=len(mine) > 3)
    f = finish(rng, catalog, knobs, at, key, lambda r: r not in mine and name not in called.get(r, []))
    return {**f, "pid": pid, "name": name, "search": search(last), "targets": picked[:3],
            "times": ", ".join(str(e["at"]) for e in key[:3])}


def unread(rng: random.Random, catalog: Catalog, knobs: Knobs) -> Facts:
    """Three unread alerts after the first read; alerts arriving already read between them."""
    pool = arrivals(catalog, alerts=True)
    counted = rng.sample(pool, 4)
    make = Library(rng, catalog, read=lambda aid: aid not in counted).make
    at, key, _ = counting(rng, knobs, counted, [a for a in pool if a not in counted], 3, make, what="unread alert",
                          decoy_note=lambda a: "decoy: arrives already read", first_s=kit.FIRST_READ_S, gap=2)
    return {**finish(rng, catalog, knobs, at, key, make=make), "n": 3}


AUTHORED = "papers WHERE origin = 'event' AND id IN (SELECT paper_id FROM paper_authors WHERE persona_id = {pid!q})"

KINDS: tuple[Kind, ...] = (
    kit.kind("abstract_save_more", "active", "relative", Knobs(decoys=2),
             "decoys: papers with the phrase in a title only or sharing its words (near_miss: how near); a paper "
             "with the phrase is saved from the start",
             kit.Recipe(
                 two_more, difficulty="hard", start_page=HOME,
                 distraction="phrase in titles, shared words, phrase past the snippet",
                 description="\"{first_title}\" (its abstract mentions '{phrase}') is in the library from the "
                             "start. New papers with the phrase in the abstract arrive at {first_at} s and {at} s "
                             "among look-alikes. Saving a paper without the phrase in its abstract fails the task.",
                 prompt="My MicroScholar library has a paper whose abstract mentions \"{phrase}\". Save every new "
                        "paper whose abstract mentions \"{phrase}\" (only those), and tell me once two more such "
                        "papers are in my library.",
                 condition_sql=kit.count_reaches(PHRASED, 2),
                 eval_sql=f"{kit.count_reaches(PHRASED + ' AND saved = 1', 2)} AND {SAVED_ONLY}",
                 solution=save_each({"matches": "(?i)Abstract: .*{phrase!e}"},
                                    "Two more papers mentioning {phrase} arrived; both are saved."))),
    kit.kind("alert_absent_noop", "noop", "absolute", Knobs(decoys=3),
             "as alert_topic; the asked topic narrows another alert's topic, which arrives",
             ALERT.noop(narrower, distraction="an alert on {broad}",
                        description="No-op copy of alert_topic asking about {topic}, which no alert covers. An alert "
                                    "on {broad} arrives at {broad_at} s, and the {source[topic]} alert still arrives "
                                    "at {at} s (the near miss).")),
    kit.kind("alert_topic", "passive", "absolute", Knobs(decoys=3),
             "decoys: alerts on other topics, those sharing the topic's words first (near_miss)", ALERT),
    kit.kind("cite_title", "active", "absolute", Knobs(decoys=2),
             "decoys: papers whose titles share words with the asked title (near_miss: how many); hold_s: until the "
             "authors withdraw it",
             kit.Recipe(
                 partial(titled, withdraw=True), difficulty="medium", start_page=HOME,
                 distraction="near-identical titles, withdrawn later",
                 description="Look-alike titles come first; the exact title appears at {at} s and is withdrawn by its "
                             "authors at {until} s, after which it cannot be cited. Citing any other paper fails the "
                             "task.",
                 prompt="I need to cite \"{title}\" as soon as it is out. When that paper appears on MicroScholar, "
                        "use its Cite button (that paper only, not look-alikes) and tell me.",
                 condition_sql=kit.exists_sql("papers WHERE id = {target!q} AND withdrawn = 0"),
                 eval_sql="SELECT EXISTS (SELECT 1 FROM papers WHERE id = {target!q} AND cited = 1) "
                          "AND NOT EXISTS (SELECT 1 FROM papers WHERE cited = 1 AND id != {target!q})",
                 solution=kit.watch_until("{search}", {"matches": "(?m)^{title!e}$"}, "{title} appeared; I cited it.",
                                          open_new=PAPER_LINK, then=[{"submit": "/cite$"}]))),
    kit.kind("papers_more", "passive", "relative", Knobs(decoys=3),
             "decoys: citation changes and alerts between the five new papers",
             kit.Recipe(
                 new_papers, difficulty="easy", distraction="citation count changes, alerts", start_page=HOME,
                 description="Five new papers are indexed one by one, the fifth at {at} s; citation counts and alerts "
                             "change between them and more papers follow. The home page shows the index size, never "
                             "the difference.",
                 prompt="I want to know when MicroScholar has picked up a batch of new work. Watch the Recommended "
                        "for you list and tell me once at least five more papers have been added to it than were "
                        "there when you started.",
                 condition_sql=kit.count_reaches("papers WHERE origin = 'event'", 5),
                 eval_sql=kit.count_reaches("papers WHERE origin != 'self'", "{n}", "paper_count"),
                 solution=kit.watch_number(HOME, "Showing \\S+ of (\\d+)", "first + {n}",
                                           "Five more papers have been added to Recommended for you."))),
    kit.kind("save_by_author", "active", "relative", Knobs(decoys=2),
             "decoys: papers by authors sharing the surname or first name (near_miss: how many)",
             kit.Recipe(
                 by_author, difficulty="medium", start_page=HOME,
                 distraction="authors with the same surname or first name",
                 description="Papers by {name} arrive at {times} s among papers by look-alike names (a shared surname "
                             "or first name). Saving any other paper fails the task.",
                 prompt="{name} is about to put out several papers. Save each new paper {name} co-authors to my "
                        "MicroScholar library (nobody else's), and tell me once three new papers by {name} are "
                        "saved.",
                 condition_sql=kit.count_reaches(AUTHORED, 3),
                 eval_sql=f"{kit.count_reaches(AUTHORED + ' AND saved = 1', 3)} AND NOT EXISTS (SELECT 1 FROM "
                          "papers WHERE saved = 1 AND saved_at > 0 AND NOT (id IN (SELECT paper_id FROM "
                          "paper_authors WHERE persona_id = {pid!q})))",
                 solution=save_each({"text": "{name}"}, "Three new papers by {name} arrived; I saved all three."))),
    kit.kind("save_phrase", "active", "absolute", Knobs(decoys=3),
             "decoys: papers with the phrase in a title only or sharing its words (near_miss: how near)",
             kit.Recipe(
                 past_snippet, difficulty="medium", start_page=HOME,
                 distraction="phrase in titles, shared words, phrase past the snippet",
                 description=f"The phrase '{{phrase}}' sits past the {SNIPPET}-character snippet of the target (at "
                             "{at} s), so only the paper page shows it; look-alikes carry it in a title or share its "
                             "words. Saving a paper without the phrase in its abstract fails the task.",
                 prompt="When a new paper whose abstract mentions \"{phrase}\" shows up on MicroScholar, save it to "
                        "my library (only papers whose abstract says that; a title is not enough) and tell me.",
                 condition_sql=kit.exists_sql(PHRASED),
                 eval_sql=f"{kit.exists_sql(PHRASED + ' AND saved = 1')} AND {SAVED_ONLY}",
                 solution=kit.watch_until("{search}", {"matches": "(?i)Abstract: .*{phrase!e}"},
                                          "A new paper whose abstract mentions {phrase} arrived; I saved it.",
                                          open_new=PAPER_LINK, then=[{"submit": "/save$"}]))),
    kit.kind("title_absent_noop", "noop", "absolute", Knobs(decoys=2),
             "as title_appears; the asked title puts another title's subject after the source title's last "
             "preposition, and the source title arrives as the near miss",
             TITLE.noop(other_subject, description="No-op copy of title_appears asking for \"{title}\", never "
                                                   "indexed; the title the source task waits for still appears at "
                                                   "{at} s (the near miss).")),
    kit.kind("title_appears", "passive", "absolute", Knobs(decoys=2),
             "decoys: papers whose titles share words with the asked title (near_miss: how many)", TITLE),
    kit.kind("unread_alerts_more", "passive", "relative", Knobs(decoys=3),
             "decoys: alerts arriving already read between the three unread ones",
             kit.Recipe(
                 unread, difficulty="medium", distraction="alerts that arrive already read", start_page=HOME,
                 description="Three unread alerts arrive, the last (the target) at {at} s; between them alerts arrive "
                             "already read, which do not count. The alerts page shows the unread total, never how "
                             "many are new.",
                 prompt="Watch my MicroScholar alerts without marking anything read, and tell me once there are at "
                        "least three more unread alerts than when you started.",
                 condition_sql=kit.count_reaches("alerts WHERE origin = 'event' AND arrived_read = 0", 3),
                 eval_sql=kit.count_reaches("alerts WHERE is_read = 0 AND origin != 'self'", "{n}",
                                            "unread_alert_count"),
                 solution=kit.watch_number(ALERTS, "(\\d+) unread", "first + {n}",
                                           "There are three more unread alerts than when I started."))),
)
