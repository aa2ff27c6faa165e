"""A small text browser for agents: fetch pages, read them as text, follow links, submit forms.

Standard library only, so a built-in agent starts fast and depends on nothing but the pages.
The browser keeps the session's cookies and makes conditional GETs (If-None-Match), so
re-reading an unchanged page is cheap.

A page has two text views:
- `Page.text`: the visible text, tags stripped, one block per line. A scenario's `solution`
  predicates read this view (the oracle and the rule-based judge).
- `Browser.render(page)`: what a model is shown. The same lines, with every link marked `[n]`
  before its text and every form summarised on a line of its own (`[form n] POST /path: ...`).
  Numbers hold for the whole session: one address keeps one number however the page moves,
  so a diff of two readings of a page shows only what really changed.
"""

from __future__ import annotations

import base64
import http.cookiejar
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Protocol

from sentinel.agents.pacing import WALL, Pacing

# The HTML→text parser is pure and shared with `sentinel show` (sentinel/core/pagetext.py).
from sentinel.core.pagetext import FORM_REF_ATTR, Control, Form, Page, fold_space, parse_page
from sentinel.core.protocol import WAIT_HEADER

__all__ = ["FORM_REF_ATTR", "BrowseError", "Browser", "Control", "Form", "Line", "Page", "PageDriver",
           "Screenshot", "describe_form", "parse_page"]

MAX_LISTED_CHOICES = 6
LONG_POLL_WALL_S = 3600.0  # socket timeout of a waiting GET: the site answers by the wait's end


class BrowseError(Exception):
    """A link or form the agent asked for does not exist."""


@dataclass(frozen=True)
class Line:
    """One line of a rendered page."""
    shown: str  # as a model reads it, with [n] link marks; a form is one summary line
    text: str  # its visible text, as in Page.text ("" for a form summary)
    links: tuple[str, ...] = ()  # addresses of the links that start on this line


def describe_form(number: int, form: Form) -> str:
    """One line telling a model what a form sends: `[form 3] POST /path: name (kind: a*, b); buttons "Go"`."""
    parts = []
    for control in form.controls:
        if control.kind == "hidden":
            continue
        if control.choices:
            current = form.fields.get(control.name)
            shown = [f"{c}*" if c == current else c for c in control.choices[:MAX_LISTED_CHOICES]]
            more = len(control.choices) - MAX_LISTED_CHOICES
            listed = ", ".join(shown) + (f", … {more} more" if more > 0 else "")
            parts.append(f"{control.name} ({control.kind}: {listed})")
        else:
            parts.append(f"{control.name} ({control.kind})")
    action = urllib.parse.urlsplit(form.action)
    line = f"[form {number}] {form.method.upper()} {action.path}: {', '.join(parts) or 'no fields'}"
    if form.buttons:
        line += "; buttons " + ", ".join(f'"{b}"' for b in form.buttons)
    return line


def wait_headers(etag: str, timeout_sim_s: float) -> dict[str, str]:
    """The headers of a GET that waits up to timeout_sim_s sim seconds for the page to differ
    from the copy with this ETag (docs/protocol.md#waiting)."""
    return {"If-None-Match": etag, WAIT_HEADER: f"{max(0.0, timeout_sim_s):g}"}


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


@dataclass(frozen=True)
class Screenshot:
    """A PNG of the visible part of the page."""
    png: bytes
    width: int
    height: int

    def data_url(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


class PageDriver(Protocol):
    """What the strategy agents act through: the text browser below, or a real Chromium
    (chromium.py). Both number links and forms alike (Numbering) and return parsed Pages."""
    origin: str

    def url(self, path_or_url: str) -> str: ...
    def site_url(self, path_or_url: str) -> str: ...
    def get(self, path_or_url: str, conditional: bool = False) -> Page: ...
    def wait_for_change(self, path_or_url: str, timeout_sim_s: float) -> Page: ...
    def pause(self, wall_s: float, speed: float) -> None: ...
    def follow(self, number: int) -> Page: ...
    def submit(self, form: Form, fields: dict[str, str] | None = None) -> Page: ...
    def screenshot(self) -> Screenshot | None: ...
    def close(self) -> None: ...
    def render(self, page: Page) -> list[Line]: ...
    def link(self, number: int) -> str: ...
    def link_number(self, href: str) -> int: ...
    def numbered_forms(self, page: Page) -> list[tuple[int, Form]]: ...
    def form(self, page: Page, ref: int | str) -> Form: ...


class Numbering:
    """The model's view of a site, shared by every driver: links and forms numbered for the
    whole session, pages rendered line by line."""

    def __init__(self, base_url: str, pacing: Pacing = WALL):
        parts = urllib.parse.urlsplit(base_url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.pacing = pacing  # how a pause passes: in this process, or through the site's /sleep
        self._link_numbers: dict[str, int] = {}
        self._form_numbers: dict[tuple[str, str, int], int] = {}

    def url(self, path_or_url: str) -> str:
        return urllib.parse.urljoin(self.origin + "/", path_or_url)

    def site_url(self, path_or_url: str) -> str:
        """The address, which must be on this site (agents never leave it)."""
        url = self.url(path_or_url)
        if not url.startswith(self.origin + "/"):
            raise BrowseError("only pages of this site can be opened")
        return url

    def pause(self, wall_s: float, speed: float) -> None:
        """Wait wall_s of the agent's seconds (wall_s × speed sim seconds), reading nothing."""
        self.pacing.sleep(wall_s)

    # --- the model's view: numbered links and forms -------------------------------------------

    def link_number(self, href: str) -> int:
        href = href.split("#", 1)[0]
        return self._link_numbers.setdefault(href, len(self._link_numbers) + 1)

    def link(self, number: int) -> str:
        """The address of link [number], as numbered in any page rendered so far."""
        for href, n in self._link_numbers.items():
            if n == number:
                return href
        raise BrowseError(f"there is no link [{number}]")

    def numbered_forms(self, page: Page) -> list[tuple[int, Form]]:
        numbered: list[tuple[int, Form]] = []
        seen: dict[tuple[str, str], int] = {}  # forms of each method and action so far
        for form in page.forms:
            key = (form.method, form.action.split("?", 1)[0])
            seen[key] = seen.get(key, 0) + 1
            number = self._form_numbers.setdefault((*key, seen[key]), len(self._form_numbers) + 1)
            numbered.append((number, form))
        return numbered

    def form(self, page: Page, ref: int | str) -> Form:
        """A form of the page by its number, or by a regular expression on its action path."""
        forms = self.numbered_forms(page)
        for number, form in forms:
            if isinstance(ref, int) and number == ref:
                return form
        if isinstance(ref, str):
            if ref.strip().isdigit():
                return self.form(page, int(ref))
            found = page.form_matching(re.compile(ref))
            if found is not None:
                return found
        listed = ", ".join(str(n) for n, _ in forms) or "none"
        raise BrowseError(f"no form {ref!r} on {page.path} (forms here: {listed})")

    def render(self, page: Page) -> list[Line]:
        """The page line by line, as a model reads it (`[n]` link marks, form summaries) and as
        its visible text."""
        forms = {id(form): number for number, form in self.numbered_forms(page)}
        lines: list[Line] = []
        shown: list[str] = []
        plain: list[str] = []
        hrefs: list[str] = []
        pending, pending_href = "", ""  # a link mark waiting for the link's first visible text

        def flush() -> None:
            model_line = fold_space("".join(shown))
            if model_line:
                lines.append(Line(model_line, fold_space("".join(plain)), tuple(hrefs)))
            shown.clear()
            plain.clear()
            hrefs.clear()

        for chunk in page.chunks:
            if isinstance(chunk, tuple):
                kind, index = chunk
                if kind == "a":
                    pending_href = page.links[index][0]
                    pending = f"[{self.link_number(pending_href)}] "
                elif kind == "/a":
                    if pending:  # a link without visible text
                        shown.append(f" {pending}(link)")
                        hrefs.append(pending_href)
                    pending = ""
                else:
                    flush()
                    shown.append(describe_form(forms[id(page.forms[index])], page.forms[index]))
                    flush()
                continue
            for i, piece in enumerate(chunk.split("\n")):
                if i:
                    flush()
                if pending and piece.strip():
                    shown.append(" " + pending)
                    hrefs.append(pending_href)
                    pending = ""
                shown.append(piece)
                plain.append(piece)
        flush()
        return lines

    def readable(self, page: Page) -> str:
        """The page as a model reads it: one string, links and forms numbered."""
        return "\n".join(line.shown for line in self.render(page))


class Browser(Numbering):
    """Fetches pages of one site over HTTP; follows redirects; keeps cookies; remembers ETags
    for conditional GETs."""

    def __init__(self, base_url: str, timeout: float = 30.0, pacing: Pacing = WALL):
        super().__init__(base_url, pacing)
        self.timeout = timeout
        self.requests = 0
        self.cookies = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(_NoRedirect, urllib.request.HTTPCookieProcessor(self.cookies))
        self._cache: dict[str, Page] = {}

    def get(self, path_or_url: str, conditional: bool = False) -> Page:
        url = self.url(path_or_url)
        headers = {}
        cached = self._cache.get(url)
        if conditional and cached and cached.etag:
            headers["If-None-Match"] = cached.etag
        return self._fetch(urllib.request.Request(url, headers=headers), conditional)

    def wait_for_change(self, path_or_url: str, timeout_sim_s: float) -> Page:
        """The page as soon as it differs from the copy last read, or that same copy once
        timeout_sim_s sim seconds pass: one request, answered by the site when its world moves
        (no polling here or there). Without a copy to compare with, a plain read."""
        url = self.url(path_or_url)
        cached = self._cache.get(url)
        if cached is None or not cached.etag:
            return self.get(url)
        request = urllib.request.Request(url, headers=wait_headers(cached.etag, timeout_sim_s))
        return self._fetch(request, True, timeout=LONG_POLL_WALL_S)

    def post(self, action: str, fields: dict[str, str]) -> Page:
        data = urllib.parse.urlencode(fields).encode("utf-8")
        request = urllib.request.Request(self.url(action), data=data, method="POST")
        return self._fetch(request, False)

    def submit(self, form: Form, fields: dict[str, str] | None = None) -> Page:
        """Send a form with its default values overridden by `fields`, as a browser would."""
        values = {**form.fields, **(fields or {})}
        if form.method == "post":
            return self.post(form.action, values)
        base = form.action.split("?", 1)[0]
        return self.get(base + "?" + urllib.parse.urlencode(values))

    def contact(self, message: str) -> Page:
        """Report without reading the page: open the contact page, then send it the message."""
        self.get("/contact")
        return self.post("/contact", {"message": message})

    def _fetch(self, request: urllib.request.Request, conditional: bool, hops: int = 0,
               timeout: float | None = None) -> Page:
        self.requests += 1
        try:
            response = self._opener.open(request, timeout=timeout or self.timeout)
            status, body, headers = response.status, response.read(), response.headers
        except urllib.error.HTTPError as err:
            status, body, headers = err.code, err.read(), err.headers
        url = request.full_url
        if status == 304 and url in self._cache:
            return self._cache[url]
        if status in (301, 302, 303, 307, 308) and hops < 10:
            target = urllib.parse.urljoin(url, headers.get("Location", "/"))
            return self._fetch(urllib.request.Request(target), conditional, hops + 1)
        page = parse_page(url, status, body.decode("utf-8", errors="replace"), headers.get("ETag"))
        if status == 200 and request.get_method() == "GET":
            self._cache[url] = page
        return page

    def follow(self, number: int) -> Page:
        return self.get(self.site_url(self.link(number)))

    def screenshot(self) -> Screenshot | None:
        return None  # a text browser has no picture of the page

    def close(self) -> None:
        pass


def open_task(argv: list[str] | None = None) -> Browser:
    """For the agents that never read a page: a browser of the task URL given first on the
    command line, with the task opened (which starts the session clock)."""
    task_url = (argv if argv is not None else sys.argv[1:])[0]
    browser = Browser(task_url, pacing=Pacing.from_env(task_url))
    browser.get(task_url)
    return browser
