"""Write MicroMail's catalogs (emails.jsonl, attachments.jsonl).

    python catalogs/micromail/generate.py

Deterministic (seeded), standard library only, and all text is authored here. It reads the
shared personas (catalogs/shared/personas.jsonl): p000 is the self user; colleagues are the
personas whose address shares the self user's domain.

The mailbox is built from pools:
  base      the preloaded mailbox every scenario starts with (inbox, junk, sent, drafts, archive)
  bg        ordinary arrivals for the timelines (unread), bg_read arrivals that come in already
            read, junk arrivals
  specials  the targets, decoys and trailing messages of each scenario, named by a key
Ids are append-only: a record keeps the id it has in the committed emails.jsonl (matched by its
authoring key, or by folder, sender and subject), and a record that is new gets the next free
id, so adding an item never renumbers the others and the scenarios (maintained YAML under
scenarios/micromail/) keep pointing at the same mail. The very first build shuffles with a seed
so that ids never hint at a role; items added later go last (put new text at the end of its
table so earlier records keep their seeded values).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import mail_text as text  # noqa: E402  (authored subjects and bodies)

SEED = 20260302
PREVIEW = 100  # characters of body shown in lists
HIDDEN_FROM = 160  # key phrases of long messages start at or after this character


def load_personas() -> list[dict]:
    path = ROOT / "catalogs" / "shared" / "personas.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


class Builder:
    """Collects email records (with their files) under authoring keys."""

    def __init__(self, personas: list[dict]):
        self.rng = random.Random(SEED)
        self.by_id = {p["id"]: p for p in personas}
        self.me = next(p for p in personas if p.get("is_self"))
        self.domain = self.me["email"].split("@")[1]
        self.colleagues = [p for p in personas if not p.get("is_self") and p["email"].endswith("@" + self.domain)]
        self.partners = [p for p in personas if not p["email"].endswith("@" + self.domain)]
        self.records: list[dict] = []
        self.keys: dict[str, dict] = {}
        self.pools: dict[str, list[dict]] = {}

    def person(self, pid: str) -> dict:
        return self.by_id[pid]

    def add(self, pool: str, sender, subject: str, body: str, *, key: str | None = None,
            to=None, cc=(), folder: str = "inbox", importance: str = "normal", mentions: bool = False,
            is_read: bool = True, age: float = 0, flagged: bool = False, pinned: bool = False,
            files=(), role: str = "filler", note: str = "") -> dict:
        if isinstance(sender, dict):
            sender_id, name, email = sender["id"], sender["name"], sender["email"]
        else:  # an outsider: (name, email)
            sender_id, (name, email) = None, sender
        to_list = [self.me["email"]] if to is None else [a if isinstance(a, str) else a["email"] for a in to]
        cc_list = [a if isinstance(a, str) else a["email"] for a in cc]
        record = {
            "folder": folder, "sender_id": sender_id, "sender_name": name, "sender_email": email,
            "to": to_list, "cc": cc_list, "subject": subject, "body": body,
            "importance": importance, "mentions_me": mentions, "is_read": is_read,
            "is_flagged": flagged, "is_pinned": pinned, "age_minutes": round(age),
            "_role": role, "_note": note, "_pool": pool, "_files": list(files), "_key": key,
        }
        self.records.append(record)
        self.pools.setdefault(pool, []).append(record)
        if key:
            assert key not in self.keys, key
            self.keys[key] = record
        return record

    def fill(self, template: str, sender: dict | None = None, **extra) -> str:
        """Fill a text template's slots ({me}, {sender_first}, {other}, {project}, ...)."""
        return template.format(**self.slots(sender, **extra))

    def fill2(self, subject: str, body: str, sender: dict | None = None, **extra) -> tuple[str, str]:
        """Fill a subject and its body with the same slot values (one project, one weekday)."""
        values = self.slots(sender, **extra)
        return subject.format(**values), body.format(**values)

    def slots(self, sender: dict | None = None, **extra) -> dict:
        rng = self.rng
        other = rng.choice([c for c in self.colleagues if c is not sender and c["id"] not in RESERVED])
        values = {
            "me": self.me["name"].split()[0],
            "sender_first": (sender or {}).get("name", "").split(" ")[0],
            "other": other["name"], "other_first": other["name"].split()[0],
            "project": rng.choice(text.PROJECTS), "feature": rng.choice(text.FEATURES),
            "weekday": rng.choice(text.WEEKDAYS), "time": rng.choice(text.TIMES),
            "room": rng.choice(text.ROOMS), "n": rng.randint(3, 48), "pct": rng.randint(4, 38),
            "ticket": rng.randint(1200, 4899), "amount": f"{rng.randint(2, 90) * 50:,}",
        }
        values.update(extra)
        return values


# Personas kept out of every filler: the sender the sender_arrives task waits for (she must
# never appear before her message arrives) and the people its look-alikes come from.
RESERVED = {"p004"}


def build(b: Builder) -> None:
    rng = b.rng
    colleagues = [c for c in b.colleagues if c["id"] not in RESERVED]
    me = b.me

    def colleague() -> dict:
        return rng.choice(colleagues)

    def others(n: int, exclude=()) -> list[dict]:
        pool = [c for c in colleagues if c not in exclude]
        return rng.sample(pool, n)

    # ---- base mailbox: inbox --------------------------------------------------------------
    internal = list(text.INTERNAL)
    rng.shuffle(internal)
    ages = sorted(rng.uniform(40, 30 * 24 * 60) for _ in internal)
    for i, (age, (subject, body, extra)) in enumerate(zip(ages, internal, strict=True)):
        sender = colleague()
        kind = i % 8
        kwargs: dict = {}
        if kind == 2 and "{me}" not in body:  # self on Cc of a message addressed to others
            kwargs = {"to": others(rng.randint(1, 2), [sender]), "cc": [me] + others(rng.randint(0, 1), [sender])}
        elif kind == 5:
            kwargs = {"cc": others(rng.randint(1, 2), [sender])}
        b.add("base", sender, *b.fill2(subject, body, sender), age=age,
              importance="high" if extra.get("high") else "normal", **kwargs)
    for subject, body in text.MENTIONS[:6]:
        sender = colleague()
        b.add("base", sender, *b.fill2(subject, body, sender), mentions=True,
              age=rng.uniform(300, 12 * 24 * 60), cc=others(1, [sender]))
    for sender_pair, subject, body, importance in text.OUTSIDERS[:12]:
        b.add("base", sender_pair, *b.fill2(subject, body), importance=importance,
              age=rng.uniform(60, 25 * 24 * 60), role="filler", note="outsider")
    for partner_id, subject, body in text.PARTNERS[:3]:
        partner = b.person(partner_id)
        b.add("base", partner, *b.fill2(subject, body, partner),
              age=rng.uniform(600, 20 * 24 * 60), note="partner organisation")
    for spec in text.BASE_FILES:
        sender = b.person(spec["sender"]) if spec["sender"].startswith("p") else None
        b.add("base", sender or spec["outsider"], spec["subject"], b.fill(spec["body"], sender),
              files=spec["files"], age=spec["age"], importance=spec.get("importance", "normal"),
              cc=[me] if spec.get("cc_me") else (), to=[colleague()] if spec.get("cc_me") else None)
    for spec in text.LONG_BASE:
        sender = b.person(spec["sender"])
        b.add("base", sender, spec["subject"], spec["body"], key=spec.get("key"), age=spec["age"],
              role=spec.get("role", "filler"), note=spec["note"], importance=spec.get("importance", "normal"))
    # unread, flagged and pinned state: the four newest inbox messages are unread, one pinned
    inbox = sorted(b.pools["base"], key=lambda r: r["age_minutes"])
    for index, record in enumerate(inbox):
        record["is_read"] = index >= 4
    inbox[0]["age_minutes"], inbox[1]["age_minutes"] = 4, 17
    inbox[6]["is_flagged"] = inbox[15]["is_flagged"] = inbox[31]["is_flagged"] = True
    pinned = next(r for r in inbox[20:] if r["sender_id"] and r["importance"] == "normal")
    pinned["is_pinned"] = True
    pinned["_note"] = (pinned["_note"] + "; pinned").lstrip("; ")

    # ---- base mailbox: junk, sent, drafts, archive -----------------------------------------
    junk = list(text.JUNK)
    for i, (sender_pair, subject, body, importance) in enumerate(junk[:12]):
        b.add("base", sender_pair, subject, body, folder="junk", importance=importance,
              age=rng.uniform(120, 20 * 24 * 60), is_read=i % 3 != 0, role="noise", note="junk")
    for subject, body in text.SENT:
        to = others(rng.randint(1, 2))
        b.add("base", me, *b.fill2(subject, body, me, other_first=to[0]["name"].split()[0]),
              folder="sent", to=to, age=rng.uniform(90, 15 * 24 * 60))
    for subject, body in text.DRAFTS:
        to = others(1)
        b.add("base", me, *b.fill2(subject, body, me, other_first=to[0]["name"].split()[0]),
              folder="drafts", to=to, age=rng.uniform(200, 5 * 24 * 60))
    for i, (subject, body, _extra) in enumerate(text.ARCHIVE):
        sender = colleague()
        b.add("base", sender, *b.fill2(subject, body, sender), folder="archive",
              age=rng.uniform(20 * 24 * 60, 60 * 24 * 60),
              cc=[me] if i < 2 else (), to=[colleague()] if i < 2 else None)

    # ---- arrivals: background ---------------------------------------------------------------
    arrivals = list(text.ARRIVALS)
    for subject, body, extra in arrivals:
        sender = colleague()
        kwargs = {}
        if extra.get("cc_me"):
            kwargs = {"to": others(1, [sender]), "cc": [me]}
        b.add("bg", sender, *b.fill2(subject, body, sender), is_read=False,
              importance="high" if extra.get("high") else "normal", mentions=bool(extra.get("mention")),
              files=extra.get("files", ()), age=rng.uniform(1, 240), note=extra.get("note", ""), **kwargs)
    for sender_pair, subject, body, importance in text.OUTSIDERS[12:]:
        b.add("bg", sender_pair, *b.fill2(subject, body), importance=importance, is_read=False,
              age=rng.uniform(1, 240), note="outsider")
    for partner_id, subject, body in text.PARTNERS[3:]:
        partner = b.person(partner_id)
        b.add("bg", partner, *b.fill2(subject, body, partner), is_read=False,
              age=rng.uniform(1, 240), note="partner organisation")
    for subject, body in text.MENTIONS[6:]:
        sender = colleague()
        b.add("bg", sender, *b.fill2(subject, body, sender), mentions=True,
              is_read=False, age=rng.uniform(1, 240))
    for spec in text.LONG_ARRIVALS:
        b.add("bg", b.person(spec["sender"]), spec["subject"], spec["body"], is_read=False,
              age=rng.uniform(1, 240), note=spec["note"])
    for subject, body, sender_pair in text.ARRIVE_READ:
        sender = sender_pair if isinstance(sender_pair, tuple) else colleague()
        b.add("bg_read", sender, *b.fill2(subject, body, sender if isinstance(sender, dict) else None),
              is_read=True, age=rng.uniform(1, 240), role="noise",
              note="arrives already read (read on another device / automatic)")
    for sender_pair, subject, body, importance in junk[12:]:
        b.add("junk", sender_pair, subject, body, folder="junk", importance=importance, is_read=False,
              age=rng.uniform(1, 240), role="noise", note="junk")

    # ---- specials ---------------------------------------------------------------------------
    for spec in text.SPECIALS:
        sender = b.person(spec["sender"]) if isinstance(spec["sender"], str) else spec["sender"]
        to = [b.person(p) if p.startswith("p") else p for p in spec["to"]] if "to" in spec else None
        cc = [b.person(p) if p.startswith("p") else p for p in spec.get("cc", ())]
        b.add("special", sender, spec["subject"], spec["body"], key=spec["key"], to=to, cc=cc,
              importance=spec.get("importance", "normal"), mentions=spec.get("mentions", False),
              is_read=False, files=spec.get("files", ()), age=rng.uniform(1, 60), role=spec["role"],
              note=spec["note"])


def identity(record: dict) -> tuple:
    """What makes an email the same item across rebuilds (its id follows it)."""
    return (record["folder"], record["sender_email"], record["subject"])


def read_jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def assign_ids(b: Builder, committed: list[dict] | None = None,
               committed_files: list[dict] | None = None) -> tuple[list[dict], list[dict]]:
    """Give every record its committed id, and new records the next free ones (append-only)."""
    committed = read_jsonl(HERE / "emails.jsonl") if committed is None else committed
    committed_files = read_jsonl(HERE / "attachments.jsonl") if committed_files is None else committed_files
    known = {identity(r): r["id"] for r in committed}
    order = list(b.records)
    if not committed:  # the first build: a seeded shuffle, so ids hint at nothing
        random.Random(SEED + 1).shuffle(order)
    next_n = max((int(i[2:]) for i in known.values()), default=0) + 1
    for record in order:
        if identity(record) in known:
            record["id"] = known.pop(identity(record))
        else:
            record["id"] = f"em{next_n:04d}"
            next_n += 1
    file_ids = {(f["email_id"], f["file_name"]): f["id"] for f in committed_files}
    next_f = max((int(f["id"][1:]) for f in committed_files), default=0) + 1
    emails, files = [], []
    for record in sorted(order, key=lambda r: r["id"]):
        for name, size in record["_files"]:
            fid = file_ids.get((record["id"], name))
            if fid is None:
                fid, next_f = f"f{next_f:03d}", next_f + 1
            files.append({"id": fid, "email_id": record["id"], "file_name": name, "size_bytes": size})
        emails.append(record)
    files.sort(key=lambda f: f["id"])
    return emails, files


def public_email(record: dict) -> dict:
    keys = ("id", "folder", "sender_id", "sender_name", "sender_email", "to", "cc", "subject", "body",
            "importance", "mentions_me", "is_read", "is_flagged", "is_pinned", "age_minutes", "_role", "_note")
    return {k: record[k] for k in keys}


def check(b: Builder, emails: list[dict], files: list[dict]) -> dict:
    """Authoring rules the scenarios rely on; returns the catalog's subset counts."""
    me = b.me["email"]
    target_sender = b.person("p004")["name"]
    for r in emails:
        blob = " ".join([r["sender_name"], r["subject"], r["body"]])
        assert "Marta Quinlan" not in blob and "press-release-final" not in blob.lower(), r["id"]
        if r["_key"] != "sender_target":
            assert target_sender not in blob, (r["id"], "mentions the awaited sender")
        if r["_key"] not in ("december_preload", "december_target"):
            assert "december deadline" not in r["body"].lower(), r["id"]
        if r["_key"] != "phrase_target":
            assert "platform scalability" not in r["body"].lower(), r["id"]
        assert len(r["subject"]) <= 120 and "{" not in r["body"] + r["subject"], r["id"]
    for f in files:
        assert f["file_name"] != "press-release-final.docx", f
        if f["file_name"] == "mobile-app-mockups.fig":
            assert b.keys["attachment_target"]["id"] == f["email_id"]
    long_keys = [r for r in emails if "key phrase" in r["_note"]]
    for r in long_keys:
        phrase = r["_note"].split("'")[1]
        at = r["body"].find(phrase)
        assert at >= HIDDEN_FROM, (r["id"], phrase, at)
        r["_note"] = f"{r['_note']} (at char {at})"
    non_junk = [r for r in emails if r["folder"] != "junk"]
    return {
        "emails": len(emails),
        "junk": sum(r["folder"] == "junk" for r in emails),
        "with_attachments": len({f["email_id"] for f in files}),
        "attachments": len(files),
        "outsiders (non-junk)": sum(r["sender_id"] is None for r in non_junk),
        "self on cc": sum(me in r["cc"] for r in emails),
        "mention self": sum(bool(r["mentions_me"]) for r in emails),
        "high importance": sum(r["importance"] == "high" for r in emails),
        "long, key phrase after char 160": len(long_keys),
        "fillers": sum(r["_role"] == "filler" for r in emails),
    }


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def main() -> None:
    b = Builder(load_personas())
    build(b)
    emails, files = assign_ids(b)
    counts = check(b, emails, files)
    write_jsonl(HERE / "emails.jsonl", [public_email(r) for r in emails])
    write_jsonl(HERE / "attachments.jsonl", files)
    for name, value in counts.items():
        print(f"{name:>34}: {value}")


if __name__ == "__main__":
    main()
