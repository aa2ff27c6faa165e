"""Real browser checks: every view of each environment opens in headless Chromium without a
console error, and a change made by a scripted event appears on an open page without a reload.

Adding an environment here is a few lines: its scenario, its view paths, and one live check.
Screenshots land in tests/artifacts/ for a person to look at.
"""

from __future__ import annotations

import pytest
from helpers.browser import check_views_in_browser, wait_for_text

pytestmark = pytest.mark.browser

MAIL = "scenarios/verified/micromail/sender_arrives.yaml"
HOOD = "scenarios/verified/microhood/price_target.yaml"


async def mail_views(live) -> list[str]:
    with_attachment = await live.world.fetch_one(
        "SELECT e.id AS email, a.id AS attachment FROM emails e JOIN attachments a ON a.email_id = e.id LIMIT 1")
    any_mail = await live.world.fetch_value("SELECT id FROM emails WHERE folder = 'inbox' LIMIT 1")
    return ["/micromail/folder/inbox", "/micromail/folder/inbox?filter=unread", "/micromail/folder/junk",
            "/micromail/folder/sent", "/micromail/folder/drafts", "/micromail/folder/archive",
            "/micromail/folder/trash", f"/micromail/message/{with_attachment['email']}",
            f"/micromail/attachment/{with_attachment['attachment']}", "/micromail/compose",
            f"/micromail/compose?mode=reply&of={any_mail}", f"/micromail/compose?mode=forward&of={any_mail}",
            "/micromail/search?q=report", "/micromail/message/em9999"]


HOOD_VIEWS = ["/microhood/", "/microhood/stock/HALO", "/microhood/stock/CHPX", "/microhood/stock/HALO/order?side=buy",
              "/microhood/stock/NEOX/order?side=sell", "/microhood/search?q=", "/microhood/search?q=tech",
              "/microhood/orders", "/microhood/news", "/microhood/stock/NOPE"]


async def test_every_micromail_view_is_clean_in_chromium(env_session, browser_tab):
    live = await env_session(MAIL)
    paths = await mail_views(live)
    await check_views_in_browser(tab=browser_tab, live=live, paths=[p for p in paths if "em9999" not in p],
                                 shot_prefix="micromail")
    response = await browser_tab.visit(str(live.client.make_url("/micromail/message/em9999")))
    assert response.status == 404 and "no longer exists" in await browser_tab.page.inner_text("main")


async def test_every_microhood_view_is_clean_in_chromium(env_session, browser_tab):
    live = await env_session(HOOD)
    await check_views_in_browser(tab=browser_tab, live=live, paths=HOOD_VIEWS[:-1], shot_prefix="microhood")
    response = await browser_tab.visit(str(live.client.make_url("/microhood/stock/NOPE")))
    assert response.status == 404


async def test_order_review_and_confirm_work_in_chromium(env_session, browser_tab):
    live = await env_session(HOOD)
    await browser_tab.visit(str(live.client.make_url("/microhood/stock/HALO/order?side=buy")))
    page = browser_tab.page
    await page.fill("#shares", "2")
    await page.get_by_role("button", name="Review").click()
    await page.wait_for_load_state("load")
    await page.get_by_role("button", name="Confirm").click()
    await page.wait_for_load_state("load")
    assert await page.locator("p[role=status]").count() == 1
    orders = await live.world.fetch_value("SELECT COUNT(*) FROM orders WHERE symbol = 'HALO' AND quantity = 2")
    assert orders == 1
    browser_tab.assert_clean("order flow")


@pytest.mark.slow
async def test_new_mail_appears_on_an_open_inbox_without_reload(env_session, browser_tab):
    live = await env_session(MAIL)
    await browser_tab.visit(str(live.client.make_url("/micromail/folder/inbox")))
    assert "Churn model results" not in await browser_tab.page.inner_text("main")
    loads = len(live.session.stats.log)
    await live.advance_to(live.session.scenario.condition_at)
    await wait_for_text(browser_tab, "Churn model results")
    assert "(" in await browser_tab.page.title()  # the unread count in the title followed
    new_requests = live.session.stats.log[loads:]
    assert new_requests and all(r["live"] for r in new_requests), "the page was reloaded, not refreshed"
    browser_tab.assert_clean("live inbox")


@pytest.mark.slow
async def test_moved_price_appears_on_an_open_stock_page_without_reload(env_session, browser_tab):
    live = await env_session(HOOD)
    await browser_tab.visit(str(live.client.make_url("/microhood/stock/CHPX")))
    before = await browser_tab.page.inner_text("main")
    loads = len(live.session.stats.log)
    await live.advance_to(live.session.scenario.condition_at + 30)
    html = await (await live.client.get("/microhood/stock/CHPX", headers={"X-Live-Refresh": "1"})).text()
    price = html.split("Price $", 1)[1].split("<", 1)[0]
    assert f"Price ${price}" not in before
    await wait_for_text(browser_tab, f"Price ${price}")
    assert all(r["live"] for r in live.session.stats.log[loads:])
    browser_tab.assert_clean("live stock page")


@pytest.mark.slow
async def test_live_refresh_leaves_a_form_with_unsent_input_alone(env_session, browser_tab):
    live = await env_session(MAIL)
    await browser_tab.visit(str(live.client.make_url("/micromail/compose")))
    await browser_tab.page.fill("textarea[name=body]", "half-written reply")
    await browser_tab.page.locator("body").click(position={"x": 5, "y": 5})  # focus leaves the field
    loads = len(live.session.stats.log)
    await live.advance_to(live.session.scenario.condition_at)  # the header's unread count changes
    await browser_tab.page.wait_for_timeout(2500)
    assert await browser_tab.page.input_value("textarea[name=body]") == "half-written reply"
    assert not [r for r in live.session.stats.log[loads:] if r["live"]], "refreshed despite unsent input"
