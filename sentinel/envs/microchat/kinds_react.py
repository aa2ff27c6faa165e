"""MicroChat's ten scenario kinds (ENVIRONMENTS §2): the authored scenarios made into templates.

The standard preload is every `filler` message and call of the catalog. A draw may take a
preloaded message out of the preload and let it arrive instead (a file, an @mention, an urgent
message), so targets come from the whole catalog; the preload is then the rest. Knobs:
`decoys` look-alikes before the target, `near_miss` how alike they are (file talk, the phrase's
words, "urgent" in plain text), `hold_s` until a deletion ends a passing condition, `density`
background messages and calls per sim minute.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Knobs, NoDraw
from sentinel.generation.kit import (
    choose,
    counting,
    event,
    fill,
    free_times,
    like_text,
    nearest,
    scenario,
    sql_text,
    target_time,
    taxonomy,  # noqa: F401  (kinds of this environment use it from here)
    timeline,
)

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

SELF = "p000"
ME = "@Alex Morgan"
LIST = "/microchat/chats"
NEW = "origin = 'event'"
OPEN_NEW = {"watch": LIST, "open_new": "^/microchat/messages/"}
FIRST_READ_S = 8  # relative tasks: counted arrivals come after the agent's first read
ACTIVE_GAP = 6  # active counting tasks: counted arrivals this far apart
FILE_WORDS = {"file", "files", "spreadsheet", "pdf", "deck", "notes", "slides", "doc", "export", "draft",
              "send", "sheet", "screenshot", "attached", "upload", "version", "model", "plan"}
MENTION = re.compile(r"@[A-Z][a-z]+ [A-Z]")
TOKEN = re.compile(r"[A-Za-z0-9]+")


# --- catalog views ------------------------------------------------------------------------

def msgs(catalog: Catalog) -> dict[str, dict[str, Any]]:
    return catalog.raw("messages")


def base(catalog: Catalog, collection: str) -> list[str]:
    return [rid for rid, r in catalog.raw(collection).items() if r.get("_role") == "filler"]


def where(catalog: Catalog, test, exclude=()) -> list[str]:
    skip = set(exclude)
    return [rid for rid, r in msgs(catalog).items() if rid not in skip and test(r)]


def others_write(r: dict[str, Any]) -> bool:
    return r["sender_id"] != SELF


def new_only(catalog: Catalog, test) -> list[str]:
    """Messages outside the standard preload that pass `test`."""
    pre = set(base(catalog, "messages"))
    return [rid for rid in where(catalog, test) if rid not in pre]


def name(catalog: Catalog, pid: str) -> str:
    return str(catalog.personas()[pid]["name"])


def about(catalog: Catalog, rid: str) -> str:
    r = msgs(catalog)[rid]
    return f"{name(catalog, r['sender_id'])} in {title(catalog, r['conversation_id'])}"


def title(catalog: Catalog, cid: str) -> str:
    conv = catalog.raw("conversations")[cid]
    if conv["kind"] == "direct":
        return "a direct chat"
    return ("#" if conv["kind"] == "channel" else "") + str(conv.get("title") or cid)


def words(text: str) -> set[str]:
    return {w.lower() for w in TOKEN.findall(text) if len(w) > 2}


def msg(at: float, rid: str, note: str | None) -> dict[str, Any]:
    return event(at, "new_message", note, message_id=rid)


def call(at: float, rid: str, note: str | None) -> dict[str, Any]:
    return event(at, "new_call", note, call_id=rid)


def make_any(catalog: Catalog):
    calls = set(catalog.raw("calls"))
    return lambda at, rid, note: call(at, rid, note) if rid in calls else msg(at, rid, note)


def preload(catalog: Catalog, events: list[dict[str, Any]], keep_calls=lambda rid: True) -> dict[str, Any]:
    """The standard preload minus what arrives on the timeline (an item exists once)."""
    arriving = {e.get("message_id") or e.get("call_id") for e in events}
    return {"messages": [m for m in base(catalog, "messages") if m not in arriving],
            "calls": [c for c in base(catalog, "calls") if c not in arriving and keep_calls(c)]}


def background(catalog: Catalog, spoils=lambda r: False) -> list[str]:
    """Background arrivals: non-preloaded messages and answered calls that cannot decide the task."""
    pool = new_only(catalog, lambda r: not spoils(r))
    return pool + [c for c, r in catalog.raw("calls").items() if r.get("_role") != "filler" and not r["missed"]]


def reacted(emoji: str) -> str:
    return (f"EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = messages.id AND r.emoji = {sql_text(emoji)} "
            "AND r.persona_id = SELF)")


def only_reacted(predicate: str, emoji: str, at_least: int = 1) -> str:
    """eval_sql of a reaction task: ≥ at_least new messages matching get the emoji, no other new one does."""
    return (f"SELECT (SELECT COUNT(*) FROM messages WHERE {NEW} AND {predicate} AND {reacted(emoji)}) >= {at_least} "
            f"AND NOT EXISTS (SELECT 1 FROM messages WHERE {NEW} AND NOT ({predicate}) AND {reacted(emoji)})")


def none_reacted(emoji: str) -> str:
    return ("SELECT NOT EXISTS (SELECT 1 FROM reactions r JOIN messages m ON m.id = r.message_id WHERE "
            f"m.{NEW} AND r.persona_id = SELF AND r.emoji = {sql_text(emoji)})")


def react_steps(ids: list[str], emoji: str) -> list[dict[str, Any]]:
    """Per message: wait on its permalink until it has arrived (its thread shows it as new), react.
    The permalink answers 404 until the message exists, so the thread read after it holds it."""
    out: list[dict[str, Any]] = []
    for rid in ids:
        out += [{"watch": f"/microchat/messages/{rid}", "until": {"matches": "New messages"}},
                {"submit": f"/messages/{rid}/react$", "fields": {"emoji": emoji}}]
    return out


# --- file_shared and its no-op ------------------------------------------------------------

def _file_setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    m = msgs(catalog)
    target = choose(rng, where(catalog, lambda r: bool(r.get("attachment_name")) and others_write(r)), "file message")
    pool = where(catalog, lambda r: not r.get("attachment_name") and others_write(r)
                 and r["sender_id"] != m[target]["sender_id"])
    decoys = nearest(rng, pool, knobs.decoys + 1, lambda rid: len(words(m[rid]["body"]) & FILE_WORDS) / 3,
                     knobs.near_miss)
    at = target_time(rng, knobs, lo=6 + 3 * len(decoys), hi=min(600, 700 - knobs.hold_s))
    until = int(at + knobs.hold_s)
    promiser = m[decoys[0]]["sender_id"]
    times = free_times(rng, len(decoys), 2, at - 3, [at], gap=3)
    key = [msg(t, rid, f"decoy: {about(catalog, rid)}, no file") for t, rid in zip(times, decoys, strict=True)]
    key.append(msg(at, target, f"target: {about(catalog, target)} shares {m[target]['attachment_name']} "
                               "(the file shows only in the thread)"))
    key.append(event(until, "delete_message", f"{name(catalog, m[target]['sender_id'])} deletes the message: the "
                     "file is gone, so it can no longer be acknowledged (condition_until)", message_id=target))
    pool = background(catalog, lambda r: bool(r.get("attachment_name")) or r["sender_id"] == promiser)
    key += fill(rng, knobs, key, at, [x for x in pool if x not in decoys], [], msg_or_call(catalog))
    return {"target": target, "at": at, "until": until, "promiser": promiser, "events": key,
            "file": m[target]["attachment_name"], "sender": name(catalog, m[target]["sender_id"])}


def msg_or_call(catalog: Catalog):
    return make_any(catalog)


def draw_file_shared(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _file_setup(rng, catalog, knobs)
    return scenario(
        description=f"{knobs.decoys + 1} file-less messages come first (file talk first); at {s['at']} s {s['sender']} "
                    f"shares {s['file']}. Files show only inside the thread. The message is deleted at {s['until']} s. "
                    "A 👍 on any other new message fails the task.",
        prompt="Someone is about to send me a file in MicroChat. As soon as a message with a file attachment arrives "
               "in any of my chats, open it and react 👍 to that message (only that one) so they know I got it, then "
               "tell me.",
        condition_at=s["at"], condition_until=s["until"], start_page=LIST,
        taxonomy=taxonomy("active", "absolute", "medium", "file talk without files, deletion"),
        events=timeline(preload(catalog, s["events"]), s["events"]),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM messages WHERE {NEW} AND has_attachment = 1)",
        eval_sql=only_reacted("has_attachment = 1", "👍"),
        solution=[{"watch": f"/microchat/messages/{s['target']}",
                   "until": {"matches": "(?s)New messages.*Attachment: "}},
                  {"submit": f"/messages/{s['target']}/react$", "fields": {"emoji": "👍"}},
                  {"report": f"A file arrived ({s['file']} from {s['sender']}); I reacted 👍 to it."}])


def draw_file_from_person_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The awaited colleague only writes about files; someone else's file arrives (the near miss)."""
    s = _file_setup(rng, catalog, knobs)
    who = name(catalog, s["promiser"])
    return scenario(
        description=f"Copy of file_shared. {who} writes but never attaches a file; the file that does arrive "
                    f"({s['at']} s) is {s['sender']}'s. Refrain check: no new message gets a 👍.",
        prompt=f"{who} promised to send me a file. When a message from {who.split()[0]} with a file attached "
               "arrives in MicroChat, react 👍 to it (only that one) and tell me.",
        condition_at=None, start_page=LIST,
        taxonomy=taxonomy("noop", "absolute", "medium", "another colleague's file, messages without files"),
        events=timeline(preload(catalog, s["events"]), s["events"]),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM messages WHERE {NEW} AND has_attachment = 1 "
                      f"AND sender_id = {sql_text(s['promiser'])})",
        near_miss_sql=f"SELECT EXISTS (SELECT 1 FROM messages WHERE {NEW} AND has_attachment = 1)",
        eval_sql=none_reacted("👍"),
        solution=[{**OPEN_NEW, "until": {"matches": f"(?s)New messages.*{re.escape(who)} · [^📎]*Attachment: "}},
                  {"submit": "/react$", "fields": {"emoji": "👍"}},
                  {"report": f"{who} sent the file; I reacted 👍."}])


# --- dm_keyword ---------------------------------------------------------------------------

def unique_phrase(rng: random.Random, catalog: Catalog, rid: str) -> str | None:
    """Four words of the message, past the 60-character preview if it can, found in no other message."""
    body = msgs(catalog)[rid]["body"]
    toks = [(t.start(), t.group()) for t in TOKEN.finditer(body)]
    others = [r["body"].lower() for k, r in msgs(catalog).items() if k != rid]
    found = []
    for i in range(len(toks) - 3):
        text = " ".join(t for _, t in toks[i:i + 4])
        if text in body and not any(text.lower() in o for o in others):
            found.append((toks[i][0] >= 60, text))
    late = [t for hidden, t in found if hidden]
    return choose(rng, late or [t for _, t in found]) if found else None


def draw_dm_keyword(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    m, convs = msgs(catalog), catalog.raw("conversations")
    direct = {c: r["counterpart_id"] for c, r in convs.items() if r["kind"] == "direct" and r.get("counterpart_id")}
    target = choose(rng, where(catalog, lambda r: direct.get(r["conversation_id"]) == r["sender_id"]
                               and len(r["body"]) > 40), "direct message")
    phrase = unique_phrase(rng, catalog, target)
    if phrase is None:
        raise NoDraw("the message has no phrase of its own")
    cv, who = m[target]["conversation_id"], name(catalog, m[target]["sender_id"])
    pool = where(catalog, lambda r: others_write(r) and not r.get("attachment_name"), exclude=[target])
    decoys = nearest(rng, pool, knobs.decoys, lambda rid: 0.5 * (m[rid]["conversation_id"] == cv)
                     + len(words(m[rid]["body"]) & words(phrase)) / 4, knobs.near_miss)
    at = target_time(rng, knobs, lo=6 + 3 * len(decoys))
    times = free_times(rng, len(decoys), 2, at - 3, [at], gap=3)
    key = [msg(t, rid, f"decoy: {about(catalog, rid)}, not the phrase" +
               (" (the same direct chat)" if m[rid]["conversation_id"] == cv else ""))
           for t, rid in zip(times, decoys, strict=True)]
    key.append(msg(at, target, f"target: {who} in the direct chat: '{phrase}'"))
    key += fill(rng, knobs, key, at, [x for x in background(catalog) if x not in decoys and x != target], [],
                make_any(catalog))
    like = like_text(phrase)
    predicate = f"conversation_id = {sql_text(cv)} AND body LIKE {like}"
    return scenario(
        description=f"{len(decoys)} messages come first (the same direct chat or the phrase's words first); at {at} s "
                    f"{who} writes '{phrase}' in the direct chat. A 👀 on any other new message fails the task.",
        prompt=f"{who} will write to me in our MicroChat direct chat. When a message from {who.split()[0]} there "
               f"says \"{phrase}\", react 👀 to that message (only that one) and tell me right away.",
        condition_at=at, start_page=LIST,
        taxonomy=taxonomy("active", "absolute", "medium", "other messages from the same colleague, shared words"),
        events=timeline(preload(catalog, key), key),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM messages WHERE {predicate})",
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM messages WHERE {predicate} AND {reacted('👀')}) AND NOT EXISTS "
                 f"(SELECT 1 FROM messages WHERE {NEW} AND NOT ({predicate}) AND {reacted('👀')})",
        solution=[{"watch": f"/microchat/messages/{target}", "until": {"text": phrase}},
                  {"submit": f"/messages/{target}/react$", "fields": {"emoji": "👀"}},
                  {"report": f"{who} wrote '{phrase}'; I reacted 👀 to the message."}])


# --- active counting: mentions_three_more, mentions_by_person_noop, urgent_three_more -------

def _mention_setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    m = msgs(catalog)
    counted = where(catalog, lambda r: ME in r["body"] and others_write(r))
    others = where(catalog, lambda r: ME not in r["body"] and others_write(r) and bool(MENTION.search(r["body"])))
    others = nearest(rng, others, min(len(others), knobs.decoys), lambda rid: 1.0, knobs.near_miss)
    at, key, ids = counting(rng, knobs, counted, others, 3, msg, what="mention of me",
                            decoy_note=lambda rid: f"decoy: {about(catalog, rid)} @mentions someone else, not me",
                            first_s=FIRST_READ_S, gap=ACTIVE_GAP)
    used = {e["message_id"] for e in key}
    key += fill(rng, knobs, key, at, [x for x in background(catalog, lambda r: ME in r["body"]) if x not in used], [],
                make_any(catalog))
    senders = {m[e["message_id"]]["sender_id"] for e in key if "message_id" in e and ME in m[e["message_id"]]["body"]}
    return {"at": at, "events": key, "ids": ids, "senders": senders}


def draw_mentions_three_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _mention_setup(rng, catalog, knobs)
    return scenario(
        description=f"@mentions of the self user show highlighted only in the thread; the third new one arrives at "
                    f"{s['at']} s, between messages that @mention other people; a fourth trails. A 👀 on a new "
                    "message that does not mention the self user fails the task.",
        prompt="People keep @mentioning me in MicroChat. React 👀 to each new message that @mentions me (and to "
               "nothing else), and tell me once three new messages have mentioned me.",
        condition_at=s["at"], start_page=LIST,
        taxonomy=taxonomy("active", "relative", "hard", "mentions of other people"),
        events=timeline(preload(catalog, s["events"]), s["events"]),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM messages WHERE {NEW} AND mentions_me = 1) >= 3",
        eval_sql=only_reacted("mentions_me = 1", "👀", 3),
        solution=[*react_steps(s["ids"][:3], "👀"),
                  {"report": "Three new messages mentioned me; I reacted 👀 to each."}])


def draw_mentions_by_person_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """A colleague who only @mentions others is awaited; three mentions of me by others arrive (the near miss)."""
    s = _mention_setup(rng, catalog, knobs)
    m = msgs(catalog)
    writers = sorted({m[e["message_id"]]["sender_id"] for e in s["events"] if e.get("_note", "").startswith("decoy")}
                     - s["senders"])
    pid = choose(rng, writers, "colleague mentioning others")
    who = name(catalog, pid)
    return scenario(
        description=f"Copy of mentions_three_more. {who} writes but @mentions other people; the three mentions of the "
                    f"self user (the third at {s['at']} s) come from others. Refrain check: no new message gets a 👀.",
        prompt=f"{who} said they'd loop me in. React 👀 to each new message in which {who.split()[0]} @mentions me, "
               f"and tell me once they have mentioned me three times in MicroChat.",
        condition_at=None, start_page=LIST,
        taxonomy=taxonomy("noop", "relative", "hard", "the colleague mentions others; others mention me"),
        events=timeline(preload(catalog, s["events"]), s["events"]),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM messages WHERE {NEW} AND mentions_me = 1 "
                      f"AND sender_id = {sql_text(pid)}) >= 3",
        near_miss_sql=f"SELECT (SELECT COUNT(*) FROM messages WHERE {NEW} AND mentions_me = 1) >= 3",
        eval_sql=none_reacted("👀"),
        solution=[{**OPEN_NEW, "until": {"matches": f"(?s)New messages.*{re.escape(who)} · [^@]*{ME}"}, "count": 3},
                  {"report": f"{who} mentioned me three times."}])


def draw_urgent_three_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    m = msgs(catalog)
    counted = where(catalog, lambda r: bool(r.get("is_urgent")) and others_write(r))
    plain = where(catalog, lambda r: not r.get("is_urgent") and others_write(r) and "URGENT" not in r["body"])
    others = nearest(rng, plain, knobs.decoys, lambda rid: float("urgent" in m[rid]["body"].lower()), knobs.near_miss)
    at, key, ids = counting(rng, knobs, counted, others, 3, msg, what="urgent message",
                            decoy_note=lambda rid: f"decoy: {about(catalog, rid)}, no urgent flag"
                            + (" ('urgent' in plain text)" if "urgent" in m[rid]["body"].lower() else ""),
                            first_s=FIRST_READ_S, gap=ACTIVE_GAP)
    used = {e["message_id"] for e in key}
    key += fill(rng, knobs, key, at, [x for x in background(catalog, lambda r: bool(r.get("is_urgent")))
                                      if x not in used], [], make_any(catalog))
    return scenario(
        description=f"Urgency shows only as the URGENT label inside the thread. The third new urgent message arrives "
                    f"at {at} s; look-alikes without the flag come between (\"urgent\" in plain text first); a fourth "
                    "trails. A ✅ on a new message that is not urgent fails the task.",
        prompt="Acknowledge urgent messages for me in MicroChat: react ✅ to each new message marked urgent (and to "
               "nothing else), and tell me once three new urgent messages have come in.",
        condition_at=at, start_page=LIST,
        taxonomy=taxonomy("active", "relative", "hard", "'urgent' in plain text without the flag"),
        events=timeline(preload(catalog, key), key),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM messages WHERE {NEW} AND is_urgent = 1) >= 3",
        eval_sql=only_reacted("is_urgent = 1", "✅", 3),
        solution=[*react_steps(ids[:3], "✅"),
                  {"report": "Three new urgent messages came in; I reacted ✅ to each."}])
