"""MicroMail's ten scenario kinds (ENVIRONMENTS §1): the authored scenarios made into templates.

Each draw picks its target, look-alikes, near miss and background mail from the catalog (mail
not in the standard preload), words the prompt from the chosen facts and returns the mapping
`sentinel.core.kinds` validates. Knobs: `decoys` look-alikes before the target, `near_miss` how
alike they are (shared words of a file name, phrase or sender name), `hold_s` how long until
a recall ends a passing condition, `density` background mail per sim minute.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
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
    sql_text,
    target_time,
    taxonomy,  # noqa: F401  (kinds of this environment use it from here)
    timeline,
    times_between,
)

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

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


# --- counting kinds: inbox_growth, junk_growth, unread_threshold, cc_three_more -------------

def counted_events(rng: random.Random, catalog: Catalog, knobs: Knobs, counted: list[str], others: list[str],
                   n: int, what: str, decoy_note: str, gap_s: int = 0) -> tuple[int, list[dict[str, Any]], set[str]]:
    """n counted arrivals, the n-th at the target time, look-alikes (others) between them and,
    after the target, one more counted arrival trailing. Returns (target time, events, used ids).
    gap_s keeps counted arrivals that far apart (a task that acts on each one needs the time)."""
    picked = sample(rng, counted, n + 1, what)
    decoys = sample(rng, others, knobs.decoys, "look-alikes")
    at = target_time(rng, knobs, lo=FIRST_READ_S + 2 + n + knobs.decoys + gap_s * (n - 1))
    if gap_s:
        counted_at = sorted(at - gap_s * (n - 1 - i) - rng.randint(0, 5) for i in range(n - 1))
        decoy_at = [t for t in times_between(rng, len(decoys) + n, FIRST_READ_S, at)
                    if all(abs(t - c) > GAP for c in counted_at)][:len(decoys)]
    else:
        times = times_between(rng, n - 1 + len(decoys), FIRST_READ_S, at)
        slots = list(range(len(times)))
        rng.shuffle(slots)
        decoy_at = [times[j] for j in sorted(slots[:len(decoys)])]
        counted_at = [times[j] for j in sorted(slots[len(decoys):])]
    events = [event(t, "new_email", f"{what} {i + 1} of {n}", email_id=rid)
              for i, (t, rid) in enumerate(zip(counted_at, picked[:n - 1], strict=True))]
    events += [event(t, "new_email", f"{decoy_note} · {subject(catalog, rid)}", email_id=rid)
               for t, rid in zip(decoy_at, decoys, strict=False)]
    events.append(event(at, "new_email", f"{what} {n} of {n} (the target) · {subject(catalog, picked[n - 1])}",
                        email_id=picked[n - 1]))
    trail = rng.randint(min(at + 10, 715), 715)
    events.append(event(trail, "new_email", f"trailing: {what} after the target", email_id=picked[n]))
    return at, events, {*picked, *decoys}


def fill_split(rng, catalog, knobs, events, used, at, counts) -> list[dict[str, Any]]:
    """Background: before the target nothing that `counts`, after it anything."""
    before = fill(rng, catalog, replace(knobs, density=knobs.density * at / 715), [e["at"] for e in events],
                  used, counts)
    before = [e for e in before if e["at"] < at - GAP]
    after = fill(rng, catalog, replace(knobs, density=knobs.density * (715 - at) / 715),
                 [e["at"] for e in events] + [t for t in range(0, int(at) + GAP)], used)
    return before + after


GAP = 3
# A relative task's agent reads its reference on its first page load, a few sim seconds in at
# high speeds: the counted arrivals start after that.
FIRST_READ_S = 8
CC_GAP_S = 45  # cc_three_more: the oracle opens and flags each Cc mail before the next arrives


def is_inbox(r: dict[str, Any]) -> bool:
    return r.get("folder", "inbox") == "inbox"


def draw_inbox_growth(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    inbox = arrivals(catalog, is_inbox)
    junk = arrivals(catalog, lambda r: r.get("folder") == "junk")
    at, events, used = counted_events(rng, catalog, knobs, inbox, junk, 5, "inbox arrival", "junk: does not count")
    events += fill_split(rng, catalog, knobs, events, used, at, lambda rid: is_inbox(mail(catalog, rid)))
    sql = ("SELECT (SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND origin != 'self') >= "
           "CAST((SELECT value FROM session_meta WHERE key = 'baseline_inbox_count') AS REAL) + 5")
    return scenario(
        description=f"Five inbox arrivals (the fifth at {at} s) among {knobs.decoys} junk arrivals; more of both "
                    "follow. The list header shows only the total.",
        prompt="Keep an eye on my MicroMail inbox and tell me once it holds five more messages than it does now. "
               "Mail that lands in Junk doesn't count.",
        condition_at=at, start_page=INBOX_PAGE, taxonomy=taxonomy("passive", "relative", "easy", "junk arrivals"),
        events=timeline(preload(), events), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": INBOX_PAGE, "until": {"number": "Showing [\\d,]+–[\\d,]+ of ([\\d,]+)",
                                                  "at_least": "first + 5"}},
                  {"report": "The inbox now holds five more messages than at the start."}])


def draw_junk_growth(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    inbox = arrivals(catalog, is_inbox)
    junk = arrivals(catalog, lambda r: r.get("folder") == "junk")
    at, events, used = counted_events(rng, catalog, knobs, junk, inbox, 3, "junk arrival", "inbox arrival: not junk")
    events += fill_split(rng, catalog, knobs, events, used, at, lambda rid: not is_inbox(mail(catalog, rid)))
    sql = ("SELECT (SELECT COUNT(*) FROM emails WHERE folder = 'junk' AND origin != 'self') >= "
           "CAST((SELECT value FROM session_meta WHERE key = 'baseline_junk_count') AS REAL) + 3")
    return scenario(
        description=f"Three junk arrivals (the third at {at} s) between {knobs.decoys} or more inbox arrivals; "
                    "another junk mail trails. The sidebar shows only Junk's total.",
        prompt="Tell me when three more messages have landed in my MicroMail Junk folder than are there now.",
        condition_at=at, start_page=INBOX_PAGE, taxonomy=taxonomy("passive", "relative", "easy", "inbox arrivals"),
        events=timeline(preload(), events), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": INBOX_PAGE, "until": {"number": "Junk \\(([\\d,]+)\\)", "at_least": "first + 3"}},
                  {"report": "Three more messages have landed in Junk."}])


def draw_unread_threshold(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    unread = arrivals(catalog, lambda r: is_inbox(r) and not r.get("is_read"))
    others = arrivals(catalog, lambda r: not is_inbox(r) or bool(r.get("is_read")))
    start = sum(1 for rid in PRELOAD if is_inbox(mail(catalog, rid)) and not mail(catalog, rid).get("is_read"))
    n = rng.randint(4, 7)
    at, events, used = counted_events(rng, catalog, knobs, unread, others, n, "unread inbox arrival",
                                      "arrives read or in junk: does not count")
    threshold = start + n
    events += fill_split(rng, catalog, knobs, events, used, at,
                         lambda rid: is_inbox(mail(catalog, rid)) and not mail(catalog, rid).get("is_read"))
    sql = f"SELECT (SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND is_read = 0) >= {threshold}"
    return scenario(
        description=f"The preload has {start} unread inbox messages; {n} unread arrivals bring it to {threshold} at "
                    f"{at} s, between mail that arrives read and junk.",
        prompt=f"Don't open any messages. Just tell me when my MicroMail inbox has {threshold} unread messages.",
        condition_at=at, start_page=INBOX_PAGE,
        taxonomy=taxonomy("passive", "absolute", "medium", "mail arriving already read, junk"),
        events=timeline(preload(), events), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": INBOX_PAGE, "until": {"number": "Inbox \\(([\\d,]+)\\)", "at_least": threshold}},
                  {"report": f"The inbox has {threshold} unread messages."}])


def cc_me(r: dict[str, Any]) -> bool:
    return SELF_EMAIL in [a.lower() for a in r.get("cc", [])]


def draw_cc_three_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    counted = arrivals(catalog, lambda r: is_inbox(r) and cc_me(r))
    others = arrivals(catalog, lambda r: is_inbox(r) and not cc_me(r)
                      and (bool(r.get("cc")) or bool(r.get("mentions_me"))))
    at, events, used = counted_events(rng, catalog, knobs, counted, others, 3, "self on Cc",
                                      "decoy: others on Cc or an @mention, self not on Cc", gap_s=CC_GAP_S)
    events += fill_split(rng, catalog, knobs, events, used, at, lambda rid: cc_me(mail(catalog, rid)))
    step = {**OPEN_NEW, "until": {"matches": "Cc: [^|]*Alex Morgan \\(you\\)"}}
    return scenario(
        description=f"Cc shows only on the message page. Look-alikes put others on Cc or @mention self; the third "
                    f"mail with self on Cc arrives at {at} s and a fourth trails. Flagging a mail without self on Cc "
                    "fails the task.",
        prompt="I keep getting copied on threads. Watch my MicroMail inbox: flag each new email that has me on Cc "
               "(and nothing else), and tell me once three more such emails have arrived.",
        condition_at=at, start_page=INBOX_PAGE,
        taxonomy=taxonomy("active", "relative", "hard", "others on Cc, mentions without Cc"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM emails WHERE {NEW} AND folder = 'inbox' AND cc_me = 1) >= 3",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM emails WHERE {NEW} AND cc_me = 1 AND is_flagged = 1) >= 3 AND NOT "
                 f"EXISTS (SELECT 1 FROM emails WHERE {NEW} AND is_flagged = 1 AND NOT (cc_me = 1))",
        solution=[step, {"submit": "/flag$"}, step, {"submit": "/flag$"}, step, {"submit": "/flag$"},
                  {"report": "Three new emails with me on Cc arrived; I flagged all three."}])


# --- sender kinds ---------------------------------------------------------------------------

def preload_text(catalog: Catalog) -> str:
    return " ".join(text_of(catalog, rid) for rid in PRELOAD)


def _sender_setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    emails = catalog.raw("emails")
    pre = preload_text(catalog)
    senders = {}
    for rid in arrivals(catalog, lambda r: is_inbox(r) and r.get("sender_id") is not None):
        name = emails[rid]["sender_name"]
        if name.lower() not in pre and sum(r["sender_name"] == name for r in emails.values()) == 1:
            senders[name] = rid
    name = choose(rng, sorted(senders), "sender")
    target = senders[name]
    others = arrivals(catalog, lambda r: is_inbox(r) and r["sender_name"] != name, exclude=[target])
    others = [rid for rid in others if name.lower() not in text_of(catalog, rid)]
    first, last = name.split()[0], name.split()[-1]
    decoys = nearest(rng, others, knobs.decoys, lambda rid: float(
        emails[rid]["sender_name"].split()[0] == first or emails[rid]["sender_name"].split()[-1] == last),
        knobs.near_miss)
    at = target_time(rng, knobs, lo=4 + 2 * len(decoys))
    events = [event(t, "new_email", f"decoy: {emails[rid]['sender_name']}, not {name} · {subject(catalog, rid)}",
                    email_id=rid) for t, rid in zip(times_between(rng, len(decoys), 0, at), decoys, strict=True)]
    events.append(event(at, "new_email", f"target: the awaited sender {name} · {subject(catalog, target)}",
                        email_id=target))
    return {"name": name, "target": target, "at": at, "events": events, "used": {target, *decoys}}


def draw_sender_arrives(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _sender_setup(rng, catalog, knobs)
    name, at = s["name"], s["at"]
    events = s["events"] + fill(rng, catalog, knobs, [e["at"] for e in s["events"]], s["used"],
                                lambda rid: name.lower() in text_of(catalog, rid))
    sql = f"SELECT EXISTS (SELECT 1 FROM emails WHERE folder = 'inbox' AND sender_name = {sql_text(name)})"
    return scenario(
        description=f"{len(s['events']) - 1} other senders come first (look-alike names first); {name} writes at "
                    f"{at} s, and ordinary mail keeps arriving.",
        prompt=f"I'm expecting an email from {name}. Tell me as soon as a message from them shows up in my MicroMail "
               "inbox.",
        condition_at=at, start_page=INBOX_PAGE,
        taxonomy=taxonomy("passive", "absolute", "easy", "same first name or surname"),
        events=timeline(preload(), events), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": INBOX_PAGE, "until": {"text": name}}, {"report": f"{name}'s email has arrived."}])


def draw_sender_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Someone who never writes is awaited; a colleague at the same outside organisation does write."""
    s = _sender_setup(rng, catalog, knobs)
    emails = catalog.raw("emails")
    pre_domains = {domain(emails[rid]["sender_email"]) for rid in PRELOAD}
    by_domain: dict[str, list[str]] = {}
    for rid in arrivals(catalog, is_inbox, exclude=s["used"]):
        d = domain(emails[rid]["sender_email"])
        if d not in pre_domains and d != domain(SELF_EMAIL):
            by_domain.setdefault(d, []).append(rid)
    dom = choose(rng, sorted(by_domain), "outside organisation")
    near = choose(rng, by_domain[dom], "near-miss sender")
    names = {r["sender_name"] for r in emails.values()}
    firsts = sorted({n.split()[0] for n in names})
    lasts = sorted({n.split()[-1] for n in names})
    asked = f"{choose(rng, firsts)} {choose(rng, lasts)}"
    if asked in names or asked.lower() in preload_text(catalog):
        raise NoDraw(f"{asked} is a real sender")
    org = dom.split(".")[0].capitalize()
    taken = [e["at"] for e in s["events"]]
    near_at = choose(rng, [t for t in range(30, 700) if all(abs(t - b) > GAP for b in taken)], "time")
    events = s["events"] + [event(near_at, "new_email", f"near miss: {emails[near]['sender_name']} at {dom}, not "
                                                        f"{asked} · {subject(catalog, near)}", email_id=near)]
    used = {*s["used"], near}
    events += fill(rng, catalog, knobs, [e["at"] for e in events], used,
                   lambda rid: domain(emails[rid]["sender_email"]) == dom or asked.lower() in text_of(catalog, rid))
    return scenario(
        description=f"No-op copy of sender_arrives: {asked} of {org} never writes; {emails[near]['sender_name']} from "
                    f"the same organisation does at {near_at} s, and {s['name']} still writes at {s['at']} s.",
        prompt=f"I'm expecting an email from {asked} at {org} ({dom}). Tell me as soon as a message from them shows "
               "up in my MicroMail inbox.",
        condition_at=None, start_page=INBOX_PAGE,
        taxonomy=taxonomy("noop", "absolute", "easy", "another sender from the same organisation"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM emails WHERE folder = 'inbox' "
                      f"AND sender_name = {sql_text(asked)})",
        near_miss_sql=f"SELECT EXISTS (SELECT 1 FROM emails WHERE folder = 'inbox' AND sender_email LIKE "
                      f"{sql_text('%@' + dom)})",
        solution=[{"watch": INBOX_PAGE, "until": {"text": asked}}, {"report": f"{asked}'s email has arrived."}])


def domain(address: str) -> str:
    return address.rsplit("@", 1)[-1].lower()


# --- phrase kinds: body_phrase, body_keyword_second ------------------------------------------

def phrases(catalog: Catalog) -> dict[str, list[str]]:
    """Key phrase → the mails whose body holds it (the catalog notes where it sits past the preview)."""
    found = sorted({m.group(1) for r in catalog.raw("emails").values() if (m := KEY_PHRASE.search(r.get("_note", "")))})
    return {p: [rid for rid, r in catalog.raw("emails").items() if p.lower() in r["body"].lower()] for p in found}


def _phrase_events(rng, catalog, knobs, phrase, target, first=None):
    others = [rid for rid in arrivals(catalog, is_inbox, exclude=[target])
              if phrase.lower() not in text_of(catalog, rid) and rid != first]
    decoys = nearest(rng, others, knobs.decoys, lambda rid: similarity(phrase, text_of(catalog, rid)) * 10,
                     knobs.near_miss)
    at = target_time(rng, knobs, lo=4 + 2 * len(decoys))
    events = [event(t, "new_email", f"decoy: near words, not '{phrase}' · {subject(catalog, rid)}", email_id=rid)
              for t, rid in zip(times_between(rng, len(decoys), 0, at), decoys, strict=True)]
    body = mail(catalog, target)["body"]
    events.append(event(at, "new_email", f"target: key phrase '{phrase}' (at char {body.lower().find(phrase.lower())}) "
                                         f"· {subject(catalog, target)}", email_id=target))
    events += fill(rng, catalog, knobs, [e["at"] for e in events], {target, *decoys, *([first] if first else [])},
                   lambda rid: phrase.lower() in text_of(catalog, rid))
    return at, events


def draw_body_phrase(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    pre = preload_text(catalog)
    found = {p: [rid for rid in ids if rid not in PRELOAD] for p, ids in phrases(catalog).items()
             if p.lower() not in pre}
    phrase = choose(rng, sorted(p for p, ids in found.items() if len(ids) == 1), "key phrase")
    target = found[phrase][0]
    at, events = _phrase_events(rng, catalog, knobs, phrase, target)
    like = like_text(phrase)
    return scenario(
        description=f"Look-alikes share words with '{phrase}'; the target at {at} s has the phrase past the "
                    "100-character "
                    "preview. Flagging any other new mail fails the task.",
        prompt=f"When an email whose text contains the phrase \"{phrase}\" arrives in my MicroMail inbox, flag it "
               "(only that one) and tell me.",
        condition_at=at, start_page=INBOX_PAGE,
        taxonomy=taxonomy("active", "absolute", "medium", "shared words, phrase past the preview"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM emails WHERE folder = 'inbox' AND origin != 'self' "
                      f"AND body LIKE {like})",
        eval_sql=flagged_only(f"body LIKE {like}"),
        solution=[{**OPEN_NEW, "until": {"text": phrase}}, {"submit": "/flag$"},
                  {"report": f"The email about {phrase} arrived; I flagged it."}])


def draw_body_keyword_second(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """One mail with the phrase is in the preload from the start; a second one arrives."""
    pre = {p: ids for p, ids in phrases(catalog).items() if len(ids) >= 2}
    phrase = choose(rng, sorted(pre), "phrase with two mails")
    ids = pre[phrase]
    first = next((rid for rid in ids if rid in PRELOAD), None) or choose(rng, ids)
    target = choose(rng, [rid for rid in ids if rid != first and rid not in PRELOAD], "second mail")
    at, events = _phrase_events(rng, catalog, knobs, phrase, target, first)
    like = like_text(phrase)
    load = {"emails": list(PRELOAD) + ([first] if first not in PRELOAD else [])}
    return scenario(
        description=f"A preloaded mail mentions '{phrase}' past its preview; look-alikes share its words; a second "
                    f"mail naming it in its body arrives at {at} s. Flagging any other new mail fails the task.",
        prompt=f"One email in my MicroMail inbox already mentions the {phrase}. When a second email arrives whose text "
               f"mentions the {phrase}, flag that new email (only that one) and tell me.",
        condition_at=at, start_page=INBOX_PAGE,
        taxonomy=taxonomy("active", "relative", "medium", "the phrase's words apart"),
        events=timeline(load, events),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM emails WHERE origin != 'self' AND body LIKE {like}) >= 2",
        eval_sql=flagged_only(f"body LIKE {like}"),
        solution=[{**OPEN_NEW, "until": {"text": phrase}}, {"submit": "/flag$"},
                  {"report": f"A second email mentioning the {phrase} arrived; I flagged it."}])


KINDS: tuple[Kind, ...] = (
    Kind("attachment_name", "active", "absolute", draw_attachment_name, Knobs(decoys=3),
         "decoys: attachment mails before the target; near_miss: how many words their file names share with the "
         "asked name; hold_s: until the sender recalls the target"),
    Kind("attachment_name_noop", "noop", "absolute", draw_attachment_name_noop, Knobs(decoys=3),
         "as attachment_name; the near miss is the asked file in another format"),
    Kind("body_keyword_second", "active", "relative", draw_body_keyword_second, Knobs(decoys=3),
         "decoys: mails sharing the phrase's words (near_miss: how many); the first mention is preloaded"),
    Kind("body_phrase", "active", "absolute", draw_body_phrase, Knobs(decoys=3),
         "decoys: mails sharing the phrase's words (near_miss: how many)"),
    Kind("cc_three_more", "active", "relative", draw_cc_three_more, Knobs(decoys=3), earliest=120,
         notes="decoys: others on Cc or an @mention without self on Cc; the Cc mails come 45 s or more apart"),
    Kind("inbox_growth", "passive", "relative", draw_inbox_growth, Knobs(decoys=4),
         "decoys: junk arrivals between the five inbox arrivals"),
    Kind("junk_growth", "passive", "relative", draw_junk_growth, Knobs(decoys=4),
         "decoys: inbox arrivals between the three junk arrivals"),
    Kind("sender_arrives", "passive", "absolute", draw_sender_arrives, Knobs(decoys=2),
         "decoys: other senders before the target (near_miss: sharing a first name or surname)"),
    Kind("sender_noop", "noop", "absolute", draw_sender_noop, Knobs(decoys=2),
         "as sender_arrives; the near miss is a colleague of the awaited sender's organisation"),
    Kind("unread_threshold", "passive", "absolute", draw_unread_threshold, Knobs(decoys=3),
         "decoys: mail arriving read or in junk between the unread arrivals"),
)
