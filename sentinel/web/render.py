"""Templates: one Jinja environment over web/templates, the filters pages need, and `render`.

Every page goes through `render`, which adds what the shared layout needs: the environment's
brand and header counters, the self persona, the status line left by the last POST, and the
world's current time for relative timestamps.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

import aiohttp_jinja2
import jinja2
from aiohttp import web
from jinja2 import nodes
from markupsafe import Markup, escape

from sentinel.core.environment import Environment, Header
from sentinel.core.paths import DATA
from sentinel.web.keys import ENV_CSS, ENVIRONMENT, LAYOUT, LOOK_ONLY, SKIPPED_EFFECT, WORLD
from sentinel.world.state import parse_iso

TEMPLATES_DIR = DATA.templates
STATIC_DIR = DATA.static
LIVE_HEADER = "X-Live-Refresh"
MAX_URLS = 4096  # remembered links per app
_URLS: WeakKeyDictionary[web.Application, dict[tuple, str]] = WeakKeyDictionary()
log = logging.getLogger(__name__)


def escape_text(text: str) -> str:
    """markupsafe's escaping of plain text (& < > " ' as &amp; &lt; &gt; &#34; &#39;, checked
    against markupsafe.escape in tests) without the Markup it wraps the result in. Most printed
    text has none of the five: five `in` tests find that without building anything."""
    if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:
        return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace('"', "&#34;").replace("'", "&#39;"))
    return text


# Escaped texts remembered: a page prints the same names, subjects, links and labels render
# after render, and looking one up costs less than checking it again. Texts longer than
# MEMO_CHARS (message bodies) are escaped each time; the memo starts over when full.
_ESCAPED: dict[str, str] = {}
MAX_ESCAPED = 8192
MEMO_CHARS = 200


def escape_output(value: Any) -> str:
    """What autoescaping does to `{{ value }}`, without wrapping each piece in a Markup: the
    piece goes straight into the page, so its type never matters. Markup and other objects with
    __html__ print as they are; everything else is converted to text and escaped as
    escape_text does. markupsafe.escape spends most of its time building the Markup (0.4 µs a
    value against 0.05 µs here), and a list page prints hundreds."""
    if value.__class__ is str:
        done = _ESCAPED.get(value)
        if done is None:
            done = escape_text(value)
            if len(value) <= MEMO_CHARS:
                if len(_ESCAPED) >= MAX_ESCAPED:
                    _ESCAPED.clear()
                _ESCAPED[value] = done
        return done
    if hasattr(value, "__html__"):
        return value.__html__()
    return escape_text(str(value))


# The two filters rewritten templates call; no template can name them (not identifiers).
ESCAPE_FILTER = "(escape output)"
JOIN_FILTER = "(join output)"

# Expressions whose value never depends on autoescape being on (only on their operands): no
# calls (a macro returns Markup or text by the caller's autoescape), no `~` (markup_join or
# str_join), and only the filters and tests below. _FastOutput computes any other value with
# autoescape on.
_PLAIN_NODES = (nodes.Name, nodes.NSRef, nodes.Const, nodes.Getattr, nodes.Getitem, nodes.Slice, nodes.Tuple,
                nodes.List, nodes.Dict, nodes.Pair, nodes.Keyword, nodes.CondExpr, nodes.And, nodes.Or, nodes.Not,
                nodes.Neg, nodes.Pos, nodes.BinExpr, nodes.Compare, nodes.Operand, nodes.MarkSafe)
# Jinja's own filters and tests that take no eval context (tests/test_render.py renders each
# both ways): allowed while the environment still maps the name to Jinja's own function.
_PLAIN_JINJA_FILTERS = frozenset({"abs", "capitalize", "count", "d", "default", "e", "escape", "filesizeformat",
                                  "first", "float", "format", "int", "last", "length", "list", "lower", "round",
                                  "safe", "string", "title", "trim", "upper", "wordcount"})
_PLAIN_JINJA_TESTS = frozenset({"boolean", "callable", "defined", "divisibleby", "eq", "escaped", "even", "false",
                                "float", "ge", "gt", "in", "integer", "iterable", "le", "lower", "lt", "mapping",
                                "ne", "none", "number", "odd", "sameas", "sequence", "string", "true", "undefined",
                                "upper"})
_JINJA = jinja2.Environment()  # Jinja's own filters and tests, to compare with the environment's


VALUE = "fast_output_value"  # the local a With holds a computed value in while it is printed


class _FastOutput:
    """Rewrites the parsed tree of an autoescaped page template, with public jinja2.nodes only,
    so that its `{{ … }}` print through escape_output instead of markupsafe.escape, and each run
    of text and values between two tags is yielded as one joined string.

    Jinja compiles `{{ value }}` in an autoescaped template to escape(value), which builds a
    Markup per value. Here each stretch of statements that prints values is put between
    `{% autoescape false %}` and `{% autoescape true %}` (EvalContextModifier nodes: Jinja then
    prints str(…)), and each value inside it goes through ESCAPE_FILTER: the same text,
    escaped once, no Markup. Inside a stretch autoescape is off while the template runs too, so
    only plain expressions are evaluated there: names, attributes, items, literals, operators,
    conditions and the filters and tests allowed below, whose value never depends on it. Any
    other value (a call: a macro returns Markup or text by the caller's autoescape; `~`; other
    filters) is computed with autoescape back on, into a `{% with %}` variable printed from
    inside the stretch. Stretches end at statements that are neither printing, ifs, loops,
    sets nor includes of these (macros, blocks, call and filter blocks, …), which are rewritten
    inside in turn. The `{% autoescape true %}` closing each stretch is exact because page
    templates may not switch autoescape themselves (PageTemplates.compile refuses it): outside
    the stretches it is always on."""

    def __init__(self, env: jinja2.Environment, tree: nodes.Template):
        ours = (reltime, fulltime, when, money, signed_money, percent, filesize)
        self.filters = {name for name, func in env.filters.items() if any(func is f for f in ours)
                        or (name in _PLAIN_JINJA_FILTERS and func is _JINJA.filters.get(name))}
        self.tests = {name for name, func in env.tests.items()
                      if name in _PLAIN_JINJA_TESTS and func is _JINJA.tests.get(name)}
        # In a template that extends another, output outside blocks and macros is only ever
        # computed when there is no parent (Jinja checks at each Output): no `{% with %}` there.
        self.extends = tree.find(nodes.Extends) is not None

    def plain(self, node: nodes.Node) -> bool:
        if isinstance(node, nodes.Filter):
            ok = node.node is not None and node.name in self.filters
        elif isinstance(node, nodes.Test):
            ok = node.name in self.tests
        else:
            ok = isinstance(node, _PLAIN_NODES)
        return ok and all(self.plain(child) for child in node.iter_child_nodes())

    def printed(self, child: nodes.Expr) -> bool:
        """A piece of an Output printed as it is inside a stretch: text or a plain expression."""
        return isinstance(child, nodes.TemplateData) or self.plain(child)

    def printable(self, stmt: nodes.Node) -> bool:
        """A statement that can run inside a stretch as it is (its Outputs rewritten)."""
        if isinstance(stmt, nodes.Output):
            return all(map(self.printed, stmt.nodes))
        if isinstance(stmt, nodes.If):
            return self.plain(stmt.test) and all(map(self.printable, [*stmt.body, *stmt.elif_, *stmt.else_]))
        if isinstance(stmt, nodes.For):
            return (not stmt.recursive and self.plain(stmt.target) and self.plain(stmt.iter)
                    and (stmt.test is None or self.plain(stmt.test))
                    and all(map(self.printable, [*stmt.body, *stmt.else_])))
        if isinstance(stmt, nodes.Assign):
            return self.plain(stmt.target) and self.plain(stmt.node)
        if isinstance(stmt, nodes.Include):  # renders in a context of its own
            return self.plain(stmt.template)
        return False

    def template(self, tree: nodes.Template) -> None:
        tree.body = self.statements(tree.body, guarded=self.extends)

    def statements(self, stmts: list[nodes.Node], guarded: bool) -> list[nodes.Node]:
        """stmts with their stretches rewritten. A stretch is a list of units: ("text", the
        pieces of an Output), ("value", an expression computed with autoescape on), or
        ("stmt", a printable if, loop, set or include)."""
        out: list[nodes.Node] = []
        stretch: list[tuple[str, Any]] = []
        for stmt in stmts:
            if isinstance(stmt, nodes.Output):
                for child in stmt.nodes:
                    if self.printed(child):
                        if stretch and stretch[-1][0] == "text":
                            stretch[-1][1].append(child)
                        else:
                            stretch.append(("text", [child]))
                    elif not guarded:
                        stretch.append(("value", child))
                    else:
                        self.flush(stretch, out)
                        out.append(nodes.Output([child], lineno=child.lineno))
            elif self.printable(stmt):
                stretch.append(("stmt", stmt))
            else:
                self.flush(stretch, out)
                self.descend(stmt, guarded)
                out.append(stmt)
        self.flush(stretch, out)
        return out

    def flush(self, stretch: list[tuple[str, Any]], out: list[nodes.Node]) -> None:
        """The stretch's statements onto out (autoescape off around it, when it prints a value)."""
        units, stretch[:] = list(stretch), []
        if not any(kind == "value" or (kind == "text" and not all(isinstance(c, nodes.TemplateData) for c in unit))
                   or (kind == "stmt" and prints_values(unit)) for kind, unit in units):
            out.extend(nodes.Output(unit, lineno=unit[0].lineno) if kind == "text" else unit for kind, unit in units)
            return
        off = False
        while units:
            kind, unit = units.pop(0)
            lineno = unit[0].lineno if kind == "text" else unit.lineno
            if kind == "value":
                if off:
                    out.append(_autoescape(True, lineno))
                pieces = [nodes.Name(VALUE, "load", lineno=lineno)]
                if units and units[0][0] == "text":  # the text after it joins it
                    pieces += units.pop(0)[1]
                out.append(nodes.With([nodes.Name(VALUE, "store", lineno=lineno)], [unit],
                                      [_autoescape(False, lineno), joined(pieces)], lineno=lineno))
            else:
                if not off:
                    out.append(_autoescape(False, lineno))
                out.append(joined(unit) if kind == "text" else escaped(unit))
            off = True
        out.append(_autoescape(True, lineno))

    def descend(self, stmt: nodes.Node, guarded: bool) -> None:
        """The statement lists inside a statement that stays as it is, rewritten."""
        if isinstance(stmt, (nodes.Block, nodes.Macro, nodes.CallBlock, nodes.AssignBlock)):
            guarded = False  # their output is always computed (a set block's too, by Jinja)
        for field in ("body", "else_"):
            children = getattr(stmt, field, None)
            if isinstance(children, list):
                setattr(stmt, field, self.statements(children, guarded))
        for branch in getattr(stmt, "elif_", ()):
            self.descend(branch, guarded)


def joined(pieces: list[nodes.Expr]) -> nodes.Output:
    """An Output inside a stretch: its values escaped by ESCAPE_FILTER, all pieces joined."""
    lineno = pieces[0].lineno
    if all(isinstance(piece, nodes.TemplateData) for piece in pieces):
        return nodes.Output(pieces, lineno=lineno)
    parts: list[nodes.Expr] = [
        nodes.Const(piece.data, lineno=piece.lineno) if isinstance(piece, nodes.TemplateData)
        else nodes.Filter(piece, ESCAPE_FILTER, [], [], None, None, lineno=piece.lineno) for piece in pieces]
    if len(parts) > 1:
        run = nodes.Tuple(parts, "load", lineno=lineno)
        parts = [nodes.Filter(run, JOIN_FILTER, [], [], None, None, lineno=lineno)]
    return nodes.Output(parts, lineno=lineno)


def escaped(stmt: nodes.Node) -> nodes.Node:
    """A printable statement inside a stretch: each Output in it joined."""
    if isinstance(stmt, nodes.Output):
        return joined(stmt.nodes)
    for field in ("body", "elif_", "else_"):
        children = getattr(stmt, field, None)
        if isinstance(children, list):
            setattr(stmt, field, [escaped(child) for child in children])
    return stmt


def prints_values(stmt: nodes.Node) -> bool:
    """Whether stmt prints anything but template text."""
    outputs = [stmt] if isinstance(stmt, nodes.Output) else stmt.find_all(nodes.Output)
    return any(not isinstance(child, nodes.TemplateData) for output in outputs for child in output.nodes)


def _autoescape(on: bool, lineno: int) -> nodes.EvalContextModifier:
    return nodes.EvalContextModifier([nodes.Keyword("autoescape", nodes.Const(on))], lineno=lineno)


class PageTemplates(jinja2.Environment):
    """Jinja's environment, with autoescaped templates rewritten by _FastOutput as they are
    compiled. Pages are byte-identical to Jinja's own (tests/test_render.py)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.filters[ESCAPE_FILTER] = escape_output
        self.filters[JOIN_FILTER] = "".join

    def make_globals(self, d: Mapping[str, Any] | None) -> Any:
        """A template's globals as one plain dict, not Jinja's ChainMap over the environment's:
        each render (and each include) copies them into a new context, and copying a ChainMap
        runs in Python (~3 µs a copy). Nothing adds globals once templates are loaded."""
        return {**self.globals, **(d or {})}

    def compile(self, source: str | nodes.Template, name: str | None = None, filename: str | None = None,
                raw: bool = False, defer_init: bool = False) -> Any:
        """Templates given as text (every loader and from_string) are parsed, rewritten by
        _FastOutput and compiled; a tree passed in is compiled as it is. Nothing is rewritten
        when autoescape is not simply True, or with finalize or async. Should the rewrite itself
        fail (a Jinja release changing its nodes), the template is compiled as Jinja would and
        the failure logged: pages stay right, only slower (tests/test_render.py fails loudly)."""
        if isinstance(source, str) and self.fast_output:
            tree = self.parse(source, name, filename)
            switch = tree.find(nodes.EvalContextModifier)
            if switch is not None:
                raise jinja2.TemplateSyntaxError(
                    "page templates are always autoescaped: no {% autoescape %} blocks (the output rewrite in "
                    "sentinel/web/render.py relies on it); print Markup for text that is already HTML",
                    switch.lineno, name, filename)
            try:
                _FastOutput(self, tree).template(tree)
                tree.set_environment(self)
            except Exception:
                log.exception("template %s: output rewrite failed; compiled as Jinja would", name)
                tree = self.parse(source, name, filename)
            source = tree
        return super().compile(source, name, filename, raw, defer_init)

    @property
    def fast_output(self) -> bool:
        return self.autoescape is True and self.finalize is None and not self.is_async


def make_templates(extra_dirs: tuple[Path, ...] = ()) -> jinja2.Environment:
    """The Jinja environment shared by every session of a process (autoescaped). extra_dirs:
    template folders of environments kept outside web/templates (searched after it)."""
    env = PageTemplates(
        loader=jinja2.FileSystemLoader([str(TEMPLATES_DIR), *map(str, extra_dirs)]),
        autoescape=True,  # every page template, and every template made from a string
        undefined=jinja2.StrictUndefined,
        enable_async=False,
        auto_reload=False,  # templates are compiled once per process: no stat per page
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["reltime"] = reltime
    env.filters["fulltime"] = fulltime
    env.filters["when"] = when
    env.filters["money"] = money
    env.filters["avatar_colors"] = avatar_colors
    env.filters["signed_money"] = signed_money
    env.filters["percent"] = percent
    env.filters["filesize"] = filesize
    env.filters["hide_glyphs"] = hide_glyphs
    return env


def is_live(request: web.Request) -> bool:
    """True for the browser script's background refreshes (logged apart from the agent's reads)."""
    return request.headers.get(LIVE_HEADER) == "1"


def looks_only(request: web.Request) -> bool:
    """True for reads that must leave the world as it is: the browser script's background
    refreshes, and the re-checks of a waiting GET (sentinel.web.waiting). They run no GET side
    effect (marking seen, taking the flash line, opening the report form)."""
    return is_live(request) or request.get(LOOK_ONLY, False)


def skips_side_effect(request: web.Request) -> bool:
    """Asked where a GET side effect is about to run: True if this read only looks, and so
    must leave it out. The request remembers it: a waiting GET answers with its look only when
    the look left nothing out (it is then the very page a plain GET gives)."""
    if not looks_only(request):
        return False
    request[SKIPPED_EFFECT] = True
    return True


def local_path(target: str) -> bool:
    """A path on this site ("/micromail/…"), never another host ("//evil", "http://…")."""
    return target.startswith("/") and not target.startswith("//") and "\\" not in target


def layout_for(environment: Environment, templates: jinja2.Environment) -> str:
    """The template pages extend: the environment's own layout.html if it has one, else the
    shared one (brand, navigation, search box, self user)."""
    own = f"{environment.name}/layout.html"
    try:
        templates.get_template(own)
        return own
    except jinja2.TemplateNotFound:
        return "base.html"


@dataclass(frozen=True)
class NavLink:
    label: str
    href: str
    active: bool


@dataclass(frozen=True)
class Chrome:
    """The header of one page, computed once: templates only print it."""

    home: str
    nav: tuple[NavLink, ...]
    search_action: str | None
    unread: int
    extra: Mapping[str, Any]


def make_url(request: web.Request):
    """`url("message", id=…, query={…})` for templates: named routes, never literal paths.

    A path depends only on the route table, which never changes once the app runs, so each
    distinct call is built once per app and remembered (a page links to dozens of them)."""
    app = request.app
    router = app.router
    built_urls = _URLS.get(app)
    if built_urls is None:
        built_urls = _URLS[app] = {}

    def url(name: str, query: Mapping[str, Any] | None = None, **parts: Any) -> str:
        key = (name, tuple(parts.items()), tuple(query.items()) if query else ())
        try:
            return built_urls[key]
        except (KeyError, TypeError):  # TypeError: an unhashable value, built every time
            pass
        built = router[name].url_for(**{k: str(v) for k, v in parts.items()})
        if query:
            built = built.with_query({k: str(v) for k, v in query.items() if v not in (None, "")})
        text = str(built)
        if len(built_urls) >= MAX_URLS:  # search queries are unbounded: start over
            built_urls.clear()
        with suppress(TypeError):
            built_urls[key] = text
        return text
    return url


def build_chrome(request: web.Request, environment: Environment, header: Header) -> Chrome:
    url = make_url(request)
    links = []
    for item in environment.nav:
        label = item.label if item.count is None else f"{item.label} ({header.counts.get(item.count, 0)})"
        links.append((label, url(item.route, **item.parts)))
    path = request.path
    home = environment.start_page
    matches = [href for _, href in links
               if href.split("?")[0] == path or (href != home and path.startswith(href.rstrip("/") + "/"))]
    active = max(matches, key=len) if matches else None
    search = url(environment.search) if environment.search else None
    return Chrome(environment.start_page, tuple(NavLink(label, href, href == active) for label, href in links),
                  search, header.unread, header.extra)


async def render(request: web.Request, template: str, context: dict[str, Any] | None = None,
                 status: int = 200, header: Header | None = None) -> web.Response:
    """The page, rendered with the layout's context. header: the environment's header when the
    view already computed it from the same reads (else it is read here)."""
    world = request.app[WORLD]
    environment = request.app[ENVIRONMENT]
    flash = None
    if request.method == "GET" and world.flash is not None and not skips_side_effect(request):
        flash, world.flash = world.flash, None
    page = {
        "env_name": environment.name,
        "env_title": environment.title,
        "layout": request.app[LAYOUT],
        "env_css": request.app[ENV_CSS],
        "me": world.self_persona,
        "chrome": build_chrome(request, environment, header or await environment.header(world)),
        "url": make_url(request),
        "status_line": flash,
        "now": world.now_dt(),
        "request_path": request.path_qs,
        "query": request.query.get("q", ""),
    }
    page.update(context or {})
    text = request.app[aiohttp_jinja2.APP_KEY].get_template(template).render(page)
    return web.Response(body=text.encode(), status=status, content_type="text/html", charset="utf-8",
                        headers={"Cache-Control": "no-cache"})


# --- filters ---------------------------------------------------------------

@lru_cache(maxsize=8192)
def _parsed(text: str) -> datetime:
    return parse_iso(text)


def _moment(value: str | datetime) -> datetime:
    return _parsed(value) if isinstance(value, str) else value


class _Moment(NamedTuple):
    """What the time filters need of one timestamp, computed once per distinct value."""

    moment: datetime
    date: str  # "Mar 3": what reltime says past a week
    time_open: str  # '<time datetime="…" title="…">' (the `when` filter's opening tag)


@lru_cache(maxsize=8192)  # a page lists dozens of the same few moments, page after page
def _moment_of(value: str | datetime) -> _Moment:
    moment = _moment(value)
    return _Moment(moment, f"{moment:%b} {moment.day}",
                   f'<time datetime="{escape(value)}" title="{escape(fulltime(value))}">')


# reltime's texts, built once: "N min ago" (1-59), "N h ago" (1-23), "N days ago" (2-6)
_MINUTES = tuple(f"{n} min ago" for n in range(60))
_HOURS = tuple(f"{n} h ago" for n in range(24))
_DAYS = ("", "yesterday", *(f"{n} days ago" for n in range(2, 7)))


def _relative(known: _Moment, now: datetime) -> str:
    """reltime's text for a moment already looked up."""
    seconds = (now - known.moment).total_seconds()
    if seconds < 60:
        return "just now"
    whole = int(seconds)  # positive here: truncating is flooring
    if whole < 3600:
        return _MINUTES[whole // 60]
    if whole < 86400:
        return _HOURS[whole // 3600]
    days = whole // 86400
    return _DAYS[days] if days < 7 else known.date


def reltime(value: str | datetime, now: datetime) -> str:
    """'just now', 'N min ago', 'N h ago', 'yesterday', 'N days ago', then 'Mar 3'."""
    return _relative(_moment_of(value), now)


@lru_cache(maxsize=8192)
def fulltime(value: str | datetime) -> str:
    moment = _moment(value)
    return f"{moment:%a} {moment.day} {moment:%b %Y, %H:%M} UTC"


def when(value: str | datetime, now: datetime) -> Markup:
    """`{{ created_at | when(now) }}`: a <time> element with the relative time as its text and
    the full date-time in its title. The same markup as the `when` macro of common/macros.html,
    without a macro call per row (a list prints dozens). Its parts are escaped; reltime's own
    text ("3 min ago", "Mar 3") is letters, digits and spaces, so the result is built as Markup
    directly (Markup(text) would first ask the text for an __html__ it cannot have)."""
    known = _moment_of(value)
    text = known.time_open + _relative(known, now) + "</time>"
    return str.__new__(Markup, text)


def _luminance(hex_color: str) -> float | None:
    """WCAG relative luminance of #rgb / #rrggbb, or None for anything else."""
    digits = hex_color.strip().lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    if len(digits) != 6 or any(d not in "0123456789abcdefABCDEF" for d in digits):
        return None
    channels = [int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@lru_cache(maxsize=256)
def avatar_colors(background: str | None) -> str:
    """`style="{{ person.avatar_color | avatar_colors }}"`: the avatar's background and the ink
    its initials need to be readable on it (white unless white falls below a 4.5:1 contrast)."""
    background = background or "#777"
    luminance = _luminance(background)
    ink = "#111" if luminance is not None and 1.05 / (luminance + 0.05) < 4.5 else "#fff"
    return f"background: {background}; color: {ink}"


def money(value: float) -> str:
    return f"${value:,.2f}"


def signed_money(value: float) -> str:
    sign = "+" if value >= 0 else "−"
    return f"{sign}${abs(value):,.2f}"


def percent(value: float) -> str:
    sign = "+" if value >= 0 else "−"
    return f"{sign}{abs(value):.2f}%"


def filesize(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


# Glyphs printed beside words as decoration (☆ Save, Liked ✓, ✓ checks passed, ← Back): a
# screen reader or an agent reading the accessibility tree should get the words alone. A glyph
# that stands for words on its own (✉ 3) needs those words in its template, not this.
DECORATIVE_GLYPHS = "★☆☐☑✓✗●◉○⊘✉❞📎▶♥♡♫💬⎇≡▸↗↙⚖▣←→‹›"
_GLYPH_RUN = re.compile(f"[{re.escape(DECORATIVE_GLYPHS)}]+")


@lru_cache(maxsize=1024)
def _hidden_glyphs(text: str) -> Markup:
    return Markup(_GLYPH_RUN.sub(lambda run: f'<span aria-hidden="true">{run.group()}</span>', escape_text(text)))


def hide_glyphs(text: Any) -> Markup:
    """`{{ label | hide_glyphs }}`: the label escaped, each run of DECORATIVE_GLYPHS in it wrapped
    in <span aria-hidden="true">: "Liked ✓ (click to unlike)" is named "Liked (click to unlike)"
    in the accessibility tree, and its text (what the text browser reads) stays the same."""
    if hasattr(text, "__html__"):
        return Markup(text.__html__())  # already HTML: left as it is
    return _hidden_glyphs(str(text))
