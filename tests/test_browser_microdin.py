"""MicroDin in headless Chromium: every view opens without a console error or failed request,
and an open list page shows a new item after its event without a reload. Screenshots land in
tests/artifacts/ for a person to look at."""

from __future__ import annotations

import pytest
from helpers.browser import check_views_in_browser, wait_for_text

pytestmark = pytest.mark.browser

KUBE = "scenarios/verified/microdin/apply_kubernetes.yaml"
VIEWS = ["/microdin/feed", "/microdin/posts/dp001", "/microdin/network", "/microdin/jobs", "/microdin/jobs/dj001",
         "/microdin/jobs/applied", "/microdin/messaging", "/microdin/messaging/dv001", "/microdin/notifications",
         "/microdin/in/me", "/microdin/in/p003", "/microdin/company/e069", "/microdin/search?q=product"]


async def test_every_microdin_view_is_clean_in_chromium(env_session, browser_tab):
    live = await env_session(KUBE)
    failed: list[str] = []
    # a live refresh still in flight when the next page opens is aborted by the navigation: not a failure
    browser_tab.page.on("requestfailed", lambda request: failed.append(f"{request.failure} {request.url}")
                        if request.failure != "net::ERR_ABORTED" else None)
    browser_tab.page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    await check_views_in_browser(tab=browser_tab, live=live, paths=VIEWS, shot_prefix="microdin")
    assert failed == []
    images = await browser_tab.page.evaluate("[...document.images].map(i => i.naturalWidth)")
    assert images == [] or min(images) > 0
    await browser_tab.visit(str(live.client.make_url("/microdin/feed")))
    widths = await browser_tab.page.evaluate("[...document.images].map(i => [i.naturalWidth, i.alt])")
    assert widths and all(w > 0 and alt for w, alt in widths)  # the generated post images load, with alt text
    response = await browser_tab.visit(str(live.client.make_url("/microdin/jobs/dj999")))
    assert response.status == 404 and "no longer exists" in await browser_tab.page.inner_text("main")


@pytest.mark.slow
async def test_new_job_appears_on_an_open_board_without_reload(env_session, browser_tab):
    live = await env_session(KUBE)
    await browser_tab.visit(str(live.client.make_url("/microdin/jobs")))
    assert "Site Reliability Engineer" not in await browser_tab.page.inner_text("main")
    loads = len(live.session.stats.log)
    await live.advance_to(live.session.scenario.condition_at)
    await wait_for_text(browser_tab, "Site Reliability Engineer")
    new_requests = live.session.stats.log[loads:]
    assert new_requests and all(r["live"] for r in new_requests), "the page was reloaded, not refreshed"
    browser_tab.assert_clean("live job board")
