"""MicroLendar's counting kinds (events this month and its no-op, Personal events, to-dos, events
today, Work events in the fortnight) and description_second_match."""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs
from sentinel.envs.microlendar import kinds_invite as k
from sentinel.generation.kit import (
    choose,
    counting,
    fill,
    free_times,
    like_text,
    nearest,
    scenario,
    target_time,
    timeline,
)

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

WORD = re.compile(r"[a-z]{6,}")


def in_june(r: dict[str, Any]) -> bool:
    return "day_offset" in r and k.day(r).month == k.TODAY.month


def month_edge(r: dict[str, Any]) -> float:
    """How near an event outside the month is to it (1: the day next to it)."""
    off = int(r["day_offset"])
    gap = off - 13 if off > 13 else -16 - off
    return 1.0 / max(1, gap)


def _month_timeline(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    m = k.evs(catalog)
    june = k.where(catalog, in_june)
    outside = k.where(catalog, lambda r: not in_june(r) and r.get("_role") != "base")
    others = nearest(rng, outside, min(knobs.decoys, len(outside)), lambda rid: month_edge(m[rid]), knobs.near_miss)
    n = rng.randint(3, 5)
    at, key, _ = counting(rng, knobs, june, others, n, k.ev(catalog), what="June event",
                          decoy_note=lambda rid: f"decoy: {k.day(m[rid]):%B %-d}, not this month")
    lighter = [x for x in k.base(catalog, "events") if in_june(m[x]) and rng.random() < 0.3]
    key = k.with_bg(rng, catalog, knobs, key, at, lambda r: not in_june(r))
    load = k.preload(catalog, key, lighter)
    start = sum(1 for x in load["events"] if in_june(m[x]))
    total = start + sum(1 for e in key if e.get("event_id") and in_june(m[e["event_id"]]))
    return {"at": at, "events": key, "load": load, "start": start, "threshold": start + n, "total": total, "n": n}


def month_sql(limit: int) -> str:
    return (f"SELECT (SELECT COUNT(*) FROM events WHERE {k.LIVE} AND substr(start_at, 1, 7) = "
            f"substr({k.TODAY_SQL}, 1, 7)) >= {limit}")


def month_solution(limit: int) -> list[dict[str, Any]]:
    return [{"watch": k.MONTH, "until": {"number": "([\\d,]+) events? this month", "at_least": limit}},
            {"report": f"The calendar now holds {limit} events this month."}]


def draw_events_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _month_timeline(rng, catalog, knobs)
    return scenario(
        description=f"{s['start']} events this month at the start; {s['n']} June events bring it to {s['threshold']} "
                    f"at {s['at']} s; events of the months around arrive in between, more June events trail.",
        prompt=f"Tell me once my MicroLendar calendar holds at least {s['threshold']} events this month (June).",
        condition_at=s["at"], start_page=k.MONTH,
        taxonomy=k.taxonomy("passive", "absolute", "easy", "events early next month or late last month"),
        events=timeline(s["load"], s["events"]), condition_sql=month_sql(s["threshold"]),
        eval_sql=month_sql(s["threshold"]), solution=month_solution(s["threshold"]))


def draw_events_unreachable_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _month_timeline(rng, catalog, knobs)
    asked = choose(rng, [x for x in (60, 80, 100, 120) if x > s["total"] + 5], "unreachable threshold")
    return scenario(
        description=f"Copy of events_threshold asking for {asked} events this month, which June never reaches: "
                    f"{s['start']} at the start, {s['total']} at the end. The source task's {s['threshold']} is still "
                    f"reached at {s['at']} s (the near miss).",
        prompt=f"Tell me once my MicroLendar calendar holds at least {asked} events this month (June).",
        condition_at=None, start_page=k.MONTH,
        taxonomy=k.taxonomy("noop", "absolute", "easy", "events early next month or late last month"),
        events=timeline(s["load"], s["events"]), condition_sql=month_sql(asked),
        near_miss_sql=month_sql(s["threshold"]), solution=month_solution(asked))


def relative_count(rng, catalog, knobs, counted, others, n, what, note, harmless, metric, predicate, prompt,
                   watch, distraction, difficulty="medium"):
    """A relative counting kind: n more counted events than at the start, look-alikes between."""
    at, key, _ = counting(rng, knobs, counted, others, n, k.ev(catalog), what=what, decoy_note=note,
                          first_s=k.FIRST_READ_S)
    key = k.with_bg(rng, catalog, knobs, key, at, harmless)
    sql = (f"SELECT (SELECT COUNT(*) FROM events WHERE {k.LIVE} AND {predicate}) >= "
           f"{k.BASELINE.format(metric)} + {n}")
    return scenario(
        description=f"{n} {what}s arrive, the last at {at} s, with {len(others)} look-alikes in between "
                    f"({distraction}); another trails.",
        prompt=prompt, condition_at=at, start_page=watch[0],
        taxonomy=k.taxonomy("passive", "relative", difficulty, distraction),
        events=timeline(k.preload(catalog, key), key), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": watch[1], "until": {"number": watch[2], "at_least": f"first + {n}"}},
                  {"report": prompt.split(" once ", 1)[-1].rstrip(".").replace("it holds", "The calendar holds")}])


def draw_personal_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    m = k.evs(catalog)
    n = rng.randint(2, 3)
    words = {2: "two", 3: "three"}[n]
    counted = k.where(catalog, lambda r: r["category"] == "personal" and int(r["day_offset"]) >= 0)
    others = k.where(catalog, lambda r: r["category"] != "personal" and r.get("_role") != "base")
    return relative_count(
        rng, catalog, knobs, counted, k.sample_or_all(rng, others, knobs.decoys), n, "new Personal event",
        lambda rid: f"decoy: {m[rid]['category']}, not Personal", lambda r: r["category"] != "personal",
        "personal_event_count", "category = 'personal'",
        f"Keep an eye on my MicroLendar calendar and tell me once it holds {words} more Personal events than it does "
        "now. Work and Family events don't count.",
        (k.MONTH, "/microlendar/schedule?from=2025-05-01&hide=work,family", "Showing [\\d,]+–[\\d,]+ of ([\\d,]+)"),
        "work and family events")


def draw_today_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    m = k.evs(catalog)
    counted = k.where(catalog, lambda r: int(r["day_offset"]) == 0)
    around = k.where(catalog, lambda r: 0 < abs(int(r["day_offset"])) <= 10)
    others = nearest(rng, around, knobs.decoys, lambda rid: 1 / abs(int(m[rid]["day_offset"])), knobs.near_miss)
    return relative_count(
        rng, catalog, knobs, counted, others, 3, "new event today",
        lambda rid: f"decoy: {k.day(m[rid]):%a %b %-d}, not today", lambda r: int(r["day_offset"]) != 0,
        "today_event_count", f"date(start_at) = {k.TODAY_SQL}",
        "Tell me once three more events than now are on my MicroLendar calendar for today.",
        (f"/microlendar/day/{k.TODAY}", f"/microlendar/day/{k.TODAY}", "([\\d,]+) events? on this day"),
        "events on the days around today")


def in_fortnight(r: dict[str, Any]) -> bool:
    return 0 <= int(r["day_offset"]) <= 14


def draw_work_fortnight_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    m = k.evs(catalog)
    counted = k.where(catalog, lambda r: r["category"] == "work" and in_fortnight(r))
    outside = k.where(catalog, lambda r: not (r["category"] == "work" and in_fortnight(r))
                      and -7 <= int(r["day_offset"]) <= 25)
    others = nearest(rng, outside, knobs.decoys, lambda rid: float(m[rid]["category"] == "work")
                     / max(1, min(abs(int(m[rid]["day_offset"])), abs(int(m[rid]["day_offset"]) - 14))),
                     knobs.near_miss)
    return relative_count(
        rng, catalog, knobs, counted, others, 4, "new Work event in the fortnight",
        lambda rid: f"decoy: {m[rid]['category']}, {int(m[rid]['day_offset'])} days from today",
        lambda r: not (r["category"] == "work" and in_fortnight(r)), "work_next_14d_count",
        f"category = 'work' AND date(start_at) BETWEEN {k.TODAY_SQL} AND date({k.TODAY_SQL}, '+14 days')",
        "I'm on the week view of MicroLendar. Tell me once four more Work events than now are scheduled within the "
        "next 14 days (today included). Personal and Family events don't count.",
        (f"/microlendar/week/{k.TODAY}", f"/microlendar/schedule?from={k.TODAY}&to=2025-07-01&hide=personal,family",
         "Showing [\\d,]+–[\\d,]+ of ([\\d,]+)"),
        "work events just outside the fortnight, other calendars inside it", "hard")


def draw_tasks_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    tasks = catalog.raw("tasks")
    counted = [t for t, r in tasks.items() if r.get("_role") != "base"]
    events = [e for e, r in k.evs(catalog).items() if r.get("_role") != "base"]
    dropped = [t for t in k.base(catalog, "tasks") if rng.random() < 0.25]
    n = rng.randint(3, 4)
    at, key, _ = counting(rng, knobs, counted, k.sample_or_all(rng, events, knobs.decoys), n, k.ev(catalog),
                          what="new to-do", decoy_note=lambda rid: "decoy: a calendar event, not a to-do")
    used = {x.get("event_id") or x.get("task_id") for x in key}
    key += fill(rng, knobs, key, at, [e for e in events if e not in used],
                [x for x in counted + events if x not in used], k.ev(catalog))
    load = k.preload(catalog, key, dropped)
    threshold = len(load["tasks"]) + n
    sql = f"SELECT (SELECT COUNT(*) FROM tasks WHERE {k.LIVE}) >= {threshold}"
    return scenario(
        description=f"{len(load['tasks'])} to-dos at the start; {n} arrive, the last at {at} s (done or not), "
                    "then more follow. Events arriving on the calendar are not to-dos.",
        prompt=f"Watch the to-do list in my MicroLendar and tell me once it holds at least {threshold} tasks "
               "(done or not).",
        condition_at=at, start_page="/microlendar/tasks",
        taxonomy=k.taxonomy("passive", "absolute", "easy", "calendar events arriving, tasks that arrive already done"),
        events=timeline(load, key), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": "/microlendar/tasks", "until": {"number": "([\\d,]+) tasks? · [\\d,]+ done",
                                                            "at_least": threshold}},
                  {"report": f"The to-do list now holds {threshold} tasks."}])


# --- description_second_match ---------------------------------------------------------------

def description_words(catalog: Catalog) -> dict[str, list[str]]:
    """Word → events whose description holds it, for words in 2 to 4 descriptions."""
    found: dict[str, list[str]] = {}
    m = k.evs(catalog)
    for w in sorted({w for r in m.values() for w in WORD.findall(r.get("description", "").lower())}):
        ids = [rid for rid, r in m.items() if w in r.get("description", "").lower()]
        if 2 <= len(ids) <= 4 and len({m[i]["title"] for i in ids}) == len(ids):
            found[w] = ids
    return found


def draw_description_second_match(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    m = k.evs(catalog)
    found = description_words(catalog)
    word = choose(rng, sorted(w for w, ids in found.items() if any(0 <= int(m[i]["day_offset"]) <= 10 for i in ids)),
                  "description word")
    ids = found[word]
    target = choose(rng, [i for i in ids if 0 <= int(m[i]["day_offset"]) <= 10], "event to open")
    first = choose(rng, [i for i in ids if i != target], "first mention")
    trailing = [i for i in ids if i not in (target, first)]
    pool = k.where(catalog, lambda r: word not in r.get("description", "").lower())
    shared = set(WORD.findall(m[target]["description"].lower()))

    def score(rid: str) -> float:
        r = m[rid]
        return (float(word in r["title"].lower()) + 0.8 * (r["title"] == m[target]["title"])
                + 0.2 * len(set(WORD.findall(r.get("description", "").lower())) & shared))
    decoys = nearest(rng, pool, knobs.decoys, score, knobs.near_miss)
    at = target_time(rng, knobs, lo=6 + 3 * len(decoys))
    make = k.ev(catalog)
    key = [make(t, rid, f"decoy: no '{word}' in the description")
           for t, rid in zip(free_times(rng, len(decoys), 2, at - 3, [at]), decoys, strict=True)]
    key.append(make(at, target, f"target: the second event whose description mentions {word}"))
    key += [make(rng.randint(at + 5, 715), rid, f"trailing: another description with {word}") for rid in trailing]
    key = k.with_bg(rng, catalog, knobs, key, at, lambda r: word not in r.get("description", "").lower(),
                    lambda r: word not in r.get("description", "").lower())
    load = k.preload(catalog, key)
    if first not in load["events"]:
        load["events"] = sorted([*load["events"], first])
    like = like_text(word)
    return scenario(
        description=f"'{m[first]['title']}' ({first}) mentions {word} in its description from the start. "
                    f"{len(decoys)} look-alikes arrive first; '{m[target]['title']}' at {at} s mentions it in its "
                    "description only.",
        prompt=f"One event on my MicroLendar calendar already mentions {word} in its description. When another event "
               f"whose description mentions {word} is added, open that new event and tell me.",
        condition_at=at, start_page=k.SCHEDULE,
        taxonomy=k.taxonomy("active", "relative", "hard", "the word in a title only, the same title without it"),
        events=timeline(load, key),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM events WHERE {k.LIVE} AND description LIKE {like}) >= 2",
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM events WHERE origin = 'event' AND description LIKE {like} "
                 "AND viewed = 1)",
        solution=[{"watch": k.SCHEDULE, "open_new": "^/microlendar/event/",
                   "until": {"matches": f"(?i)Description\\n[^\\n]*{re.escape(word)}"}},
                  {"report": f"A second event mentioning {word} in its description was added; I opened it."}])


COUNT_KINDS: tuple[Kind, ...] = (
    Kind("events_threshold", "passive", "absolute", draw_events_threshold, Knobs(decoys=3),
         "decoys: events of the months around (near_miss: the days next to June); threshold = June at start + 3–5"),
    Kind("events_unreachable_noop", "noop", "absolute", draw_events_unreachable_noop, Knobs(decoys=3),
         "as events_threshold, asking for a threshold June never reaches"),
    Kind("personal_more", "passive", "relative", draw_personal_more, Knobs(decoys=3),
         "decoys: Work and Family events between the two or three Personal ones"),
    Kind("tasks_threshold", "passive", "absolute", draw_tasks_threshold, Knobs(decoys=2),
         "decoys: calendar events between the to-dos; threshold = preloaded to-dos + 3–4"),
    Kind("today_more", "passive", "relative", draw_today_more, Knobs(decoys=3),
         "decoys: events on the days around today (near_miss: the nearest days)"),
    Kind("work_fortnight_more", "passive", "relative", draw_work_fortnight_more, Knobs(decoys=3),
         "decoys: Work events just outside the fortnight, other calendars inside it (near_miss: how near)"),
)
