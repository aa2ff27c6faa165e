"""Shared fixtures: a real session of any scenario with a paused clock and an aiohttp client."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fake_openai import fake_server  # noqa: F401 (a fixture, shared by the LLM and proxy tests)

from sentinel.agents.browse import Page, parse_page
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.environment import Environment
from sentinel.core.scenario import Scenario, load_scenario
from sentinel.envs import get_environment
from sentinel.session.live import Session

WORLD_START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@dataclass
class LiveSession:
    """A built session whose clock is started but paused at sim 0: tests move time by hand."""
    session: Session
    client: Any  # aiohttp TestClient on the session's app

    @property
    def world(self):
        return self.session.world

    @property
    def clock(self):
        return self.session.clock

    async def advance_to(self, sim_t: float) -> list:
        """Move the paused clock to sim_t and fire every event due by then."""
        if sim_t > self.clock.now():
            self.clock.advance_to(sim_t)
        return await self.session.scheduler.fire_due()

    async def page(self, path: str, status: int | None = 200, **kwargs) -> Page:
        """GET path and read it as an agent does (text folded onto one line); assert the status
        (status=None: any)."""
        response = await self.client.get(path, **kwargs)
        html = await response.text()
        assert status is None or response.status == status, f"{path}: {response.status}\n{html[:2000]}"
        return _folded(parse_page(path, response.status, html))

    async def post(self, path: str, data: Any, status: int = 303) -> tuple[Any, Page]:
        """POST a form without following the redirect; assert the status."""
        response = await self.client.post(path, data=data, allow_redirects=False)
        html = await response.text()
        assert response.status == status, f"{path}: {response.status}\n{html[:2000]}"
        return response, _folded(parse_page(path, response.status, html))

    async def verdict(self) -> Any:
        """eval_sql's value right now, derived tables written first, on a read-only connection."""
        return (await self.session.verdict()).value


def _folded(page: Page) -> Page:
    page.text = " ".join(page.text.split())
    return page


@pytest.fixture
async def env_session(aiohttp_client, tmp_path):
    """env_session(path) → LiveSession for that scenario file (relative to the repo root), or for
    a Scenario object (e.g. sentinel.envs.catalog.catalog_scenario: the whole catalog preloaded).
    With paused=False the clock is left unstarted, as a runner's session is before /start."""
    sessions: list[Session] = []

    async def build(source: str | Path | Scenario, paused: bool = True,
                    environment: Environment | None = None) -> LiveSession:
        scenario = source if isinstance(source, Scenario) else load_scenario(REPO_ROOT / source)
        config = load_config()
        session = Session(scenario, environment or get_environment(scenario.environment), config,
                          out_dir=tmp_path / scenario.short_id, speed=1.0, world_start=WORLD_START)
        sessions.append(session)  # closed at the end even when its setup fails
        await session.setup()
        if paused:
            session.clock.start(paused=True)
        client = await aiohttp_client(session.app)
        return LiveSession(session, client)

    yield build
    for session in sessions:
        await session.abort()


# --- real browser checks -----------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = REPO_ROOT / "tests" / "artifacts"


@dataclass
class BrowserTab:
    """A headless Chromium page that records console errors and failed page scripts."""
    page: Any
    errors: list[str]

    async def visit(self, url: str) -> Any:
        response = await self.page.goto(url, wait_until="load")
        return response

    def assert_clean(self, where: str) -> None:
        assert not self.errors, f"console errors on {where}: {self.errors}"

    async def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        await self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture
async def browser_tab():
    """A fresh headless Chromium tab (Debian's chromium driven by Playwright)."""
    from playwright.async_api import async_playwright

    assert CHROMIUM.exists(), "browser tests need Debian's chromium at /usr/bin/chromium (.ci/run installs it)"
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        page = await browser.new_page()
        errors: list[str] = []
        page.on("console", lambda msg: errors.append(f"{msg.type}: {msg.text}") if msg.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
        yield BrowserTab(page, errors)
        await browser.close()


async def check_views_in_browser(tab: BrowserTab, live: LiveSession, paths: list[str], shot_prefix: str) -> None:
    """Open every path in Chromium: status below 400, the shared layout present, no console error."""
    for path in paths:
        response = await tab.visit(str(live.client.make_url(path)))
        assert response is not None and response.status < 400, f"{path}: HTTP {response and response.status}"
        assert await tab.page.locator("header.site-header").count() == 1, f"{path}: no shared header"
        assert await tab.page.locator("main").count() == 1, f"{path}: no main"
        await tab.screenshot(f"{shot_prefix}-{path.strip('/').replace('/', '_').replace('?', '_') or 'root'}")
        tab.assert_clean(path)


async def wait_for_text(tab: BrowserTab, text: str, timeout_ms: int = 6000) -> None:
    """Wait until the open page shows text, without reloading (the live refresh must bring it)."""
    await tab.page.wait_for_function("t => document.body.innerText.includes(t)", arg=text, timeout=timeout_ms)
