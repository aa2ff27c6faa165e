"""Composing: prefilled forms for reply / reply all / forward, and checking what was typed."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sentinel.envs.micromail.events import split_addresses
from sentinel.web.render import fulltime

MODES = ("reply", "reply_all", "forward")
ADDRESS_RE = re.compile(r"^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")
NAMED_RE = re.compile(r"^[^<>]*<([^<>]+)>$")  # "Priya Shah <priya.shah@…>"
MAX_ADDRESSES = 50
MAX_SUBJECT = 300
MAX_BODY = 50_000
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
        def text(name: str) -> str:
            value = form.get(name, "")
            return value.strip() if isinstance(value, str) else ""
        body = form.get("body", "")
        return cls(**{name: text(name) for name in (*ADDRESS_FIELDS, "subject", "mode", "of", "draft_id")},
                   body=body if isinstance(body, str) else "")

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


def _quote(row: Any) -> str:
    quoted = "\n".join("> " + line if line else ">" for line in row["body"].splitlines())
    return f"\n\nOn {fulltime(row['created_at'])}, {row['sender_name']} <{row['sender_email']}> wrote:\n{quoted}"


def prefill(mode: str, row: Any, self_email: str, file_names: list[str]) -> Draft:
    """The compose form for replying to or forwarding `row`."""
    me = self_email.lower()
    if mode == "forward":
        header = ["---------- Forwarded message ----------", f"From: {row['sender_name']} <{row['sender_email']}>",
                  f"Date: {fulltime(row['created_at'])}", f"Subject: {row['subject']}", f"To: {row['to_list']}"]
        if row["cc_list"]:
            header.append(f"Cc: {row['cc_list']}")
        if file_names:
            header.append("Attachments: " + ", ".join(file_names))
        return Draft(subject=_prefixed("Fwd:", row["subject"]), mode=mode, of=row["id"],
                     body="\n\n" + "\n".join(header) + "\n\n" + row["body"])
    to = split_addresses(row["to_list"]) if row["sender_email"].lower() == me else [row["sender_email"]]
    cc: list[str] = []
    if mode == "reply_all":
        to += [a for a in split_addresses(row["to_list"]) if a.lower() != me and a not in to]
        cc = [a for a in split_addresses(row["cc_list"]) if a.lower() != me and a not in to]
    return Draft(to=", ".join(to), cc=", ".join(cc), mode=mode, of=row["id"],
                 subject=_prefixed("Re:", row["subject"]), body=_quote(row))
