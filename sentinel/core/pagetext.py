"""The visible text of an HTML page, as the built-in text browser reads it: tags stripped, one
block per line, with the page's links and forms (standard library only).

The text browser of the built-in agents (sentinel/agents/browse.py) and `sentinel show`
(sentinel/outputs/evidence.py) read pages through this one parser, so a page shown again reads
exactly as the agent's own view of it.
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass, field
from html.parser import HTMLParser

BLOCK_TAGS = {"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "header", "main", "nav",
              "section", "article", "table", "ul", "ol", "dl", "dt", "dd", "br", "form", "footer",
              "aside", "figure", "figcaption", "label", "title"}
SKIP_TAGS = {"script", "style", "template", "svg"}
BUTTON_KINDS = ("submit", "button", "image", "reset")
FORM_REF_ATTR = "data-sentinel-form"  # set by the Chromium driver's page snapshot (chromium.py)


@dataclass
class Control:
    """One named form control, as a model is told about it."""
    name: str
    kind: str  # text, textarea, select, checkbox, radio, hidden, ...
    choices: list[str] = field(default_factory=list)  # option / checkbox / radio values


@dataclass
class Form:
    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)  # default values, as a browser would send them
    controls: list[Control] = field(default_factory=list)
    buttons: list[str] = field(default_factory=list)
    ref: str | None = None  # a real browser's handle on the form (its index among document.forms)

    def control(self, name: str, kind: str) -> Control:
        for existing in self.controls:
            if existing.name == name:
                return existing
        self.controls.append(Control(name, kind))
        return self.controls[-1]


@dataclass
class Page:
    url: str
    status: int
    text: str = ""
    links: list[tuple[str, str]] = field(default_factory=list)  # (absolute href, link text)
    forms: list[Form] = field(default_factory=list)
    etag: str | None = None
    chunks: list = field(default_factory=list, repr=False)  # text, and ("a" | "/a" | "form", index) marks

    @property
    def path(self) -> str:
        parts = urllib.parse.urlsplit(self.url)
        return parts.path + (f"?{parts.query}" if parts.query else "")

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
        self.chunks: list = []
        self.links: list[tuple[str, str]] = []
        self.forms: list[Form] = []
        self._skip = 0
        self._link: tuple[int, list[str]] | None = None  # index in links, text parts
        self._textarea: str | None = None
        self._select: str | None = None
        self._select_first: str | None = None
        self._button: list[str] | None = None
        self._open_form: int | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        if tag in SKIP_TAGS:
            self._skip += 1
        if tag in BLOCK_TAGS:
            self.chunks.append("\n")
        if tag == "a" and "href" in a:
            self.links.append((urllib.parse.urljoin(self.base, a["href"]), ""))
            self._link = (len(self.links) - 1, [])
            self.chunks.append(("a", len(self.links) - 1))
        elif tag == "form":
            self._close_form()
            self.forms.append(Form(urllib.parse.urljoin(self.base, a.get("action") or self.base),
                                   (a.get("method") or "get").lower(), ref=a.get(FORM_REF_ATTR)))
            self._open_form = len(self.forms) - 1
        elif tag == "button" and self._open_form is not None:
            self._button = []
        elif tag in ("input", "textarea", "select", "option") and self._open_form is not None:
            self._form_control(tag, a)

    def _form_control(self, tag: str, a: dict[str, str]) -> None:
        form = self.forms[-1]
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text").lower()
            if kind in BUTTON_KINDS:
                form.buttons.append(a.get("value") or kind)
                return
            control = form.control(a["name"], kind)
            if kind in ("checkbox", "radio"):
                control.choices.append(a.get("value", "on"))
                if "checked" not in a:
                    return
            form.fields[a["name"]] = a.get("value", "")
        elif tag == "textarea" and a.get("name"):
            self._textarea = a["name"]
            form.control(a["name"], "textarea")
            form.fields[a["name"]] = ""
        elif tag == "select" and a.get("name"):
            self._select, self._select_first = a["name"], None
            form.control(a["name"], "select")
        elif tag == "option" and self._select:
            value = a.get("value", "")
            form.control(self._select, "select").choices.append(value)
            if self._select_first is None:
                self._select_first = value
                form.fields.setdefault(self._select, value)
            if "selected" in a:
                form.fields[self._select] = value

    def handle_endtag(self, tag):
        if tag in SKIP_TAGS and self._skip:
            self._skip -= 1
        if tag in BLOCK_TAGS:
            self.chunks.append("\n")
        if tag == "a" and self._link is not None:
            index, parts = self._link
            self.links[index] = (self.links[index][0], " ".join("".join(parts).split()))
            self.chunks.append(("/a", index))
            self._link = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "select":
            self._select = None
        elif tag == "button" and self._button is not None:
            self.forms[-1].buttons.append(" ".join("".join(self._button).split()) or "submit")
            self._button = None
        elif tag == "form":
            self._close_form()

    def _close_form(self) -> None:
        if self._open_form is not None:
            self.chunks.append(("form", self._open_form))
            self._open_form = None

    def handle_data(self, data):
        if self._skip:
            return
        if self._textarea and self.forms:
            self.forms[-1].fields[self._textarea] += data
        if self._button is not None:
            self._button.append(data)
        self.chunks.append(data)
        if self._link is not None:
            self._link[1].append(data)

    def close(self):
        super().close()
        self._close_form()


def fold_space(text: str) -> str:
    return " ".join(text.split())


def parse_page(url: str, status: int, html: str, etag: str | None = None) -> Page:
    parser = _PageParser(url)
    parser.feed(html)
    parser.close()
    plain = "".join(c for c in parser.chunks if isinstance(c, str))
    text = "\n".join(line for line in map(fold_space, plain.split("\n")) if line)
    return Page(url, status, text, parser.links, parser.forms, etag, parser.chunks)
