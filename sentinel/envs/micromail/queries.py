"""Reading the mailbox (folder counts, list rows, message details, address books) and composing (the Draft
form, reply and forward prefill); templates only print."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sentinel.core.environment import Header
from sentinel.envs.micromail.events import split_addresses
from sentinel.web.filters import fulltime
from sentinel.world.state import World

FOLDERS = ("inbox", "drafts", "sent", "archive", "junk", "trash")
FOLDER_LABELS = {folder: folder.capitalize() for folder in FOLDERS}
MOVE_TARGETS = ("inbox", "archive", "junk", "trash")
FILTERS = {"all": ("All", ""), "unread": ("Unread", " AND is_read = 0"),  # key → (label, extra SQL condition)
           "flagged": ("Flagged", " AND is_flagged = 1"), "mentions": ("Mentions", " AND mentions_me = 1")}
PER_PAGE = 25
PREVIEW_CHARS = 100
ORDER = "is_pinned DESC, created_at DESC, rowid DESC"
# What a list row reads, in the order list_row unpacks it (only what the row shows).
ROW_COLUMNS = ("id, folder, sender_name, to_list, subject, body, importance, is_external, has_attachment,"
               " is_read, is_flagged, is_pinned, created_at")


def preview(body: str) -> str:
    """The first 100 characters of the body with whitespace folded. Folding a prefix of the body gives
    a prefix of the folded body, so when a prefix already folds to more than 100 the rest is never split."""
    folded = " ".join(body[:4 * PREVIEW_CHARS].split())
    if len(folded) <= PREVIEW_CHARS:
        if len(body) <= 4 * PREVIEW_CHARS:
            return folded
        folded = " ".join(body.split())  # mostly whitespace: fold all of it
        if len(folded) <= PREVIEW_CHARS:
            return folded
    return folded[:PREVIEW_CHARS].rstrip() + "…"


async def mailbox_counts(world: World) -> dict[str, dict[str, int]]:
    """Per folder: total, unread, flagged and mentions. SQLite counts each combination of the flags over
    its covering index (a dozen groups; cheaper than four sums per row); the groups are added up here."""
    counts = {f: {"total": 0, "unread": 0, "flagged": 0, "mentions": 0} for f in FOLDERS}
    for folder, is_read, flagged, mentions, n in await world.fetch_all(
            "SELECT folder, is_read, is_flagged, mentions_me, COUNT(*) FROM emails"
            " GROUP BY folder, is_read, is_flagged, mentions_me"):
        for key, counted in (("total", True), ("unread", not is_read), ("flagged", flagged), ("mentions", mentions)):
            counts[folder][key] += n if counted else 0
    return counts


def filter_counts(counts: dict[str, dict[str, int]], folder: str) -> dict[str, int]:
    """How many messages of the folder each filter shows (FILTERS' keys)."""
    return {"all": counts[folder]["total"], **{key: counts[folder][key] for key in ("unread", "flagged", "mentions")}}


class SidebarFolder(NamedTuple):
    key: str
    label: str  # "Inbox (3)": Inbox shows its unread count, the other folders their totals


def header(counts: dict[str, dict[str, int]]) -> Header:
    """The inbox unread count (also the title's "(N) ") and the folder sidebar's counters."""
    unread = counts["inbox"]["unread"]
    folders = tuple(SidebarFolder(key, f"{FOLDER_LABELS[key]} ({unread if key == 'inbox' else counts[key]['total']})")
                    for key in FOLDERS)
    return Header(unread=unread, extra={"folders": folders})


class AddressBook:
    """Email address → display name, from the personas table; the self user is marked "(you)"."""

    def __init__(self, rows: list[Any], self_email: str):
        self.names = {row["email"].lower(): row["name"] for row in rows}
        self.self_email = self_email.lower()

    @classmethod
    async def load(cls, world: World) -> AddressBook:
        return cls(await world.fetch_all("SELECT email, name FROM personas"), world.self_persona["email"])

    def name(self, address: str) -> str | None:
        name = self.names.get(address.lower())
        return f"{name} (you)" if name and address.lower() == self.self_email else name

    def people(self, address_list: str) -> list[dict[str, str | None]]:
        """The addresses of a list as {name, email}, the self user first (as mail clients do)."""
        addresses = split_addresses(address_list)
        addresses.sort(key=lambda a: a.lower() != self.self_email)
        return [{"name": self.name(a), "email": a} for a in addresses]

    def short_names(self, address_list: str) -> str:
        """'Priya Shah, Dan Ito' for the Sent and Drafts lists (plain addresses for outsiders)."""
        people = [self.names.get(a.lower()) or a for a in split_addresses(address_list)]
        return ", ".join(people) if people else "(no recipients)"


_MARKERS = (("Draft", "tag"), ("Unread", "tag unread"), ("Flagged", "tag"), ("Pinned", "tag"),
            ("External", "tag"), ("! High", "tag high"), ("📎 Attachment", "tag"))
# A list row's text markers, (text, css classes), for every combination: bit i of the mask shows _MARKERS[i]
_MARKER_SETS = tuple(tuple(m for i, m in enumerate(_MARKERS) if mask >> i & 1) for mask in range(1 << len(_MARKERS)))


class ListRow(NamedTuple):
    """What a list row prints, unpacked by the templates in this order (no attribute lookup per cell)."""

    id: str
    href: str
    who: str
    subject: str
    preview: str
    created_at: str
    is_read: bool
    markers: tuple[tuple[str, str], ...]
    folder: str


def list_row(row: Any, book: AddressBook | None, url: Callable[..., str]) -> ListRow:
    """A row of ROW_COLUMNS, unpacked once (sqlite3.Row's name lookups are slow); book names Sent and Drafts
    recipients, url is the page's make_url."""
    (email_id, folder, sender_name, to_list, subject, body, importance, external, attachment, is_read, flagged,
     pinned, created_at) = row
    if folder in ("sent", "drafts"):
        if book is None:
            raise ValueError("Sent and Drafts rows name their recipients: load the address book")
        who = "To: " + book.short_names(to_list)
    else:
        who = sender_name
    mask = ((folder == "drafts") | (not is_read) << 1 | bool(flagged) << 2 | bool(pinned) << 3 | bool(external) << 4
            | (importance == "high") << 5 | bool(attachment) << 6)
    return ListRow(email_id, url("message", id=email_id), who, subject or "(no subject)", preview(body), created_at,
                   bool(is_read), _MARKER_SETS[mask], FOLDER_LABELS[folder])


async def get_email(world: World, email_id: str) -> Any:
    return await world.fetch_one("SELECT * FROM emails WHERE id = ?", (email_id,))


async def get_attachments(world: World, email_id: str) -> list[dict[str, Any]]:
    sql = "SELECT id, file_name, size_bytes FROM attachments WHERE email_id = ? ORDER BY rowid"
    return [dict(r) for r in await world.fetch_all(sql, (email_id,))]


async def message_detail(world: World, row: Any) -> dict[str, Any]:
    book = await AddressBook.load(world)
    return {
        **{key: row[key] for key in ("id", "created_at", "sender_email", "body", "folder")},
        **{key: bool(row[key]) for key in ("is_external", "is_read", "is_flagged", "is_pinned")},
        **{key: book.people(row[f"{key}_list"]) for key in ("to", "cc", "bcc")},
        "subject": row["subject"] or "(no subject)", "importance": row["importance"].capitalize(),
        "high": row["importance"] == "high", "sender_name": book.name(row["sender_email"]) or row["sender_name"],
        "attachments": await get_attachments(world, row["id"]), "folder_label": FOLDER_LABELS[row["folder"]],
        "move_targets": [(f, FOLDER_LABELS[f]) for f in MOVE_TARGETS if f != row["folder"]],
    }


MODES = ("reply", "reply_all", "forward")
ADDRESS_RE = re.compile(r"^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")
NAMED_RE = re.compile(r"^[^<>]*<([^<>]+)>$")  # "Priya Shah <priya.shah@…>"
MAX_ADDRESSES, MAX_SUBJECT, MAX_BODY = 50, 300, 50_000
ADDRESS_FIELDS = ("to", "cc", "bcc")


@dataclass
class Draft:
    """The compose form's state: what is shown, and what a POST carried."""
    to: str = ""
    cc: str = ""
    bcc: str = ""
    subject: str = ""
    body: str = ""
    mode: str = ""  # reply | reply_all | forward | "" for a new message
    of: str = ""  # the message replied to or forwarded
    draft_id: str = ""  # the draft being edited
    errors: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_form(cls, form: Any) -> Draft:
        typed = {name: value if isinstance(value := form.get(name, ""), str) else ""  # a file upload reads as ""
                 for name in (*ADDRESS_FIELDS, "subject", "body", "mode", "of", "draft_id")}
        fields: dict[str, Any] = {name: value if name == "body" else value.strip() for name, value in typed.items()}
        return cls(**fields)

    def addresses(self, name: str) -> list[str]:
        """The field's addresses, "Priya Shah <priya.shah@…>" read as its address."""
        parts = split_addresses(getattr(self, name))
        return [named.group(1).strip() if (named := NAMED_RE.match(part)) else part for part in parts]

    def check(self, sending: bool) -> bool:
        """Fill `errors` (field → message); True when the draft can be sent or saved."""
        self.errors = {}
        for name in ADDRESS_FIELDS:
            addresses = self.addresses(name)
            bad = [a for a in addresses if not ADDRESS_RE.match(a)]
            if bad:
                self.errors[name] = f"Not a valid email address: {bad[0][:80]}"
            elif len(addresses) > MAX_ADDRESSES:
                self.errors[name] = f"At most {MAX_ADDRESSES} addresses."
        if sending and not any(self.addresses(n) for n in ADDRESS_FIELDS) and "to" not in self.errors:
            self.errors["to"] = "Add at least one recipient."
        if len(self.subject) > MAX_SUBJECT:
            self.errors["subject"] = f"The subject is too long ({MAX_SUBJECT} characters at most)."
        if len(self.body) > MAX_BODY:
            self.errors["body"] = f"The message is too long ({MAX_BODY:,} characters at most)."
        if self.mode and self.mode not in MODES:
            self.errors["mode"] = "Unknown compose mode."
        return not self.errors

    def columns(self) -> dict[str, Any]:
        return {**{f"{name}_list": ", ".join(self.addresses(name)) for name in ADDRESS_FIELDS},
                "subject": self.subject, "body": self.body}


def _prefixed(prefix: str, subject: str) -> str:
    return subject if subject.lower().startswith(prefix.lower()) else f"{prefix} {subject}"


def prefill(mode: str, row: Any, self_email: str, file_names: list[str]) -> Draft:
    """The compose form for replying to or forwarding `row`."""
    me = self_email.lower()
    if mode == "forward":
        header = ["---------- Forwarded message ----------", f"From: {row['sender_name']} <{row['sender_email']}>",
                  f"Date: {fulltime(row['created_at'])}", f"Subject: {row['subject']}", f"To: {row['to_list']}",
                  *([f"Cc: {row['cc_list']}"] if row["cc_list"] else []),
                  *(["Attachments: " + ", ".join(file_names)] if file_names else [])]
        return Draft(subject=_prefixed("Fwd:", row["subject"]), mode=mode, of=row["id"],
                     body="\n\n" + "\n".join(header) + "\n\n" + row["body"])
    to = split_addresses(row["to_list"]) if row["sender_email"].lower() == me else [row["sender_email"]]
    cc: list[str] = []
    if mode == "reply_all":
        to += [a for a in split_addresses(row["to_list"]) if a.lower() != me and a not in to]
        cc = [a for a in split_addresses(row["cc_list"]) if a.lower() != me and a not in to]
    quoted = "\n".join("> " + line if line else ">" for line in row["body"].splitlines())
    wrote = f"On {fulltime(row['created_at'])}, {row['sender_name']} <{row['sender_email']}> wrote:"
    return Draft(to=", ".join(to), cc=", ".join(cc), mode=mode, of=row["id"], subject=_prefixed("Re:", row["subject"]),
                 body=f"\n\n{wrote}\n{quoted}")
