"""--agent-browser: a session lends its agent a headless Chromium at SENTINEL_CDP_URL
(sentinel/session/browser.py). Outside clients drive it: a Playwright script, @playwright/mcp."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.runs import write_test_config

from sentinel import api
from sentinel.session.browser import BROWSER_FILE, SessionBrowser, group_members

AGENTS = Path(__file__).parent / "agents"
SCENARIOS = Path(__file__).parents[1] / "scenarios" / "verified"
GONE_WITHIN_S = 20.0


def bundled_config(folder: Path) -> Path:
    """The test config, on the bundled scenarios, with time for a slow agent to start."""
    path = write_test_config(folder)
    text = path.read_text().replace('scenarios_dir = "', f'scenarios_dir = "{SCENARIOS}" #')
    path.write_text(text.replace("startup_timeout_s = 10", "startup_timeout_s = 60"))  # node and a browser attach
    return path


def wait_until_gone(pids: list[int]) -> list[int]:
    """The processes of pids still alive (not zombies) after GONE_WITHIN_S."""
    deadline = time.monotonic() + GONE_WITHIN_S
    alive = pids
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [pid for pid in alive if _alive(pid)]
    return alive


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.browser
@pytest.mark.slow
def test_a_playwright_agent_on_the_session_browser_passes_sender_arrives(tmp_path):
    config = bundled_config(tmp_path)
    command = [sys.executable, str(AGENTS / "cdp_watcher.py"), "Priya Shah"]
    outcome = api.run(cmd=command, tasks=["micromail-sender_arrives"], speed=10, agent_browser=True,
                      run_name="cdp", config=config)
    (result,) = outcome.results
    session_dir = next(outcome.run_dir.rglob(BROWSER_FILE)).parent
    log = (session_dir / "agent.log").read_text()
    assert result.success, log
    # the session filmed the browser it lent: the inbox as it loaded, on the sim axis
    shots = [json.loads(line) for line in (session_dir / "shots.jsonl").read_text().splitlines()]
    loads = [s for s in shots if s["reason"] == "load" and s["path"] == "/micromail/folder/inbox"]
    assert loads and all(0 <= s["sim"] <= (result.contact_at or 600) for s in shots), shots
    assert all((session_dir / "shots" / s["file"]).read_bytes().startswith(b"\xff\xd8\xff") for s in shots)
    assert not (session_dir / "camera").exists()
    assert "Your report was sent" in log
    figures = json.loads((session_dir / BROWSER_FILE).read_text())
    assert figures["peak_rss_mb"] > 10 and figures["processes"] >= 2
    # every process of that browser (its group, led by the pid recorded) has ended
    assert group_members(figures["pid"]) == []


@pytest.mark.browser
async def test_the_browser_reaches_the_agent_by_url_and_closes_its_whole_group(tmp_path):
    from playwright.async_api import async_playwright

    browser = await SessionBrowser.start()
    try:
        assert browser.cdp_url.startswith("http://127.0.0.1:")
        async with async_playwright() as pw:
            remote = await pw.chromium.connect_over_cdp(browser.cdp_url)
            page = await remote.contexts[0].new_page()
            await page.set_content("<title>lent</title>")
            assert await page.title() == "lent"
        pids = browser.pids()
        assert len(pids) >= 2  # the reaper and Chromium's processes
    finally:
        figures = await browser.close(tmp_path)
    assert wait_until_gone(pids) == []
    assert not browser.profile.exists()
    assert json.loads((tmp_path / BROWSER_FILE).read_text())["pid"] == figures.pid


RUNNER_SCRIPT = """
import asyncio, sys
from sentinel.session.browser import SessionBrowser
async def main():
    browser = await SessionBrowser.start()
    print(browser.pgid, flush=True)
    await asyncio.sleep(600)
asyncio.run(main())
"""


@pytest.mark.browser
@pytest.mark.slow
def test_no_chromium_outlives_a_runner_killed_by_sigkill():
    runner = subprocess.Popen([sys.executable, "-c", RUNNER_SCRIPT], stdout=subprocess.PIPE, text=True)
    try:
        pgid = int(runner.stdout.readline())
        deadline = time.monotonic() + GONE_WITHIN_S
        while len(group_members(pgid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)  # Chromium's helpers start
        pids = group_members(pgid)
        assert len(pids) >= 3
        os.kill(runner.pid, signal.SIGKILL)
        runner.wait()
        assert wait_until_gone(pids) == []
    finally:
        if runner.poll() is None:
            runner.kill()


def test_a_missing_chromium_is_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.setenv("SENTINEL_CHROMIUM", str(tmp_path / "nothing"))
    with pytest.raises(api.SentinelError, match="--agent-browser needs Chromium"):
        api.run(agent="silent", tasks=["micromail-sender_arrives"], agent_browser=True,
                config=write_test_config(tmp_path))


CDP_PROBE = """
import json, os, urllib.request
version = json.load(urllib.request.urlopen(os.environ["SENTINEL_CDP_URL"] + "/json/version"))
print("reached", version["Browser"], "at", os.environ["SENTINEL_CDP_URL"], flush=True)
"""


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="--sandbox needs bubblewrap (.ci/run installs it)")
@pytest.mark.browser
@pytest.mark.slow
def test_a_sandboxed_agent_reaches_the_browser_over_loopback(tmp_path):
    outcome = api.run(cmd=["/usr/bin/python3", "-c", CDP_PROBE], tasks=["micromail-sender_arrives"], speed=200,
                      agent_browser=True, sandbox=True, run_name="boxed", config=bundled_config(tmp_path))
    session_dir = next(outcome.run_dir.rglob(BROWSER_FILE)).parent
    log = (session_dir / "agent.log").read_text()
    assert "reached Chrome/" in log and "http://127.0.0.1:" in log, log
    assert group_members(json.loads((session_dir / BROWSER_FILE).read_text())["pid"]) == []


PLAYWRIGHT_MCP = Path(__file__).parents[1] / ".ci" / "node" / "node_modules" / "@playwright" / "mcp" / "cli.js"


MCP_TASKS = {  # a passive and an active task, each decided from accessibility snapshots only
    "micromail-sender_arrives": ("inbox", "Priya Shah"),
    "microchat-dm_keyword": ("react", "Omar Mansour", "the payment service is down", "👀"),
}


@pytest.mark.skipif(not PLAYWRIGHT_MCP.exists(),
                    reason="@playwright/mcp is not installed (.ci/run: npm install --prefix .ci/node @playwright/mcp)")
@pytest.mark.parametrize("task", sorted(MCP_TASKS))
@pytest.mark.browser
@pytest.mark.slow
def test_an_agent_on_playwright_mcp_completes_a_task_from_snapshots(tmp_path, task):
    pytest.importorskip("mcp")
    command = [sys.executable, str(AGENTS / "mcp_watcher.py"), str(PLAYWRIGHT_MCP), *MCP_TASKS[task]]
    outcome = api.run(cmd=command, tasks=[task], speed=20, agent_browser=True, run_name="mcp",
                      config=bundled_config(tmp_path))
    (result,) = outcome.results
    session_dir = next(outcome.run_dir.rglob(BROWSER_FILE)).parent
    log = (session_dir / "agent.log").read_text()
    assert result.success and "sent" in log.splitlines()[-1], f"{result.detail} {result.ended_by}\n{log}"
    assert group_members(json.loads((session_dir / BROWSER_FILE).read_text())["pid"]) == []
