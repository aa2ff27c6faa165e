"""MicroMail's ten scenario kinds (docs/environments.md#micromail), declared on sentinel.generation.kit: each
setup draws the facts (target, look-alikes, near miss, times, background mail); the texts are templates of them."""

from __future__ import annotations

import random
import re
from functools import partial
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.envs.micromail.events import attachments_by_email, domain
from sentinel.generation import kit

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

SELF_EMAIL = "alex.morgan@northwind.example"
INBOX = "/micromail/folder/inbox"
# The standard preload of the authored MicroMail scenarios: 112 messages, 4 of them unread in the inbox.
PRELOAD = tuple(f"em{n:04d}" for n in (
    2, 8, 9, 10, 11, 12, 13, 15, 18, 25, 26, 32, 35, 37, 39, 41, 43, 46, 48, 49, 50, 51, 53, 54, 55, 57, 59,
    60, 61, 64, 68, 73, 74, 75, 77, 78, 81, 82, 86, 87, 89, 91, 93, 96, 98, 100, 105, 110, 112, 117, 121, 122,
    125, 130, 133, 134, 140, 143, 144, 145, 148, 149, 151, 153, 154, 161, 162, 164, 168, 170, 174, 176, 177, 181,
    183, 190, 192, 193, 194, 196, 199, 200, 203, 206, 208, 211, 212, 216, 220, 222, 223, 224, 229, 231, 236, 238,
    242, 243, 244, 250, 259, 260, 261, 262, 265, 266, 268, 270, 274, 275, 276, 280))
NEW = "origin = 'event'"
KEY_PHRASE = re.compile(r"key phrase '([^']+)'")
CC_GAP_S = 45  # cc_three_more: the oracle opens and flags each Cc mail before the next arrives
FLAGGED = f"EXISTS (SELECT 1 FROM emails WHERE {NEW} AND is_flagged = 1"
FLAGGED_ONLY = f"SELECT {FLAGGED} AND {{0}}) AND NOT {FLAGGED} AND NOT ({{0}}))"  # eval_sql of a flag task
HAS_FILE = "EXISTS (SELECT 1 FROM attachments a WHERE a.email_id = emails.id AND a.file_name = {name!q})"


# --- catalog views and the scenario's frame -------------------------------------------------

def arrivals(catalog: Catalog, where=lambda r: True) -> list[str]:
    """Mail that can arrive on the timeline: inbox or junk, not preloaded, not pre-flagged or pinned."""
    return kit.ids_where(catalog, "emails", lambda r: r.get("folder", "inbox") in ("inbox", "junk")
                         and not r.get("is_flagged") and not r.get("is_pinned") and where(r), exclude=PRELOAD)


def is_inbox(r: dict[str, Any]) -> bool:
    return r.get("folder", "inbox") == "inbox"


def mail(catalog: Catalog, rid: str) -> dict[str, Any]:
    return catalog.raw("emails")[rid]


def files_of(catalog: Catalog) -> dict[str, list[str]]:
    return {rid: [f["file_name"] for f in files] for rid, files in attachments_by_email(catalog).items()}


def text_of(catalog: Catalog, rid: str, whole: bool = True) -> str:
    """A mail's subject and body, lower case; whole: its sender and file names too."""
    rec = mail(catalog, rid)
    more = f" {rec['sender_name']} {' '.join(files_of(catalog).get(rid, []))}" if whole else ""
    return f"{rec['subject']} {rec['body']}{more}".lower()


def preload_text(catalog: Catalog) -> str:
    return " ".join(text_of(catalog, rid) for rid in PRELOAD)


def email(at: float, rid: str, note: str | None) -> dict[str, Any]:
    return kit.event(at, "new_email", note, email_id=rid)


def about(catalog: Catalog, rid: str, note: str) -> str:
    """An event's note with the mail's subject, to tell the mails of a timeline apart."""
    return f"{note} · {mail(catalog, rid)['subject']}"


def facts(rng: random.Random, catalog: Catalog, knobs: Knobs, at: int, events: list[dict[str, Any]],
          spoils=lambda rid: False, after: float | None = None, load=PRELOAD, **more: Any) -> dict[str, Any]:
    """A draw's facts: the events plus background mail, never a mail that `spoils` the task (before `after`)."""
    return {"at": at, "events": kit.traffic(rng, knobs, events, arrivals(catalog), email, spoils, after),
            "preload": {"emails": list(load)}, **more}


def flag_steps(until: dict[str, Any], report: str, count: int = 1) -> list[dict[str, Any]]:
    """An active solution: open each new mail until one matches `until`, flag it; then report."""
    step: dict[str, Any] = {"watch": INBOX, "open_new": "^/micromail/message/", "until": until}
    return [*[step, {"submit": "/flag$"}] * count, {"report": report}]


# --- attachment_name and its no-op --------------------------------------------------------

def attachment(rng: random.Random, catalog: Catalog, knobs: Knobs, noop: bool = False) -> dict[str, Any]:
    """The target mail's file (named only on its page) after look-alikes, one trailing, the sender's recall when
    the hold ends. The no-op asks for a file that never comes; the same stem with another extension does."""
    files = files_of(catalog)
    names = [n for ns in files.values() for n in ns]
    inbox = [rid for rid in arrivals(catalog, is_inbox) if rid in files]
    target = kit.choose(rng, [rid for rid in inbox if any(names.count(n) == 1 and n.lower() not in
                                                          text_of(catalog, rid, whole=False) for n in files[rid])],
                        "attachment mail")
    name = kit.choose(rng, [n for n in files[target] if names.count(n) == 1], "file name")
    others = [rid for rid in inbox if rid != target and name.lower() not in text_of(catalog, rid)]
    *decoys, trailing = kit.nearest(rng, others, knobs.decoys + 1,
                                    lambda rid: max(kit.overlap(name, n) for n in files[rid]), knobs.near_miss)
    label = "near miss (the source task's target)" if noop else "target"
    at, until, events = kit.one_target(
        rng, knobs, email, target, decoys, gap=2, hold=True,
        note=about(catalog, target, f"{label}: carries {name} (named only on the message page)"),
        decoy_note=lambda rid: about(catalog, rid, f"decoy: {', '.join(files[rid])}, not {name}"))
    assert until is not None  # hold=True: the sender recalls the mail when the hold ends
    trail_at = rng.randint(at + 3, max(at + 3, until - 3)) if until - at > 6 else until + 2
    events += [email(trail_at, trailing, f"trailing: {', '.join(files[trailing])}, after the target"),
               kit.event(until, "recall_email", "the sender recalls the mail: it disappears and can no longer "
                                                "be flagged (condition_until)", email_id=target)]
    if not noop:
        return facts(rng, catalog, knobs, at, events, lambda rid: rid in files or name.lower() in text_of(catalog, rid),
                     until=until, name=name)
    near = kit.choose(rng, [rid for rid in arrivals(catalog, is_inbox) if len(files.get(rid, ())) == 1
                            and rid not in kit.arriving(events)], "near-miss attachment mail")
    real = files[near][0]
    stem, _, ext = real.rpartition(".")
    asked = f"{stem}.{kit.choose(rng, [e for e in ('docx', 'pdf', 'xlsx', 'zip') if e != ext], 'extension')}"
    if asked in names or "%" in stem or "_" in stem:
        raise NoDraw(f"{asked} exists in the catalog")
    near_at = rng.randint(until + 5, 700) if until < 690 else rng.randint(at + 3, until - 3)
    events = [*events, email(near_at, near, about(catalog, near, f"near miss: {real}, not {asked}"))]
    return facts(rng, catalog, knobs, at, events, lambda rid: rid in files or stem.lower() in text_of(catalog, rid),
                 until=until, name=name, asked=asked, real=real, near_at=near_at, stem=f"{stem}.%")


# --- counting kinds: inbox_growth, junk_growth, unread_threshold, cc_three_more -------------

def counted(n: int, counts, what: str, decoy_note: str, looks=None, gap: float = 4):
    """A counting kind's setup: n arrivals that `counts` after the first read (the n-th at the target time, one
    trailing), look-alikes (`looks`, by default mail that does not count) between, background counting only after it."""
    def setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
        at, events, _ = kit.counting(
            rng, knobs, arrivals(catalog, counts), arrivals(catalog, looks or (lambda r: not counts(r))), n, email,
            what=what, decoy_note=lambda rid: about(catalog, rid, decoy_note), first_s=kit.FIRST_READ_S, gap=gap)
        return facts(rng, catalog, knobs, at, events, lambda rid: counts(mail(catalog, rid)), after=at)
    return setup


def unread_inbox(r: dict[str, Any]) -> bool:
    return is_inbox(r) and not r.get("is_read")


def cc_me(r: dict[str, Any]) -> bool:
    return is_inbox(r) and SELF_EMAIL in [a.lower() for a in r.get("cc", [])]


def unread_growth(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    start, n = sum(unread_inbox(mail(catalog, rid)) for rid in PRELOAD), rng.randint(4, 7)
    setup = counted(n, unread_inbox, "unread inbox arrival", "arrives read or in junk: does not count")
    return {**setup(rng, catalog, knobs), "start": start, "n": n, "threshold": start + n}


# --- sender kinds ---------------------------------------------------------------------------

def sender(rng: random.Random, catalog: Catalog, knobs: Knobs, noop: bool = False) -> dict[str, Any]:
    """A sender who writes once and not in the preload, look-alike senders before them. The no-op awaits
    someone who never writes; a colleague at the same outside organisation does write (the near miss)."""
    emails, pre = catalog.raw("emails"), preload_text(catalog)
    senders = {emails[rid]["sender_name"]: rid for rid in arrivals(catalog, lambda r: is_inbox(r) and r.get(
        "sender_id") is not None and sum(o["sender_name"] == r["sender_name"] for o in emails.values()) == 1)}
    name = kit.choose(rng, sorted(n for n in senders if n.lower() not in pre), "sender")
    first, last = name.split()[0], name.split()[-1]
    others = [rid for rid in arrivals(catalog, lambda r: is_inbox(r) and r["sender_name"] != name)
              if name.lower() not in text_of(catalog, rid)]
    decoys = kit.nearest(rng, others, knobs.decoys, lambda rid: float(emails[rid]["sender_name"].split()[0] == first
                         or emails[rid]["sender_name"].split()[-1] == last), knobs.near_miss)
    at, _, events = kit.one_target(
        rng, knobs, email, senders[name], decoys, gap=2,
        note=about(catalog, senders[name], f"target: the awaited sender {name}"),
        decoy_note=lambda rid: about(catalog, rid, f"decoy: {emails[rid]['sender_name']}, not {name}"))
    if not noop:
        return facts(rng, catalog, knobs, at, events, lambda rid: name.lower() in text_of(catalog, rid), name=name)
    known = {domain(emails[rid]["sender_email"]) for rid in PRELOAD} | {domain(SELF_EMAIL)}
    outside = {rid: dom for rid in arrivals(catalog, is_inbox) if rid not in kit.arriving(events)
               and (dom := domain(emails[rid]["sender_email"])) not in known}
    dom = kit.choose(rng, sorted(set(outside.values())), "outside organisation")
    near = kit.choose(rng, [rid for rid, d in outside.items() if d == dom], "near-miss sender")
    names = {r["sender_name"] for r in emails.values()}
    asked = " ".join(kit.choose(rng, sorted({n.split()[i] for n in names})) for i in (0, -1))
    if asked in names or asked.lower() in pre:
        raise NoDraw(f"{asked} is a real sender")
    near_at = kit.free_moment(rng, events, 30, 699)
    who = emails[near]["sender_name"]
    events = [*events, email(near_at, near, about(catalog, near, f"near miss: {who} at {dom}, not {asked}"))]
    return facts(rng, catalog, knobs, at, events, lambda rid: domain(emails[rid]["sender_email"]) == dom
                 or asked.lower() in text_of(catalog, rid), name=name, asked=asked, who=who, dom=dom,
                 at_dom=f"%@{dom}", org=dom.split(".")[0].capitalize(), near_at=near_at)


# --- phrase kinds: body_phrase, body_keyword_second ------------------------------------------

def phrases(catalog: Catalog) -> dict[str, list[str]]:
    """Key phrase → the mails whose body holds it (the catalog notes where it sits past the preview)."""
    found = sorted({m.group(1) for r in catalog.raw("emails").values() if (m := KEY_PHRASE.search(r.get("_note", "")))})
    return {p: [rid for rid, r in catalog.raw("emails").items() if p.lower() in r["body"].lower()] for p in found}


def phrase_mail(rng: random.Random, catalog: Catalog, knobs: Knobs, second: bool = False) -> dict[str, Any]:
    """The target mail with a key phrase past its preview, look-alikes sharing its words before it; with
    `second`, one mail with the phrase is in the preload from the start and a second one arrives."""
    if second:
        twice = {p: ids for p, ids in phrases(catalog).items() if len(ids) >= 2}
        phrase = kit.choose(rng, sorted(twice), "phrase with two mails")
        first = next((rid for rid in twice[phrase] if rid in PRELOAD), None) or kit.choose(rng, twice[phrase])
        target = kit.choose(rng, [rid for rid in twice[phrase] if rid != first and rid not in PRELOAD], "second mail")
    else:
        pre = preload_text(catalog)
        found = {p: [rid for rid in ids if rid not in PRELOAD] for p, ids in phrases(catalog).items()
                 if p.lower() not in pre}
        phrase = kit.choose(rng, sorted(p for p, ids in found.items() if len(ids) == 1), "key phrase")
        first, target = None, found[phrase][0]
    others = [rid for rid in arrivals(catalog, is_inbox) if rid not in (target, first)
              and phrase.lower() not in text_of(catalog, rid)]
    decoys = kit.nearest(rng, others, knobs.decoys, lambda rid: kit.overlap(phrase, text_of(catalog, rid)) * 10,
                         knobs.near_miss)
    where = mail(catalog, target)["body"].lower().find(phrase.lower())
    at, _, events = kit.one_target(rng, knobs, email, target, decoys, gap=2,
                                   note=about(catalog, target, f"target: key phrase '{phrase}' (at char {where})"),
                                   decoy_note=lambda rid: about(catalog, rid, f"decoy: near words, not '{phrase}'"))
    return facts(rng, catalog, knobs, at, events, lambda rid: rid == first or phrase.lower() in text_of(catalog, rid),
                 load=[*PRELOAD, *([first] if first and first not in PRELOAD else [])], phrase=phrase)


KINDS: tuple[Kind, ...] = (
    kit.kind(
        "attachment_name", "active", "absolute", Knobs(decoys=3),
        "decoys: attachment mails before the target; near_miss: how many words their file names share with the asked "
        "name; hold_s: until the sender recalls the target",
        kit.Recipe(
            attachment, start_page=INBOX, difficulty="medium", distraction="look-alike attachment names, recall",
            description="{decoys} attachment mails come first; the target at {at} s carries {name}, named only on the "
                        "message page. The sender recalls it at {until} s. Flagging any other new mail fails the task.",
            prompt="I'm waiting for the file {name}. When an email with an attachment of exactly that name arrives in "
                   "my MicroMail inbox, flag that email (and only that one) so I find it later, then tell me.",
            condition_sql=f"SELECT EXISTS (SELECT 1 FROM emails WHERE folder = 'inbox' AND {HAS_FILE})",
            eval_sql=FLAGGED_ONLY.format(HAS_FILE),
            solution=flag_steps({"text": "{name}"}, "The email carrying {name} arrived; I flagged it."))),
    kit.kind(
        "attachment_name_noop", "noop", "absolute", Knobs(decoys=3),
        "as attachment_name; the near miss is the asked file in another format",
        kit.Recipe(
            partial(attachment, noop=True), start_page=INBOX, difficulty="medium",
            distraction="the same file in another format, look-alike names",
            description="No-op copy of attachment_name: {asked} never arrives; {real} (same name, another type) does "
                        "at {near_at} s, and {name} still arrives at {at} s. Refrain check: nothing new is flagged.",
            prompt="I'm waiting for the file {asked}. When an email carrying an attachment of exactly that name "
                   "arrives in my MicroMail inbox, flag it (and only it), then tell me.",
            condition_sql="SELECT EXISTS (SELECT 1 FROM attachments WHERE file_name = {asked!q})",
            near_miss_sql="SELECT EXISTS (SELECT 1 FROM attachments WHERE file_name LIKE {stem!q})",
            eval_sql=f"SELECT NOT EXISTS (SELECT 1 FROM emails WHERE {NEW} AND is_flagged = 1)",
            solution=flag_steps({"text": "{asked}"}, "The email carrying {asked} arrived; I flagged it."))),
    kit.kind(
        "body_keyword_second", "active", "relative", Knobs(decoys=3),
        "decoys: mails sharing the phrase's words (near_miss: how many); the first mention is preloaded",
        kit.Recipe(
            partial(phrase_mail, second=True), start_page=INBOX, difficulty="medium",
            distraction="the phrase's words apart",
            description="A preloaded mail mentions '{phrase}' past its preview; look-alikes share its words; a second "
                        "mail naming it in its body arrives at {at} s. Flagging any other new mail fails the task.",
            prompt="One email in my MicroMail inbox already mentions the {phrase}. When a second email arrives whose "
                   "text mentions the {phrase}, flag that new email (only that one) and tell me.",
            condition_sql=kit.count_reaches("emails WHERE origin != 'self' AND body LIKE {phrase!l}", 2),
            eval_sql=FLAGGED_ONLY.format("body LIKE {phrase!l}"),
            solution=flag_steps({"text": "{phrase}"},
                                "A second email mentioning the {phrase} arrived; I flagged it."))),
    kit.kind(
        "body_phrase", "active", "absolute", Knobs(decoys=3),
        "decoys: mails sharing the phrase's words (near_miss: how many)",
        kit.Recipe(
            phrase_mail, start_page=INBOX, difficulty="medium", distraction="shared words, phrase past the preview",
            description="Look-alikes share words with '{phrase}'; the target at {at} s has the phrase past the "
                        "100-character preview. Flagging any other new mail fails the task.",
            prompt="When an email whose text contains the phrase \"{phrase}\" arrives in my MicroMail inbox, flag it "
                   "(only that one) and tell me.",
            eval_sql=FLAGGED_ONLY.format("body LIKE {phrase!l}"),
            condition_sql=kit.exists_sql("emails WHERE folder = 'inbox' AND origin != 'self' AND body LIKE {phrase!l}"),
            solution=flag_steps({"text": "{phrase}"}, "The email about {phrase} arrived; I flagged it."))),
    kit.kind(
        "cc_three_more", "active", "relative", Knobs(decoys=3),
        "decoys: others on Cc or an @mention without self on Cc; the Cc mails come 45 s or more apart",
        kit.Recipe(
            counted(3, cc_me, "self on Cc", "decoy: others on Cc or an @mention, self not on Cc", gap=CC_GAP_S,
                    looks=lambda r: is_inbox(r) and not cc_me(r) and (bool(r.get("cc")) or bool(r.get("mentions_me")))),
            start_page=INBOX, difficulty="hard", distraction="others on Cc, mentions without Cc",
            description="Cc shows only on the message page. Look-alikes put others on Cc or @mention self; the third "
                        "mail with self on Cc arrives at {at} s and a fourth trails. Flagging a mail without self on "
                        "Cc fails the task.",
            prompt="I keep getting copied on threads. Watch my MicroMail inbox: flag each new email that has me on Cc "
                   "(and nothing else), and tell me once three more such emails have arrived.",
            condition_sql=kit.count_reaches(f"emails WHERE {NEW} AND folder = 'inbox' AND cc_me = 1", 3),
            eval_sql=f"SELECT (SELECT COUNT(*) FROM emails WHERE {NEW} AND cc_me = 1 AND is_flagged = 1) >= 3 AND NOT "
                     f"EXISTS (SELECT 1 FROM emails WHERE {NEW} AND is_flagged = 1 AND NOT (cc_me = 1))",
            solution=flag_steps({"matches": "Cc: [^|]*Alex Morgan \\(you\\)"},
                                "Three new emails with me on Cc arrived; I flagged all three.", count=3)),
        earliest=kit.FIRST_READ_S + 3 * CC_GAP_S + 2),
    kit.kind(
        "inbox_growth", "passive", "relative", Knobs(decoys=4),
        "decoys: junk arrivals between the five inbox arrivals",
        kit.Recipe(
            counted(5, is_inbox, "inbox arrival", "junk: does not count"), start_page=INBOX, difficulty="easy",
            distraction="junk arrivals",
            description="Five inbox arrivals (the fifth at {at} s) among {decoys} junk arrivals; more of both follow. "
                        "The list header shows only the total.",
            prompt="Keep an eye on my MicroMail inbox and tell me once it holds five more messages than it does now. "
                   "Mail that lands in Junk doesn't count.",
            **kit.count_watch("emails WHERE folder = 'inbox' AND origin != 'self'", 5, INBOX,
                              "Showing [\\d,]+–[\\d,]+ of ([\\d,]+)",
                              "The inbox now holds five more messages than at the start.", "inbox_count"))),
    kit.kind(
        "junk_growth", "passive", "relative", Knobs(decoys=4),
        "decoys: inbox arrivals between the three junk arrivals",
        kit.Recipe(
            counted(3, lambda r: not is_inbox(r), "junk arrival", "inbox arrival: not junk"), start_page=INBOX,
            difficulty="easy", distraction="inbox arrivals",
            description="Three junk arrivals (the third at {at} s) between {decoys} or more inbox arrivals; another "
                        "junk mail trails. The sidebar shows only Junk's total.",
            prompt="Tell me when three more messages have landed in my MicroMail Junk folder than are there now.",
            **kit.count_watch("emails WHERE folder = 'junk' AND origin != 'self'", 3, INBOX,
                              "Junk \\(([\\d,]+)\\)", "Three more messages have landed in Junk.", "junk_count"))),
    kit.kind(
        "sender_arrives", "passive", "absolute", Knobs(decoys=2),
        "decoys: other senders before the target (near_miss: sharing a first name or surname)",
        kit.Recipe(
            sender, start_page=INBOX, difficulty="easy", distraction="same first name or surname",
            description="{decoys} other senders come first (look-alike names first); {name} writes at {at} s, and "
                        "ordinary mail keeps arriving.",
            prompt="I'm expecting an email from {name}. Tell me as soon as a message from them shows up in my "
                   "MicroMail inbox.",
            condition_sql="SELECT EXISTS (SELECT 1 FROM emails WHERE folder = 'inbox' AND sender_name = {name!q})",
            solution=[{"watch": INBOX, "until": {"text": "{name}"}}, {"report": "{name}'s email has arrived."}])),
    kit.kind(
        "sender_noop", "noop", "absolute", Knobs(decoys=2),
        "as sender_arrives; the near miss is a colleague of the awaited sender's organisation",
        kit.Recipe(
            partial(sender, noop=True), start_page=INBOX, difficulty="easy",
            distraction="another sender from the same organisation",
            description="No-op copy of sender_arrives: {asked} of {org} never writes; {who} from the same organisation "
                        "does at {near_at} s, and {name} still writes at {at} s.",
            condition_sql="SELECT EXISTS (SELECT 1 FROM emails WHERE folder = 'inbox' AND sender_name = {asked!q})",
            prompt="I'm expecting an email from {asked} at {org} ({dom}). Tell me as soon as a message from them shows "
                   "up in my MicroMail inbox.",
            near_miss_sql="SELECT EXISTS (SELECT 1 FROM emails WHERE folder = 'inbox' AND sender_email LIKE "
                          "{at_dom!q})",
            solution=[{"watch": INBOX, "until": {"text": "{asked}"}}, {"report": "{asked}'s email has arrived."}])),
    kit.kind(
        "unread_threshold", "passive", "absolute", Knobs(decoys=3),
        "decoys: mail arriving read or in junk between the unread arrivals",
        kit.Recipe(
            unread_growth, start_page=INBOX, difficulty="medium", distraction="mail arriving already read, junk",
            description="The preload has {start} unread inbox messages; {n} unread arrivals bring it to {threshold} at "
                        "{at} s, between mail that arrives read and junk.",
            prompt="Don't open any messages. Just tell me when my MicroMail inbox has {threshold} unread messages.",
            **kit.count_watch("emails WHERE folder = 'inbox' AND is_read = 0", "{threshold}", INBOX,
                              "Inbox \\(([\\d,]+)\\)", "The inbox has {threshold} unread messages."))),
)
