"""MicroChat's ten scenario kinds (docs/environments.md#microchat), declared on sentinel.generation.kit. The
standard preload is every `filler` message and call; a target may come from it (it then arrives instead)."""

from __future__ import annotations

import random
import re
from functools import partial
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.generation import kit

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

SELF = "p000"
ME = "@Alex Morgan"
LIST = "/microchat/chats"
CALLS = "/microchat/calls"
NEW = "origin = 'event'"
OPEN_NEW = {"watch": LIST, "open_new": "^/microchat/messages/"}
ACTIVE_GAP = 6  # active counting tasks: counted arrivals this far apart
FILE_WORDS = {"file", "files", "spreadsheet", "pdf", "deck", "notes", "slides", "doc", "export", "draft",
              "send", "sheet", "screenshot", "attached", "upload", "version", "model", "plan"}
MENTION = re.compile(r"@[A-Z][a-z]+ [A-Z]")
TOKEN = re.compile(r"[A-Za-z0-9]+")


# --- catalog views and the scenario's frame -------------------------------------------------

def base(catalog: Catalog, collection: str) -> list[str]:
    return [rid for rid, r in catalog.raw(collection).items() if r.get("_role") == "filler"]


def where(catalog: Catalog, test, new: bool = False) -> list[str]:
    """Messages that pass `test`; new: only those outside the standard preload."""
    pre = set(base(catalog, "messages")) if new else set()
    return [rid for rid, r in catalog.raw("messages").items() if rid not in pre and test(r)]


def others_write(r: dict[str, Any]) -> bool:
    return r["sender_id"] != SELF


def name(catalog: Catalog, pid: str) -> str:
    return str(catalog.personas()[pid]["name"])


def about(catalog: Catalog, rid: str) -> str:
    """'Priya Shah in #design' (a direct chat is 'a direct chat')."""
    r = catalog.raw("messages")[rid]
    conv = catalog.raw("conversations")[r["conversation_id"]]
    place = "a direct chat" if conv["kind"] == "direct" else (
        ("#" if conv["kind"] == "channel" else "") + str(conv.get("title") or conv["id"]))
    return f"{name(catalog, r['sender_id'])} in {place}"


class Chat(kit.Arrivals):
    """What may arrive: any message or call of the catalog (a target may come from the standard preload)."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__({"new_message": list(catalog.raw("messages")), "new_call": list(catalog.raw("calls"))},
                         {"new_message": "message_id", "new_call": "call_id"})


def background(catalog: Catalog) -> list[str]:
    """Background arrivals: messages outside the standard preload and answered calls."""
    answered = [c for c, r in catalog.raw("calls").items() if r["_role"] != "filler" and not r["missed"]]
    return where(catalog, lambda r: True, new=True) + answered


def traffic(rng: random.Random, catalog: Catalog, knobs: Knobs, events: list[dict[str, Any]],
            spoils=lambda r: False, after: float | None = None) -> list[dict[str, Any]]:
    """The events plus background, never a message that `spoils` the task (before `after`)."""
    m = catalog.raw("messages")
    return kit.traffic(rng, knobs, events, background(catalog), Chat(catalog).make,
                       lambda rid: rid in m and spoils(m[rid]), after)


def facts(catalog: Catalog, at: int, events: list[dict[str, Any]], keep_calls=lambda c: True,
          **more: Any) -> dict[str, Any]:
    """The facts of a draw, with the standard preload minus what arrives (an item exists once)."""
    arriving = kit.arriving(events)
    preload = {"messages": [m for m in base(catalog, "messages") if m not in arriving],
               "calls": [c for c in base(catalog, "calls") if c not in arriving and keep_calls(c)]}
    return {"at": at, "events": events, "preload": preload, **more}


def reacted(emoji: str) -> str:
    return (f"EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = messages.id AND r.emoji = "
            f"{kit.sql_text(emoji)} AND r.persona_id = SELF)")


def none_reacted(emoji: str) -> str:
    return ("SELECT NOT EXISTS (SELECT 1 FROM reactions r JOIN messages m ON m.id = r.message_id WHERE "
            f"m.{NEW} AND r.persona_id = SELF AND r.emoji = {kit.sql_text(emoji)})")


def react_task(predicate: str, emoji: str, ids: list[str], report: str, until: Any = None) -> dict[str, Any]:
    """An active reaction task's condition, grading and solution: len(ids) new messages match `predicate`; the agent
    reacts `emoji` to each (and to no other new message), waiting on its permalink until it has arrived (its thread
    shows it as new, or `until`). The permalink answers 404 until the message exists: the thread read after holds it."""
    wait = until or {"matches": "New messages"}
    steps = [step for rid in ids for step in ({"watch": f"/microchat/messages/{rid}", "until": wait},
                                              {"submit": f"/messages/{rid}/react$", "fields": {"emoji": emoji}})]
    graded = f"SELECT (SELECT COUNT(*) FROM messages WHERE {NEW} AND {predicate} AND {reacted(emoji)}) >= {len(ids)}"
    return {"condition_sql": kit.count_reaches(f"messages WHERE {NEW} AND {predicate}", len(ids)),
            "eval_sql": f"{graded} AND NOT EXISTS (SELECT 1 FROM messages WHERE {NEW} AND NOT ({predicate}) AND "
                        f"{reacted(emoji)})", "solution": [*steps, {"report": report}]}


# --- file_shared and its no-op ------------------------------------------------------------

def file_message(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """A message sharing a file (shown only in the thread), file-less look-alikes before it (file
    talk first), the sender deleting it when the hold ends. The first look-alike's sender is the
    colleague the no-op awaits; background holds no file and nothing from them."""
    m = catalog.raw("messages")
    target = kit.choose(rng, where(catalog, lambda r: r.get("attachment_name") and others_write(r)), "file message")
    sender, file = m[target]["sender_id"], m[target]["attachment_name"]
    pool = where(catalog, lambda r: not r.get("attachment_name") and others_write(r) and r["sender_id"] != sender)
    decoys = kit.nearest(rng, pool, knobs.decoys + 1, lambda rid: len(kit.words(m[rid]["body"]) & FILE_WORDS) / 3,
                         knobs.near_miss)
    at, until, events = kit.one_target(
        rng, knobs, Chat(catalog).make, target, decoys, hold=True, hi=min(600, 700 - knobs.hold_s),
        note=f"target: {about(catalog, target)} shares {file} (the file shows only in the thread)",
        decoy_note=lambda rid: f"decoy: {about(catalog, rid)}, no file")
    assert until is not None  # hold=True: the message is deleted when the hold ends
    events.append(kit.event(until, "delete_message", f"{name(catalog, sender)} deletes the message: the file is "
                            "gone, so it can no longer be acknowledged (condition_until)", message_id=target))
    promiser = m[decoys[0]]["sender_id"]
    events = traffic(rng, catalog, knobs, events, lambda r: r.get("attachment_name") or r["sender_id"] == promiser)
    who = name(catalog, promiser)
    return facts(catalog, at, events, until=until, target=target, file=file, sender=name(catalog, sender),
                 promiser=promiser, who=who, first=who.split()[0], looks=len(decoys))


# --- dm_keyword ---------------------------------------------------------------------------

def unique_phrase(rng: random.Random, catalog: Catalog, rid: str) -> str:
    """Four words of the message, past the 60-character preview if it can, found in no other message."""
    body = catalog.raw("messages")[rid]["body"]
    toks = [(t.start(), t.group()) for t in TOKEN.finditer(body)]
    others = [r["body"].lower() for k, r in catalog.raw("messages").items() if k != rid]
    grams = [(start >= 60, " ".join(t for _, t in toks[i:i + 4])) for i, (start, _) in enumerate(toks[:-3])]
    found = [(hidden, text) for hidden, text in grams if text in body and not any(text.lower() in o for o in others)]
    if not found:
        raise NoDraw("the message has no phrase of its own")
    return kit.choose(rng, [t for hidden, t in found if hidden] or [t for _, t in found])


def direct_phrase(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """A phrase of a direct message, look-alikes before it (the same chat or the phrase's words first)."""
    m, convs = catalog.raw("messages"), catalog.raw("conversations")
    direct = {c: r["counterpart_id"] for c, r in convs.items() if r["kind"] == "direct" and r.get("counterpart_id")}
    target = kit.choose(rng, where(catalog, lambda r: direct.get(r["conversation_id"]) == r["sender_id"]
                                   and len(r["body"]) > 40), "direct message")
    phrase = unique_phrase(rng, catalog, target)
    cv, who = m[target]["conversation_id"], name(catalog, m[target]["sender_id"])
    pool = where(catalog, lambda r: others_write(r) and not r.get("attachment_name") and r["id"] != target)
    decoys = kit.nearest(rng, pool, knobs.decoys, lambda rid: 0.5 * (m[rid]["conversation_id"] == cv)
                         + len(kit.words(m[rid]["body"]) & kit.words(phrase)) / 4, knobs.near_miss)
    at, _, events = kit.one_target(rng, knobs, Chat(catalog).make, target, decoys,
                                   note=f"target: {who} in the direct chat: '{phrase}'",
                                   decoy_note=lambda rid: f"decoy: {about(catalog, rid)}, not the phrase"
                                   + (" (the same direct chat)" if m[rid]["conversation_id"] == cv else ""))
    return facts(catalog, at, traffic(rng, catalog, knobs, events), target=target, phrase=phrase, cv=cv, who=who,
                 first=who.split()[0])


IN_DM = "conversation_id = {cv!q} AND body LIKE {phrase!l}"


# --- active counting: mentions_three_more, mentions_by_person_noop, urgent_three_more -------

def three_new(rng: random.Random, catalog: Catalog, knobs: Knobs, flag, looks, score, what: str,
              decoy_note) -> dict[str, Any]:
    """An active counting kind's draw: three new messages from others that `flag` marks (the third at the target,
    a fourth trailing) after the first read, ACTIVE_GAP apart, `looks` (by `score`) between, no flagged background."""
    m = catalog.raw("messages")
    pool = where(catalog, lambda r: looks(r) and others_write(r) and not flag(r))
    decoys = kit.nearest(rng, pool, min(len(pool), knobs.decoys), lambda rid: score(m[rid]), knobs.near_miss)
    at, events, ids = kit.counting(
        rng, knobs, where(catalog, lambda r: flag(r) and others_write(r)), decoys, 3, Chat(catalog).make, what=what,
        decoy_note=lambda rid: f"decoy: {about(catalog, rid)}{decoy_note(m[rid])}", first_s=kit.FIRST_READ_S,
        gap=ACTIVE_GAP)
    return facts(catalog, at, traffic(rng, catalog, knobs, events, flag), m1=ids[0], m2=ids[1], m3=ids[2])


THREE = ["{m1}", "{m2}", "{m3}"]  # the counted messages of three_new, in the solution's templates
mentions = partial(three_new, flag=lambda r: ME in r["body"], looks=lambda r: bool(MENTION.search(r["body"])),
                   score=lambda r: 1.0, what="mention of me", decoy_note=lambda r: " @mentions someone else, not me")
urgent = partial(three_new, flag=lambda r: bool(r.get("is_urgent")), looks=lambda r: "URGENT" not in r["body"],
                 score=lambda r: float("urgent" in r["body"].lower()), what="urgent message", decoy_note=lambda r:
                 ", no urgent flag" + (" ('urgent' in plain text)" if "urgent" in r["body"].lower() else ""))


def mentions_by_other(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """A colleague who only @mentions others is awaited; three mentions of me by others arrive (the near miss)."""
    f, m = mentions(rng, catalog, knobs), catalog.raw("messages")
    arrived = [(e.get("_note", ""), m[e["message_id"]]) for e in f["events"] if "message_id" in e]
    mentioning = {r["sender_id"] for _, r in arrived if ME in r["body"]}
    writers = sorted({r["sender_id"] for note, r in arrived if note.startswith("decoy")} - mentioning)
    pid = kit.choose(rng, writers, "colleague mentioning others")
    return {**f, "pid": pid, "who": name(catalog, pid), "first": name(catalog, pid).split()[0]}


# --- passive counting: missed calls, unread messages, unread conversations ------------------

def missed_calls(rng: random.Random, catalog: Catalog, knobs: Knobs, n: int = 3,
                 first_s: float = kit.FIRST_READ_S, keep_calls=lambda c: True) -> dict[str, Any]:
    """n missed calls from outside the preload, answered and outgoing ones between, one trailing."""
    calls = catalog.raw("calls")
    new = [c for c, r in calls.items() if r["_role"] != "filler"]
    caller = {c: name(catalog, calls[c]["persona_id"]) for c in new}
    at, events, _ = kit.counting(
        rng, knobs, [c for c in new if calls[c]["missed"]], [c for c in new if not calls[c]["missed"]], n,
        Chat(catalog).make, what="missed call", first_s=first_s,
        decoy_note=lambda c: f"decoy: answered {calls[c]['direction']} call ({caller[c]}), not missed")
    for e in events:
        if e.get("_note", "").startswith("missed"):
            e["_note"] += f" ({caller[e['call_id']]})"
    return facts(catalog, at, traffic(rng, catalog, knobs, events), keep_calls)


def missed_calls_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Some of the preload's missed calls stay (each with a chance of one half); 3–4 more arrive."""
    calls = catalog.raw("calls")
    kept = [c for c in base(catalog, "calls") if calls[c]["missed"] and rng.random() < 0.5]
    n = rng.randint(3, 4)
    f = missed_calls(rng, catalog, knobs, n, 2, lambda c: not calls[c]["missed"] or c in kept)
    return {**f, "kept": len(kept), "n": n, "threshold": len(kept) + n}


def unread_start(catalog: Catalog) -> list[str]:
    """Preloaded messages that start unread (the self user's own are always read)."""
    return where(catalog, lambda r: r.get("_role") == "filler" and not r.get("is_read") and others_write(r))


def own_and_answered(catalog: Catalog) -> list[str]:
    """Arrivals that leave the unread counts alone: the self user's own messages and answered calls."""
    m = catalog.raw("messages")
    return [x for x in background(catalog) if x not in m or not others_write(m[x])]


def unread_growth(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    start, n = len(unread_start(catalog)), rng.randint(4, 7)
    at, events, _ = kit.counting(rng, knobs, where(catalog, others_write, new=True), own_and_answered(catalog), n,
                                 Chat(catalog).make, what="unread arrival",
                                 decoy_note=lambda rid: "decoy: arrives read (own message) or a call")
    events = traffic(rng, catalog, knobs, events, others_write, after=at)
    return facts(catalog, at, events, start=start, n=n, threshold=start + n)


def unread_chats(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Three chats become unread, one message each; look-alikes go to chats already unread (near_miss: how many)."""
    m = catalog.raw("messages")
    unread = {m[rid]["conversation_id"] for rid in unread_start(catalog)}
    fresh = where(catalog, lambda r: others_write(r) and r["conversation_id"] not in unread, new=True)
    rng.shuffle(fresh)
    one_each = {m[rid]["conversation_id"]: rid for rid in reversed(fresh)}  # each chat's first in the shuffle
    near = where(catalog, lambda r: others_write(r) and r["conversation_id"] in unread, new=True)
    near = kit.nearest(rng, near + own_and_answered(catalog), min(knobs.decoys, len(near)),
                       lambda rid: float(rid in m and others_write(m[rid])), knobs.near_miss)
    at, events, _ = kit.counting(
        rng, knobs, sorted(one_each.values()), near, 3, Chat(catalog).make, what="newly unread chat",
        first_s=kit.FIRST_READ_S, decoy_note=lambda rid: "near miss: lands in a chat that is already unread"
        if rid in m and others_write(m[rid]) else "decoy: arrives read (own message) or a call")
    return facts(catalog, at, traffic(rng, catalog, knobs, events, others_write, after=at), unread=len(unread))


KINDS: tuple[Kind, ...] = (
    kit.kind(
        "dm_keyword", "active", "absolute", Knobs(decoys=4),
        "decoys: messages before the target (near_miss: from the same direct chat, sharing the phrase's words)",
        kit.Recipe(
            direct_phrase, start_page=LIST, difficulty="medium",
            distraction="other messages from the same colleague, shared words",
            description="{decoys} messages come first (the same direct chat or the phrase's words first); at {at} s "
                        "{who} writes '{phrase}' in the direct chat. A 👀 on any other new message fails the task.",
            prompt="{who} will write to me in our MicroChat direct chat. When a message from {first} there says "
                   "\"{phrase}\", react 👀 to that message (only that one) and tell me right away.",
            **react_task(IN_DM, "👀", ["{target}"], "{who} wrote '{phrase}'; I reacted 👀 to the message.",
                         {"text": "{phrase}"}))),
    kit.kind(
        "file_shared", "active", "absolute", Knobs(decoys=4),
        "decoys: file-less messages before the file (near_miss: how much they talk about files); hold_s: until "
        "the sender deletes the message",
        kit.Recipe(
            file_message, start_page=LIST, difficulty="medium", distraction="file talk without files, deletion",
            description="{looks} file-less messages come first (file talk first); at {at} s {sender} shares {file}. "
                        "Files show only inside the thread. The message is deleted at {until} s. A 👍 on any other new "
                        "message fails the task.",
            prompt="Someone is about to send me a file in MicroChat. As soon as a message with a file attachment "
                   "arrives in any of my chats, open it and react 👍 to that message (only that one) so they know I "
                   "got it, then tell me.",
            **react_task("has_attachment = 1", "👍", ["{target}"],
                         "A file arrived ({file} from {sender}); I reacted 👍 to it.",
                         {"matches": "(?s)New messages.*Attachment: "}))),
    kit.kind(
        "file_from_person_noop", "noop", "absolute", Knobs(decoys=4),
        "as file_shared; the awaited colleague writes without files, someone else's file is the near miss",
        kit.Recipe(
            file_message, start_page=LIST, difficulty="medium",
            distraction="another colleague's file, messages without files",
            description="Copy of file_shared. {who} writes but never attaches a file; the file that does arrive "
                        "({at} s) is {sender}'s. Refrain check: no new message gets a 👍.",
            prompt="{who} promised to send me a file. When a message from {first} with a file attached arrives in "
                   "MicroChat, react 👍 to it (only that one) and tell me.",
            condition_sql=kit.exists_sql(f"messages WHERE {NEW} AND has_attachment = 1 AND sender_id = {{promiser!q}}"),
            near_miss_sql=kit.exists_sql(f"messages WHERE {NEW} AND has_attachment = 1"), eval_sql=none_reacted("👍"),
            solution=[{**OPEN_NEW, "until": {"matches": "(?s)New messages.*{who!e} · [^📎]*Attachment: "}},
                      {"submit": "/react$", "fields": {"emoji": "👍"}},
                      {"report": "{who} sent the file; I reacted 👍."}])),
    kit.kind(
        "mentions_three_more", "active", "relative", Knobs(decoys=3),
        "decoys: messages @mentioning other people between the three mentions of self",
        kit.Recipe(
            mentions, start_page=LIST, difficulty="hard", distraction="mentions of other people",
            description="@mentions of the self user show highlighted only in the thread; the third new one arrives at "
                        "{at} s, between messages that @mention other people; a fourth trails. A 👀 on a new message "
                        "that does not mention the self user fails the task.",
            prompt="People keep @mentioning me in MicroChat. React 👀 to each new message that @mentions me (and to "
                   "nothing else), and tell me once three new messages have mentioned me.",
            **react_task("mentions_me = 1", "👀", THREE, "Three new messages mentioned me; I reacted 👀 to each."))),
    kit.kind(
        "mentions_by_person_noop", "noop", "relative", Knobs(decoys=3),
        "as mentions_three_more; the awaited colleague only @mentions others",
        kit.Recipe(
            mentions_by_other, start_page=LIST, difficulty="hard",
            distraction="the colleague mentions others; others mention me",
            description="Copy of mentions_three_more. {who} writes but @mentions other people; the three mentions of "
                        "the self user (the third at {at} s) come from others. Refrain check: no new message gets a "
                        "👀.",
            prompt="{who} said they'd loop me in. React 👀 to each new message in which {first} @mentions me, and tell "
                   "me once they have mentioned me three times in MicroChat.",
            condition_sql=kit.count_reaches(f"messages WHERE {NEW} AND mentions_me = 1 AND sender_id = {{pid!q}}", 3),
            near_miss_sql=kit.count_reaches(f"messages WHERE {NEW} AND mentions_me = 1", 3),
            eval_sql=none_reacted("👀"),
            solution=[{**OPEN_NEW, "until": {"matches": "(?s)New messages.*{who!e} · [^@]*" + ME}, "count": 3},
                      {"report": "{who} mentioned me three times."}])),
    kit.kind(
        "urgent_three_more", "active", "relative", Knobs(decoys=3),
        "decoys: unflagged messages between the urgent ones (near_miss: 'urgent' in plain text)",
        kit.Recipe(
            urgent, start_page=LIST, difficulty="hard", distraction="'urgent' in plain text without the flag",
            description="Urgency shows only as the URGENT label inside the thread. The third new urgent message "
                        "arrives at {at} s; look-alikes without the flag come between (\"urgent\" in plain text "
                        "first); a fourth trails. A ✅ on a new message that is not urgent fails the task.",
            prompt="Acknowledge urgent messages for me in MicroChat: react ✅ to each new message marked urgent (and "
                   "to nothing else), and tell me once three new urgent messages have come in.",
            **react_task("is_urgent = 1", "✅", THREE, "Three new urgent messages came in; I reacted ✅ to each."))),
    kit.kind(
        "missed_calls_threshold", "passive", "absolute", Knobs(decoys=3),
        "decoys: answered and outgoing calls between the missed ones; threshold = preloaded missed + 3–4",
        kit.Recipe(
            missed_calls_threshold, start_page=LIST, difficulty="easy", distraction="answered and outgoing calls",
            description="The preload holds {kept} missed calls. {n} more arrive, the last at {at} s, with answered and "
                        "outgoing calls in between; another missed call trails.",
            prompt="Keep an eye on my MicroChat call log. Tell me once it shows {threshold} missed calls.",
            **kit.count_watch("calls WHERE missed = 1", "{threshold}", CALLS, "Missed \\((\\d+)\\)",
                              "The call log shows {threshold} missed calls."))),
    kit.kind(
        "missed_calls_more", "passive", "relative", Knobs(decoys=3),
        "decoys: answered and outgoing calls between the three missed ones",
        kit.Recipe(
            missed_calls, start_page=LIST, difficulty="medium",
            distraction="answered and outgoing calls, missed calls already there",
            description="Calls were already missed at the start. Three more missed calls arrive, the third at {at} s, "
                        "with answered and outgoing calls between them; a fourth trails.",
            prompt="I'm in workshops all day. Watch my MicroChat calls and tell me once I have missed three more calls "
                   "than I had when you started.",
            **kit.count_watch("calls WHERE missed = 1 AND origin != 'self'", 3, CALLS, "Missed \\((\\d+)\\)",
                              "Three more calls were missed since I started watching.", "missed_call_count"))),
    kit.kind(
        "unread_threshold", "passive", "absolute", Knobs(decoys=3),
        "decoys: own messages (arrive read) and calls; threshold = preloaded unread + 4–7",
        kit.Recipe(
            unread_growth, start_page=LIST, difficulty="easy", distraction="own messages arriving read, calls",
            description="{start} messages are unread at the start. {n} unread arrivals bring it to {threshold} at "
                        "{at} s; the self user's own messages arrive read and calls arrive in between, neither counts.",
            prompt="Don't open any chats. Just tell me when I have {threshold} unread messages in MicroChat.",
            **kit.count_watch("messages WHERE is_read = 0", "{threshold}", LIST, "Chat \\((\\d+)\\)",
                              "You have {threshold} unread messages."))),
    kit.kind(
        "unread_chats_more", "passive", "relative", Knobs(decoys=3),
        "decoys: messages into chats already unread (near_miss: how many of them, against own messages)",
        kit.Recipe(
            unread_chats, start_page=LIST, difficulty="medium",
            distraction="more messages in chats already unread, own messages",
            description="{unread} conversations are unread at the start. Three more become unread, the third at "
                        "{at} s; in between messages land in chats that are already unread and the self user's own "
                        "messages arrive read.",
            prompt="Don't open any chats. Just watch my MicroChat conversation list and tell me once three more "
                   "conversations have unread messages than when you started.",
            **kit.count_watch("messages WHERE is_read = 0", 3, LIST, "Unread \\((\\d+)\\)",
                              "Three more conversations have unread messages.", "unread_conversation_count",
                              count="COUNT(DISTINCT conversation_id)"))),
)
