"""Render helpers: links remembered per app stay exactly what the router builds; cached filters
give the same text as a fresh computation."""

from __future__ import annotations

from datetime import UTC, datetime

from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from sentinel.web import render
from sentinel.web.render import fulltime, make_url, reltime


def app_with_routes() -> web.Application:
    async def page(request: web.Request) -> web.Response:
        return web.Response(text="")
    app = web.Application()
    app.router.add_get("/m/message/{id}", page, name="message")
    app.router.add_get("/m/search", page, name="search")
    return app


def url_of(app: web.Application):
    return make_url(make_mocked_request("GET", "/", app=app))


def test_remembered_links_match_the_router_for_every_distinct_call():
    app = app_with_routes()
    url = url_of(app)
    calls = [("message", None, {"id": "em1"}), ("message", None, {"id": "em2"}), ("message", None, {"id": 7}),
             ("search", {"q": "a b", "page": 2}, {}), ("search", {"q": "a b", "page": 3}, {}),
             ("search", {"q": "", "page": None}, {})]
    first = [url(name, query, **parts) for name, query, parts in calls]
    assert first == ["/m/message/em1", "/m/message/em2", "/m/message/7", "/m/search?q=a+b&page=2",
                     "/m/search?q=a+b&page=3", "/m/search"]
    assert [url_of(app)(name, query, **parts) for name, query, parts in calls] == first  # from memory
    assert url("search", {"q": ["x"]}) == "/m/search?q=%5B'x'%5D"  # an unhashable value still builds


def test_remembered_links_are_per_app_and_bounded(monkeypatch):
    monkeypatch.setattr(render, "MAX_URLS", 3)
    app, other = app_with_routes(), web.Application()

    async def page(request: web.Request) -> web.Response:
        return web.Response(text="")
    other.router.add_get("/other/{id}", page, name="message")
    url = url_of(app)
    for n in range(10):
        assert url("message", id=n) == f"/m/message/{n}"
    assert len(render._URLS[app]) <= 3
    assert url_of(other)("message", id=1) == "/other/1"


def test_cached_time_filters_give_fresh_results():
    now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    for _ in range(2):
        assert fulltime("2026-03-02T08:05:00Z") == "Mon 2 Mar 2026, 08:05 UTC"
        assert reltime("2026-03-02T08:05:00Z", now) == "55 min ago"
        assert reltime("2026-03-02T08:05:00Z", datetime(2026, 3, 3, 9, 0, tzinfo=UTC)) == "yesterday"


def test_page_templates_escape_output_exactly_as_jinja_does():
    """The compiled `{{ … }}` of page templates prints what Jinja's own autoescape prints, for
    text, numbers, markup, None, in macros, includes of blocks and filter blocks; an undefined
    name still fails loudly; a template with autoescape off is left alone."""
    import jinja2
    import pytest
    from markupsafe import Markup

    source = ('{% macro cell(v) %}<td title="{{ v }}">{{ v }}</td>{% endmacro %}'
              '{% for v in values %}<p>{{ v }}</p>{{ cell(v) }}{% endfor %}'
              '{% set block %}<b>{{ values[0] }}</b>{% endset %}{{ block }}'
              '{% filter upper %}{{ values[0] }}{% endfilter %}{{ values | join(", ") }}'
              '{% autoescape false %}{{ values[0] }}{% endautoescape %}')
    values = ['<script>alert("x")</script> & \'q\'', 42, 1.5, None, Markup("<em>ok</em>"), "plain ♥ text"]
    ours = render.make_templates().from_string(source).render(values=values)
    jinjas = jinja2.Environment(autoescape=True).from_string(source).render(values=values)
    assert ours == jinjas
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#39;q&#39;" in ours and "<em>ok</em>" in ours
    assert "<script>" in ours  # only where autoescape was switched off in the template
    compiled = render.make_templates().compile(source, raw=True)
    assert "environment.escape_output(" in compiled  # the fast path is really the one in use
    with pytest.raises(jinja2.UndefinedError):
        render.make_templates().from_string("{{ missing }}").render()


def test_page_templates_yield_each_run_joined_and_print_what_jinja_prints():
    """Runs of text and `{{ … }}` are yielded as one string each: the page is the same as
    Jinja's own, through a layout (named and held in a variable), blocks, loops, conditions,
    macros, includes and a run outside any block of a child with an unknown parent."""
    import jinja2

    sources = {
        "base.html": "<title>{% block title %}T {{ t }}{% endblock %}</title>"
                     "<main>{{ t }} &amp; {{ n }}{% block main %}{% endblock %}</main>",
        "part.html": "<i>{{ t }}</i> {{ n }}",
        "child.html": "{% extends layout %}before-{{ t }}{% block title %}{{ super() }}!{{ t }}{% endblock %}"
                      "{% block main %}{% for a, b in rows %}<tr{% if a %} class=\"x\"{% endif %}><td>{{ a }}</td>"
                      "<td>{{ b }}</td>{% for m in b %}<b>{{ m }}</b>{{ m }}{% endfor %}</tr>{% endfor %}"
                      "{% macro cell(v) %}<td>{{ v }}|{{ v }}</td>{% endmacro %}{{ cell(t) }}{{ cell(n) }}"
                      "{% include 'part.html' %}{% endblock %}",
        "named.html": "{% extends 'base.html' %}{% block main %}<p>{{ t }}, {{ n }}</p>{% endblock %}",
    }
    context = {"layout": "base.html", "t": "<a&'\">", "n": 7,
               "rows": [(0, "xy"), ("<", ""), (None, "<>")]}
    settings = {"loader": jinja2.DictLoader(sources), "autoescape": True, "trim_blocks": True,
                "lstrip_blocks": True, "undefined": jinja2.StrictUndefined}
    ours, jinjas = render.PageTemplates(**settings), jinja2.Environment(**settings)
    for name in ("child.html", "named.html", "part.html"):
        assert ours.get_template(name).render(context) == jinjas.get_template(name).render(context), name
    pieces = list(ours.get_template("child.html").generate(context))
    assert len(pieces) < len(list(jinjas.get_template("child.html").generate(context))) / 2


def test_when_filter_prints_the_when_macro():
    templates = render.make_templates()
    now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    by_macro = templates.from_string('{% import "common/macros.html" as m %}{{ m.when(t, now) }}')
    for moment in ("2026-03-02T08:05:00Z", "2026-02-20T08:05:00Z", datetime(2026, 3, 2, 8, 59, 30, tzinfo=UTC)):
        macro = by_macro.render(t=moment, now=now)
        assert templates.from_string("{{ t | when(now) }}").render(t=moment, now=now) == macro
        assert macro.startswith("<time datetime=")
    assert by_macro.render(t="2026-03-02T08:05:00Z", now=now) == \
        '<time datetime="2026-03-02T08:05:00Z" title="Mon 2 Mar 2026, 08:05 UTC">55 min ago</time>'
