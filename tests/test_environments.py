"""The contract every environment keeps, proved once for all of them (docs/environments.md#shared-conventions).

Parametrised over `environments()` plus MicroTodo, the tiny environment that lives in
tests/microtodo/: a new environment is covered here the moment it joins the list. Each test
starts a real session through the app factory and reads pages as an agent does; views are
found by crawling from the start page, never listed by hand.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers.crawl import crawl, one_per_route, route_of
from helpers.worlds import MICROTODO, dump, whole_catalog

from sentinel.agents import BUILTIN_AGENTS
from sentinel.checks.validate import static_checks, validate_scenario
from sentinel.core.catalog import Catalog
from sentinel.core.config import load_config
from sentinel.core.environment import Environment
from sentinel.core.scenario import Event, Scenario, load_scenario, scenario_files
from sentinel.envs import EXTRA_VARIABLE
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner

GARBAGE = ["", "\x00", "%FF", "-1", "1e999", "x" * 5000, "<script>alert(1)</script>", "'; DROP TABLE x; --",
           "99999999999999999999999999", "../../etc/passwd", "☃" * 50, "NaN"]


def scenarios_of(env: Environment) -> list[Path]:
    root = Path(__file__).parent / "microtodo" / "scenarios" if env is MICROTODO else load_config().scenarios_dir
    return sorted(p for p in scenario_files(root) if p.parent.name == env.name)


def empty_world(env: Environment) -> Scenario:
    """The whole-catalog scenario with every preload collection emptied."""
    full = whole_catalog(env)
    fields = {key: [] for key in env.event_types["preload"].inserts}
    return dataclasses.replace(full, events=(Event(0, "preload", fields, 0),))


async def test_every_view_renders_with_the_whole_catalog(env, env_session):
    live = await env_session(whole_catalog(env))
    pages = await crawl(live)
    reached = {route_of(live.client.app, urlsplit(p).path) for p in pages}
    gets = {r.name for r in env.routes if r.method == "GET"}
    assert gets <= reached, f"views never reached by links from the start page: {sorted(gets - reached)}"
    for path, page in pages.items():
        assert page.status in (200, 302), (path, page.status)


async def test_every_view_renders_with_an_empty_world(env, env_session):
    live = await env_session(empty_world(env))
    pages = await crawl(live)
    assert pages[env.start_page].status == 200
    assert env.title in pages[env.start_page].text


async def test_pages_carry_an_etag_and_answer_304(env, env_session):
    live = await env_session(whole_catalog(env))
    first = await live.client.get(env.start_page)
    tag = first.headers["ETag"]
    again = await live.client.get(env.start_page, headers={"If-None-Match": tag})
    assert again.status == 304 and again.headers["ETag"] == tag
    stale = await live.client.get(env.start_page, headers={"If-None-Match": '"stale"'})
    assert stale.status == 200


async def test_live_refresh_has_no_side_effects(env, env_session):
    live = await env_session(whole_catalog(env))
    plain = await crawl(live)  # the agent's own visits may mark things seen: restart from a fresh world
    live = await env_session(whole_catalog(env))
    before = await dump(live.world)
    for path in plain:
        response = await live.client.get(path, headers={"X-Live-Refresh": "1"}, allow_redirects=False)
        assert response.status < 500, path
    assert await dump(live.world) == before
    assert live.session.stats.requests == 0 and live.session.stats.live_requests == len(plain)


async def test_unknown_pages_and_ids_are_404_inside_the_chrome(env, env_session):
    live = await env_session(whole_catalog(env))
    paths = [env.start_page + "no/such/page"]
    for route in env.routes:
        if route.method == "GET" and "{" in route.path:
            paths.append(f"/{env.name}" + re.sub(r"\{[^}]+\}", "zz-no-such-id", route.path))
    for path in paths:
        page = await live.page(path, status=None)
        assert page.status == 404, (path, page.status)
        html = await (await live.client.get(path)).text()
        assert 'class="site-header"' in html and env.title in html, path
        assert "Not found" in page.text, path


async def test_garbage_in_every_field_and_parameter_is_a_4xx_with_a_message(env, env_session):
    live = await env_session(whole_catalog(env))
    pages = await crawl(live)
    app = live.client.app
    forms = {route_of(app, urlsplit(form.action).path): form for page in pages.values() for form in page.forms}
    params = {c.name for form in forms.values() for c in form.controls} | {"page", "q", "filter", "sort", "id"}
    for path in one_per_route(app, pages).values():
        for junk in GARBAGE:
            # kept short enough that the whole URL fits the server's 8 KB request line
            response = await live.client.get(path.split("?")[0], params={p: junk[:20] for p in params},
                                             allow_redirects=False)
            assert response.status < 500, (path, junk[:20], response.status)
            if 400 <= response.status < 500:
                assert "class=\"error\"" in await response.text(), (path, junk[:20])
    for form in forms.values():
        if form.method != "post":
            continue
        action = urlsplit(form.action).path
        for junk in [*GARBAGE, "javascript:alert(1)", "//evil.example/x", "http://evil.example/"]:
            data = {name: junk for name in {*form.fields, *(c.name for c in form.controls), "next"}}
            response = await live.client.post(action, data=data, allow_redirects=False)
            assert response.status < 500, (action, junk[:20], response.status)
            location = response.headers.get("Location", "/")
            assert location.startswith("/") and not location.startswith("//"), (action, location)
        raw = await live.client.post(action, data=b"\xff\xfe\x00garbage",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"},
                                     allow_redirects=False)
        assert raw.status < 500, (action, "raw body", raw.status)


async def test_no_page_or_header_reveals_grading(env, env_session):
    path = scenarios_of(env)[0]
    scenario = load_scenario(path)
    live = await env_session(path)
    future = {str(v) for event in scenario.timeline for k, v in event.fields.items() if k.endswith("_id")}
    secrets = {"eval_sql", "condition_at", scenario.id, *future}
    pages = await crawl(live)
    pages["/contact"] = await live.page("/contact")
    for page_path, _page in pages.items():
        response = await live.client.get(page_path, headers={"X-Live-Refresh": "1"})
        html = await response.text()
        headers = " ".join(f"{k}: {v}" for k, v in response.headers.items())
        for secret in secrets:
            assert secret not in html and secret not in headers, (page_path, secret)


def test_every_event_type_checks_its_fields(env):
    full = whole_catalog(env)
    catalog = Catalog.of(env, load_config().catalogs_dir)
    preload = full.events[0]
    for name, etype in env.event_types.items():
        if etype.preload:
            continue
        event = Event(10, name, {"not_a_field": 1}, 1)
        problems = dict(static_checks(dataclasses.replace(full, events=(preload, event)), env,
                                      catalog, load_config()))
        assert problems.get("events[1].not_a_field") == f"unknown field for {name}", (name, problems)
        for required in etype.required:
            assert problems.get(f"events[1].{required}", "").startswith("missing"), (name, required)
        for key, collection in etype.refs.items():
            bad = Event(10, name, {**{r: "x" for r in etype.required}, key: "zz-none"}, 1)
            found = dict(static_checks(dataclasses.replace(full, events=(preload, bad)), env,
                                       catalog, load_config()))
            assert f"not in the {collection} catalog" in found.get(f"events[1].{key}", ""), (name, key)


def test_the_tiny_environment_is_small():
    """The proof that the kit carries the conventions: MicroTodo's Python is at most 120 lines."""
    lines = sum(len(p.read_text().splitlines()) for p in (Path(__file__).parent / "microtodo").glob("*.py"))
    assert lines <= 120, lines


@pytest.mark.parametrize("agent, expected", [("oracle", {"invoice": True, "gas_bill": True}),
                                             ("silent", {"invoice": False, "gas_bill": True}),
                                             ("eager", {"invoice": False, "gas_bill": False})])
@pytest.mark.slow
async def test_the_tiny_environment_is_solvable_through_its_pages(agent, expected, tmp_path, monkeypatch):
    """MicroTodo passes the oracle (and only the no-op passes silent), like any real environment."""
    monkeypatch.setenv(EXTRA_VARIABLE, "microtodo")
    config = load_config()
    config = dataclasses.replace(config, results_dir=tmp_path / "results", timing=dataclasses.replace(
                     config.timing, reaction_window_s=2.0, startup_timeout_s=10, term_grace_s=1))
    scenarios = tuple(load_scenario(p) for p in scenarios_of(MICROTODO))
    plan = RunPlan(name=agent, agent=agent, command=BUILTIN_AGENTS[agent], speed=100.0, scenarios=scenarios)
    report = await Runner(config, plan).run()
    assert {r.scenario_id.split("-", 1)[1]: r.success for r in report.results} == expected


async def test_the_tiny_environments_scenarios_validate(monkeypatch):
    monkeypatch.setenv(EXTRA_VARIABLE, "microtodo")
    for path in scenarios_of(MICROTODO):
        assert await validate_scenario(load_scenario(path), load_config()) == [], path
