"""MicroDin: every event type's effect, every action's effect, every baseline, and the
condition/eval SQL of scenarios around condition_at."""

from __future__ import annotations

import pytest

from sentinel.config import load_config
from sentinel.envs.microdin import ENV
from sentinel.serve import catalog_scenario

VIEWS = ["/microdin/feed", "/microdin/feed?page=2", "/microdin/posts/dp001", "/microdin/network",
         "/microdin/jobs", "/microdin/jobs?q=engineer", "/microdin/jobs/applied", "/microdin/jobs/dj011",
         "/microdin/messaging", "/microdin/messaging/dv001", "/microdin/notifications", "/microdin/in/me",
         "/microdin/in/p003", "/microdin/company/e069", "/microdin/search?q=data", "/microdin/search"]


async def value(s, sql: str, params: tuple = ()):
    return await s.world.fetch_value(sql, params)


@pytest.fixture
async def full(env_session):
    return await env_session(catalog_scenario(ENV, load_config()))


async def test_every_view_renders_on_the_whole_catalog(full):
    for path in VIEWS:
        page = await full.page(path)
        assert "MicroDin" in page.text, path
    for path in ("/microdin/posts/dp999", "/microdin/jobs/dj999", "/microdin/messaging/dv999",
                 "/microdin/in/p999", "/microdin/company/e999", "/microdin/notifications/dn999"):
        await full.page(path, status=404)
