"""Runs of the model agents against the fake OpenAI server (helpers/fake_openai.py): the scripted
planner of a purchase, a judge that sees the price, and the plan and config such runs use."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sentinel.agents import BUILTIN_AGENTS
from sentinel.core.config import Config
from sentinel.core.scenario import load_scenario
from sentinel.run.plan import RunPlan

from .fake_openai import Reply, last_user_text, tool, verdict
from .runs import SPEED, TEST_SCENARIOS, make_config

# The planner's answers for microhood's rise_buy: wait for $520, buy 2 shares, report.
BUY_SCRIPT = [
    tool("wait_for", condition="CHPX price is $520 or more", timeout_s=30, notes="then buy 2 shares at market",
         prompt_tokens=900, completion_tokens=30),
    tool("open", target="/microhood/stock/CHPX/order?side=buy", prompt_tokens=950, completion_tokens=20),
    tool("submit", form="/order/review$", fields={"order_type": "market", "shares": "2"}, prompt_tokens=1200,
         completion_tokens=25),
    tool("submit", form="/order/confirm$", prompt_tokens=1300, completion_tokens=15),
    tool("report", message="CHPX reached $520; bought 2 shares.", prompt_tokens=1400, completion_tokens=22),
]


def price_judge(request) -> Reply:
    """The judge's verdict: the condition holds once the page shows $540."""
    return verdict("$540" in last_user_text(request))


def llm_plan(strategy: str, task: str, name: str, meter: bool = False) -> RunPlan:
    """One microhood test scenario with a model agent on "fake-model", reloading every 0.2 s."""
    return RunPlan(name=name, agent=strategy, command=BUILTIN_AGENTS[strategy] + ["--reload-s", "0.2"],
                   speed=SPEED, scenarios=(load_scenario(TEST_SCENARIOS / "microhood" / f"{task}.yaml"),),
                   model="fake-model", meter=meter)


def llm_config(tmp_path: Path) -> Config:
    """make_config with a 4 s reaction window: a model's answers take a while."""
    config = make_config(tmp_path)
    return replace(config, timing=replace(config.timing, reaction_window_s=4.0))
