"""The browser-sleep / browser-wait_for agents: the strategy agents acting through a real
headless Chromium. One session end to end (rule-based), one against the fake OpenAI server
(screenshots and tools arrive; 429 and 5xx answers), and no Chromium left behind however the
runner ends."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from helpers.fake_openai import FakeOpenAI, error
from helpers.llm import BUY_SCRIPT, price_judge
from helpers.runs import TEST_SCENARIOS, make_config, write_test_config

from sentinel.agents import BUILTIN_AGENTS
from sentinel.agents.usage import image_tokens, png_size
from sentinel.core.config import Price
from sentinel.core.scenario import load_scenario
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SPEED = 50.0  # condition_at 60 sim s = 1.2 wall s: time for Chromium to start and settle
PROFILE = re.compile(r"profile (\S+)")


def browser_plan(agent: str, task: str, name: str, model: str | None = None) -> RunPlan:
    return RunPlan(name=name, agent=agent, command=BUILTIN_AGENTS[agent] + ["--reload-s", "0.2"], speed=SPEED,
                   scenarios=(load_scenario(TEST_SCENARIOS / "microhood" / f"{task}.yaml"),), model=model)


def browser_config(tmp_path):
    config = make_config(tmp_path)
    return replace(config, timing=replace(config.timing, reaction_window_s=6.0, startup_timeout_s=30),
                   prices={**config.prices, "fake-model": Price(prompt=1.0, completion=2.0)})


def chromium_pids(profile: str) -> list[int]:
    """Processes whose command line names this Chromium profile folder."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and profile.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def command(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def profile_of(folder: Path) -> str:
    found = PROFILE.search((folder / "agent.log").read_text())
    assert found, "the agent did not log its Chromium profile"
    return found.group(1)


def posted_paths(folder: Path) -> list[str]:
    lines = (folder / "requests.jsonl").read_text().splitlines()
    return [r["path"] for r in map(json.loads, lines) if r["method"] == "POST"]


async def test_browser_wait_for_buys_through_chromium_and_leaves_nothing(tmp_path):
    config = browser_config(tmp_path)
    report = await Runner(config, browser_plan("browser-wait_for", "rise_buy", "b")).run()
    result = report.results[0]
    assert result.success, result.detail
    assert result.model == "rule-based (estimated)" and result.tool_calls >= 5  # wait, open, 2 submits, report
    folder = config.results_dir / "b" / "microhood" / "rise_buy"
    # The forms were sent by Chromium pressing their buttons, then the report form.
    assert posted_paths(folder) == ["/microhood/stock/CHPX/order/review", "/microhood/stock/CHPX/order/confirm",
                                    "/contact"]
    costs = json.loads((folder / "agent" / "costs.json").read_text())
    assert costs["estimated"] and costs["screenshots"] >= 4
    # Each planner decision after the first page counts one 1280 × 800 screenshot (1,105 tokens).
    assert costs["image_tokens"] == image_tokens(1280, 800) * costs["model_calls"]["planner"]
    profile = profile_of(folder)
    assert not chromium_pids(profile) and not Path(profile).exists()


async def test_an_llm_browser_agent_sends_screenshots_and_tools_and_survives_429_and_5xx(
        tmp_path, fake_server, monkeypatch):  # noqa: F811
    fake = FakeOpenAI([error(429, retry_after=0.1), error(503)] + BUY_SCRIPT, judge=price_judge)
    monkeypatch.setenv("OPENAI_BASE_URL", await fake_server(fake))
    monkeypatch.setenv("SENTINEL_LLM_RETRIES", "2")
    config = browser_config(tmp_path)
    report = await Runner(config, browser_plan("browser-wait_for", "rise_buy", "llm", model="fake-model")).run()
    result = report.results[0]
    assert result.success, result.detail
    assert (result.prompt_tokens, result.completion_tokens) == (fake.sent_prompt_tokens, fake.sent_completion_tokens)
    assert result.cost_usd == pytest.approx((result.prompt_tokens * 1.0 + result.completion_tokens * 2.0) / 1e6)
    planner = [r for r in fake.requests if r.get("tools")]
    assert len(planner) == 2 + len(BUY_SCRIPT)
    assert {t["function"]["name"] for t in planner[0]["tools"]} == {"open", "submit", "wait_for", "report"}
    assert "real web browser" in planner[0]["messages"][0]["content"]
    for request in planner:  # every planner call shows the window now, and only that one image
        images = [part["image_url"]["url"] for m in request["messages"] if isinstance(m["content"], list)
                  for part in m["content"] if part.get("type") == "image_url"]
        assert len(images) == 1 and png_size(images[0]) == (1280, 800)
        assert base64.b64decode(images[0].split(",", 1)[1]).startswith(b"\x89PNG\r\n\x1a\n")
    judge = [r for r in fake.requests if not r.get("tools")]
    assert judge and all(isinstance(m["content"], str) for r in judge for m in r["messages"])  # text only
    folder = config.results_dir / "llm" / "microhood" / "rise_buy"
    costs = json.loads((folder / "agent" / "costs.json").read_text())
    assert costs["model"] == "fake-model" and costs["estimated"] is False
    assert costs["image_tokens"] == image_tokens(1280, 800) * len(BUY_SCRIPT)
    log = (folder / "agent.log").read_text()
    assert "answered 429" in log and "answered 503" in log
    assert posted_paths(folder)[-1] == "/contact"


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "sigkill"])
def test_no_chromium_outlives_the_runner(tmp_path, how):
    config = write_test_config(tmp_path)
    profile = None
    runner = subprocess.Popen([sys.executable, "-m", "sentinel.cli", "run", "--config", str(config), "--agent",
                               "browser-sleep", "--task", "rise_noop", "--speed", "2", "--run", "k"],
                              cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        profile = wait_until(lambda: descendant_profile(runner.pid))
        assert profile, "the runner's agent started no Chromium"
        # Chromium is up with a page renderer, and the agent has it browse the site.
        assert wait_until(lambda: any("--type=renderer" in command(pid) for pid in chromium_pids(profile)))
        assert wait_until(lambda: (Path(profile) / "DevToolsActivePort").exists())
        os.kill(runner.pid, how)
        runner.wait(timeout=30)
        assert wait_until(lambda: not chromium_pids(profile), timeout_s=10), chromium_pids(profile)
    finally:
        if runner.poll() is None:
            runner.kill()
        if profile:  # after a SIGKILL nobody was left to remove it
            shutil.rmtree(profile, ignore_errors=True)


def descendant_profile(root: int) -> str | None:
    """The --user-data-dir of a Chromium started under process `root`, if one runs yet."""
    parents, commands = {}, {}
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit():
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
                commands[int(entry.name)] = (entry / "cmdline").read_bytes().decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
    for pid, command in commands.items():
        found = re.search(r"--user-data-dir=(\S+?)\x00", command)
        ancestor = pid
        while found and ancestor in parents and ancestor > 1:
            if ancestor == root:
                return found.group(1)
            ancestor = parents[ancestor]
    return None


def wait_until(check, timeout_s: float = 60.0):
    """Poll a condition on processes and files that other programs change; its value once truthy."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    return check()
