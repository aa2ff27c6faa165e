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
