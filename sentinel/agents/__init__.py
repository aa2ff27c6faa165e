"""Built-in agents: real programs that use only the session's pages over HTTP.

Each is run like any user agent, as a command with placeholders (DESIGN §4). The oracle also
gets the scenario file, from which it reads only the `solution` block.
"""

from __future__ import annotations

import sys

BUILTIN_AGENTS: dict[str, list[str]] = {
    "oracle": [sys.executable, "-m", "sentinel.agents.oracle", "__TASK_URL__", "--scenario", "__SCENARIO_FILE__"],
    "silent": [sys.executable, "-m", "sentinel.agents.silent", "__TASK_URL__"],
    "eager": [sys.executable, "-m", "sentinel.agents.eager", "__TASK_URL__"],
    "deadline": [sys.executable, "-m", "sentinel.agents.deadline", "__TASK_URL__"],
    # The strategy baselines (sentinel/agents/strategy.py): rule-based unless the run has a model
    # (`sentinel run --model NAME` sets SENTINEL_MODEL). Only the rule-based planner and judge
    # read the scenario file, and of it only the solution block; an LLM never opens it.
    "sleep": [sys.executable, "-m", "sentinel.agents.strategy", "sleep", "__TASK_URL__",
              "--scenario", "__SCENARIO_FILE__"],
    "wait_for": [sys.executable, "-m", "sentinel.agents.strategy", "wait_for", "__TASK_URL__",
                 "--scenario", "__SCENARIO_FILE__"],
    # The same two, acting through a real headless Chromium, with screenshots (chromium.py).
    "browser-sleep": [sys.executable, "-m", "sentinel.agents.strategy", "sleep", "__TASK_URL__",
                      "--scenario", "__SCENARIO_FILE__", "--browser", "chromium"],
    "browser-wait_for": [sys.executable, "-m", "sentinel.agents.strategy", "wait_for", "__TASK_URL__",
                         "--scenario", "__SCENARIO_FILE__", "--browser", "chromium"],
}

MODEL_AGENTS = ("sleep", "wait_for", "browser-sleep", "browser-wait_for")  # the built-in agents that can use a chat model (--model)
