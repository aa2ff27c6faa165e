"""Hostile text renders inert, in headless Chromium: script tags, quotes, markup, SQL fragments,
right-to-left marks and 20,000-character words, typed into every form of every environment and
placed in catalog fields. No script of theirs runs, and nothing breaks out of the page's width."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from helpers.browser import BrowserTab
from helpers.crawl import crawl, route_of
from helpers.worlds import PAYLOADS, hostile_microtodo, whole_catalog

pytestmark = pytest.mark.browser

TEXT_KINDS = ("text", "textarea", "search", "email", "url")


async def assert_inert(tab: BrowserTab, where: str) -> None:
    pwned = await tab.page.evaluate("() => window.__pwned === undefined ? null : String(window.__pwned)")
    assert pwned is None, f"{where}: a hostile script ran ({pwned})"
    assert await tab.page.locator("img[src='x']").count() == 0, f"{where}: hostile markup became an element"
    width = await tab.page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1] + 1, f"{where}: the page is {width[0]} px wide in a {width[1]} px window"


async def test_hostile_text_typed_into_every_form_stays_text(env, env_session, browser_tab):  # noqa: F811
    live = await env_session(whole_catalog(env))
    pages = await crawl(live)
    app = live.client.app
    targets: dict[str | None, tuple[str, int]] = {}  # a form per action route: (page, form index)
    for path, page in pages.items():
        for index, form in enumerate(page.forms):
            if any(c.kind in TEXT_KINDS for c in form.controls):
                targets.setdefault(route_of(app, urlsplit(form.action).path), (path, index))
    for n, (path, index) in enumerate(targets.values()):
        payload = PAYLOADS[n % len(PAYLOADS)] + " " + PAYLOADS[(n + 1) % len(PAYLOADS)]
        await browser_tab.visit(str(live.client.make_url(path)))
        form = browser_tab.page.locator("main form").nth(index)
        fields = form.locator("input[type=text], input[type=search], input[type=email], input:not([type]), textarea")
        for i in range(await fields.count()):
            await fields.nth(i).fill(payload)
        buttons = form.locator("button[type=submit], button:not([type]), input[type=submit]")
        if await buttons.count() == 0:
            continue
        async with browser_tab.page.expect_navigation():
            await buttons.first.click()
        await assert_inert(browser_tab, f"{path} form {index}")
    for path in list(pages)[:12]:  # pages again, now holding whatever the forms stored
        await browser_tab.visit(str(live.client.make_url(path)))
        await assert_inert(browser_tab, path)


async def test_hostile_catalog_text_stays_text(env_session, browser_tab, tmp_path, monkeypatch):
    """The tiny environment with a catalog whose every text field is hostile."""
    live, rows = await hostile_microtodo(env_session, tmp_path, monkeypatch)
    for path in ["/microtodo/", *(f"/microtodo/task/{r['id']}" for r in rows)]:
        await browser_tab.visit(str(live.client.make_url(path)))
        await assert_inert(browser_tab, path)
        assert "<script>" in await browser_tab.page.inner_text("main") or path.endswith(("002", "003", "004", "005"))
