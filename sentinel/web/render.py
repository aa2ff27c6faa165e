"""Templates: one Jinja environment over web/templates, the filters pages need, and `render`.

Every page goes through `render`, which adds what the shared layout needs: the environment's
brand and header counters, the self persona, the status line left by the last POST, and the
world's current time for relative timestamps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

import aiohttp_jinja2
import jinja2
import markupsafe
from aiohttp import web
from jinja2.compiler import CodeGenerator, Frame
from jinja2.nodes import Expr, Output
from markupsafe import Markup, escape

from sentinel.core.environment import Environment, Header
from sentinel.core.paths import DATA
from sentinel.web.keys import ENV_CSS, ENVIRONMENT, LAYOUT, WORLD
from sentinel.world.state import parse_iso

TEMPLATES_DIR = DATA.templates
STATIC_DIR = DATA.static
LIVE_HEADER = "X-Live-Refresh"
MAX_URLS = 4096  # remembered links per app
_URLS: WeakKeyDictionary[web.Application, dict[tuple, str]] = WeakKeyDictionary()


# markupsafe's C escaper of plain text (markupsafe 2.1+); without it, output uses `escape` itself
_escape_text: Callable[[str], str] = getattr(markupsafe, "_escape_inner", None) or escape


def escape_output(value: Any) -> str:
    """What autoescaping does to `{{ value }}`, without wrapping each piece in a Markup: the
    piece goes straight into the page, so its type never matters. Markup and other objects with
    __html__ print as they are; everything else is converted to text and escaped (&, <, >, ",
    ') by markupsafe's own escaper. markupsafe.escape spends most of its time building the
    Markup (0.38 µs a value against 0.03 µs of escaping), and a list page prints hundreds."""
    if value.__class__ is str:
        return _escape_text(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    return _escape_text(str(value))


class _OutputCodeGenerator(CodeGenerator):
    """Compiles `{{ … }}` in autoescaped templates to `environment.escape_output(…)` instead of
    `escape(…)`, and yields each run of text and `{{ … }}` between two tags as one string;
    everything else is Jinja's own code."""

    def visit_Output(self, node: Output, frame: Frame) -> None:
        """Jinja yields every piece of a run apart, and a page that extends a layout passes
        each yield up through every template's generator (three for a MicroMail list: ~800
        pieces a page). Here the run's pieces go into a list, as Jinja compiles them inside a
        macro, and are yielded joined. Runs of one piece, and code already writing into a
        buffer or checking for an unknown parent template, stay Jinja's own."""
        if frame.buffer is not None or frame.require_output_check or len(node.nodes) < 2:
            super().visit_Output(node, frame)
            return
        frame.buffer = self.temporary_identifier()
        self.writeline(f"{frame.buffer} = []")
        try:
            super().visit_Output(node, frame)
            self.writeline(f'yield "".join({frame.buffer})')
        finally:
            frame.buffer = None

    def _output_child_pre(self, node: Expr, frame: Frame, finalize: Any) -> None:
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile:
            self.write("environment.escape_output(")
        else:
            super()._output_child_pre(node, frame, finalize)


class PageTemplates(jinja2.Environment):
    code_generator_class = _OutputCodeGenerator
    escape_output = staticmethod(escape_output)

    def make_globals(self, d: Mapping[str, Any] | None) -> Any:
        """A template's globals as one plain dict, not Jinja's ChainMap over the environment's:
        each render (and each include) copies them into a new context, and copying a ChainMap
        runs in Python (~3 µs a copy). Nothing adds globals once templates are loaded."""
        return {**self.globals, **(d or {})}


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
    env.filters["signed_money"] = signed_money
    env.filters["percent"] = percent
    env.filters["filesize"] = filesize
    return env


def is_live(request: web.Request) -> bool:
    """True for the browser script's background refreshes: they never run GET side effects."""
    return request.headers.get(LIVE_HEADER) == "1"


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
    if request.method == "GET" and not is_live(request):
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
