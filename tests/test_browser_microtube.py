"""MicroTube in headless Chromium: every view opens without a console error or a failed request
(thumbnails and banners are the project's own SVGs), and an open page shows arrivals without a
reload. Screenshots land in tests/artifacts/ (microtube-*.png)."""

from __future__ import annotations

import pytest
from helpers.browser import check_views_in_browser, wait_for_text

pytestmark = pytest.mark.browser

LIKE = "scenarios/verified/microtube/like_followed_upload.yaml"
KEYWORD = "scenarios/verified/microtube/comment_keyword.yaml"
VIEWS = ["/microtube/", "/microtube/?category=gaming", "/microtube/watch/vid003", "/microtube/watch/vid044",
         "/microtube/shorts", "/microtube/subscriptions", "/microtube/history", "/microtube/library",
         "/microtube/playlist/pl01", "/microtube/channel/chn01", "/microtube/results?q=science",
         "/microtube/notifications"]


async def test_every_microtube_view_is_clean_in_chromium(env_session, browser_tab):
    live = await env_session(LIKE)
    failed: list[str] = []
    # the live refresh's background fetches are cancelled by each navigation: only resources count
    browser_tab.page.on("requestfailed",
                        lambda request: failed.append(request.url) if request.resource_type != "fetch" else None)
    broken: list[str] = []
    browser_tab.page.on("response", lambda r: broken.append(r.url) if r.status >= 400 else None)
    await check_views_in_browser(tab=browser_tab, live=live, paths=VIEWS, shot_prefix="microtube")
    assert not failed and not broken, (failed, broken)
    await browser_tab.visit(str(live.client.make_url("/microtube/channel/chn01")))
    images = await browser_tab.page.eval_on_selector_all(
        "img", "els => els.slice(0, 3).map(e => [e.alt, e.naturalWidth])")
    assert len(images) == 3 and all(alt and width > 0 for alt, width in images), images
    response = await browser_tab.visit(str(live.client.make_url("/microtube/watch/vid999")))
    assert response.status == 404 and "isn't available" in await browser_tab.page.inner_text("main")


@pytest.mark.slow
async def test_new_upload_appears_on_open_subscriptions_without_reload(env_session, browser_tab):
    live = await env_session(LIKE)
    await browser_tab.visit(str(live.client.make_url("/microtube/subscriptions")))
    assert "Catalysts in twelve minutes" not in await browser_tab.page.inner_text("main")
    loads = len(live.session.stats.log)
    await live.advance_to(273)
    await wait_for_text(browser_tab, "Catalysts in twelve minutes")
    assert "Notifications (9)" in await browser_tab.page.inner_text("header")
    new_requests = [r for r in live.session.stats.log[loads:] if not r["path"].startswith("/static/")]
    assert new_requests and all(r["live"] for r in new_requests), "the page was reloaded, not refreshed"
    browser_tab.assert_clean("live subscriptions")


@pytest.mark.slow
async def test_new_comment_appears_on_an_open_watch_page_without_reload(env_session, browser_tab):
    live = await env_session(KEYWORD)
    await browser_tab.visit(str(live.client.make_url("/microtube/watch/vid003")))
    assert "Civilization" not in await browser_tab.page.inner_text("main")
    await live.advance_to(30)
    await wait_for_text(browser_tab, "Civilization VI")
    assert "4 Comments" not in await browser_tab.page.inner_text("main")  # 3 preloaded + 2 new = 5
    assert "5 Comments" in await browser_tab.page.inner_text("main")
    browser_tab.assert_clean("live watch page")
