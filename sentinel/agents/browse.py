"""A small text browser for agents: fetch pages, read their visible text, links and forms.

Standard library only, so a built-in agent starts fast and depends on nothing but the pages.
Conditional GETs (If-None-Match) make re-reading an unchanged page cheap.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser

BLOCK_TAGS = {"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "header", "main", "nav",
              "section", "article", "table", "ul", "ol", "dl", "dt", "dd", "br", "form", "footer",
              "aside", "figure", "figcaption", "label", "title"}
SKIP_TAGS = {"script", "style", "template", "svg"}


@dataclass
class Form:
    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)


@dataclass
class Page:
    url: str
    status: int
    text: str = ""
    links: list[tuple[str, str]] = field(default_factory=list)  # (absolute href, link text)
    forms: list[Form] = field(default_factory=list)
    etag: str | None = None

    def link_hrefs(self, pattern: re.Pattern) -> list[str]:
        seen: dict[str, None] = {}
        for href, _ in self.links:
            if pattern.search(urllib.parse.urlsplit(href).path):
                seen.setdefault(href)
        return list(seen)

    def form_matching(self, pattern: re.Pattern) -> Form | None:
        for form in self.forms:
            if pattern.search(urllib.parse.urlsplit(form.action).path):
                return form
        return None


class _PageParser(HTMLParser):
    def __init__(self, base_url: str):
        super().__init__(convert_charrefs=True)
        self.base = base_url
        self.chunks: list[str] = []
        self.links: list[tuple[str, str]] = []
        self.forms: list[Form] = []
        self._skip = 0
        self._link: list | None = None  # [href, text parts]
        self._textarea: str | None = None
        self._select: str | None = None
        self._select_first: str | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        if tag in SKIP_TAGS:
            self._skip += 1
        if tag in BLOCK_TAGS:
            self.chunks.append("\n")
        if tag == "a" and "href" in a:
            self._link = [urllib.parse.urljoin(self.base, a["href"]), []]
        elif tag == "form":
            self.forms.append(Form(urllib.parse.urljoin(self.base, a.get("action") or self.base),
                                   (a.get("method") or "get").lower()))
        elif tag == "input" and self.forms and a.get("name"):
            kind = a.get("type", "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind not in ("submit", "button", "image", "reset"):
                self.forms[-1].fields[a["name"]] = a.get("value", "")
        elif tag == "textarea" and self.forms and a.get("name"):
            self._textarea = a["name"]
            self.forms[-1].fields[a["name"]] = ""
        elif tag == "select" and self.forms and a.get("name"):
            self._select, self._select_first = a["name"], None
        elif tag == "option" and self._select and self.forms:
            value = a.get("value", "")
            if self._select_first is None:
                self._select_first = value
                self.forms[-1].fields.setdefault(self._select, value)
            if "selected" in a:
                self.forms[-1].fields[self._select] = value

    def handle_endtag(self, tag):
        if tag in SKIP_TAGS and self._skip:
            self._skip -= 1
        if tag in BLOCK_TAGS:
            self.chunks.append("\n")
        if tag == "a" and self._link is not None:
            self.links.append((self._link[0], " ".join("".join(self._link[1]).split())))
            self._link = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "select":
            self._select = None

    def handle_data(self, data):
        if self._skip:
            return
        if self._textarea and self.forms:
            self.forms[-1].fields[self._textarea] += data
        self.chunks.append(data)
        if self._link is not None:
            self._link[1].append(data)


def parse_page(url: str, status: int, html: str, etag: str | None = None) -> Page:
    parser = _PageParser(url)
    parser.feed(html)
    parser.close()
    lines = (" ".join(line.split()) for line in "".join(parser.chunks).split("\n"))
    text = "\n".join(line for line in lines if line)
    return Page(url, status, text, parser.links, parser.forms, etag)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class Browser:
    """Fetches pages of one site; follows redirects; remembers ETags for conditional GETs."""

    def __init__(self, base_url: str, timeout: float = 30.0):
        parts = urllib.parse.urlsplit(base_url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.timeout = timeout
        self.requests = 0
        self._opener = urllib.request.build_opener(_NoRedirect)
        self._cache: dict[str, Page] = {}

    def url(self, path_or_url: str) -> str:
        return urllib.parse.urljoin(self.origin + "/", path_or_url)

    def get(self, path_or_url: str, conditional: bool = False) -> Page:
        url = self.url(path_or_url)
        headers = {}
        cached = self._cache.get(url)
        if conditional and cached and cached.etag:
            headers["If-None-Match"] = cached.etag
        return self._fetch(urllib.request.Request(url, headers=headers), conditional)

    def post(self, action: str, fields: dict[str, str]) -> Page:
        data = urllib.parse.urlencode(fields).encode("utf-8")
        request = urllib.request.Request(self.url(action), data=data, method="POST")
        return self._fetch(request, False)

    def _fetch(self, request: urllib.request.Request, conditional: bool, hops: int = 0) -> Page:
        self.requests += 1
        try:
            response = self._opener.open(request, timeout=self.timeout)
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
