"""MicroHub in headless Chromium: every view opens without a console error, a new issue appears
on an open issue list without a reload, and the star count moves on an open home page."""

from __future__ import annotations

import pytest
from helpers.browser import check_views_in_browser, wait_for_text

pytestmark = pytest.mark.browser

TOTP = "tests/data/env_scenarios/microhub/comment_on_totp.yaml"
STARS = "tests/data/env_scenarios/microhub/stars_target.yaml"


async def hub_views(live) -> list[str]:
    issue = await live.world.fetch_value("SELECT number FROM issues WHERE id = 'iss009'")
    pull = await live.world.fetch_value("SELECT number FROM pull_requests WHERE id = 'pr002'")
    sha = await live.world.fetch_value("SELECT sha FROM commits LIMIT 1")
    return ["/microhub/", "/microhub/tree/src", "/microhub/blob/src/map/engine.ts", "/microhub/commits",
            f"/microhub/commit/{sha}", "/microhub/issues", "/microhub/issues?state=closed&sort=comments",
            f"/microhub/issues/{issue}", "/microhub/issues/new", "/microhub/pulls", f"/microhub/pulls/{pull}",
            "/microhub/actions", "/microhub/actions/runs/run003", "/microhub/projects", "/microhub/wiki",
            "/microhub/wiki/architecture", "/microhub/security", "/microhub/insights", "/microhub/releases",
            "/microhub/settings", "/microhub/users/alexm-nw", "/microhub/users/sramos-codes", "/microhub/new"]


async def test_every_microhub_view_is_clean_in_chromium(env_session, browser_tab):
    live = await env_session(TOTP)
    await check_views_in_browser(tab=browser_tab, live=live, paths=await hub_views(live), shot_prefix="microhub")
    response = await browser_tab.visit(str(live.client.make_url("/microhub/issues/9999")))
    assert response.status == 404 and "does not exist" in await browser_tab.page.inner_text("main")


@pytest.mark.slow
async def test_new_issue_appears_on_an_open_issue_list_without_reload(env_session, browser_tab):
    live = await env_session(TOTP)
    await browser_tab.visit(str(live.client.make_url("/microhub/issues")))
    assert "Support passkeys" not in await browser_tab.page.inner_text("main")
    loads = len(live.session.stats.log)
    await live.advance_to(100.0)
    await wait_for_text(browser_tab, "Support passkeys for sign-in")
    await wait_for_text(browser_tab, "Issues (10)")  # the tab counter in the header followed
    assert all(r["live"] for r in live.session.stats.log[loads:]), "the page was reloaded, not refreshed"
    browser_tab.assert_clean("live issue list")


@pytest.mark.slow
async def test_star_count_moves_on_an_open_home_page(env_session, browser_tab):
    live = await env_session(STARS)
    await browser_tab.visit(str(live.client.make_url("/microhub/")))
    assert "★ 1,843 stars" in await browser_tab.page.inner_text("main")
    await live.advance_to(590.0)
    await wait_for_text(browser_tab, "★ 2,000 stars")
    browser_tab.assert_clean("live star count")
