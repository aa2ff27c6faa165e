"""The live refresh changes only what changed (web/static/live.js): after a refresh brought new
content, every link that is still on the page is the very element it was before, with the same
address and text, so a tool holding element references (Playwright handles, the refs of an
accessibility snapshot) still acts on the same thing. Checked on every page of each environment's
main navigation, with a scenario's events arriving while the pages are open."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from sentinel.core.scenario import load_scenario, scenario_files
from sentinel.envs import environments

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCENARIOS = Path(__file__).parents[1] / "scenarios" / "verified"
REFRESH_WAIT_S = 60.0  # generous: the refresh runs once a second, the machine may be busy

WATCH_JS = """() => {
  window.__mutations = 0;
  new MutationObserver((records) => { window.__mutations += records.length; })
    .observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}"""
LINKS_JS = "() => Array.from(document.querySelectorAll('main a[href], header a[href]'))"
# A link is its address, within the list item it belongs to where the item names itself
# (data-key): two "View post" links to one post in two activity rows are two links.
IDENTITY_JS = "(a) => { const item = a.closest('[data-key]'); " \
              "return (item ? item.dataset.key + ' ' : '') + a.getAttribute('href'); }"
SAME_JS = f"(a, identity) => a.isConnected && ({IDENTITY_JS})(a) === identity"


def first_timed_scenario(env: str):
    """The environment's first bundled scenario with events before a condition time."""
    for path in scenario_files(SCENARIOS, env):
        scenario = load_scenario(path)
        if scenario.condition_at and any(0 < e.at <= scenario.condition_at for e in scenario.timeline):
            return scenario
    raise AssertionError(f"{env}: no bundled scenario with timed events")


async def held_links(page) -> list[tuple[object, str]]:
    """(handle, identity) of every link in the header and main area now."""
    handles = await (await page.evaluate_handle(LINKS_JS)).get_properties()
    found = []
    for handle in handles.values():
        element = handle.as_element()
        if element is not None:
            found.append((element, await element.evaluate(IDENTITY_JS)))
    return found


@pytest.mark.parametrize("env", sorted(environments()))
async def test_links_keep_their_identity_across_a_live_refresh(env, env_session, browser_tab):
    scenario = first_timed_scenario(env)
    live = await env_session(scenario)
    page = browser_tab.page
    start = scenario.start_page or get_home(live)
    await page.goto(str(live.client.make_url(start)))
    paths = [start] + [href for href in await page.eval_on_selector_all(
        "nav[aria-label=Main] a[href]", "els => els.map(a => a.getAttribute('href'))") if href != start]
    tabs = []
    context = await page.context.browser.new_context()
    for path in paths:
        tab = await context.new_page()
        await tab.goto(str(live.client.make_url(path)))
        await tab.evaluate(WATCH_JS)
        tabs.append((path, tab, await held_links(tab)))
    landed = [urlsplit(tab.url).path for _, tab, _ in tabs]  # where each tab is (a view may redirect)
    seen = len(live.session.stats.log)
    await live.advance_to(scenario.condition_at)
    # two live refreshes of every open page after the events (the first may have been in flight)
    for _ in range(int(REFRESH_WAIT_S / 0.2)):
        refreshed = [r["path"].split("?", 1)[0] for r in live.session.stats.log[seen:] if r["live"]]
        if all(refreshed.count(path) >= 2 for path in landed):
            break
        await asyncio.sleep(0.2)
    changed = []
    for path, tab, links in tabs:
        if await tab.evaluate("() => window.__mutations") > 0:
            changed.append(path)
        now = Counter(link for _, link in await held_links(tab))
        kept = Counter([link for handle, link in links if await handle.evaluate(SAME_JS, link)])
        before = Counter(link for _, link in links)
        # as many of the links to an address as are still on the page are the elements they were
        replaced = [link for link in before if kept[link] < min(before[link], now[link])]
        assert not replaced, f"{env} {path}: links replaced instead of kept: {replaced[:5]}"
    await context.close()
    assert changed, f"{env}: no open page changed after the events, so nothing was shown"


def get_home(live) -> str:
    return live.session.environment.start_page or "/"
