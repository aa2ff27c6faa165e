"""MicroChat's passive counting kinds: missed calls (absolute and relative), unread messages and
unread conversations. Counted arrivals come from outside the standard preload; look-alikes are
answered calls, the self user's own messages (they arrive read) and messages landing in
conversations that are already unread.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs
from sentinel.envs.microchat import kinds_react as k
from sentinel.generation.kit import counting, fill, scenario, timeline

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

CALLS = "/microchat/calls"
BASELINE = "CAST((SELECT value FROM session_meta WHERE key = 'baseline_{}') AS REAL)"


def calls_where(catalog: Catalog, missed: bool, preloaded: bool) -> list[str]:
    return [c for c, r in catalog.raw("calls").items()
            if bool(r["missed"]) == missed and (r.get("_role") == "filler") == preloaded]


def call_note(catalog: Catalog, rid: str) -> str:
    r = catalog.raw("calls")[rid]
    kind = "missed" if r["missed"] else f"answered {r['direction']}"
    return f"{kind} call ({k.name(catalog, r['persona_id'])})"


def _calls_timeline(rng: random.Random, catalog: Catalog, knobs: Knobs, n: int, first_s: float):
    missed = calls_where(catalog, True, False)
    answered = [c for c, r in catalog.raw("calls").items() if r.get("_role") != "filler" and not r["missed"]]
    at, key, _ = counting(rng, knobs, missed, answered, n, k.call, what="missed call", first_s=first_s,
                          decoy_note=lambda rid: f"decoy: {call_note(catalog, rid)}, not missed")
    for e in key:
        if "call_id" in e and e.get("_note", "").startswith("missed"):
            e["_note"] += f" ({k.name(catalog, catalog.raw('calls')[e['call_id']]['persona_id'])})"
    used = {e.get("call_id") for e in key}
    safe = [x for x in k.background(catalog) if x not in used]
    key += fill(rng, knobs, key, at, safe, [], k.make_any(catalog))
    return at, key


def draw_missed_calls_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    kept = [c for c in calls_where(catalog, True, True) if rng.random() < 0.5]
    n = rng.randint(3, 4)
    threshold = len(kept) + n
    at, key = _calls_timeline(rng, catalog, knobs, n, 2)
    load = k.preload(catalog, key, lambda c: not catalog.raw("calls")[c]["missed"] or c in kept)
    sql = f"SELECT (SELECT COUNT(*) FROM calls WHERE missed = 1) >= {threshold}"
    return scenario(
        description=f"The preload holds {len(kept)} missed calls. {n} more arrive, the last at {at} s, with answered "
                    f"and outgoing calls in between; another missed call trails.",
        prompt=f"Keep an eye on my MicroChat call log. Tell me once it shows {threshold} missed calls.",
        condition_at=at, start_page=k.LIST,
        taxonomy=k.taxonomy("passive", "absolute", "easy", "answered and outgoing calls"),
        events=timeline(load, key), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": CALLS, "until": {"number": "Missed \\((\\d+)\\)", "at_least": threshold}},
                  {"report": f"The call log shows {threshold} missed calls."}])


def draw_missed_calls_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    at, key = _calls_timeline(rng, catalog, knobs, 3, k.FIRST_READ_S)
    sql = (f"SELECT (SELECT COUNT(*) FROM calls WHERE missed = 1 AND origin != 'self') >= "
           f"{BASELINE.format('missed_call_count')} + 3")
    return scenario(
        description=f"Calls were already missed at the start. Three more missed calls arrive, the third at {at} s, "
                    "with answered and outgoing calls between them; a fourth trails.",
        prompt="I'm in workshops all day. Watch my MicroChat calls and tell me once I have missed three more calls "
               "than I had when you started.",
        condition_at=at, start_page=k.LIST,
        taxonomy=k.taxonomy("passive", "relative", "medium", "answered and outgoing calls, missed calls already there"),
        events=timeline(k.preload(catalog, key), key), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": CALLS, "until": {"number": "Missed \\((\\d+)\\)", "at_least": "first + 3"}},
                  {"report": "Three more calls were missed since I started watching."}])


def unread_start(catalog: Catalog) -> list[str]:
    """Preloaded messages that start unread (the self user's own are always read)."""
    m = k.msgs(catalog)
    return [rid for rid in k.base(catalog, "messages") if not m[rid].get("is_read") and k.others_write(m[rid])]


def own_and_answered(catalog: Catalog) -> list[str]:
    return [x for x in k.background(catalog) if x in catalog.raw("calls") or not k.others_write(k.msgs(catalog)[x])]


def draw_unread_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    start = len(unread_start(catalog))
    n = rng.randint(4, 7)
    threshold = start + n
    counted = k.new_only(catalog, k.others_write)
    at, key, _ = counting(rng, knobs, counted, own_and_answered(catalog), n, k.make_any(catalog),
                          what="unread arrival", decoy_note=lambda rid: "decoy: arrives read (own message) or a call")
    used = {e.get("message_id") or e.get("call_id") for e in key}
    key += fill(rng, knobs, key, at, [x for x in own_and_answered(catalog) if x not in used],
                [x for x in k.background(catalog) if x not in used], k.make_any(catalog))
    sql = f"SELECT (SELECT COUNT(*) FROM messages WHERE is_read = 0) >= {threshold}"
    return scenario(
        description=f"{start} messages are unread at the start. {n} unread arrivals bring it to {threshold} at {at} s; "
                    "the self user's own messages arrive read and calls arrive in between, neither counts.",
        prompt=f"Don't open any chats. Just tell me when I have {threshold} unread messages in MicroChat.",
        condition_at=at, start_page=k.LIST,
        taxonomy=k.taxonomy("passive", "absolute", "easy", "own messages arriving read, calls"),
        events=timeline(k.preload(catalog, key), key), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": k.LIST, "until": {"number": "Chat \\((\\d+)\\)", "at_least": threshold}},
                  {"report": f"You have {threshold} unread messages."}])


def draw_unread_chats_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    m = k.msgs(catalog)
    unread_convs = {m[rid]["conversation_id"] for rid in unread_start(catalog)}
    fresh = k.new_only(catalog, lambda r: k.others_write(r) and r["conversation_id"] not in unread_convs)
    rng.shuffle(fresh)
    one_each: dict[str, str] = {}
    for rid in fresh:
        one_each.setdefault(m[rid]["conversation_id"], rid)
    near = k.new_only(catalog, lambda r: k.others_write(r) and r["conversation_id"] in unread_convs)
    near = k.nearest(rng, near + own_and_answered(catalog), min(knobs.decoys, len(near)),
                     lambda rid: float(rid in m and k.others_write(m[rid])), knobs.near_miss)
    at, key, _ = counting(rng, knobs, sorted(one_each.values()), near, 3, k.make_any(catalog),
                          what="newly unread chat", first_s=k.FIRST_READ_S,
                          decoy_note=lambda rid: "near miss: lands in a chat that is already unread"
                          if rid in m and k.others_write(m[rid]) else "decoy: arrives read (own message) or a call")
    used = {e.get("message_id") or e.get("call_id") for e in key}
    safe = [x for x in own_and_answered(catalog) + near if x not in used]
    key += fill(rng, knobs, key, at, safe, [x for x in k.background(catalog) if x not in used], k.make_any(catalog))
    sql = (f"SELECT (SELECT COUNT(DISTINCT conversation_id) FROM messages WHERE is_read = 0) >= "
           f"{BASELINE.format('unread_conversation_count')} + 3")
    return scenario(
        description=f"{len(unread_convs)} conversations are unread at the start. Three more become unread, the third "
                    f"at {at} s; in between messages land in chats that are already unread and the self user's own "
                    "messages arrive read.",
        prompt="Don't open any chats. Just watch my MicroChat conversation list and tell me once three more "
               "conversations have unread messages than when you started.",
        condition_at=at, start_page=k.LIST,
        taxonomy=k.taxonomy("passive", "relative", "medium", "more messages in chats already unread, own messages"),
        events=timeline(k.preload(catalog, key), key), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": k.LIST, "until": {"number": "Unread \\((\\d+)\\)", "at_least": "first + 3"}},
                  {"report": "Three more conversations have unread messages."}])


PASSIVE_KINDS: tuple[Kind, ...] = (
    Kind("missed_calls_threshold", "passive", "absolute", draw_missed_calls_threshold, Knobs(decoys=3),
         "decoys: answered and outgoing calls between the missed ones; threshold = preloaded missed + 3–4"),
    Kind("missed_calls_more", "passive", "relative", draw_missed_calls_more, Knobs(decoys=3),
         "decoys: answered and outgoing calls between the three missed ones"),
    Kind("unread_threshold", "passive", "absolute", draw_unread_threshold, Knobs(decoys=3),
         "decoys: own messages (arrive read) and calls; threshold = preloaded unread + 4–7"),
    Kind("unread_chats_more", "passive", "relative", draw_unread_chats_more, Knobs(decoys=3),
         "decoys: messages into chats already unread (near_miss: how many of them, against own messages)"),
)
