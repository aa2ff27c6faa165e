"""MicroMail's ten scenario kinds (ENVIRONMENTS §1): the authored scenarios made into templates.

Each draw picks its target, look-alikes, near miss and background mail from the catalog (mail
not in the standard preload), words the prompt from the chosen facts and returns the mapping
`sentinel.generate` validates. Knobs: `decoys` look-alikes before the target, `near_miss` how
alike they are (shared words of a file name, phrase or sender name), `hold_s` how long until
a recall ends a passing condition, `density` background mail per sim minute.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

from sentinel.generate import Kind, Knobs, NoDraw
from sentinel.generate_kit import (
    background_times,
    choose,
    event,
    ids_where,
    nearest,
    scenario,
    sql_text,
    target_time,
    timeline,
    times_between,
)

if TYPE_CHECKING:
    from sentinel.catalog import Catalog

SELF_EMAIL = "alex.morgan@northwind.example"
INBOX_PAGE = "/micromail/folder/inbox"
# The standard preload of the authored MicroMail scenarios: 112 messages, 4 of them unread in the inbox.
PRELOAD = tuple(f"em{n:04d}" for n in (
    2, 8, 9, 10, 11, 12, 13, 15, 18, 25, 26, 32, 35, 37, 39, 41, 43, 46, 48, 49, 50, 51, 53, 54, 55, 57, 59,
    60, 61, 64, 68, 73, 74, 75, 77, 78, 81, 82, 86, 87, 89, 91, 93, 96, 98, 100, 105, 110, 112, 117, 121, 122,
    125, 130, 133, 134, 140, 143, 144, 145, 148, 149, 151, 153, 154, 161, 162, 164, 168, 170, 174, 176, 177, 181,
    183, 190, 192, 193, 194, 196, 199, 200, 203, 206, 208, 211, 212, 216, 220, 222, 223, 224, 229, 231, 236, 238,
    242, 243, 244, 250, 259, 260, 261, 262, 265, 266, 268, 270, 274, 275, 276, 280))
NEW = "origin = 'event'"
OPEN_NEW = {"watch": INBOX_PAGE, "open_new": "^/micromail/message/"}
KEY_PHRASE = re.compile(r"key phrase '([^']+)'")


# --- catalog views ------------------------------------------------------------------------

def arrivals(catalog: Catalog, where=lambda r: True, exclude=()) -> list[str]:
    """Mail that can arrive on the timeline: inbox or junk, not preloaded, not pre-flagged or pinned."""
    return ids_where(catalog, "emails", lambda r: r.get("folder", "inbox") in ("inbox", "junk")
                     and not r.get("is_flagged") and not r.get("is_pinned") and where(r),
                     exclude=[*PRELOAD, *exclude])


def files_of(catalog: Catalog) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for rec in catalog.raw("attachments").values():
        out.setdefault(rec["email_id"], []).append(rec["file_name"])
    return out


def mail(catalog: Catalog, rid: str) -> dict[str, Any]:
    return catalog.raw("emails")[rid]


def text_of(catalog: Catalog, rid: str) -> str:
    rec = mail(catalog, rid)
    names = " ".join(files_of(catalog).get(rid, []))
    return f"{rec['subject']} {rec['body']} {rec['sender_name']} {names}".lower()


def words(text: str) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", text.lower()) if len(w) > 2}


def similarity(a: str, b: str) -> float:
    wa, wb = words(a), words(b)
    return len(wa & wb) / max(1, len(wa | wb))


def fill(rng: random.Random, catalog: Catalog, knobs: Knobs, taken: list[float], used: set[str],
         spoils=lambda rid: False) -> list[dict[str, Any]]:
    """Background mail at the density knob, never a message that would decide the task (`spoils`)."""
    pool = [rid for rid in arrivals(catalog, exclude=used) if not spoils(rid)]
    times = background_times(rng, knobs.density, taken)
    picked = rng.sample(pool, min(len(times), len(pool)))
    used.update(picked)
    return [event(t, "new_email", None, email_id=rid) for t, rid in zip(times, picked, strict=False)]


def preload() -> dict[str, Any]:
    return {"emails": list(PRELOAD)}


def taxonomy(activity: str, criteria: str, difficulty: str, distraction: str) -> dict[str, str]:
    return {"activity": activity, "criteria": criteria, "difficulty": difficulty, "distraction": distraction}


def subject(catalog: Catalog, rid: str) -> str:
    return str(mail(catalog, rid)["subject"])


def flagged_only(predicate: str) -> str:
    """eval_sql of a flag task: a new mail matching the predicate is flagged, and no other new mail is."""
    return (f"SELECT EXISTS (SELECT 1 FROM emails WHERE {NEW} AND is_flagged = 1 AND {predicate}) "
            f"AND NOT EXISTS (SELECT 1 FROM emails WHERE {NEW} AND is_flagged = 1 AND NOT ({predicate}))")


# --- attachment_name and its no-op --------------------------------------------------------

def _attachment_setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The target mail and file, its look-alikes, the recall: shared by the kind and its no-op."""
    files = files_of(catalog)
    names = [n for ns in files.values() for n in ns]
    unique = [rid for rid in arrivals(catalog, lambda r: r.get("folder") == "inbox") if rid in files
              and any(names.count(n) == 1 and n.lower() not in text_of_mail(catalog, rid) for n in files[rid])]
    target = choose(rng, unique, "attachment mail")
    name = choose(rng, [n for n in files[target] if names.count(n) == 1], "file name")
    others = [rid for rid in arrivals(catalog, lambda r: r.get("folder") == "inbox", exclude=[target])
              if rid in files and name.lower() not in text_of(catalog, rid)]
    decoys = nearest(rng, others, knobs.decoys + 1, lambda rid: max(similarity(name, n) for n in files[rid]),
                     knobs.near_miss)
    trailing, decoys = decoys[-1], decoys[:-1]
    at = target_time(rng, knobs, lo=10 + 2 * len(decoys), hi=600)
    until = min(at + int(knobs.hold_s), 715)
    return {"files": files, "target": target, "name": name, "decoys": decoys, "trailing": trailing,
            "at": at, "until": until}


def text_of_mail(catalog: Catalog, rid: str) -> str:
    rec = mail(catalog, rid)
    return f"{rec['subject']} {rec['body']}".lower()


def _attachment_events(rng: random.Random, catalog: Catalog, knobs: Knobs, s: dict[str, Any],
                       extra: list[dict[str, Any]], spoil_text: str, target_note: str) -> list[dict[str, Any]]:
    files, at = s["files"], s["at"]
    key = [event(t, "new_email", f"decoy: {', '.join(files[rid])}, not {s['name']} · {subject(catalog, rid)}",
                 email_id=rid)
           for t, rid in zip(times_between(rng, len(s["decoys"]), 0, at), s["decoys"], strict=True)]
    key.append(event(at, "new_email", f"{target_note}: carries {s['name']} (named only on the message page) · "
                                      f"{subject(catalog, s['target'])}", email_id=s["target"]))
    trail_at = rng.randint(at + 3, max(at + 3, s["until"] - 3)) if s["until"] - at > 6 else s["until"] + 2
    key.append(event(trail_at, "new_email", f"trailing: {', '.join(files[s['trailing']])}, after the target",
                     email_id=s["trailing"]))
    key.append(event(s["until"], "recall_email", "the sender recalls the mail: it disappears and can no longer "
                                                 "be flagged (condition_until)", email_id=s["target"]))
    key += extra
    used = {s["target"], s["trailing"], *s["decoys"], *(e["email_id"] for e in extra)}
    key += fill(rng, catalog, knobs, [e["at"] for e in key], used,
                lambda rid: rid in files or spoil_text.lower() in text_of(catalog, rid))
    return timeline(preload(), key)


def has_file(name: str) -> str:
    return (f"EXISTS (SELECT 1 FROM attachments a WHERE a.email_id = emails.id AND a.file_name = {sql_text(name)})")


def draw_attachment_name(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _attachment_setup(rng, catalog, knobs)
    name = s["name"]
    return scenario(
        description=f"{len(s['decoys'])} attachment mails come first; the target at {s['at']} s carries {name}, "
                    f"named only on the message page. The sender recalls it at {s['until']} s. Flagging any other "
                    "new mail fails the task.",
        prompt=f"I'm waiting for the file {name}. When an email with an attachment of exactly that name arrives in "
               "my MicroMail inbox, flag that email (and only that one) so I find it later, then tell me.",
        condition_at=s["at"], condition_until=s["until"], start_page=INBOX_PAGE,
        taxonomy=taxonomy("active", "absolute", "medium", "look-alike attachment names, recall"),
        events=_attachment_events(rng, catalog, knobs, s, [], name, "target"),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM emails WHERE folder = 'inbox' AND {has_file(name)})",
        eval_sql=flagged_only(has_file(name)),
        solution=[{**OPEN_NEW, "until": {"text": name}}, {"submit": "/flag$"},
                  {"report": f"The email carrying {name} arrived; I flagged it."}])


def draw_attachment_name_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The asked-for file never comes; one with the same stem and another extension does (the near miss)."""
    s = _attachment_setup(rng, catalog, knobs)
    files = s["files"]
    names = {n for ns in files.values() for n in ns}
    used = {s["target"], s["trailing"], *s["decoys"]}
    candidates = [rid for rid in arrivals(catalog, lambda r: r.get("folder") == "inbox", exclude=used)
                  if rid in files and len(files[rid]) == 1]
    near = choose(rng, candidates, "near-miss attachment mail")
    real = files[near][0]
    stem, _, ext = real.rpartition(".")
    asked = f"{stem}.{choose(rng, [e for e in ('docx', 'pdf', 'xlsx', 'zip') if e != ext], 'extension')}"
    if asked in names or "%" in stem or "_" in stem:
        raise NoDraw(f"{asked} exists in the catalog")
    near_at = rng.randint(s["until"] + 5, 700) if s["until"] < 690 else rng.randint(s["at"] + 3, s["until"] - 3)
    extra = [event(near_at, "new_email", f"near miss: {real}, not {asked} · {subject(catalog, near)}", email_id=near)]
    return scenario(
        description=f"No-op copy of attachment_name: {asked} never arrives; {real} (same name, another type) "
                    f"does at {near_at} s, and {s['name']} still arrives at {s['at']} s. "
                    "Refrain check: nothing new is flagged.",
        prompt=f"I'm waiting for the file {asked}. When an email carrying an attachment of exactly that name "
               "arrives in my MicroMail inbox, flag it (and only it), then tell me.",
        condition_at=None, start_page=INBOX_PAGE,
        taxonomy=taxonomy("noop", "absolute", "medium", "the same file in another format, look-alike names"),
        events=_attachment_events(rng, catalog, knobs, s, extra, stem, "near miss (the source task's target)"),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM attachments WHERE file_name = {sql_text(asked)})",
        near_miss_sql=f"SELECT EXISTS (SELECT 1 FROM attachments WHERE file_name LIKE {sql_text(stem + '.%')})",
        eval_sql=f"SELECT NOT EXISTS (SELECT 1 FROM emails WHERE {NEW} AND is_flagged = 1)",
        solution=[{**OPEN_NEW, "until": {"text": asked}}, {"submit": "/flag$"},
                  {"report": f"The email carrying {asked} arrived; I flagged it."}])


KINDS: tuple[Kind, ...] = (
    Kind("attachment_name", "active", "absolute", draw_attachment_name, Knobs(decoys=3),
         "decoys: attachment mails before the target; near_miss: how many words their file names share with the "
         "asked name; hold_s: until the sender recalls the target"),
    Kind("attachment_name_noop", "noop", "absolute", draw_attachment_name_noop, Knobs(decoys=3),
         "as attachment_name; the near miss is the asked file in another format"),
)
