"""MicroChat in headless Chromium: every view opens without a console error, and a message that
arrives shows on an open conversation list and an open thread without a reload, staying unread."""

from __future__ import annotations

import pytest
from helpers.browser import check_views_in_browser, wait_for_text

pytestmark = pytest.mark.browser

FILE = "scenarios/verified/microchat/file_shared.yaml"
URGENT = "scenarios/verified/microchat/urgent_three_more.yaml"


async def chat_views(live) -> list[str]:
    world = live.world
    group = await world.fetch_value("SELECT conversation_id FROM messages WHERE reply_to_id IS NOT NULL LIMIT 1")
    channel = await world.fetch_one("SELECT id, team_id FROM conversations WHERE kind = 'channel' LIMIT 1")
    direct = await world.fetch_value("SELECT id FROM conversations WHERE kind = 'direct' LIMIT 1")
    return ["/microchat/chats", "/microchat/chats?filter=unread", "/microchat/chats?filter=meetings",
            f"/microchat/chats/{group}", f"/microchat/chats/{channel['id']}", f"/microchat/chats/{direct}?q=the",
            "/microchat/new", "/microchat/teams", f"/microchat/teams/{channel['team_id']}", "/microchat/calls",
            "/microchat/calls?filter=missed", "/microchat/search?q=launch"]


async def test_every_microchat_view_is_clean_in_chromium(env_session, browser_tab):
    live = await env_session(URGENT)
    await live.advance_to(250)  # an urgent message in a direct chat: the thread shows the label
    paths = await chat_views(live)
    urgent_chat = await live.world.fetch_value("SELECT conversation_id FROM messages WHERE id = 'ms0056'")
    await check_views_in_browser(tab=browser_tab, live=live, paths=[*paths, f"/microchat/chats/{urgent_chat}"],
                                 shot_prefix="microchat")
    response = await browser_tab.visit(str(live.client.make_url("/microchat/chats/cv99")))
    assert response.status == 404 and "no longer exists" in await browser_tab.page.inner_text("main")


@pytest.mark.slow
async def test_new_message_appears_on_open_pages_without_reload_and_stays_unread(env_session, browser_tab):
    live = await env_session(FILE)
    conv = await live.world.fetch_value("SELECT id FROM conversations WHERE title = 'Pricing working group'")
    await browser_tab.visit(str(live.client.make_url("/microchat/chats")))
    assert "Mockups look great" not in await browser_tab.page.inner_text("main")
    loads = len(live.session.stats.log)
    await live.advance_to(17)
    await wait_for_text(browser_tab, "Mockups look great")
    assert (await browser_tab.page.title()).startswith("(6) ")
    assert all(r["live"] for r in live.session.stats.log[loads:]), "the list was reloaded, not refreshed"
    await browser_tab.visit(str(live.client.make_url(f"/microchat/chats/{conv}")))
    await live.advance_to(40)  # the file arrives in the thread that is open
    await wait_for_text(browser_tab, "pricing-model-v4.xlsx")
    assert await live.world.fetch_value("SELECT is_read FROM messages WHERE id = 'ms0225'") == 0
    browser_tab.assert_clean("live chat")
