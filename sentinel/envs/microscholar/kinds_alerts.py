"""MicroScholar's alert kinds (alert_topic, alert_absent_noop, unread_alerts_more) and the helpers
every MicroScholar kind shares: the standard preload, the catalog views, the background fill
(new papers, alerts, citation changes) and target sequences spaced for the oracle.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.generation.kit import (
    background_times,
    choose,
    event,
    ids_where,
    like_text,
    nearest,
    sample,
    scenario,
    target_time,
    taxonomy,  # noqa: F401  (kinds of this environment use it from here)
    timeline,
    times_between,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from sentinel.core.catalog import Catalog

ALERTS_PAGE = "/microscholar/alerts"
# The standard preload of the authored MicroScholar scenarios.
PRELOAD = tuple(f"sp{n:04d}" for n in (
    1, 2, 3, 4, 5, 6, 8, 10, 11, 12, 13, 14, 15, 17, 18, 19, 21, 22, 23, 24, 25, 26, 28, 29, 30, 31, 33, 34, 35,
    37, 38, 41, 42, 43, 46, 47, 50, 51, 54, 55, 56, 57, 58, 59, 60, 61, 62, 65, 66, 68, 69, 73, 74, 75, 76, 77, 79,
    80, 82, 83, 85, 87, 88, 89, 90, 91, 92, 94, 95, 96, 98, 100, 102, 103, 104, 107, 108, 111, 112, 113, 114, 117,
    119, 121, 123, 124, 127, 129, 130, 131, 132, 134, 135, 136, 137))
SAVED = ("sp0026", "sp0041", "sp0114", "sp0127")
PRELOAD_ALERTS = ("al005", "al007", "al008", "al011", "al015", "al021", "al022", "al023")
# A relative task's agent reads its reference on its first page load: counted events start after this.
FIRST_READ_S = 8
TOPIC = re.compile(r"^Topic: ([^.]+)\.")
PLACES = ("seismology", "marine biology", "astronomy", "agriculture", "archaeology", "glaciology")


def preload(saved: Iterable[str] = SAVED, extra: Iterable[str] = ()) -> dict[str, Any]:
    papers = [*PRELOAD, *(rid for rid in extra if rid not in PRELOAD)]
    return {"papers": papers, "saved": list(dict.fromkeys(saved)), "alerts": list(PRELOAD_ALERTS)}


def scholar_arrivals(catalog: Catalog, where: Callable[[dict[str, Any]], bool] = lambda r: True,
                     exclude: Iterable[str] = ()) -> list[str]:
    """Papers that can arrive on the timeline: not in the standard preload, not by the self user."""
    return ids_where(catalog, "papers", lambda r: where(r) and not any(
        a.get("persona_id") == "p000" for a in r["authors"]), exclude=[*PRELOAD, *exclude])


def alert_arrivals(catalog: Catalog, where: Callable[[dict[str, Any]], bool] = lambda r: True,
                   exclude: Iterable[str] = ()) -> list[str]:
    return ids_where(catalog, "alerts", where, exclude=[*PRELOAD_ALERTS, *exclude])


def paper(catalog: Catalog, rid: str) -> dict[str, Any]:
    return catalog.raw("papers")[rid]


def title_of(catalog: Catalog, rid: str) -> str:
    return str(paper(catalog, rid)["title"])


def described(catalog: Catalog, aid: str) -> str:
    return str(catalog.raw("alerts")[aid]["description"])


def fill(rng: random.Random, catalog: Catalog, knobs: Knobs, taken: list[float], used: set[str], *,
         paper_ok: Callable[[str], bool] = lambda rid: True, alert_ok: Callable[[str], bool] = lambda aid: True,
         papers: bool = True, alerts: bool = True, alert_read: bool | None = None, start: float = 1,
         stop: float = 715, times: list[int] | None = None, note: str | None = None) -> list[dict[str, Any]]:
    """Background at the density knob (or at the given times): new papers, alerts and citation
    changes of preloaded papers, never an item that would decide the task (paper_ok, alert_ok)."""
    slots = times if times is not None else background_times(rng, knobs.density, taken, start, stop)
    pool_p = [r for r in scholar_arrivals(catalog, exclude=used) if paper_ok(r)] if papers else []
    pool_a = [a for a in alert_arrivals(catalog, exclude=used) if alert_ok(a)] if alerts else []
    cites = [r for r in PRELOAD if r not in used]
    rng.shuffle(pool_p)
    rng.shuffle(pool_a)
    rng.shuffle(cites)
    out = []
    for t in slots:
        kinds = [k for k, pool in (("p", pool_p), ("p", pool_p), ("a", pool_a), ("c", cites)) if pool]
        if not kinds:
            break
        kind = choose(rng, kinds)
        what = f"{note}: " if note else ""
        if kind == "p":
            rid = pool_p.pop()
            out.append(event(t, "new_paper", note and f"{what}{title_of(catalog, rid)}", paper_id=rid))
        elif kind == "a":
            aid = pool_a.pop()
            fields = {"read": alert_read} if alert_read is not None else {}
            out.append(event(t, "new_alert", note and f"{what}{described(catalog, aid)}", alert_id=aid, **fields))
        else:
            rid = cites.pop()
            count = int(paper(catalog, rid).get("cited_by", 0)) + rng.randint(1, 25)
            out.append(event(t, "citations", note and f"{what}a citation count changes", paper_id=rid,
                             cited_by=count))
        used.add(str(out[-1].get("paper_id") or out[-1].get("alert_id")))
    return out


when = target_time  # the target time: see generate_kit.target_time


def sequence(rng: random.Random, n: int, decoys: list[Any], start: float, at: int, gap: int) -> dict[str, list[int]]:
    """n target times ending at `at`, at least `gap` s apart and after `start`, and a time for each
    decoy between start and at, kept 2 s from the targets."""
    span = (at - gap) - (int(start) + 1) - (n - 2) * gap
    if span < 0:
        raise NoDraw(f"no room for {n} targets {gap} s apart before {at} s")
    offsets = sorted(rng.randint(0, span) for _ in range(n - 1))
    targets = [int(start) + 1 + off + i * gap for i, off in enumerate(offsets)] + [at]
    free = [t for t in range(int(start) + 1, at) if all(abs(t - x) > 2 for x in targets)]
    return {"targets": targets, "decoys": sorted(sample(rng, free, len(decoys), "free seconds"))}


# --- alert_topic and its no-op ----------------------------------------------------------------

def topics(catalog: Catalog) -> dict[str, str]:
    """Keyword alerts that can arrive → their topic, when no other alert's text holds that topic."""
    texts = {aid: described(catalog, aid).lower() for aid in catalog.raw("alerts")}
    out = {}
    for aid in alert_arrivals(catalog):
        m = TOPIC.match(described(catalog, aid))
        if m and not any(m.group(1).lower() in t for o, t in texts.items() if o != aid):
            out[aid] = m.group(1)
    return out


def _alert_setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    found = topics(catalog)
    target = choose(rng, sorted(found), "alert topic")
    topic = found[target]
    others = alert_arrivals(catalog, exclude=[target])
    decoys = nearest(rng, others, knobs.decoys, lambda a: len(set(topic.lower().split()) & set(
        described(catalog, a).lower().replace(".", " ").split())), knobs.near_miss)
    at = when(rng, knobs, lo=4 + 2 * len(decoys))
    events = [event(t, "new_alert", f"decoy: another topic, not '{topic}' · {described(catalog, a)}", alert_id=a)
              for t, a in zip(times_between(rng, len(decoys), 0, at), decoys, strict=True)]
    events.append(event(at, "new_alert", f"target: an alert on the topic '{topic}' · {described(catalog, target)}",
                        alert_id=target))
    return {"target": target, "topic": topic, "at": at, "events": events, "used": {target, *decoys}}


def about(topic: str) -> str:
    return f"SELECT EXISTS (SELECT 1 FROM alerts WHERE description LIKE {like_text(topic)})"


def draw_alert_topic(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _alert_setup(rng, catalog, knobs)
    topic, at = s["topic"], s["at"]
    events = s["events"] + fill(rng, catalog, knobs, [e["at"] for e in s["events"]], s["used"],
                                alert_ok=lambda a: topic.lower() not in described(catalog, a).lower())
    return scenario(
        description=f"Alerts on other topics (those sharing words first) come first; the alert on {topic} arrives "
                    f"at {at} s.",
        prompt=f"I follow research on {topic}. Keep an eye on my MicroScholar alerts and tell me as soon as an alert "
               f"about {topic} comes in.",
        condition_at=at, start_page="/microscholar/",
        taxonomy=taxonomy("passive", "absolute", "easy", "alerts on near topics"),
        events=timeline(preload(), events), condition_sql=about(topic), eval_sql=about(topic),
        solution=[{"watch": ALERTS_PAGE, "until": {"text": topic}},
                  {"report": f"An alert about {topic} has arrived."}])


def draw_alert_absent_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The asked topic narrows another alert's topic to a field no alert covers; that broader alert arrives."""
    s = _alert_setup(rng, catalog, knobs)
    found = topics(catalog)
    base = choose(rng, sorted(a for a in found if a not in s["used"]), "broader alert")
    asked = f"{found[base]} in {choose(rng, PLACES)}"
    if any(asked.lower() in described(catalog, a).lower() for a in catalog.raw("alerts")):
        raise NoDraw(f"an alert covers {asked}")
    taken = [e["at"] for e in s["events"]]
    near_at = choose(rng, [t for t in range(20, 700) if all(abs(t - b) > 3 for b in taken)], "time")
    events = [{**e, "_note": e["_note"].replace("target:", "near miss (the source task's target):")}
              for e in s["events"]]
    events.append(event(near_at, "new_alert", f"decoy: {found[base]}, not {asked} · {described(catalog, base)}",
                        alert_id=base))
    events += fill(rng, catalog, knobs, [e["at"] for e in events], {*s["used"], base})
    return scenario(
        description=f"No-op copy of alert_topic asking about {asked}, which no alert covers. An alert on "
                    f"{found[base]} arrives at {near_at} s, and the {s['topic']} alert still arrives at {s['at']} s "
                    "(the near miss).",
        prompt=f"I follow research on {asked}. Keep an eye on my MicroScholar alerts and tell me as soon as an alert "
               f"about {asked} comes in.",
        condition_at=None, start_page="/microscholar/",
        taxonomy=taxonomy("noop", "absolute", "easy", f"an alert on {found[base]}"),
        events=timeline(preload(), events), condition_sql=about(asked), near_miss_sql=about(s["topic"]),
        solution=[{"watch": ALERTS_PAGE, "until": {"text": asked}},
                  {"report": f"An alert about {asked} has arrived."}])


# --- unread_alerts_more -----------------------------------------------------------------------

def draw_unread_alerts_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    pool = alert_arrivals(catalog)
    counted = sample(rng, pool, 4, "alerts")
    decoys = sample(rng, [a for a in pool if a not in counted], knobs.decoys, "alerts to arrive read")
    at = when(rng, knobs, lo=FIRST_READ_S + 4 + knobs.decoys)
    times = sequence(rng, 3, decoys, FIRST_READ_S, at, 1)
    events = [event(t, "new_alert", f"unread alert {i + 1} of 3" + (" (the target)" if i == 2 else "") +
                    f" · {described(catalog, a)}", alert_id=a, read=False)
              for i, (t, a) in enumerate(zip(times["targets"], counted, strict=False))]
    events += [event(t, "new_alert", f"decoy: arrives already read · {described(catalog, a)}", alert_id=a, read=True)
               for t, a in zip(times["decoys"], decoys, strict=True)]
    events.append(event(rng.randint(min(at + 10, 715), 715), "new_alert", "trailing: a fourth unread alert",
                        alert_id=counted[3], read=False))
    used = {*counted, *decoys}
    taken = [e["at"] for e in events]
    events += fill(rng, catalog, knobs, taken, used, alert_read=True, stop=at - 3)
    events += fill(rng, catalog, knobs, taken, used, start=at + 3)
    return scenario(
        description=f"Unread alerts arrive at {', '.join(str(t) for t in times['targets'])} s (the last is the "
                    "target); between them alerts arrive already read, which do not count. The alerts page shows "
                    "the unread total, never how many are new.",
        prompt="Watch my MicroScholar alerts without marking anything read, and tell me once there are at least three "
               "more unread alerts than when you started.",
        condition_at=at, start_page="/microscholar/",
        taxonomy=taxonomy("passive", "relative", "medium", "alerts that arrive already read"),
        events=timeline(preload(), events),
        condition_sql="SELECT (SELECT COUNT(*) FROM alerts WHERE origin = 'event' AND arrived_read = 0) >= 3",
        eval_sql="SELECT (SELECT COUNT(*) FROM alerts WHERE is_read = 0 AND origin != 'self') >= CAST((SELECT value "
                 "FROM session_meta WHERE key = 'baseline_unread_alert_count') AS REAL) + 3",
        solution=[{"watch": ALERTS_PAGE, "until": {"number": "(\\d+) unread", "at_least": "first + 3"}},
                  {"report": "There are three more unread alerts than when I started."}])


KINDS: tuple[Kind, ...] = (
    Kind("alert_topic", "passive", "absolute", draw_alert_topic, Knobs(decoys=3),
         "decoys: alerts on other topics, those sharing the topic's words first (near_miss)"),
    Kind("alert_absent_noop", "noop", "absolute", draw_alert_absent_noop, Knobs(decoys=3),
         "as alert_topic; the asked topic narrows another alert's topic, which arrives"),
    Kind("unread_alerts_more", "passive", "relative", draw_unread_alerts_more, Knobs(decoys=3),
         "decoys: alerts arriving already read between the three unread ones"),
)
