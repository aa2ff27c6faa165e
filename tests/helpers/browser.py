"""Real browser checks: a headless Chromium tab that records console errors (the `browser_tab`
fixture in conftest.py opens one), the checks every environment's browser test makes, and what
is missing when a machine cannot run them.

Tests that start Chromium carry the `browser` marker. Where Chromium or Playwright is missing
they skip with one line naming what to install; with REQUIRE_BROWSER set (as .ci/run sets it)
they fail instead, so that CI never passes without them."""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sentinel.agents import BROWSER_EXTRA
from sentinel.core.chromium import chromium_program
from sentinel.core.config import REPO_ROOT

REQUIRE_BROWSER = "SENTINEL_REQUIRE_BROWSER"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = REPO_ROOT / "tests" / "artifacts"


def missing_browser() -> str | None:
    """One line naming what to install when this machine cannot start Chromium with Playwright
    (the program sentinel.core.chromium finds, as the browser agents do); None when it can."""
    if importlib.util.find_spec("playwright") is None:
        return f"browser test: Playwright is not installed: {BROWSER_EXTRA}"
    program = chromium_program()
    if not (Path(program).is_file() and os.access(program, os.X_OK)):
        return (f"browser test: no Chromium program at {program}: install Debian's chromium "
                f"(apt-get install chromium) or set SENTINEL_CHROMIUM to a Chromium program")
    return None


def browser_required() -> bool:
    """Whether a missing browser fails the browser tests instead of skipping them (CI)."""
    return os.environ.get(REQUIRE_BROWSER, "") not in ("", "0")


def browser_verdict() -> tuple[str, str] | None:
    """What becomes of a browser test here: None (it runs), or ("skip" or "fail", the one line
    that says why): it fails where REQUIRE_BROWSER is set, and skips elsewhere."""
    missing = missing_browser()
    if missing is None:
        return None
    if browser_required():
        return "fail", f"{missing} ({REQUIRE_BROWSER} is set: every browser test must run)"
    return "skip", missing


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


async def check_views_in_browser(tab: BrowserTab, live, paths: list[str], shot_prefix: str) -> None:
    """Open every path in Chromium: status below 400, the shared layout present, no console error."""
    for path in paths:
        response = await tab.visit(str(live.client.make_url(path)))
        assert response is not None, f"{path}: no answer"
        assert response.status < 400, f"{path}: HTTP {response.status}"
        assert await tab.page.locator("header.site-header").count() == 1, f"{path}: no shared header"
        assert await tab.page.locator("main").count() == 1, f"{path}: no main"
        await tab.screenshot(f"{shot_prefix}-{path.strip('/').replace('/', '_').replace('?', '_') or 'root'}")
        tab.assert_clean(path)


async def wait_for_text(tab: BrowserTab, text: str, timeout_ms: int = 6000) -> None:
    """Wait until the open page shows text, without reloading (the live refresh must bring it)."""
    await tab.page.wait_for_function("t => document.body.innerText.includes(t)", arg=text, timeout=timeout_ms)
