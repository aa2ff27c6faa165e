"""Write MicroChat's catalogs (teams, conversations, messages, calls .jsonl).

    python catalogs/microchat/generate.py

Deterministic (seeded), standard library only; all text is authored in chat_text.py and below.
p000 (Alex Morgan) is the self user; colleagues are shared personas of Northwind Labs.

Messages come from pools, each record keyed by `_key` (authoring only):
  base-*     the preloaded history every scenario starts with (read, except four recent ones)
  bg-*       ordinary arrivals for the timelines (unread); own-* the self user's own messages
             sent from another device (they arrive read)
  specials   the targets, decoys and near misses of the scenarios, with `_role` and `_note`
Ids are append-only: a record keeps the id its `_key` has in the committed file, and a new
record gets the next free id. The first build shuffled ids with the seed, so an id never
hints at a role.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import chat_text as text  # noqa: E402

SEED = 20260310
SELF_MENTION = "@Alex Morgan"
PREVIEW = 60  # characters of a message a list preview shows
PREFIX = {"teams": ("tm", 2), "conversations": ("cv", 2), "messages": ("ms", 4), "calls": ("cl", 2)}

# --- the scenarios' own messages: key, conversation key, sender, body, extras ------------------
PAYMENT = "the payment service is down"
SPECIALS = [
    # file_shared / file_from_person_noop
    ("fs-mateo-later", "dm-p028", "p028",
     "I'll send the hiring plan spreadsheet after lunch, still fixing the formulas.",
     {"_role": "decoy", "_note": "Mateo talks about a file but sends none"}),
    ("fs-export-ask", "design-critiques", "p077",
     "Mockups look great. Could someone export them to PDF before the review?",
     {"_role": "decoy", "_note": "file words, no file"}),
    ("fs-deck-question", "launch-crew", "p005", "Which deck are we presenting on Thursday, v2 or v3?",
     {"_role": "decoy", "_note": "asks about a deck, no file"}),
    ("fs-notes-follow", "eng-deploys", "p053", "Deploy 482 is out; release notes to follow in the wiki.",
     {"_role": "decoy", "_note": "no file"}),
    ("fs-target", "pricing-wg", "p004",
     "Here is the updated pricing model with the enterprise tiers, numbers are final.",
     {"attachment": ("pricing-model-v4.xlsx", 88_064), "_role": "target",
      "_note": "Priya Shah shares pricing-model-v4.xlsx (the file shows only in the thread)"}),
    ("fs-mateo-sorry", "dm-p028", "p028", "Sorry, the spreadsheet needs another day. Formulas are still off.",
     {"_role": "decoy", "_note": "Mateo again, still no file"}),
    # dm_keyword (the direct chat with Omar Mansour)
    ("dk-deploy", "dm-p076", "p076",
     "Morning! The payment service deploy went out cleanly, nothing to report from on-call.",
     {"_role": "decoy", "_note": "Omar, payment service, but not down"}),
    ("dk-slow", "dm-p076", "p076",
     "Is checkout slow for you too? The payment service latency looks a bit high on my graphs.",
     {"_role": "decoy", "_note": "Omar, payment service slow, not down"}),
    ("dk-drill", "eng-incidents", "p053",
     f"Reminder for everyone on the rota: status page drill at 3pm today, where we pretend {PAYMENT} and walk "
      f"through the runbook.",
     {"_role": "decoy", "_note": "the phrase, but in #incidents and by Nikolai, not Omar's direct chat"}),
    ("dk-target", "dm-p076", "p076",
     f"Heads-up before customers start asking you about checkout failures: right now {PAYMENT}, we are rolling back.",
     {"_role": "target", "_note": "Omar's direct message: the payment service is down (phrase past the preview)"}),
    ("dk-recovered", "dm-p076", "p076", "Rollback finished, payments are flowing again. Postmortem doc tomorrow.",
     {"_role": "trailing", "_note": "Omar: recovered"}),
    # mentions_three_more / mentions_by_person_noop (Claire Brennan mentions only others)
    ("mn-claire-1", "design-general", "p077",
     "Thanks for the research readout yesterday, it changed how we see onboarding. @Priya Shah can you share the "
      "raw data?",
     {"_role": "decoy", "_note": "Claire Brennan mentions @Priya Shah, not self"}),
    ("mn-target-1", "product-roadmap", "p096",
     "Pulling the Q3 roadmap together this week and the analytics section is still thin. @Alex Morgan could you "
      "add the activation numbers?",
     {"_role": "target", "_note": "Meera Reddy mentions self (1 of 3), past the preview"}),
    ("mn-claire-2", "mtg-design", "p077",
     "Great critique today, lots of useful feedback on the checkout flow. @Diego Castillo please own the follow-ups.",
     {"_role": "decoy", "_note": "Claire Brennan mentions @Diego Castillo, not self"}),
    ("mn-target-2", "launch-crew", "p005",
     "Customer webinar is confirmed for the 21st and the landing page goes live Monday. @Alex Morgan can you "
      "confirm the feature list?",
     {"_role": "target", "_note": "Wei Liu mentions self (2 of 3), past the preview"}),
    ("mn-claire-3", "product-general", "p077",
     "Design system tokens are merged, the new colours ship with next week's release. @Meera Patel heads-up for "
      "the docs.",
     {"_role": "decoy", "_note": "Claire Brennan mentions @Meera Patel, not self"}),
    ("mn-target-3", "cs-escalations", "p058",
     "Orchard Foods is asking again about bulk export and they renew next month. @Alex Morgan do we have a date we "
      "can share?",
     {"_role": "target", "_note": "Diego Vega mentions self (3 of 3), past the preview"}),
    ("mn-target-4", "mtg-allhands", "p089",
     "Thanks all for the questions, we'll answer the rest in writing by Friday. @Alex Morgan will cover the "
      "roadmap ones.",
     {"_role": "trailing", "_note": "Mei Kim mentions self (a 4th, after the target)"}),
    # urgent_three_more (urgency shows only in the thread)
    ("ur-plain-1", "analytics-sync", "p036",
     "Not urgent, but when you have a minute could you look at the churn chart labels?",
     {"_role": "decoy", "_note": "'urgent' in plain text, no urgent flag"}),
    ("ur-target-1", "dm-p022", "p022",
     "Need your sign-off on the incident email to customers within the next 30 minutes.",
     {"urgent": True, "_role": "target", "_note": "Darnell Hughes, marked urgent (1 of 3)"}),
    ("ur-plain-2", "docs-refresh", "p001", "Nothing urgent here: the style guide draft is ready whenever you are.",
     {"_role": "decoy", "_note": "'urgent' in plain text, no urgent flag"}),
    ("ur-target-2", "security-alerts", "p079",
     "Rotate the shared analytics API key today; it was pasted in a public ticket.",
     {"urgent": True, "_role": "target", "_note": "Luana Pereira, marked urgent (2 of 3)"}),
    ("ur-plain-3", "sales-deals", "p062", "Is the Kestrel quote urgent or can it wait until Monday?",
     {"_role": "decoy", "_note": "'urgent' in plain text, no urgent flag"}),
    ("ur-target-3", "dm-p055", "p055",
     "The board deck needs your revenue slide before 4pm, the chair asked for it early.",
     {"urgent": True, "_role": "target", "_note": "Priya Raman, marked urgent (3 of 3)"}),
    ("ur-target-4", "offsite-planning", "p044", "Venue needs the final headcount by tonight or we lose the booking.",
     {"urgent": True, "_role": "trailing", "_note": "Kwame Boateng, marked urgent (a 4th, after the target)"}),
    # unread_chats_more: which conversation each arrival lands in is what counts
    ("uc-near", "mobile-beta", "p039", "Build 57 fixes the crash on launch, please reinstall.",
     {"_role": "near miss", "_note": "lands in Mobile beta, a chat that is already unread"}),
    ("uc-1", "hiring-pm", "p025", "Panel feedback is due Thursday, the form is in the invite.",
     {"_role": "target", "_note": "PM hiring panel becomes unread (1 of 3)"}),
    ("uc-2", "eng-deploys", "p017", "Release train leaves at 2pm, last call for merges.",
     {"_role": "target", "_note": "#deploys becomes unread (2 of 3)"}),
    ("uc-dup", "hiring-pm", "p061", "I can take the product sense interview.",
     {"_role": "near miss", "_note": "PM hiring panel again: already unread"}),
    ("uc-3", "dm-p010", "p010", "Recruited five participants for next week's usability sessions.",
     {"_role": "target", "_note": "Claire Mensah's direct chat becomes unread (3 of 3)"}),
    ("uc-4", "partner-api", "p029", "Partner asked for the rate limits in writing.",
     {"_role": "trailing", "_note": "Partner API becomes unread (a 4th)"}),
]

CALL_POOL = [  # key, persona, direction, missed, duration_s, age_minutes (base only), role
    *[(f"base-{i:02d}", p, d, 0, dur, age, "filler") for i, (p, d, dur, age) in enumerate([
        ("p028", "incoming", 754, 95), ("p076", "outgoing", 312, 180), ("p061", "group", 1820, 260),
        ("p004", "incoming", 421, 400), ("p005", "outgoing", 95, 610), ("p022", "incoming", 1210, 900),
        ("p077", "group", 2700, 1300), ("p058", "outgoing", 540, 1500), ("p010", "incoming", 360, 2100),
        ("p096", "group", 3600, 2900), ("p055", "incoming", 640, 3600), ("p019", "outgoing", 120, 4300),
        ("p028", "outgoing", 980, 5200), ("p089", "group", 1500, 6100), ("p029", "incoming", 275, 7000),
        ("p044", "outgoing", 430, 7900), ("p006", "incoming", 210, 8800), ("p062", "outgoing", 615, 9500)])],
    ("base-missed-1", "p005", "incoming", 1, 0, 140, "filler"),
    ("base-missed-2", "p022", "incoming", 1, 0, 2500, "filler"),
    *[(f"missed-{i}", p, "incoming", 1, 0, None, "target") for i, p in
      enumerate(["p028", "p061", "p058", "p004", "p096", "p055", "p076", "p010"], 1)],
    *[(f"answered-{i}", p, "incoming", 0, dur, None, "decoy") for i, (p, dur) in
      enumerate([("p077", 240), ("p005", 610), ("p022", 185), ("p019", 75), ("p089", 920), ("p029", 300)], 1)],
    *[(f"outgoing-{i}", p, "outgoing", 0, dur, None, "decoy") for i, (p, dur) in
      enumerate([("p004", 130), ("p058", 455), ("p010", 60)], 1)],
    ("group-1", "p096", "group", 0, 1800, None, "decoy"),
]


def load_personas() -> dict[str, dict]:
    path = HERE.parent / "shared" / "personas.jsonl"
    return {r["id"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


def conversations(rng: random.Random) -> tuple[list[dict], list[dict]]:
    teams, convs = [], []
    for key, name, description, members, channels in text.TEAMS:
        teams.append({"_key": key, "name": name, "description": description, "members": ["p000", *members]})
        for ckey, cname, topic in channels:
            convs.append({"_key": ckey, "kind": "channel", "title": cname, "team": key, "topic": topic,
                          "members": ["p000", *members]})
    for person in text.DIRECT:
        convs.append({"_key": f"dm-{person}", "kind": "direct", "title": "", "counterpart_id": person,
                      "members": ["p000", person]})
    for kind, pool in (("group", text.GROUPS), ("meeting", text.MEETINGS)):
        for key, title, members in pool:
            convs.append({"_key": key, "kind": kind, "title": title, "members": ["p000", *members]})
    pinned, muted = {"dm-p028", "launch-crew", "eng-incidents"}, {"lunch-club", "people-office"}
    for conv in convs:
        conv["is_pinned"], conv["is_muted"] = int(conv["_key"] in pinned), int(conv["_key"] in muted)
        conv["age_minutes"] = rng.randrange(30, 300) * 1440
    return teams, convs


def base_messages(rng: random.Random, convs: list[dict]) -> list[dict]:
    """The preloaded history: chatter per conversation, with read mentions, urgent messages and
    files among it, and four recent unread messages in three conversations."""
    sizes = {"direct": 4, "group": 5, "meeting": 3, "channel": 5}
    chatter = list(text.CHATTER)
    rng.shuffle(chatter)
    out: list[dict] = []
    for conv in convs:
        ages = sorted((rng.randrange(90, 8000) for _ in range(sizes[conv["kind"]])), reverse=True)
        for n, age in enumerate(ages):
            others = [m for m in conv["members"] if m != "p000"]
            sender = "p000" if rng.random() < 0.2 else rng.choice(others)
            body = chatter[len(out) % len(chatter)]
            out.append({"_key": f"base-{conv['_key']}-{n}", "conv": conv["_key"], "sender_id": sender,
                        "body": body, "age_minutes": age, "is_read": 1, "_role": "filler"})
    others_sent = [m for m in out if m["sender_id"] != "p000"]
    picks = rng.sample(others_sent, len(text.MENTION_LINES) + len(text.URGENT_LINES) + len(text.FILE_LINES))
    for m, line in zip(picks, text.MENTION_LINES, strict=False):
        m["body"] = line
    for m, line in zip(picks[len(text.MENTION_LINES):], text.URGENT_LINES, strict=False):
        m["body"], m["urgent"] = line, True
    for m, (line, name, size) in zip(picks[len(text.MENTION_LINES) + len(text.URGENT_LINES):], text.FILE_LINES,
                                     strict=False):
        m["body"], m["attachment"] = line, (name, size)
    for n, (conv, sender, age) in enumerate([("mobile-beta", "p012", 35), ("mobile-beta", "p019", 9),
                                              ("dm-p005", "p005", 17), ("data-general", "p020", 4)]):
        out.append({"_key": f"base-unread-{n}", "conv": conv, "sender_id": sender, "age_minutes": age, "is_read": 0,
                    "body": chatter[-1 - n], "_role": "filler"})
    for m in rng.sample([m for m in out if m["is_read"]], 24):
        m["reactions"] = {rng.choice(["👍", "🎉", "❤️", "😂"]): rng.sample(["p004", "p005", "p028", "p061"], 2)}
    by_conv: dict[str, list[dict]] = {}
    for m in out:
        by_conv.setdefault(m["conv"], []).append(m)
    for msgs in by_conv.values():
        if len(msgs) >= 3 and rng.random() < 0.4:
            msgs.sort(key=lambda m: -m["age_minutes"])
            msgs[2]["reply_to"] = msgs[1]["_key"]
    return out


def timeline_messages(convs: list[dict]) -> list[dict]:
    keys = [c["_key"] for c in convs if c["_key"] not in ("lunch-club",)]
    out = []
    for n, body in enumerate(text.BACKGROUND):
        conv = next(c for c in convs if c["_key"] == keys[(n * 7) % len(keys)])
        sender = next(m for m in conv["members"][1 + n % (len(conv["members"]) - 1):] if m != "p000")
        out.append({"_key": f"bg-{n:02d}", "conv": conv["_key"], "sender_id": sender, "body": body,
                    "_role": "background"})
    for n, body in enumerate(text.OWN):
        out.append({"_key": f"own-{n}", "conv": keys[(n * 5 + 3) % len(keys)], "sender_id": "p000", "body": body,
                    "_role": "background", "_note": "the self user's own message from another device: arrives read"})
    for key, conv, sender, body, extra in SPECIALS:
        out.append({"_key": key, "conv": conv, "sender_id": sender, "body": body, **extra})
    return out


def with_ids(collection: str, records: list[dict], rng: random.Random) -> list[dict]:
    """Ids by `_key`: kept from the committed file, new ones get the next free number."""
    path = HERE / f"{collection}.jsonl"
    known = {}
    if path.exists():
        known = {r["_key"]: r["id"] for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}
    prefix, width = PREFIX[collection]
    numbers = list(range(1, len(records) + 1))
    rng.shuffle(numbers)  # drawn on every build, so the seeded text that follows never changes
    if not known:  # the very first build: shuffled, so ids never hint at a role
        known = {r["_key"]: f"{prefix}{n:0{width}d}" for r, n in zip(records, numbers, strict=True)}
    used = {int(v[len(prefix):]) for v in known.values()}
    for r in records:
        if r["_key"] not in known:
            used.add(max(used, default=0) + 1)
            known[r["_key"]] = f"{prefix}{max(used):0{width}d}"
        r["id"] = known[r["_key"]]
    return sorted(records, key=lambda r: r["id"])


def finish_message(m: dict, conv_ids: dict[str, str], msg_ids: dict[str, str]) -> dict:
    name, size = m.pop("attachment", (None, None))
    body = m["body"]
    if m.get("_role") == "target" and SELF_MENTION in body:
        assert body.index(SELF_MENTION) >= PREVIEW, body
    if PAYMENT in body:
        assert body.index(PAYMENT) >= PREVIEW, body
    record = {"id": m["id"], "conversation_id": conv_ids[m.pop("conv")], "sender_id": m["sender_id"], "body": body,
              "is_urgent": int(bool(m.pop("urgent", False))), "attachment_name": name, "attachment_size": size,
              "reply_to_id": msg_ids.get(m.pop("reply_to", ""), None), "reactions": m.pop("reactions", {}),
              "is_read": m.pop("is_read", 0)}
    if "age_minutes" in m:
        record["age_minutes"] = m["age_minutes"]
    record.update({k: v for k, v in m.items() if k.startswith("_")})
    return record


def write(collection: str, records: list[dict]) -> None:
    path = HERE / f"{collection}.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    print(f"{path.relative_to(HERE.parents[1])}: {len(records)} records")


def main() -> None:
    rng = random.Random(SEED)
    personas = load_personas()
    teams, convs = conversations(rng)
    teams = with_ids("teams", teams, rng)
    team_ids = {t["_key"]: t["id"] for t in teams}
    convs = with_ids("conversations", convs, rng)
    conv_ids = {c["_key"]: c["id"] for c in convs}
    for c in convs:
        c["team_id"] = team_ids.get(c.pop("team", ""))
        assert all(m in personas for m in c["members"])
    messages = base_messages(rng, [c for c in sorted(convs, key=lambda c: c["_key"])]) + timeline_messages(convs)
    messages = with_ids("messages", messages, rng)
    msg_ids = {m["_key"]: m["id"] for m in messages}
    messages = [finish_message(m, conv_ids, msg_ids) for m in messages]
    calls = [{"_key": key, "persona_id": p, "direction": d, "missed": missed, "duration_s": dur,
              **({"age_minutes": age} if age is not None else {}), "_role": role}
             for key, p, d, missed, dur, age, role in CALL_POOL]
    calls = with_ids("calls", calls, rng)
    write("teams", [{"id": t.pop("id"), **t} for t in teams])
    write("conversations", [{"id": c.pop("id"), **c} for c in convs])
    write("messages", messages)
    write("calls", [{"id": c.pop("id"), **c} for c in calls])


if __name__ == "__main__":
    main()
