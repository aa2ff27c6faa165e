"""Every input tried: property-based fuzzing (Hypothesis) of every form field and query
parameter of every environment, driven by what each environment declares and its pages show,
so a new environment is covered without new code.

For every example: never a 5xx; the database passes `PRAGMA integrity_check`; and a POST that
was refused (4xx) changed nothing at all.
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit

import pytest
from helpers.crawl import crawl, route_of
from helpers.worlds import dump, whole_catalog
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

HOSTILE = st.sampled_from(["", " ", "0", "-1", "1e308", "NaN", "٣", "\u202e", "\x00", "<script>x</script>",
                           "' OR 1=1 --", "../../etc/passwd", "%00", "x" * 20_000])
TEXT = st.one_of(HOSTILE, st.text(max_size=200))
EXAMPLES = 80


async def fuzz_targets(live, environment):
    """Forms (one per action route) and GET pages (one per view route) found by crawling."""
    pages = await crawl(live)
    app = live.client.app
    forms, views = {}, {}
    for path, page in pages.items():
        views.setdefault(route_of(app, urlsplit(path).path), path.split("?")[0])
        for form in page.forms:
            forms.setdefault(route_of(app, urlsplit(form.action).path), form)
    return list(forms.values()), list(views.values())


async def integrity(world) -> str:
    return str(await world.fetch_value("PRAGMA integrity_check"))


@pytest.fixture
async def site(env, env_session):  # noqa: F811
    """One session with the whole catalog per environment, shared by all examples of a test
    (Hypothesis runs them inside one call of the test function), and what fuzzing aims at."""
    live = await env_session(whole_catalog(env))
    forms, views = await fuzz_targets(live, env)
    params = sorted({c.name for form in forms for c in form.controls} | {"page", "q", "filter", "sort"})
    return live, forms, views, params


SHARED_SESSION = settings(max_examples=EXAMPLES, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture])


@SHARED_SESSION
@given(data=st.data())
async def test_every_form_field_fuzzed(site, data):
    live, forms, _, _ = site
    if not forms:
        return
    form = data.draw(st.sampled_from(forms))
    names = sorted({*form.fields, *(c.name for c in form.controls), "next"})
    values = {name: data.draw(st.one_of(st.just(form.fields.get(name, "")), TEXT), label=name) for name in names}
    action = urlsplit(form.action).path
    if data.draw(st.integers(0, 4), label="garble the id in the path (1 in 5)") == 0 and action.count("/") > 3:
        garbled = data.draw(TEXT.filter(lambda t: t.strip() and "/" not in t and "?" not in t and "#" not in t),
                            label="id")
        head, _, tail = action.rpartition("/")
        action = f"{head.rpartition('/')[0]}/{quote(garbled, safe='')}/{tail}"
    before = await dump(live.world)
    response = await live.client.post(action, data=values, allow_redirects=False)
    assert response.status < 500, (action, values, response.status)
    assert await integrity(live.world) == "ok"
    if 400 <= response.status < 500:
        assert await dump(live.world) == before, (action, "a refused POST changed the world")


@SHARED_SESSION
@given(data=st.data())
async def test_every_query_parameter_fuzzed(site, data):
    live, _, views, params = site
    path = data.draw(st.sampled_from(views))
    chosen = data.draw(st.lists(st.sampled_from(params), min_size=1, max_size=4, unique=True))
    query = {name: data.draw(TEXT, label=name)[:300] for name in chosen}
    before = await dump(live.world)
    response = await live.client.get(path, params=query, allow_redirects=False,
                                     headers={"X-Live-Refresh": "1"})  # a live refresh: no side effects
    assert response.status < 500, (path, query, response.status)
    if 400 <= response.status < 500 and response.status != 404:
        assert 'class="error"' in await response.text(), (path, query)
    assert await dump(live.world) == before
