"""MicroGram in headless Chromium: every view opens without a console error or a failed
request (the SVG pictures included), and an open feed shows a new post without a reload."""

from __future__ import annotations

import pytest
from helpers.browser import check_views_in_browser, wait_for_text

pytestmark = pytest.mark.browser

GRAM = "scenarios/verified/microgram/commenter_three_more.yaml"
VIEWS = ["/microgram/", "/microgram/?page=2", "/microgram/p/gp0012", "/microgram/stories/gs002",
         "/microgram/explore", "/microgram/search?q=kai", "/microgram/direct", "/microgram/direct/gt01",
         "/microgram/activity", "/microgram/u/me", "/microgram/u/me?tab=saved", "/microgram/u/p002"]


async def test_every_microgram_view_is_clean_in_chromium(env_session, browser_tab):
    live = await env_session(GRAM)
    await check_views_in_browser(tab=browser_tab, live=live, paths=VIEWS, shot_prefix="microgram")
    loaded = await browser_tab.page.evaluate(
        "() => [...document.images].every(img => img.complete && img.naturalWidth > 0)")
    assert loaded, "a picture failed to load"
    response = await browser_tab.visit(str(live.client.make_url("/microgram/p/gp9999")))
    assert response.status == 404 and "isn't available" in await browser_tab.page.inner_text("main")


@pytest.mark.slow
async def test_new_post_appears_on_an_open_feed_without_reload(env_session, browser_tab):
    live = await env_session(GRAM)
    await browser_tab.visit(str(live.client.make_url("/microgram/")))
    assert "Showing 1–10 of 60" in await browser_tab.page.inner_text("main")
    loads = len(live.session.stats.log)
    await live.advance_to(15)
    await wait_for_text(browser_tab, "Showing 1–10 of 61")
    new_requests = [r for r in live.session.stats.log[loads:] if not r["path"].startswith("/static/")]
    assert new_requests and all(r["live"] for r in new_requests), "the page was reloaded"
    browser_tab.assert_clean("live feed")
