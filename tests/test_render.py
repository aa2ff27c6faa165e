"""Rendering: links remembered per app stay exactly what the router builds; cached filters
give the same text as a fresh computation; page templates, rewritten for speed as they compile,
print exactly what Jinja's own compiler prints."""

from __future__ import annotations

from datetime import UTC, datetime

import jinja2
import markupsafe
import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request
from helpers.crawl import crawl
from helpers.worlds import hostile_microtodo, whole_catalog
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from sentinel.web import fast_output, filters, render
from sentinel.web.filters import fulltime, reltime
from sentinel.web.keys import PAGE_CACHE
from sentinel.web.render import make_url
from sentinel.web.templates import make_templates


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
    text, numbers, markup, None, in macros, includes of blocks and filter blocks, joined lists;
    an undefined name still fails loudly. No value goes through markupsafe.escape any more."""
    source = ('{% macro cell(v) %}<td title="{{ v }}">{{ v }}</td>{% endmacro %}'
              '{% for v in values %}<p>{{ v }}</p>{{ cell(v) }}{% endfor %}'
              '{% set block %}<b>{{ values[0] }}</b>{% endset %}{{ block }}'
              '{% filter upper %}{{ values[0] }}{% endfilter %}{{ values | join(", ") }}')
    values = ['<script>alert("x")</script> & \'q\'', 42, 1.5, None, Markup("<em>ok</em>"), "plain ♥ text"]
    ours = make_templates().from_string(source).render(values=values)
    jinjas = jinja2.Environment(autoescape=True).from_string(source).render(values=values)
    assert ours == jinjas
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#39;q&#39;" in ours and "<em>ok</em>" in ours
    assert "<script>" not in ours
    compiled = make_templates().compile(source, raw=True)
    assert fast_output.ESCAPE_FILTER in compiled and "escape(" not in compiled  # the fast path is the one in use
    with pytest.raises(jinja2.UndefinedError):
        make_templates().from_string("{{ missing }}").render()


@given(st.text())
def test_escaping_is_markupsafes(text):
    assert filters.escape_text(text) == filters.escape_output(text) == str(markupsafe.escape(text))


def test_escape_output_prints_every_kind_of_value_as_markupsafe_does():
    class Html:
        def __html__(self):
            return "<i>as is</i>"

    class Text:
        def __str__(self):
            return "<b> & 'x'"

    class Sub(str):
        pass
    for value in ("", "a&b", "<>\"'", 0, -3, 2.5, None, True, Markup("<em>&amp;</em>"), Html(), Text(), Sub("<s>"),
                  ["<li>"], {"k": "<v>"}):
        assert filters.escape_output(value) == str(markupsafe.escape(value)), value


def test_remembered_escapes_are_bounded_and_stay_right(monkeypatch):
    monkeypatch.setattr(filters, "_ESCAPED", {})
    monkeypatch.setattr(filters, "MAX_ESCAPED", 3)
    texts = [f"<{n}> & '{n}'" for n in range(10)] + ["x" * (filters.MEMO_CHARS + 1) + "<"]
    for _ in range(2):
        assert [filters.escape_output(t) for t in texts] == [str(markupsafe.escape(t)) for t in texts]
        assert len(filters._ESCAPED) <= 3 and texts[-1] not in filters._ESCAPED


def test_page_templates_refuse_autoescape_blocks():
    """Outside its stretches the rewrite takes autoescape to be on: page templates may not switch
    it, and say so when they try (an environment that is not simply autoescaped is left alone)."""
    for source in ("{% autoescape false %}{{ x }}{% endautoescape %}", "{% autoescape true %}x{% endautoescape %}"):
        with pytest.raises(jinja2.TemplateSyntaxError, match="no {% autoescape %} blocks"):
            make_templates().from_string(source)
    plain = fast_output.PageTemplates(autoescape=False).from_string("{% autoescape true %}{{ x }}{% endautoescape %}")
    assert plain.render(x="<") == "&lt;"


JINJA_SETTINGS = {"autoescape": True, "trim_blocks": True, "lstrip_blocks": True, "undefined": jinja2.StrictUndefined}


def same_as_jinja(sources: dict[str, str], name: str, **context) -> str:
    """The page `name` rendered by page templates, after checking that Jinja's own prints the
    same (pages from the same sources, settings and filters)."""
    ours = make_templates()
    ours.loader = jinja2.DictLoader(sources)
    jinjas = jinja2.Environment(loader=jinja2.DictLoader(sources), **JINJA_SETTINGS)
    jinjas.filters.update(ours.filters)
    page = ours.get_template(name).render(context)
    assert page == jinjas.get_template(name).render(context)
    return page


VALUES = {"text": '<a href="x">T & \'q\'</a> two  words', "markup": Markup("<b>M&amp;</b> %s"), "none": None,
          "number": -2.55, "int": 7, "list": ["<x>", Markup("<y>")]}


def same_where_jinja_renders(expression: str) -> None:
    """`{{ expression }}` (of v) prints the same in page templates as in Jinja, inside a stretch,
    for each kind of value Jinja itself can render it with."""
    for value in VALUES.values():
        try:
            jinja2.Environment(**JINJA_SETTINGS).from_string(f"{{{{ {expression} }}}}").render(v=value)
        except Exception:  # not for this kind of value
            continue
        page = same_as_jinja({"t": f"<p>{{{{ v }}}}: {{{{ {expression} }}}}</p>"}, "t", v=value)
        assert page.startswith("<p>")
    compiled = make_templates().compile(f"{{{{ {expression} }}}}", raw=True)
    assert "escape(" not in compiled and "fast_output_value" not in compiled, f"{expression}: not printed as plain"


@pytest.mark.parametrize("name", sorted(fast_output._PLAIN_JINJA_FILTERS))
def test_filters_printed_inside_stretches_print_as_in_jinja(name):
    """Filters allowed inside a stretch (where autoescape is off while the template runs) give
    what they give with it on, for text, markup, numbers and lists. A Jinja release changing
    one of them to read the eval context, or dropping it, fails here."""
    assert name in jinja2.Environment().filters, f"Jinja has no filter {name!r}: drop it from _PLAIN_JINJA_FILTERS"
    args = {"format": '("<%s>")', "round": "(1)", "default": '("<d>")', "d": '("<d>")'}.get(name, "")
    same_where_jinja_renders(f"v | {name}{args}")


@pytest.mark.parametrize("name", sorted(fast_output._PLAIN_JINJA_TESTS))
def test_tests_allowed_inside_stretches_test_as_in_jinja(name):
    assert name in jinja2.Environment().tests, f"Jinja has no test {name!r}: drop it from _PLAIN_JINJA_TESTS"
    arg = {"divisibleby": "(2)", "in": "([7, None])", "sameas": "(none)"}.get(name, "(7)" if len(name) == 2 else "")
    same_where_jinja_renders(f"'yes' if v is {name}{arg} else 'no'")


def test_page_templates_yield_each_run_joined_and_print_what_jinja_prints():
    """Runs of text and `{{ … }}` are yielded as one string each: the page is the same as
    Jinja's own, through a layout (named and held in a variable), blocks, loops, conditions,
    macros, includes and a run outside any block of a child with an unknown parent."""
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
    ours, jinjas = fast_output.PageTemplates(**settings), jinja2.Environment(**settings)
    for name in ("child.html", "named.html", "part.html"):
        assert ours.get_template(name).render(context) == jinjas.get_template(name).render(context), name
    pieces = list(ours.get_template("child.html").generate(context))
    assert len(pieces) < len(list(jinjas.get_template("child.html").generate(context))) / 2


CONSTRUCTS = {
    "macros.html": "{% macro box(v, caller=None) %}<div data-v=\"{{ v }}\">{{ v ~ '!' }}"
                   "{% if caller %}{{ caller(v) }}{% endif %}</div>{% endmacro %}"
                   "{% macro who(p) %}<a href=\"{{ url('p', p) }}\">{{ p }}</a>{% endmacro %}",
    "row.html": "<li>{{ item }} of {{ items | length }}</li>",
    "layout.html": "<h1>{% block title %}{{ t }}{% endblock %}</h1>{% set shown = 0 %}"
                   "<main>{% block main %}{% endblock %}</main><p>{{ self.title() }}</p>",
    "page.html": """{% extends layout %}{% import "macros.html" as m with context %}top {{ never_called() }}
{% block title %}{{ super() }} &amp; {{ t | upper }}{% endblock %}
{% block main %}
{%- set ns = namespace(count=0) -%}
{% for item in items if item is not none %}
  {%- set ns.count = ns.count + 1 -%}
  <p class="{{ loop.cycle('odd', 'even') }}{% if loop.first %} first{% elif loop.last %} last{% else %} mid{% endif %}">
    {{ loop.index }}/{{ loop.length }}: {{ item }} {{ item ~ t }} {{ m.box(item) }} {{ m.who(item) }}
    {% include "row.html" %}
  </p>
{% else %}<p>none</p>
{% endfor %}
{{ ns.count }} {{ items | join(", ") }} {{ t | replace("a", "<") }} {{ "%s & %s" | format(t, mark) }}
{% set block %}<b>{{ t }}</b>{{ mark }}{% endset %}{{ block }} {{ block | length }}
{% filter upper %}{{ t }} {{ m.box(t) }}{% endfilter %}
{% call(v) m.box(t) %}called with {{ v }} and {{ mark }}{% endcall %}
{% with w = t ~ mark %}{{ w }} {{ w | length }}{% endwith %}
{{ t if flag }}{{ mark if not flag else t }} {{ [t, mark] }} {{ {"k": t} }} {{ -n }} {{ n * 2 }}
{{ (n / 3) | round(2) }} {{ t[1:] }} {{ t in items }}
{% for a in tree recursive %}<ul>{{ a.name }}{% if a.kids %}{{ loop(a.kids) }}{% endif %}</ul>{% endfor %}
{% set calls = [] %}[{{ calls.append(t) or "" }}{{ calls | length }}{{ calls }}
{{- calls.append(mark) or "" }}{{ calls }}]
{% raw %}{{ not printed }}{% endraw %}
{% endblock %}""",
}


def never_called():
    raise AssertionError("output outside the blocks of a child template was computed")


def test_page_templates_print_what_jinja_prints_for_every_construct():
    """Everything a page template can say, printed exactly as Jinja prints it: blocks and super()
    under a layout held in a variable, imported macros with and without caller, calls whose
    result is Markup or text, `~`, loops (filtered, recursive, with else and loop.*), namespaces,
    set and filter blocks, with, includes, literals and operators, and calls with side effects
    (their order kept). Output outside blocks of a child is never computed."""
    context = {"layout": "layout.html", "t": "<a&'\">", "mark": Markup("<i>m</i>"), "n": 7, "flag": False,
               "items": ["<x>", None, 3, Markup("<y>&amp;")],
               "tree": [{"name": "<r>", "kids": [{"name": "k&", "kids": []}]}],
               "url": lambda name, value=None: f"/{name}/{value}?a=1&b=<2>", "never_called": never_called}
    page = same_as_jinja(CONSTRUCTS, "page.html", **context)
    assert "&lt;x&gt;" in page
    assert "<y>&amp;" in page
    assert "<i>m</i>" in page
    assert "[1[&#39;&lt;a&amp;" in page  # the list printed between the two appends held one item
    empty = same_as_jinja(CONSTRUCTS, "page.html", **{**context, "items": []})
    assert "<p>none</p>" in empty


def test_a_failing_rewrite_leaves_the_template_to_jinja(monkeypatch, caplog):
    """Should a Jinja release change its nodes so that the rewrite fails, templates compile as
    Jinja's own (pages right, only slower) and the failure is logged."""
    def broken(self, tree):
        raise TypeError("'Output' takes 0 or 2 arguments")
    monkeypatch.setattr(fast_output._FastOutput, "template", broken)
    source = "{% for v in values %}<p>{{ v }}</p>{% endfor %}"
    page = make_templates().from_string(source).render(values=["<", 1])
    assert page == "<p>&lt;</p><p>1</p>"
    assert "output rewrite failed" in caplog.text
    assert "escape(" in make_templates().compile(source, raw=True)


def test_every_shipped_template_prints_through_escape_output_only(caplog):
    """No value of any template in web/templates is printed through markupsafe.escape: the
    rewrite covers them all (serving.py's figures depend on it), and none fell back to Jinja's
    own compile. This is the test that fails loudly when a Jinja release breaks the rewrite."""
    templates = make_templates()
    names = [name for name in templates.list_templates() if name.endswith(".html")]
    assert len(names) > 50
    for name in names:
        code = templates.compile(templates.loader.get_source(templates, name)[0], name, raw=True)
        assert "escape(" not in code, f"{name}: a value printed by Jinja's own escape()"
    assert "output rewrite failed" not in caplog.text


@pytest.fixture
def checked_against_jinja(monkeypatch):
    """Every page rendered by page templates is rendered again by Jinja's own compiler (the same
    loader, settings, filters and globals) and must be the same; yields the names compared."""
    compared: list[str] = []
    references: dict[int, tuple[jinja2.Environment, jinja2.Environment]] = {}
    real_render = jinja2.Template.render

    def render_both(template, *args, **kwargs):
        page = real_render(template, *args, **kwargs)
        ours = template.environment
        if isinstance(ours, fast_output.PageTemplates) and template.name is not None:
            if id(ours) not in references:
                jinjas = jinja2.Environment(loader=ours.loader, autoescape=ours.autoescape, undefined=ours.undefined,
                                            trim_blocks=ours.trim_blocks, lstrip_blocks=ours.lstrip_blocks)
                jinjas.filters.update(ours.filters)
                jinjas.globals.update(ours.globals)
                references[id(ours)] = (ours, jinjas)
            reference = references[id(ours)][1].get_template(template.name)
            assert page == real_render(reference, *args, **kwargs), f"{template.name} differs from Jinja's own"
            compared.append(template.name)
        return page
    monkeypatch.setattr(jinja2.Template, "render", render_both)
    return compared


async def test_every_page_of_every_environment_is_jinjas_own(env, env_session, checked_against_jinja):  # noqa: F811
    """Crawled with the whole catalog, every page (and its 404s) is byte-identical to what Jinja
    itself renders from the same templates and context."""
    live = await env_session(whole_catalog(env))
    live.session.app[PAGE_CACHE].max_pages = 0  # every page rendered, none served again from the cache
    pages = await crawl(live)
    await live.page(env.start_page + "no-such-page", status=404)
    assert len(checked_against_jinja) >= len(pages) > 1


async def test_hostile_catalog_text_renders_as_jinja_renders_it(env_session, checked_against_jinja, tmp_path,
                                                                 monkeypatch):
    """The tiny environment with a catalog whose every text field is hostile (as in
    test_hostile_text.py, without a browser): its pages are Jinja's own, escaped."""
    live, rows = await hostile_microtodo(env_session, tmp_path, monkeypatch)
    for path in ["/microtodo/", *(f"/microtodo/task/{r['id']}" for r in rows)]:
        await live.page(path)
    assert len(checked_against_jinja) == len(rows) + 1


def test_when_filter_prints_the_when_macro():
    templates = make_templates()
    now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    by_macro = templates.from_string('{% import "common/macros.html" as m %}{{ m.when(t, now) }}')
    for moment in ("2026-03-02T08:05:00Z", "2026-02-20T08:05:00Z", datetime(2026, 3, 2, 8, 59, 30, tzinfo=UTC)):
        macro = by_macro.render(t=moment, now=now)
        assert templates.from_string("{{ t | when(now) }}").render(t=moment, now=now) == macro
        assert macro.startswith("<time datetime=")
    assert by_macro.render(t="2026-03-02T08:05:00Z", now=now) == \
        '<time datetime="2026-03-02T08:05:00Z" title="Mon 2 Mar 2026, 08:05 UTC">55 min ago</time>'


def test_hide_glyphs_hides_each_run_of_glyphs_and_escapes_the_rest():
    templates = make_templates()
    label = templates.from_string("{{ v | hide_glyphs }}")
    assert label.render(v="★ Saved ✓ (click to remove)") == \
        '<span aria-hidden="true">★</span> Saved <span aria-hidden="true">✓</span> (click to remove)'
    assert label.render(v="<b>☑☐</b> & 'x'") == \
        '&lt;b&gt;<span aria-hidden="true">☑☐</span>&lt;/b&gt; &amp; &#39;x&#39;'
    assert label.render(v="Mute") == "Mute" and label.render(v=Markup("<i>✓</i>")) == "<i>✓</i>"
    # a toggle's button: its words named, its text (what the text browser reads) unchanged
    toggle = templates.from_string('{% import "common/macros.html" as m %}{{ m.toggle("/like", on, "♡ Like", '
                                   '"Liked ✓ (click to unlike)", "/") }}')
    assert '<button type="submit">Liked <span aria-hidden="true">✓</span> (click to unlike)</button>' in \
        toggle.render(on=True)
    assert '<button type="submit"><span aria-hidden="true">♡</span> Like</button>' in toggle.render(on=False)
