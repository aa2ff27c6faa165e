"""The declaration (sentinel/core/environment.py): its defaults, route tables and generic checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from sentinel.core.environment import Environment, Routes

routes, more = Routes(), Routes()


@routes.get("/", "home")
async def home(request): ...


@routes.get("/item/{id}", "item")
async def item(request): ...


@more.post("/item/{id}/star", "star")
async def star(request): ...


def declare(**fields) -> Environment:
    return Environment(**{"name": "microtest", "title": "MicroTest", "event_types": {}, "routes": routes,
                          "serve_preload": lambda catalog: {}, **fields})


def test_a_declaration_names_only_what_differs():
    env = declare()
    assert env.schema == Path(__file__).parents[1] / "sentinel" / "envs" / "microtest" / "schema.sql"
    assert env.page_time_step_s == 1.0
    assert env.routes == tuple(routes)


def test_the_schema_may_be_anywhere_for_an_environment_kept_elsewhere(tmp_path):
    assert declare(schema=tmp_path / "tables.sql").schema == tmp_path / "tables.sql"


def test_route_tables_add_up_in_order_and_are_kept_as_a_tuple():
    env = declare(routes=routes + more)
    assert isinstance(env.routes, tuple)
    assert [(r.method, r.path, r.name) for r in env.routes] == [
        ("GET", "/", "home"), ("GET", "/item/{id}", "item"), ("POST", "/item/{id}/star", "star")]
    assert env.route_named("star").handler is star
    assert len(routes) == 2 and len(more) == 1  # adding makes a new table


def test_two_routes_of_one_name_are_refused():
    clash = Routes()
    clash.get("/other", "home")(home)
    with pytest.raises(ValueError, match="two routes are named 'home'"):
        declare(routes=routes + clash)


def test_a_route_path_starts_with_a_slash():
    bad = Routes()
    bad.get("item", "bare")(item)
    with pytest.raises(ValueError, match="'bare' must be GET or POST on a path starting with /"):
        declare(routes=bad)
