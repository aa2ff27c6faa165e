"""The ten MicroMail scenarios as data; generate.py resolves catalog ids and writes the YAML.

A timeline is a list of (at, slot): slot "bg" takes the next ordinary arrival (unread),
"bg_read" an arrival that comes in already read, "junk" a junk arrival, and any other string
is the key of a special message in mail_text.SPECIALS. Background picks are shuffled per
scenario with a fixed seed; a no-op copies its source scenario's events exactly.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

INBOX = "/micromail/folder/inbox"
OPEN_NEW = "^/micromail/message/"
SHOWING = r"Showing [\d,]+–[\d,]+ of ([\d,]+)"

SCENARIOS: dict[str, dict] = {
    "attachment_name": {
        "activity": "active", "criteria": "absolute", "difficulty": "medium", "distraction": "near-miss attachment names",
        "condition_at": 275,
        "prompt": "I'm waiting for the design file mobile-app-mockups.fig. When an email with an attachment of exactly that name arrives in my MicroMail inbox, open that email so it is marked as read.",
        "description": "Three attachment mails come first (mobile-app-wireframes.pdf, web-app-mockups.fig, mobile-app-mockups.pdf); the target's subject does not name the file, which shows only on the message page.",
        "timeline": [(15, "bg"), (38, "junk"), (62, "att_decoy_wireframes"), (85, "bg"), (110, "bg_read"),
                     (140, "att_decoy_web"), (168, "bg"), (190, "junk"), (212, "att_decoy_pdf"), (240, "bg"),
                     (275, "attachment_target"), (305, "bg"), (335, "att_trailing"), (370, "junk"), (410, "bg"),
                     (460, "bg"), (520, "bg_read"), (580, "bg"), (640, "junk"), (700, "bg")],
        "eval_sql": "SELECT EXISTS (SELECT 1 FROM attachments a JOIN emails e ON e.id = a.email_id WHERE a.file_name = 'mobile-app-mockups.fig' AND e.origin = 'event' AND e.is_read = 1)",
        "solution": [{"watch": INBOX, "open_new": OPEN_NEW, "until": {"text": "mobile-app-mockups.fig"}},
                     {"report": "The email carrying mobile-app-mockups.fig arrived; I opened it."}],
    },
    "body_keyword_second": {
        "activity": "active", "criteria": "relative", "difficulty": "medium", "distraction": "December or deadline alone",
        "condition_at": 310,
        "prompt": "One email in my MicroMail inbox already mentions the December deadline. When a second email arrives whose text mentions the December deadline, open that new email.",
        "description": "A preloaded budget mail mentions the December deadline past its preview. Decoys: December holiday schedule (no deadline), a November deadline, a year-end mail with December and a deadline in separate sentences. The target names it in its body only.",
        "timeline": [(20, "bg"), (50, "junk"), (75, "dec_decoy_holiday"), (105, "bg"), (140, "dec_decoy_november"),
                     (170, "bg_read"), (200, "bg"), (230, "dec_decoy_yearend"), (265, "junk"), (310, "december_target"),
                     (345, "bg"), (390, "dec_trailing"), (440, "bg"), (500, "junk"), (560, "bg"), (620, "bg"),
                     (690, "bg_read")],
        "eval_sql": "SELECT (SELECT COUNT(*) FROM emails WHERE origin != 'self' AND body LIKE '%December deadline%') >= 2 AND EXISTS (SELECT 1 FROM emails WHERE origin = 'event' AND body LIKE '%December deadline%' AND is_read = 1)",
        "solution": [{"watch": INBOX, "open_new": OPEN_NEW, "until": {"text": "December deadline"}},
                     {"report": "A second email mentioning the December deadline arrived; I opened it."}],
    },
    "body_phrase": {
        "activity": "active", "criteria": "absolute", "difficulty": "medium", "distraction": "scalability in subjects, phrase past the preview",
        "condition_at": 390,
        "prompt": "Meera promised me notes that discuss platform scalability. When an email whose text contains the phrase \"platform scalability\" arrives in my MicroMail inbox, open it.",
        "description": "Decoys put scalability in the subject or talk about platform reliability; the target's phrase starts after character 160, past the 100-character preview.",
        "timeline": [(25, "bg"), (55, "phrase_decoy_agenda"), (90, "junk"), (120, "bg"), (155, "phrase_decoy_offsite"),
                     (190, "bg"), (225, "bg_read"), (260, "phrase_decoy_reply"), (300, "bg"), (340, "junk"),
                     (390, "phrase_target"), (420, "bg"), (470, "bg"), (530, "junk"), (600, "bg"), (680, "bg")],
        "eval_sql": "SELECT EXISTS (SELECT 1 FROM emails WHERE origin != 'self' AND body LIKE '%platform scalability%' AND is_read = 1)",
        "solution": [{"watch": INBOX, "open_new": OPEN_NEW, "until": {"text": "platform scalability"}},
                     {"report": "The email about platform scalability arrived; I opened it."}],
    },
    "cc_three_more": {
        "activity": "active", "criteria": "relative", "difficulty": "hard", "distraction": "self on To, mentions without Cc",
        "condition_at": 380,
        "prompt": "I keep getting copied on threads. Watch my MicroMail inbox: once three more emails have arrived with me on Cc, open each of those three emails.",
        "description": "Cc shows only on the message page. Look-alikes put self on To or @mention self without Cc; a fourth Cc mail trails the target.",
        "timeline": [(20, "bg"), (60, "cc_decoy_to"), (100, "cc_target_1"), (135, "junk"), (165, "bg"),
                     (200, "cc_decoy_to_2"), (240, "cc_target_2"), (275, "bg_read"), (310, "cc_decoy_mention"),
                     (345, "bg"), (380, "cc_target_3"), (420, "bg"), (470, "cc_trailing"), (520, "junk"),
                     (580, "bg"), (650, "bg")],
        "no_cc_background": True,
        "eval_sql": "SELECT (SELECT COUNT(*) FROM emails WHERE origin = 'event' AND cc_me = 1 AND is_read = 1) >= 3",
        "solution": [{"watch": INBOX, "open_new": OPEN_NEW, "until": {"text": "Cc: {self_name} (you)"}, "count": 3},
                     {"report": "Three new emails with me on Cc arrived; I opened all three."}],
    },
    "inbox_growth": {
        "activity": "passive", "criteria": "relative", "difficulty": "easy", "distraction": "junk arrivals",
        "condition_at": 300,
        "prompt": "Keep an eye on my MicroMail inbox and tell me once it holds five more messages than it does now. Mail that lands in Junk doesn't count.",
        "description": "Five inbox arrivals (two of them already read) alternate with five junk arrivals; more of both follow.",
        "timeline": [(25, "junk"), (55, "bg"), (90, "junk"), (120, "bg_read"), (150, "junk"), (185, "bg"),
                     (210, "junk"), (240, "bg_read"), (270, "junk"), (300, "bg"), (350, "bg"), (400, "junk"),
                     (450, "bg"), (520, "bg"), (600, "junk"), (680, "bg")],
        "eval_sql": "SELECT (SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND origin != 'self') >= CAST((SELECT value FROM session_meta WHERE key = 'baseline_inbox_count') AS REAL) + 5",
        "solution": [{"watch": INBOX, "until": {"number": SHOWING, "at_least": "first + 5"}},
                     {"report": "The inbox now holds five more messages than at the start."}],
    },
    "junk_growth": {
        "activity": "passive", "criteria": "relative", "difficulty": "easy", "distraction": "inbox arrivals",
        "condition_at": 290,
        "prompt": "Tell me when three more messages have landed in my MicroMail Junk folder than are there now.",
        "description": "Three junk arrivals between eight ordinary inbox arrivals; two more junk mails follow.",
        "timeline": [(20, "bg"), (50, "bg"), (80, "junk"), (110, "bg"), (140, "bg_read"), (165, "bg"),
                     (190, "junk"), (220, "bg"), (250, "bg"), (290, "junk"), (320, "bg"), (380, "junk"),
                     (430, "bg"), (520, "junk"), (600, "bg"), (690, "bg")],
        "eval_sql": "SELECT (SELECT COUNT(*) FROM emails WHERE folder = 'junk' AND origin != 'self') >= CAST((SELECT value FROM session_meta WHERE key = 'baseline_junk_count') AS REAL) + 3",
        "solution": [{"watch": INBOX, "until": {"number": r"Junk \(([\d,]+)\)", "at_least": "first + 3"}},
                     {"report": "Three more messages have landed in Junk."}],
    },
    "sender_arrives": {
        "activity": "passive", "criteria": "absolute", "difficulty": "easy", "distraction": "same first name, same surname",
        "condition_at": 70,
        "prompt": "I'm expecting an email from {target_name}. Tell me as soon as a message from her shows up in my MicroMail inbox.",
        "description": "Two look-alike senders come first (same first name, then same surname); the awaited colleague writes early, and ordinary mail keeps arriving afterwards.",
        "timeline": [(18, "sender_lookalike_first"), (40, "sender_lookalike_last"), (70, "sender_target"), (95, "bg"),
                     (130, "junk"), (160, "bg"), (200, "bg"), (260, "bg_read"), (320, "bg"), (380, "junk"),
                     (440, "bg"), (520, "bg"), (600, "bg"), (680, "junk")],
        "eval_sql": "SELECT EXISTS (SELECT 1 FROM emails WHERE folder = 'inbox' AND sender_name = '{target_name}')",
        "solution": [{"watch": INBOX, "until": {"text": "{target_name}"}},
                     {"report": "{target_name}'s email has arrived."}],
    },
    "unread_threshold": {
        "activity": "passive", "criteria": "absolute", "difficulty": "medium", "distraction": "mail arriving already read, junk",
        "condition_at": 390,
        "prompt": "Don't open any messages. Just tell me when my MicroMail inbox has 10 unread messages.",
        "description": "The preload has 4 unread inbox messages. Six unread arrivals bring it to 10; between them come mails that arrive already read and unread junk, which do not count.",
        "timeline": [(30, "bg"), (70, "junk"), (105, "bg"), (140, "bg_read"), (175, "bg"), (210, "junk"),
                     (245, "bg"), (280, "bg_read"), (320, "bg"), (355, "bg_read"), (390, "bg"), (430, "bg"),
                     (480, "junk"), (540, "bg"), (610, "bg_read"), (680, "bg")],
        "eval_sql": "SELECT (SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND is_read = 0) >= 10",
        "solution": [{"watch": INBOX, "until": {"number": r"Inbox \(([\d,]+)\)", "at_least": 10}},
                     {"report": "The inbox has 10 unread messages."}],
    },
    "attachment_name_noop": {
        "copy_of": "attachment_name", "activity": "noop", "criteria": "absolute", "difficulty": "medium",
        "distraction": "near-miss attachment names",
        "prompt": "I'm waiting for our press release file, press-release-final.docx. When an email carrying that attachment arrives in my MicroMail inbox, open it so it is marked as read.",
        "description": "Copy of attachment_name; no press-release file ever arrives (the mockups target still does, as a near miss).",
        "solution": [{"watch": INBOX, "open_new": OPEN_NEW, "until": {"text": "press-release"}},
                     {"report": "The press release file arrived."}],
    },
    "sender_noop": {
        "copy_of": "sender_arrives", "activity": "noop", "criteria": "absolute", "difficulty": "easy",
        "distraction": "the colleague of the source task still writes",
        "prompt": "I'm expecting an email from Marta Quinlan at Harbor Legal Partners. Tell me as soon as a message from her shows up in my MicroMail inbox.",
        "description": "Copy of sender_arrives; the outsider never writes (the colleague's mail still arrives, as a near miss).",
        "solution": [{"watch": INBOX, "until": {"text": "Marta Quinlan"}},
                     {"report": "Marta Quinlan's email has arrived."}],
    },
}


def _events(builder, name: str, spec: dict) -> list[tuple[float, str, str]]:
    """(at, email id, comment) for the timeline, background picks resolved."""
    me = builder.me["email"]
    rng = random.Random(f"micromail-{name}")
    pools = {}
    for pool in ("bg", "bg_read", "junk"):
        records = list(builder.pools[pool])
        if spec.get("no_cc_background"):
            records = [r for r in records if me not in r["cc"]]
        rng.shuffle(records)
        pools[pool] = records
    events = []
    for at, slot in spec["timeline"]:
        if slot in pools:
            record = pools[slot].pop(0)
            label = {"bg": "background", "bg_read": "background, arrives read", "junk": "junk"}[slot]
        else:
            record = builder.keys[slot]
            label = f"{record['_role']}: {slot}"
        events.append((float(at), record["id"], f"{label} · {record['subject']}"))
    return events


def _q(value) -> str:
    """A YAML scalar (JSON strings are valid YAML)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return json.dumps(value)


def _flow(mapping: dict) -> str:
    return "{" + ", ".join(f"{k}: {_flow(v) if isinstance(v, dict) else _q(v)}" for k, v in mapping.items()) + "}"


def render(name: str, spec: dict, preload: list[str], events: list[tuple[float, str, str]]) -> str:
    lines = [
        "# Generated by catalogs/micromail/generate.py (tables in catalogs/micromail/mail_scenarios.py);",
        "# edit there and re-run rather than editing this file.",
        f"id: micromail-{name}",
        "environment: micromail",
        f"description: {_q(spec['description'])}",
        f"prompt: {_q(spec['prompt'])}",
        f"condition_at: {_q(spec['condition_at']) if spec.get('condition_at') is not None else 'null'}",
        f"start_page: {INBOX}",
        "taxonomy: " + _flow({k: spec[k] for k in ("activity", "criteria", "difficulty", "distraction")}),
        "events:",
        "  - at: 0",
        "    type: preload",
        "    emails: [",
    ]
    for i in range(0, len(preload), 10):
        lines.append("      " + ", ".join(preload[i:i + 10]) + ",")
    lines[-1] = lines[-1].rstrip(",")
    lines.append("    ]")
    for at, email_id, comment in events:
        lines.append(f"  - {{at: {_q(at)}, type: new_email, email_id: {email_id}}}  # {comment}")
    if spec.get("eval_sql"):
        lines.append(f"eval_sql: {_q(spec['eval_sql'])}")
    lines.append("solution:")
    for step in spec["solution"]:
        first = True
        for key, value in step.items():
            prefix = "  - " if first else "    "
            lines.append(f"{prefix}{key}: {_flow(value) if isinstance(value, dict) else _q(value)}")
            first = False
    return "\n".join(lines) + "\n"


def _fill(value, names: dict):
    if isinstance(value, str):
        return value.format(**names) if "{" in value and "}" in value and "\\" not in value else value
    if isinstance(value, dict):
        return {k: _fill(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, names) for v in value]
    return value


def write_all(builder, folder: Path) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    names = {"target_name": builder.person("p004")["name"], "self_name": builder.me["name"]}
    preload = sorted(r["id"] for r in builder.pools["base"])
    timelines = {}
    for name, spec in SCENARIOS.items():
        source = spec.get("copy_of", name)
        if source not in timelines:
            timelines[source] = _events(builder, source, SCENARIOS[source])
        full = {**SCENARIOS[source], **spec} if "copy_of" in spec else spec
        full = _fill({k: v for k, v in full.items() if k != "timeline"}, names)
        if "copy_of" in spec:
            full.pop("eval_sql", None)
            full["condition_at"] = None
        events = timelines[source]
        if "copy_of" in spec:  # the source task's target still arrives, as a near miss
            events = [(at, i, c.replace("target:", f"near miss ({source} target):")) for at, i, c in events]
        (folder / f"{name}.yaml").write_text(render(name, full, preload, events), encoding="utf-8")
    return len(SCENARIOS)
