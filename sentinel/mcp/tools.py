"""The MCP tools, apart from any transport: read, click, submit, sleep, wait for a change, report.

Every time is in sim seconds (the session's clock: an agent's waiting scales with --speed). Pages
come from the session's site over HTTP (SiteReader), read as the built-in text browser reads
them: visible text, links marked `[n]`, forms summarised as `[form n] ...`, numbers held for the
whole session. A tool's result is that text, plus, for a page, the same page as data (links and
forms with their numbers) for clients that act on structure rather than prose.

A call that cannot be done (an unknown link or form, a path off the site, an argument of the wrong
kind) raises ToolFailure with a one-line message; the server turns it into an MCP tool error.

A tool called before the agent opened /start starts the session, as /start would: a page read,
a wait and a sleep all go through the site (a sleep is its /sleep), which starts the clock on any
first request (docs/protocol.md#sessions). No wait ever runs on a clock that has not started.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit

from sentinel.agents.browse import BrowseError, Line, Page
from sentinel.agents.judges import Changes, diff_lines
from sentinel.core.protocol import MAX_SLEEP_SIM_S
from sentinel.mcp.site import SiteReader

MAX_WAIT_SIM_S = 3600.0  # one wait_for_change call waits at most this long (the site's own bound)
MAX_PAGE_CHARS = 20_000
CONTACT_FORM = re.compile(r"/contact$")


class ToolFailure(Exception):
    """A call the tools cannot carry out; its message is one line for the agent."""


class SessionClock(Protocol):
    """What the tools read of the session's clock (sentinel.core.clock.SimClock)."""
    speed: float

    def now(self) -> float: ...
    @property
    def started(self) -> bool: ...
    @property
    def running(self) -> bool: ...
    @property
    def frozen(self) -> bool: ...


@dataclass(frozen=True)
class Outcome:
    """A tool's answer: the text a model reads, and data for clients that want structure."""
    text: str
    data: dict[str, Any] | None = None


def page_data(reader: SiteReader, page: Page) -> dict[str, Any]:
    """A page as data: its visible text, and its links and forms under the numbers the text shows."""
    links = [{"ref": reader.link_number(href), "href": _site_path(href), "text": label}
             for href, label in page.links]
    forms = [{"ref": number, "method": form.method, "action": _site_path(form.action),
              "fields": dict(form.fields), "buttons": list(form.buttons),
              "controls": [{"name": c.name, "kind": c.kind, "choices": list(c.choices)} for c in form.controls]}
             for number, form in reader.numbered_forms(page)]
    lines = [{"shown": line.shown, "text": line.text, "links": [_site_path(h) for h in line.links]}
             for line in reader.render(page)]
    return {"path": page.path, "status": page.status, "text": page.text, "links": links, "forms": forms,
            "lines": lines}


def _site_path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def text_argument(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ToolFailure(f"{name} must be a non-empty string")
    return value.strip()


def seconds_argument(value: Any, name: str, limit: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise ToolFailure(f"{name} must be a number of sim seconds ≥ 0")
    return min(float(value), limit)


def number_argument(value: Any, name: str) -> int:
    if isinstance(value, str) and value.strip().strip("[]").isdigit():
        return int(value.strip().strip("[]"))
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ToolFailure(f"{name} must be a positive whole number, as shown in [n]")
    return value


class SiteTools:
    """The tools of one session's agent, over its site; remembers what the agent last read of
    each page, which wait_for_change compares against."""

    def __init__(self, reader: SiteReader, clock: SessionClock, contact_path: str = "/contact"):
        self.reader = reader
        self.clock = clock
        self.contact_path = contact_path
        self.page: Page | None = None  # the page the agent is on
        self._seen: dict[str, list[Line]] = {}  # address → its lines as last shown to the agent

    def _show(self, page: Page, prefix: str = "") -> Outcome:
        self.page = page
        lines = self.reader.render(page)
        self._seen[page.url] = lines
        text = "\n".join(line.shown for line in lines)
        if len(text) > MAX_PAGE_CHARS:
            text = text[:MAX_PAGE_CHARS] + "\n… (page cut)"
        return Outcome(f"{prefix}{page.path} (status {page.status}):\n{text}", page_data(self.reader, page))

    def _url(self, path: Any) -> str:
        try:
            return self.reader.site_url(text_argument(path, "path"))
        except BrowseError as exc:
            raise ToolFailure(f"{exc}: {str(path)[:80]!r}") from None

    async def read_page(self, path: Any) -> Outcome:
        return self._show(await self.reader.get(self._url(path), conditional=True))

    async def click(self, ref: Any) -> Outcome:
        number = number_argument(ref, "ref")
        try:
            href = self.reader.site_url(self.reader.link(number))
        except BrowseError as exc:
            raise ToolFailure(f"{exc} (read a page first: links are numbered as pages show them)") from None
        return self._show(await self.reader.get(href))

    async def submit(self, form: Any, fields: Any = None) -> Outcome:
        if self.page is None:
            raise ToolFailure("there is no page to submit a form of yet: read a page first")
        if fields is not None and not isinstance(fields, dict):
            raise ToolFailure("fields must be an object of field names and values")
        ref = form if isinstance(form, int) and not isinstance(form, bool) else text_argument(form, "form")
        try:
            chosen = self.reader.form(self.page, ref)
        except (BrowseError, re.error) as exc:
            raise ToolFailure(str(exc).splitlines()[0]) from None
        values = {str(k): "" if v is None else str(v) for k, v in (fields or {}).items()}
        return self._show(await self.reader.submit(chosen, values), prefix="Submitted. Now on ")

    async def sleep(self, seconds: Any) -> Outcome:
        pause = seconds_argument(seconds, "seconds", MAX_SLEEP_SIM_S)
        await self.reader.sleep(pause)  # the site's own sleep, on the session's clock
        return Outcome(f"Slept {pause:g} sim s.", {"slept_s": pause})

    async def wait_for_change(self, path: Any, timeout_s: Any) -> Outcome:
        url = self._url(path)
        timeout = seconds_argument(timeout_s, "timeout_s", MAX_WAIT_SIM_S)
        seen = self._seen.get(url)
        if seen is None or self.reader.last_read(url) is None:
            return self._show(await self.reader.get(url), prefix="Not read before, so nothing to compare: ")
        started = self.clock.now()
        deadline = started + timeout
        while (left := deadline - self.clock.now()) > 0:
            page = await self.reader.wait_for_change(url, left)
            changes = diff_lines(seen, self.reader.render(page))
            if not changes.empty:
                self._show(page)
                return self._changed(page, changes, self.clock.now() - started)
            if self.clock.frozen:  # the session has ended: nothing will change any more
                break
        return Outcome(f"No change on {_site_path(url)} in {timeout:g} sim s.",
                       {"path": _site_path(url), "changed": False})

    def _changed(self, page: Page, changes: Changes, after_s: float) -> Outcome:
        data = {"path": page.path, "changed": True, "after_s": round(after_s, 3),
                "added": [line.shown for line in changes.added], "removed": [line.shown for line in changes.removed]}
        return Outcome(f"{page.path} changed after {after_s:.0f} sim s:\n{changes.describe()}", data)

    async def report(self, message: Any) -> Outcome:
        text = message if isinstance(message, str) else None
        if text is None:
            raise ToolFailure("message must be a string")
        page = await self.reader.get(self.reader.url(self.contact_path))
        form = page.form_matching(CONTACT_FORM)
        if form is not None:
            await self.reader.submit(form, {"message": text})
        return Outcome("Reported.", {"reported": True})
