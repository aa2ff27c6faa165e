"""The Chromium driver's wait_for_change against the real site: it waits on the site's change
notification from Python, and reloads its tab only when the page changed. The clock is paused,
so the wait ends only by what the test does."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MAIL = "scenarios/verified/micromail/body_phrase.yaml"  # em0269 "Proof ready for approval" arrives at 37 s
INBOX = "/micromail/folder/inbox"


async def test_chromium_waits_on_the_site_and_reloads_its_tab_only_when_the_page_changed(env_session):
    from sentinel.agents.chromium import ChromiumBrowser

    live = await env_session(MAIL)
    url = str(live.client.make_url(INBOX))
    loop = asyncio.get_running_loop()
    thread = ThreadPoolExecutor(max_workers=1)  # Playwright's sync objects stay in the thread that made them

    def call(function, *args):
        return loop.run_in_executor(thread, function, *args)

    def tab_loads() -> int:
        return sum(1 for r in live.session.stats.log if r["path"] == INBOX and not r["live"])

    browser = await call(ChromiumBrowser, url, lambda message: None)
    try:
        first = await call(browser.get, url)
        assert "Proof ready for approval" not in first.text and tab_loads() == 1
        same = await call(browser.wait_for_change, url, 0)  # the first wait learns the page's ETag
        assert same.text == first.text and tab_loads() == 1
        waiting = call(browser.wait_for_change, url, 600)
        done, _ = await asyncio.wait({waiting}, timeout=0.5)
        assert not done, "answered before anything changed"
        await live.advance_to(37)
        changed = await asyncio.wait_for(waiting, timeout=60)
        assert "Proof ready for approval" in changed.text
        assert tab_loads() == 2  # the tab was reloaded once, for the change
        unchanged = await call(browser.wait_for_change, url, 0)
        assert unchanged.text == changed.text and tab_loads() == 2
    finally:
        await call(browser.close)
        thread.shutdown()
