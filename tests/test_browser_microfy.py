"""MicroFy in headless Chromium: every view clean (no console error, no failed request, the
shared layout), and an open Trending page shows a new track without a reload."""

from __future__ import annotations

import pytest
from helpers.browser import check_views_in_browser, wait_for_text

pytestmark = pytest.mark.browser

LYRIC = "scenarios/verified/microfy/lyric_like.yaml"
VIEWS = ["/microfy/", "/microfy/?page=2", "/microfy/track/trk0010", "/microfy/artist/art007",
         "/microfy/playlist/pl001", "/microfy/playlist/pl004", "/microfy/playlist/liked", "/microfy/library",
         "/microfy/search?q=harbor", "/microfy/search", "/microfy/mood/md01"]


async def test_every_microfy_view_is_clean_in_chromium(env_session, browser_tab):
    live = await env_session(LYRIC)
    failed: list[str] = []
    # a live refresh still in flight when the next view is opened is aborted: not a failure
    browser_tab.page.on("requestfailed", lambda request: failed.append(request.url)
                        if request.failure != "net::ERR_ABORTED" else None)
    bad = []
    browser_tab.page.on("response", lambda response: bad.append(response.url) if response.status >= 400 else None)
    await live.post("/microfy/track/trk0010/play", {})  # the Now playing strip has a cover to load
    await check_views_in_browser(tab=browser_tab, live=live, paths=VIEWS, shot_prefix="microfy")
    assert not failed and not bad, (failed, bad)
    covers = await browser_tab.page.evaluate(
        "[...document.images].filter(i => i.src.includes('/covers/')).map(i => i.naturalWidth)")
    assert covers and all(width > 0 for width in covers)
    response = await browser_tab.visit(str(live.client.make_url("/microfy/track/trk9999")))
    assert response.status == 404 and "not available" in await browser_tab.page.inner_text("main")


async def test_the_clip_plays_in_chromium(env_session, browser_tab):
    live = await env_session(LYRIC)
    await browser_tab.visit(str(live.client.make_url("/microfy/track/trk0001")))
    duration = await browser_tab.page.evaluate(
        "() => new Promise(done => { const a = document.querySelector('audio'); a.preload = 'auto';"
        " a.addEventListener('loadedmetadata', () => done(a.duration)); a.load(); })")
    assert 0.5 < duration < 1.5
    browser_tab.assert_clean("track page audio")


@pytest.mark.slow
async def test_new_track_appears_on_open_trending_without_reload(env_session, browser_tab):
    live = await env_session(LYRIC)
    await browser_tab.visit(str(live.client.make_url("/microfy/")))
    assert "Late Train Home" not in await browser_tab.page.inner_text("main")
    await browser_tab.page.wait_for_load_state("networkidle")  # covers of the first load are in
    loads = len(live.session.stats.log)
    await live.advance_to(live.session.scenario.condition_at)
    await wait_for_text(browser_tab, "Late Train Home")
    new_requests = [r for r in live.session.stats.log[loads:] if not r["path"].startswith("/static/")]
    assert new_requests and all(r["live"] for r in new_requests), "the page was reloaded, not refreshed"
    browser_tab.assert_clean("live trending")
