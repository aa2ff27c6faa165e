"""MicroLendar's ten scenario kinds (ENVIRONMENTS §8): the authored scenarios made into templates.

Today is 2025-06-17. The standard preload is every `base` event and task of the catalog; a draw
may take a base event out of the preload and let it arrive instead (a June event, an event
today, a Work event in the fortnight), so counted arrivals and look-alikes come from the whole
catalog. Knobs: `decoys` look-alikes before the target, `near_miss` how near they come (a day
next to today, just outside the fortnight or the month, the same title), `hold_s` until the
organizer withdraws a passing invitation, `density` background events and to-dos per sim minute.
"""

from __future__ import annotations

import random
import re
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Knobs, NoDraw
from sentinel.generation.kit import (
    choose,
    event,
    fill,
    free_times,
    like_text,
    scenario,
    sql_text,
    target_time,
    taxonomy,  # noqa: F401  (kinds of this environment use it from here)
    timeline,
)

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

TODAY = date(2025, 6, 17)
SCHEDULE = "/microlendar/schedule"
MONTH = f"/microlendar/month/{TODAY:%Y/%m}"
FIRST_READ_S = 8  # relative tasks: counted arrivals come after the agent's first read
LIVE = "deleted = 0 AND origin != 'self'"
TODAY_SQL = "(SELECT value FROM session_meta WHERE key = 'today')"
BASELINE = "CAST((SELECT value FROM session_meta WHERE key = 'baseline_{}') AS REAL)"
FACT = re.compile(r"destination (\w+)|about the (\w+) feature")
NEVER = ("Iceland", "Patagonia", "Marrakesh", "Tasmania", "Santorini", "Reykjavik", "Zanzibar", "Bhutan")


# --- catalog views ------------------------------------------------------------------------

def evs(catalog: Catalog) -> dict[str, dict[str, Any]]:
    return catalog.raw("events")


def base(catalog: Catalog, collection: str) -> list[str]:
    return [rid for rid, r in catalog.raw(collection).items() if r.get("_role") == "base"]


def where(catalog: Catalog, test, exclude=()) -> list[str]:
    skip = set(exclude)
    return [rid for rid, r in evs(catalog).items() if rid not in skip and test(r)]


def day(r: dict[str, Any]) -> date:
    return TODAY + timedelta(days=int(r["day_offset"]))


def label(catalog: Catalog, rid: str) -> str:
    if rid in catalog.raw("tasks"):
        return f"to-do · {catalog.raw('tasks')[rid]['title']}"
    r = evs(catalog)[rid]
    when = day(r).strftime("%a %b %d") + ("" if r.get("all_day") or not r.get("start") else f" {r['start']}")
    return f"{r['title']} · {r['category']} · {when}"


def ev(catalog: Catalog):
    tasks = catalog.raw("tasks")

    def make(at: float, rid: str, note: str | None) -> dict[str, Any]:
        text = f"{note} · {label(catalog, rid)}" if note else None
        if rid in tasks:
            return event(at, "new_task", text, task_id=rid)
        return event(at, "new_event", text, event_id=rid)
    return make


def preload(catalog: Catalog, events: list[dict[str, Any]], drop=()) -> dict[str, Any]:
    """The standard preload minus what arrives on the timeline and what `drop` names."""
    gone = {e.get("event_id") or e.get("task_id") for e in events} | set(drop)
    return {"today": TODAY.isoformat(), "events": [x for x in base(catalog, "events") if x not in gone],
            "tasks": [x for x in base(catalog, "tasks") if x not in gone]}


def background(catalog: Catalog, harmless) -> list[str]:
    """Non-base events passing `harmless`, and non-base to-dos when to-dos are harmless too."""
    out = [rid for rid, r in evs(catalog).items() if r.get("_role") != "base" and harmless(r)]
    if harmless({"task": True}):
        out += [t for t, r in catalog.raw("tasks").items() if r.get("_role") != "base"]
    return out


def sample_or_all(rng: random.Random, items: list[str], n: int) -> list[str]:
    """n of the items in a seeded order, or all of them when the catalog holds fewer."""
    return rng.sample(items, min(n, len(items)))


def is_task(r: dict[str, Any]) -> bool:
    return "task" in r


def with_bg(rng, catalog, knobs, key, at, harmless, anything=lambda r: True):
    used = {e.get("event_id") or e.get("task_id") for e in key}
    before = [x for x in background(catalog, lambda r: is_task(r) or harmless(r)) if x not in used]
    after = [x for x in background(catalog, lambda r: is_task(r) or anything(r)) if x not in used]
    return key + fill(rng, knobs, key, at, before, after, ev(catalog))


# --- invitations told apart by their description: invite_destination, its no-op, feature_meeting

def families(catalog: Catalog) -> dict[str, list[tuple[str, str]]]:
    """Title → [(event id, the fact its description names)] for same-title invitations to self."""
    out: dict[str, list[tuple[str, str]]] = {}
    for rid, r in evs(catalog).items():
        m = FACT.search(r.get("_note", ""))
        if m and any(p == "p000" for p, _ in r.get("attendees", [])):
            out.setdefault(r["title"], []).append((rid, m.group(1) or m.group(2)))
    return out


def _invite_setup(rng: random.Random, catalog: Catalog, knobs: Knobs, title: str, cancel: bool) -> dict[str, Any]:
    family = families(catalog).get(title, [])
    if len(family) < 2:
        raise NoDraw(f"no '{title}' invitations to tell apart")
    target, fact = choose(rng, family, "invitation")
    rest = [f for f in family if f[0] != target]
    rng.shuffle(rest)
    trailing, decoys = rest[0], rest[1:1 + knobs.decoys]
    at = target_time(rng, knobs, lo=6 + 3 * len(decoys), hi=min(600, 700 - knobs.hold_s))
    make = ev(catalog)
    key = [make(t, rid, f"decoy: {title} about {f}, not {fact}")
           for t, (rid, f) in zip(free_times(rng, len(decoys), 2, at - 3, [at]), decoys, strict=True)]
    key.append(make(at, target, f"target: {title} whose description names {fact}"))
    until = int(at + knobs.hold_s) if cancel else None
    if until:
        key.append(event(until, "cancel_event", f"the organizer withdraws the {fact} invitation: it disappears "
                                                f"(condition_until) · {label(catalog, target)}", event_id=target))
    trail_at = rng.randint(at + 4, min(715, at + 200))
    if until and abs(trail_at - until) < 3:
        trail_at = until + 3
    key.append(make(trail_at, trailing[0], f"trailing: {title} about {trailing[1]}"))
    key = with_bg(rng, catalog, knobs, key, at, lambda r: not FACT.search(r.get("_note", "")),
                  lambda r: not FACT.search(r.get("_note", "")))
    return {"target": target, "fact": fact, "at": at, "until": until, "events": key, "decoys": decoys}


def invited(predicate: str) -> str:
    return (f"SELECT EXISTS (SELECT 1 FROM events e WHERE e.deleted = 0 AND e.origin != 'self' AND {predicate} "
            "AND EXISTS (SELECT 1 FROM event_attendees a WHERE a.event_id = e.id AND a.persona_id = SELF))")


def answered_only(response: str, like: str) -> str:
    rsvp = ("SELECT 1 FROM event_attendees a JOIN events e ON e.id = a.event_id WHERE a.persona_id = SELF AND "
            f"a.response = {sql_text(response)} AND e.origin != 'self'")
    return (f"SELECT EXISTS ({rsvp} AND e.description LIKE {like}) "
            f"AND NOT EXISTS ({rsvp} AND e.description NOT LIKE {like})")


def rsvp_steps(pattern: str, response: str, report: str) -> list[dict[str, Any]]:
    return [{"watch": SCHEDULE, "open_new": "^/microlendar/event/",
             "until": {"matches": f"Description\\n[^\\n]*{pattern}"}},
            {"submit": "/rsvp$", "fields": {"response": response}}, {"report": report}]


def draw_invite_destination(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _invite_setup(rng, catalog, knobs, "Trip planning", cancel=True)
    dest, like = s["fact"], like_text(s["fact"])
    return scenario(
        description=f"{len(s['decoys'])} 'Trip planning' invitations come first; only the description names the "
                    f"destination. The {dest} invitation arrives at {s['at']} s and is withdrawn at {s['until']} s. "
                    "Accepting any other invitation fails.",
        prompt=f"A friend is about to invite me on MicroLendar to plan our {dest} trip. When the invitation for the "
               f"{dest} trip arrives, accept it (that one only) and tell me.",
        condition_at=s["at"], condition_until=s["until"], start_page=SCHEDULE,
        taxonomy=taxonomy("active", "absolute", "medium", "invitations with the same title for other destinations"),
        events=timeline(preload(catalog, s["events"]), s["events"]),
        condition_sql=invited(f"e.description LIKE {like}"), eval_sql=answered_only("yes", like),
        solution=rsvp_steps(re.escape(dest), "yes", f"The {dest} trip invitation arrived; I accepted it."))


def draw_invite_other_destination_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _invite_setup(rng, catalog, knobs, "Trip planning", cancel=True)
    text = " ".join(f"{r['title']} {r.get('description', '')} {r.get('location', '')}" for r in evs(catalog).values())
    asked = choose(rng, [p for p in NEVER if p.lower() not in text.lower()], "destination never named")
    return scenario(
        description=f"Copy of invite_destination asking about {asked}, which no invitation names. The {s['fact']} "
                    f"invitation still arrives at {s['at']} s (the near miss) and is withdrawn at {s['until']} s. "
                    "Refrain check: no invitation is accepted.",
        prompt=f"A friend is about to invite me on MicroLendar to plan our {asked} trip. When the invitation for the "
               f"{asked} trip arrives, accept it (that one only) and tell me.",
        condition_at=None, start_page=SCHEDULE,
        taxonomy=taxonomy("noop", "absolute", "medium", "invitations with the same title for other destinations"),
        events=timeline(preload(catalog, s["events"]), s["events"]),
        condition_sql=invited(f"e.description LIKE {like_text(asked)}"),
        near_miss_sql=invited(f"e.description LIKE {like_text(s['fact'])}"),
        eval_sql="SELECT NOT EXISTS (SELECT 1 FROM event_attendees a JOIN events e ON e.id = a.event_id WHERE "
                 "a.persona_id = SELF AND a.response = 'yes' AND e.origin != 'self')",
        solution=rsvp_steps(re.escape(asked), "yes", f"The {asked} trip invitation arrived; I accepted it."))


def draw_feature_meeting(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _invite_setup(rng, catalog, knobs, "Feature sync", cancel=False)
    phrase = f"{s['fact']} feature"
    like = like_text(phrase)
    return scenario(
        description=f"'Feature sync' invitations share a title and room; the feature is named only in the description. "
                    f"{len(s['decoys'])} come first; the {phrase} one arrives at {s['at']} s; another trails. "
                    "Declining any other fails.",
        prompt=f"I can't attend the meeting about the {phrase}. When an invitation to a meeting about the {phrase} "
               "shows up on my MicroLendar calendar, decline it (that one only) and tell me.",
        condition_at=s["at"], start_page=SCHEDULE,
        taxonomy=taxonomy("active", "absolute", "medium", "the same meeting title for other features"),
        events=timeline(preload(catalog, s["events"]), s["events"]),
        condition_sql=invited(f"e.description LIKE {like}"), eval_sql=answered_only("no", like),
        solution=rsvp_steps(re.escape(phrase), "no", f"The {phrase} meeting invitation arrived; I declined it."))
