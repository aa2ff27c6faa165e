"""MicroScholar in headless Chromium: every view is clean, and an open search page shows a new
match after its event without a reload (the live refresh re-runs the query)."""

from __future__ import annotations

import pytest
from helpers.browser import check_views_in_browser, wait_for_text

pytestmark = pytest.mark.browser

AUTHOR = "scenarios/verified/microscholar/save_by_author.yaml"


@pytest.mark.slow
async def test_every_microscholar_view_is_clean_and_search_refreshes_live(env_session, browser_tab):
    live = await env_session(AUTHOR)
    paper = await live.world.fetch_value("SELECT id FROM papers WHERE title LIKE 'Legible Robot Motion%'")
    await live.client.post("/microscholar/alerts/create", data={"query": "robot"}, allow_redirects=False)
    paths = ["/microscholar/", "/microscholar/search?q=Jackson&sort=date", "/microscholar/advanced",
             f"/microscholar/paper/{paper}", f"/microscholar/paper/{paper}/cite", "/microscholar/library",
             "/microscholar/alerts", "/microscholar/alerts/matches?query=robot", "/microscholar/citations/p013",
             "/microscholar/citations/me"]
    await check_views_in_browser(tab=browser_tab, live=live, paths=paths, shot_prefix="microscholar")
    response = await browser_tab.visit(str(live.client.make_url("/microscholar/paper/sp9999")))
    assert response.status == 404 and "not in the index" in await browser_tab.page.inner_text("main")
    browser_tab.errors.clear()  # the 404 answer itself is the one expected console error
    await browser_tab.visit(str(live.client.make_url("/microscholar/search?q=Jackson&sort=date")))
    assert "Learning Handover Timing" not in await browser_tab.page.inner_text("main")
    await live.advance_to(220)
    await wait_for_text(browser_tab, "Learning Handover Timing from Human Gaze")
    browser_tab.assert_clean("live search")
