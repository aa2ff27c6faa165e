"""MicroLendar's ten scenario kinds (docs/environments.md#microlendar), recipes on the generation kit. The standard
preload is the catalog's `base` events and tasks; a draw may let a base event arrive instead of preloading it."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.envs.microlendar.events import DEFAULT_TODAY, TODAY_SQL
from sentinel.generation import kit
from sentinel.generation.kit import counting, fill

if TYPE_CHECKING:
    from collections.abc import Callable

    from sentinel.core.catalog import Catalog
    from sentinel.generation.kit import Facts, Setup

    Test = Callable[[dict[str, Any]], bool]

TODAY = date.fromisoformat(DEFAULT_TODAY)
SCHEDULE, EVENT, TASKS = "/microlendar/schedule", "^/microlendar/event/", "/microlendar/tasks"
MONTH, DAY, WEEK = f"/microlendar/month/{TODAY:%Y/%m}", f"/microlendar/day/{TODAY}", f"/microlendar/week/{TODAY}"
LIVE = "events WHERE deleted = 0 AND origin != 'self'"
SHOWING = "Showing [\\d,]+–[\\d,]+ of ([\\d,]+)"
FACT = re.compile(r"destination (\w+)|about the (\w+) feature")  # what an invitation's description names
WORD = re.compile(r"[a-z]{6,}")
NEVER = ("Iceland", "Patagonia", "Marrakesh", "Tasmania", "Santorini", "Reykjavik", "Zanzibar", "Bhutan")
WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}


def offset(r: dict[str, Any]) -> int:
    return int(r["day_offset"])


def day(r: dict[str, Any]) -> date:
    return TODAY + timedelta(days=offset(r))


def new(r: dict[str, Any]) -> bool:
    """Not in the standard preload."""
    return r.get("_role") != "base"


class Calendar(kit.Arrivals):
    """What may arrive: any catalog event or to-do; a note is followed by what it is (title, calendar, when)."""

    def __init__(self, catalog: Catalog) -> None:
        self.events, self.tasks = catalog.raw("events"), catalog.raw("tasks")
        super().__init__({"new_event": list(self.events), "new_task": list(self.tasks)},
                         {"new_event": "event_id", "new_task": "task_id"})

    def about(self, rid: str) -> str:
        if rid in self.tasks:
            return f"to-do · {self.tasks[rid]['title']}"
        r = self.events[rid]
        when = day(r).strftime("%a %b %d") + ("" if r.get("all_day") or not r.get("start") else f" {r['start']}")
        return f"{r['title']} · {r['category']} · {when}"


def finish(rng: random.Random, catalog: Catalog, knobs: Knobs, at: int, key: list[dict[str, Any]], harmless: Test,
           anything: Test = lambda r: True, todos: bool = True, drop=()) -> Facts:
    """A draw's facts: the key events, background (before `at` new to-dos when `todos` and events passing `harmless`,
    after it also those passing `anything`), the standard preload less what arrives and what `drop` names."""
    used = {str(e[field]) for e in key for field in ("event_id", "task_id") if field in e}

    def pool(test: Test, tasks: bool) -> list[str]:
        return [x for x in kit.ids_where(catalog, "events", lambda r: new(r) and test(r)) + kit.ids_where(
            catalog, "tasks", lambda r: tasks and new(r)) if x not in used]
    events = key + fill(rng, knobs, key, at, pool(harmless, todos), pool(anything, True), Calendar(catalog).make)
    gone = used | set(drop)
    return {"at": at, "events": events, "preload": {"today": DEFAULT_TODAY, **{
        c: kit.ids_where(catalog, c, lambda r: not new(r), exclude=gone) for c in ("events", "tasks")}}}


# --- invitations told apart by their description: invite_destination, its no-op, feature_meeting

def invitations(title: str, phrase: str, hold: bool) -> Setup:
    """Same-title invitations to the self user whose descriptions name other facts (FACT): one names
    the target's, the look-alikes others, one more trails; with `hold` the target is withdrawn."""
    def setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> Facts:
        named = {rid: m.group(1) or m.group(2) for rid, r in catalog.raw("events").items() if r["title"] == title
                 and (m := FACT.search(r.get("_note", ""))) and any(p == "p000" for p, _ in r.get("attendees", []))}
        if len(named) < 2:
            raise NoDraw(f"no '{title}' invitations to tell apart")
        target = kit.choose(rng, sorted(named), "invitation")
        rest = rng.sample([x for x in sorted(named) if x != target], len(named) - 1)
        fact, plain = named[target], lambda r: not FACT.search(r.get("_note", ""))
        at, until, key = kit.one_target(rng, knobs, Calendar(catalog).make, target, rest[1:1 + knobs.decoys], hold=hold,
                                  note=f"target: {title} whose description names {fact}",
                                  decoy_note=lambda rid: f"decoy: {title} about {named[rid]}, not {fact}",
                                  trailing=rest[:1], trail_note=lambda rid: f"trailing: {title} about {named[rid]}")
        if until is not None:  # hold: the invitation is withdrawn
            key.append(kit.event(until, "cancel_event", f"the organizer withdraws the {fact} invitation: it disappears "
                                 "(condition_until)", event_id=target))
        return {**finish(rng, catalog, knobs, at, key, plain, plain), "until": until, "fact": fact,
                "phrase": phrase.format(fact), "decoys": len(rest[1:1 + knobs.decoys])}
    return setup


def rsvp(response: str) -> str:
    return ("event_attendees a JOIN events e ON e.id = a.event_id WHERE a.persona_id = SELF AND "
            f"a.response = '{response}' AND e.origin != 'self'")


def invitation(title: str, phrase: str, hold: bool, response: str, *, distraction: str, description: str,
               prompt: str, report: str) -> kit.Recipe:
    """Answer `response` to the invitation naming {phrase} (eval: to that one and no other)."""
    return kit.Recipe(
        invitations(title, phrase, hold), difficulty="medium", start_page=SCHEDULE, distraction=distraction,
        description=description, prompt=prompt,
        condition_sql=kit.exists_sql("events e WHERE e.deleted = 0 AND e.origin != 'self' AND e.description LIKE "
                                     "{phrase!l} AND EXISTS (SELECT 1 FROM event_attendees a WHERE a.event_id = e.id "
                                     "AND a.persona_id = SELF)"),
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM {rsvp(response)} AND e.description LIKE {{phrase!l}}) "
                 f"AND NOT EXISTS (SELECT 1 FROM {rsvp(response)} AND e.description NOT LIKE {{phrase!l}})",
        solution=kit.watch_until(SCHEDULE, {"matches": "Description\\n[^\\n]*{phrase!e}"}, report, open_new=EVENT,
                                 then=[{"submit": "/rsvp$", "fields": {"response": response}}]))


TRIP = invitation(
    "Trip planning", "{}", True, "yes", distraction="invitations with the same title for other destinations",
    description="{decoys} 'Trip planning' invitations come first; only the description names the destination. "
                "The {fact} invitation arrives at {at} s and is withdrawn at {until} s. Accepting any other fails.",
    prompt="A friend is about to invite me on MicroLendar to plan our {phrase} trip. When the invitation for the "
           "{phrase} trip arrives, accept it (that one only) and tell me.",
    report="The {phrase} trip invitation arrived; I accepted it.")


def nowhere(rng: random.Random, catalog: Catalog, facts: Facts) -> Facts:
    """A destination no event names."""
    return {"phrase": kit.unseen(rng, NEVER, (f"{r['title']} {r.get('description', '')} {r.get('location', '')}"
                                              for r in catalog.raw("events").values()), "destination never named")}


# --- counted arrivals: events this month and its no-op, to-dos, Personal, today, the fortnight

def arrivals(what: str, n: tuple[int, int], counts: Test, near: Test, note: Callable[[dict[str, Any]], str], *,
             score: Callable[[dict[str, Any]], float] = lambda r: 0.0, arrive: Test = lambda r: True,
             first_s: float = 2, lighter: float = 0.0, collection: str = "events") -> Setup:
    """n (drawn in the range) records of `collection` passing `counts` and `arrive` come in after `first_s`, the last
    at the target; look-alikes (`near` events, higher `score` first as near_miss rises) fall between; background
    before the target cannot count; `lighter`: the share of counting base records left out of the preload."""
    def setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> Facts:
        m, recs, tasks = catalog.raw("events"), catalog.raw(collection), collection == "tasks"
        pool = kit.ids_where(catalog, "events", near)
        others = kit.nearest(rng, pool, min(knobs.decoys, len(pool)), lambda rid: score(m[rid]), knobs.near_miss)
        k = rng.randint(*n)
        counted = kit.ids_where(catalog, collection, lambda r: counts(r) and arrive(r))
        at, key, _ = counting(rng, replace(knobs, decoys=len(others)), counted, others, k, Calendar(catalog).make,
                              what=what, decoy_note=lambda rid: note(m[rid]), first_s=first_s)
        drop = kit.ids_where(catalog, collection, lambda r: not new(r) and counts(r) and rng.random() < lighter)
        f = finish(rng, catalog, knobs, at, key, lambda r: tasks or not counts(r), todos=not tasks, drop=drop)
        start = sum(counts(recs[x]) for x in f["preload"][collection])
        ends = [e["task_id" if tasks else "event_id"] for e in f["events"] if ("task_id" in e) == tasks]
        return {**f, "n": k, "n_words": WORDS[k], "what": what, "decoys": len(others), "start": start,
                "threshold": start + k, "total": start + sum(counts(recs[x]) for x in ends)}
    return setup


def relative(setup: Setup, rows: str, metric: str, page: str, number: str, distraction: str, *, start_page: str,
             difficulty: str, prompt: str, report: str) -> kit.Recipe:
    """{n} more of the live events passing `rows` (a condition) than at the start, read on `page` by `number`."""
    return kit.Recipe(
        setup, start_page=start_page, difficulty=difficulty, distraction=distraction, prompt=prompt,
        description=f"{{n}} {{what}}s arrive, the last at {{at}} s, with {{decoys}} look-alikes in between "
                    f"({distraction}); another trails.",
        **kit.count_watch(f"{LIVE} AND {rows}", "{n}", page, number, report, metric))


def in_june(r: dict[str, Any]) -> bool:
    return "day_offset" in r and day(r).month == TODAY.month


def month_edge(r: dict[str, Any]) -> float:
    """How near an event outside the month is to it (1: the day next to it)."""
    return 1.0 / max(1, offset(r) - 13 if offset(r) > 13 else -16 - offset(r))


def fortnight(r: dict[str, Any]) -> bool:
    return r["category"] == "work" and 0 <= offset(r) <= 14


MONTH_SQL = kit.count_reaches(f"{LIVE} AND substr(start_at, 1, 7) = substr({TODAY_SQL}, 1, 7)", "{threshold}")
MONTHLY = kit.Recipe(
    arrivals("June event", (3, 5), in_june, lambda r: not in_june(r) and new(r),
             lambda r: f"decoy: {day(r):%B %-d}, not this month", lighter=0.3, score=month_edge),
    difficulty="easy", distraction="events early next month or late last month",
    description="{start} events this month at the start; {n} June events bring it to {threshold} at {at} s; events "
                "of the months around arrive in between, more June events trail.",
    prompt="Tell me once my MicroLendar calendar holds at least {threshold} events this month (June).",
    start_page=MONTH, condition_sql=MONTH_SQL,
    solution=kit.watch_number(MONTH, "([\\d,]+) events? this month", "{threshold}",
                              "The calendar now holds {threshold} events this month."))


def unreachable(rng: random.Random, catalog: Catalog, facts: Facts) -> Facts:
    """events_unreachable_noop's threshold: one June never reaches (its total at the end, and more)."""
    return {"threshold": kit.choose(rng, [x for x in (60, 80, 100, 120) if x > facts["total"] + 5],
                                    "unreachable threshold")}


# --- description_second_match ---------------------------------------------------------------

def second_mention(rng: random.Random, catalog: Catalog, knobs: Knobs) -> Facts:
    """A word one preloaded description holds (of 2–4 events with other titles) arrives in a second;
    look-alikes have it in the title only, share the target's title or other description words."""
    m = catalog.raw("events")
    text = {rid: r.get("description", "").lower() for rid, r in m.items()}
    mentions = {w: [rid for rid in m if w in text[rid]] for w in sorted(set(WORD.findall(" ".join(text.values()))))}
    found = {w: ids for w, ids in mentions.items()
             if 2 <= len(ids) <= 4 and len({m[i]["title"] for i in ids}) == len(ids)}
    soon = [rid for rid, r in m.items() if 0 <= offset(r) <= 10]
    word = kit.choose(rng, [w for w, ids in found.items() if set(ids) & set(soon)], "description word")
    target = kit.choose(rng, [i for i in found[word] if i in soon], "event to open")
    first = kit.choose(rng, [i for i in found[word] if i != target], "first mention")
    shared, without = set(WORD.findall(text[target])), lambda r: word not in r.get("description", "").lower()
    decoys = kit.nearest(rng, kit.ids_where(catalog, "events", without), knobs.decoys, lambda rid: (
        float(word in m[rid]["title"].lower()) + 0.8 * (m[rid]["title"] == m[target]["title"])
        + 0.2 * len(set(WORD.findall(text[rid])) & shared)), knobs.near_miss)
    at, _, key = kit.one_target(rng, knobs, Calendar(catalog).make, target, decoys,
                          note=f"target: the second event whose description mentions {word}",
                          decoy_note=lambda rid: f"decoy: no '{word}' in the description",
                          trailing=[i for i in found[word] if i not in (target, first)],
                          trail_note=lambda rid: f"trailing: another description with {word}")
    f = finish(rng, catalog, knobs, at, key, without, without)
    f["preload"]["events"] = sorted({*f["preload"]["events"], first})
    return {**f, "word": word, "first": first, "first_title": m[first]["title"], "title": m[target]["title"],
            "decoys": len(decoys)}


SECOND_MENTION = kit.Recipe(
    second_mention, start_page=SCHEDULE, difficulty="hard",
    distraction="the word in a title only, the same title without it",
    description="'{first_title}' ({first}) mentions {word} in its description from the start. {decoys} look-alikes "
                "arrive first; '{title}' at {at} s mentions it in its description only.",
    prompt="One event on my MicroLendar calendar already mentions {word} in its description. When another event "
           "whose description mentions {word} is added, open that new event and tell me.",
    condition_sql=kit.count_reaches(f"{LIVE} AND description LIKE {{word!l}}", 2),
    eval_sql=kit.exists_sql("events WHERE origin = 'event' AND description LIKE {word!l} AND viewed = 1"),
    solution=kit.watch_until(SCHEDULE, {"matches": "(?i)Description\\n[^\\n]*{word!e}"},
                             "A second event mentioning {word} in its description was added; I opened it.",
                             open_new=EVENT))

KINDS: tuple[Kind, ...] = (
    kit.kind("description_second_match", "active", "relative", Knobs(decoys=3),
             "decoys: events before the target with the word in the title only, the target's title, or shared "
             "description words (near_miss: how alike)", SECOND_MENTION),
    kit.kind("invite_destination", "active", "absolute", Knobs(decoys=2),
             "decoys: same-title invitations for other destinations (at most the catalog's family less two); hold_s: "
             "until the organizer withdraws the invitation", TRIP),
    kit.kind("invite_other_destination_noop", "noop", "absolute", Knobs(decoys=2),
             "as invite_destination; asks for a destination no event names",
             TRIP.noop(nowhere, eval_sql=f"SELECT NOT EXISTS (SELECT 1 FROM {rsvp('yes')})",
                       description="Copy of invite_destination asking about {phrase}, which no invitation names. The "
                                   "{fact} invitation still arrives at {at} s (the near miss) and is withdrawn at "
                                   "{until} s. Refrain check: no invitation is accepted.")),
    kit.kind("feature_meeting", "active", "absolute", Knobs(decoys=2),
             "decoys: same-title invitations about other features",
             invitation(
                 "Feature sync", "{} feature", False, "no", distraction="the same meeting title for other features",
                 description="'Feature sync' invitations share a title and room; the feature is named only in the "
                             "description. {decoys} come first; the {phrase} one arrives at {at} s; another trails. "
                             "Declining any other fails.",
                 prompt="I can't attend the meeting about the {phrase}. When an invitation to a meeting about the "
                        "{phrase} shows up on my MicroLendar calendar, decline it (that one only) and tell me.",
                 report="The {phrase} meeting invitation arrived; I declined it.")),
    kit.kind("events_threshold", "passive", "absolute", Knobs(decoys=3),
             "decoys: events of the months around (near_miss: the days next to June); threshold = June at start + 3–5",
             MONTHLY),
    kit.kind("events_unreachable_noop", "noop", "absolute", Knobs(decoys=3),
             "as events_threshold, asking for a threshold June never reaches",
             MONTHLY.noop(unreachable, description="Copy of events_threshold asking for {threshold} events this month, "
                                                   "which June never reaches: {start} at the start, {total} at the "
                                                   "end. The source task's {source[threshold]} is still reached at "
                                                   "{at} s (the near miss).")),
    kit.kind("personal_more", "passive", "relative", Knobs(decoys=3),
             "decoys: Work and Family events between the two or three Personal ones",
             relative(arrivals("new Personal event", (2, 3), lambda r: r["category"] == "personal",
                               lambda r: r["category"] != "personal" and new(r),
                               lambda r: f"decoy: {r['category']}, not Personal", arrive=lambda r: offset(r) >= 0,
                               first_s=kit.FIRST_READ_S),
                      "category = 'personal'", "personal_event_count",
                      "/microlendar/schedule?from=2025-05-01&hide=work,family", SHOWING, "work and family events",
                      start_page=MONTH, difficulty="medium",
                      prompt="Keep an eye on my MicroLendar calendar and tell me once it holds {n_words} more "
                             "Personal events than it does now. Work and Family events don't count.",
                      report="The calendar holds {n_words} more Personal events than at the start.")),
    kit.kind("tasks_threshold", "passive", "absolute", Knobs(decoys=2),
             "decoys: calendar events between the to-dos; threshold = preloaded to-dos + 3–4",
             kit.Recipe(
                 arrivals("new to-do", (3, 4), lambda r: True, new, lambda r: "decoy: a calendar event, not a to-do",
                          arrive=new, lighter=0.25, collection="tasks"),
                 difficulty="easy", distraction="calendar events arriving, tasks that arrive already done",
                 start_page=TASKS,
                 description="{start} to-dos at the start; {n} arrive, the last at {at} s (done or not), then more "
                             "follow. Events arriving on the calendar are not to-dos.",
                 prompt="Watch the to-do list in my MicroLendar and tell me once it holds at least {threshold} tasks "
                        "(done or not).",
                 **kit.count_watch("tasks WHERE deleted = 0 AND origin != 'self'", "{threshold}", TASKS,
                                   "([\\d,]+) tasks? · [\\d,]+ done", "The to-do list now holds {threshold} tasks."))),
    kit.kind("today_more", "passive", "relative", Knobs(decoys=3),
             "decoys: events on the days around today (near_miss: the nearest days)",
             relative(arrivals("new event today", (3, 3), lambda r: offset(r) == 0,
                               lambda r: 0 < abs(offset(r)) <= 10, lambda r: f"decoy: {day(r):%a %b %-d}, not today",
                               score=lambda r: 1 / abs(offset(r)), first_s=kit.FIRST_READ_S),
                      f"date(start_at) = {TODAY_SQL}", "today_event_count", DAY, "([\\d,]+) events? on this day",
                      "events on the days around today", start_page=DAY, difficulty="medium",
                      prompt="Tell me once three more events than now are on my MicroLendar calendar for today.",
                      report="Three more events than at the start are on the calendar for today.")),
    kit.kind("work_fortnight_more", "passive", "relative", Knobs(decoys=3),
             "decoys: Work events just outside the fortnight, other calendars inside it (near_miss: how near)",
             relative(arrivals("new Work event in the fortnight", (4, 4), fortnight,
                               lambda r: not fortnight(r) and -7 <= offset(r) <= 25,
                               lambda r: f"decoy: {r['category']}, {offset(r)} days from today",
                               first_s=kit.FIRST_READ_S, score=lambda r: (r["category"] == "work") / max(
                                   1, min(abs(offset(r)), abs(offset(r) - 14)))),
                      f"category = 'work' AND date(start_at) BETWEEN {TODAY_SQL} AND date({TODAY_SQL}, '+14 days')",
                      "work_next_14d_count", f"/microlendar/schedule?from={TODAY}&to=2025-07-01&hide=personal,family",
                      SHOWING, "work events just outside the fortnight, other calendars inside it", start_page=WEEK,
                      difficulty="hard",
                      prompt="I'm on the week view of MicroLendar. Tell me once four more Work events than now are "
                             "scheduled within the next 14 days (today included). Personal and Family events don't "
                             "count.",
                      report="Four more Work events than at the start are scheduled within the next 14 days.")),
)
