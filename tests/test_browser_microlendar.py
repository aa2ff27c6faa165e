"""MicroLendar in a real browser: every view opens in headless Chromium without a console error,
and an event added by the timeline appears on an open week view without a reload.
Screenshots land in tests/artifacts/ (microlendar-*.png) for a person to look at."""

from __future__ import annotations

import pytest
from helpers.browser import check_views_in_browser, wait_for_text
from helpers.worlds import whole_catalog

pytestmark = pytest.mark.browser

TODAY_MORE = "scenarios/verified/microlendar/today_more.yaml"
VIEWS = [
    "/microlendar/month/2025/06",
    "/microlendar/month/2025/07?hide=work",
    "/microlendar/week/2025-06-17",
    "/microlendar/day/2025-06-17",
    "/microlendar/schedule",
    "/microlendar/schedule?from=2025-06-20&hide=family",
    "/microlendar/event/ev0071",
    "/microlendar/event/ev0001",
    "/microlendar/event/new",
    "/microlendar/event/ev0005/edit",
    "/microlendar/tasks",
    "/microlendar/search?q=trip",
]


async def test_every_microlendar_view_is_clean_in_chromium(env_session, browser_tab):
    live = await env_session(whole_catalog("microlendar"))
    await check_views_in_browser(tab=browser_tab, live=live, paths=VIEWS, shot_prefix="microlendar")
    response = await browser_tab.visit(str(live.client.make_url("/microlendar/event/ev9999")))
    assert response is not None and response.status == 404
    assert "This event no longer exists." in await browser_tab.page.inner_text("main")


async def test_rsvp_and_calendar_filter_work_in_chromium(env_session, browser_tab):
    live = await env_session(whole_catalog("microlendar"))
    await browser_tab.visit(str(live.client.make_url("/microlendar/event/ev0069")))
    await browser_tab.page.check("input[name=response][value=yes]")
    await browser_tab.page.click("form.rsvp button[type=submit]")
    assert "You're going" in await browser_tab.page.inner_text("main")
    reply = await live.world.fetch_value(
        "SELECT response FROM event_attendees WHERE event_id = 'ev0069' AND persona_id = 'p000'"
    )
    assert reply == "yes"
    await browser_tab.visit(str(live.client.make_url("/microlendar/month/2025/06")))
    await browser_tab.page.uncheck("form.calendars input[value=work]")
    await browser_tab.page.click("form.calendars button[type=submit]")
    assert browser_tab.page.url.endswith("/microlendar/month/2025/06?hide=work")
    assert "Product team sync" not in await browser_tab.page.inner_text("main")
    browser_tab.assert_clean("rsvp and filter")


@pytest.mark.slow
async def test_new_event_appears_on_an_open_week_without_reload(env_session, browser_tab):
    live = await env_session(TODAY_MORE)
    await browser_tab.visit(str(live.client.make_url("/microlendar/week/2025-06-17")))
    assert "Quick sync with Wei" not in await browser_tab.page.inner_text("main")
    loads = len(live.session.stats.log)
    await live.advance_to(60)
    await wait_for_text(browser_tab, "Quick sync with Wei")
    new_requests = live.session.stats.log[loads:]
    assert new_requests and all(r["live"] for r in new_requests), "the page was reloaded, not refreshed"
    browser_tab.assert_clean("live week")
