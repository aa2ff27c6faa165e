"""Shared fixtures: a real session of any scenario with a paused clock and an aiohttp client
(env_session), each environment in turn (env), a headless Chromium tab (browser_tab), the fake
OpenAI server (fake_server); and the rule for tests marked `browser` on a machine without
Chromium. Helpers that are not fixtures live in tests/helpers/."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers.browser import CHROMIUM_ARGS, REQUIRE_BROWSER, BrowserTab, browser_required, browser_verdict
from helpers.fake_openai import FakeOpenAI
from helpers.worlds import ENVIRONMENTS, WORLD_START

from sentinel.agents.browse import Page, parse_page
from sentinel.core.chromium import chromium_program
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.environment import Environment
from sentinel.core.model_time import ModelTime
from sentinel.core.scenario import Scenario, load_scenario
from sentinel.envs import EXTRA_VARIABLE, get_environment
from sentinel.session.live import WALL, Session


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
    a Scenario object (e.g. helpers.worlds.whole_catalog: the whole catalog preloaded).
    With paused=False the clock is left unstarted, as a runner's session is before /start; a
    virtual one (virtual=True) is always left so: its first page starts it, and its waits move it."""
    sessions: list[Session] = []

    async def build(source: str | Path | Scenario, paused: bool = True,
                    environment: Environment | None = None, virtual: bool = False,
                    model_time: ModelTime = WALL) -> LiveSession:
        scenario = source if isinstance(source, Scenario) else load_scenario(REPO_ROOT / source)
        config = load_config()
        session = Session(scenario, environment or get_environment(scenario.environment), config,
                          out_dir=tmp_path / scenario.short_id, speed=1.0, world_start=WORLD_START,
                          model_time=model_time, virtual=virtual)
        sessions.append(session)  # closed at the end even when its setup fails
        await session.setup()
        if paused and not virtual:
            session.clock.start(paused=True)
        client = await aiohttp_client(session.app)
        return LiveSession(session, client)

    yield build
    for session in sessions:
        await session.abort()


@pytest.fixture(params=ENVIRONMENTS, ids=[env.name for env in ENVIRONMENTS])
def env(request, monkeypatch) -> Environment:
    """Each environment in turn: the built-in ones and MicroTodo (a new one is covered the moment
    it joins the list)."""
    monkeypatch.setenv(EXTRA_VARIABLE, "microtodo")  # sessions look environments up by name
    return request.param


@pytest.fixture
async def fake_server():
    """fake_server(FakeOpenAI(...)) → its base URL; every server started is stopped after the test."""
    servers: list[FakeOpenAI] = []

    async def start(fake: FakeOpenAI) -> str:
        servers.append(fake)
        return await fake.start()

    yield start
    for fake in servers:
        await fake.stop()


# --- real browser checks -----------------------------------------------------------------

@pytest.fixture
async def browser_tab():
    """A fresh headless Chromium tab (the Chromium the browser agents use, driven by Playwright)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium_program(), args=CHROMIUM_ARGS, headless=True)
        page = await browser.new_page()
        errors: list[str] = []
        page.on("console", lambda msg: errors.append(f"{msg.type}: {msg.text}") if msg.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
        yield BrowserTab(page, errors)
        await browser.close()


def pytest_collection_modifyitems(config, items):
    """A test that opens a Chromium tab carries the `browser` marker, or the suite does not start."""
    unmarked = [item.nodeid for item in items
                if "browser_tab" in getattr(item, "fixturenames", ()) and item.get_closest_marker("browser") is None]
    if unmarked:
        raise pytest.UsageError(f"tests using browser_tab without @pytest.mark.browser: {unmarked}")


def pytest_runtest_setup(item):
    """A browser test on a machine without Chromium or Playwright skips, with one line naming what
    to install; under SENTINEL_REQUIRE_BROWSER (.ci/run sets it) it fails with that line instead."""
    if item.get_closest_marker("browser") is not None and (verdict := browser_verdict()) is not None:
        outcome, line = verdict
        if outcome == "fail":
            pytest.fail(line, pytrace=False)
        pytest.skip(line)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Under SENTINEL_REQUIRE_BROWSER a browser test that skipped for any other reason (a skipif,
    an importorskip) fails too: CI must not pass without the browser checks."""
    report = yield
    if report.skipped and not hasattr(report, "wasxfail") and browser_required() \
            and item.get_closest_marker("browser") is not None:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        report.outcome = "failed"
        report.longrepr = f"{REQUIRE_BROWSER} is set, and this browser test skipped: {reason}"
    return report
