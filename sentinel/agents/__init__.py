"""Built-in agents: real programs that use only the session's pages over HTTP.

Each is run like any user agent, as a command with placeholders (docs/protocol.md#agents). Built-in agents
alone get the scenario file (__SCENARIO_FILE__), and of it they read only the `solution` block.
`blind:SIM_S` is a family: the blind agent acting at SIM_S sim seconds (sentinel/agents/blind.py).
The browser agents need what the [browser] extra and the system provide (`missing_requirement`).
"""

from __future__ import annotations

import importlib.util
import math
import os
import sys
from pathlib import Path

from sentinel.core.errors import SentinelError

BUILTIN_AGENTS: dict[str, list[str]] = {
    "oracle": [sys.executable, "-m", "sentinel.agents.oracle", "__TASK_URL__", "--scenario", "__SCENARIO_FILE__"],
    # the oracle re-reading watched pages every 0.2 wall s instead of waiting for them to change: what
    # polling costs (benchmarks/lateness_knee.py compares the two)
    "oracle-poll": [sys.executable, "-m", "sentinel.agents.oracle", "__TASK_URL__", "--scenario", "__SCENARIO_FILE__",
                    "--poll", "0.2"],
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
    # The same two, acting only through the session's MCP tools (sentinel/agents/mcp_driver.py).
    "mcp-sleep": [sys.executable, "-m", "sentinel.agents.strategy", "sleep", "__TASK_URL__",
                  "--scenario", "__SCENARIO_FILE__", "--via", "mcp"],
    "mcp-wait_for": [sys.executable, "-m", "sentinel.agents.strategy", "wait_for", "__TASK_URL__",
                     "--scenario", "__SCENARIO_FILE__", "--via", "mcp"],
}

# the built-in agents that drive a real Chromium through Playwright (the [browser] extra)
BROWSER_AGENTS = ("browser-sleep", "browser-wait_for")
BROWSER_EXTRA = "pip install 'sentinel-bench[browser]' (in a checkout: pip install -e '.[browser]')"
# the built-in agents that can use a chat model (--model)
MODEL_AGENTS = ("sleep", "wait_for", "browser-sleep", "browser-wait_for", "mcp-sleep", "mcp-wait_for")
BLIND = "blind"
BLIND_MAX_S = 720.0  # the end of the event timeline: acting later than this is pointless


def blind_command(sim_s: float) -> list[str]:
    return [sys.executable, "-m", "sentinel.agents.blind", "__TASK_URL__", "--scenario", "__SCENARIO_FILE__",
            "--at", f"{sim_s:g}"]


def parse_blind(name: str) -> float | None:
    """SIM_S of a "blind:SIM_S" agent name; None for any other name. Raises on a bad time."""
    if not name.startswith(BLIND + ":") and name != BLIND:
        return None
    text = name.partition(":")[2]
    try:
        sim_s = float(text)
    except ValueError:
        raise SentinelError(f"--agent {name}: write blind:SIM_S, the sim second at which it acts (e.g. blind:420)") \
            from None
    if not math.isfinite(sim_s) or not 0 <= sim_s <= BLIND_MAX_S:
        raise SentinelError(f"--agent {name}: SIM_S must be between 0 and {BLIND_MAX_S:g} sim seconds")
    return sim_s


def builtin_command(name: str) -> list[str] | None:
    """The command of a built-in agent name (including blind:SIM_S); None if it is not one."""
    if name in BUILTIN_AGENTS:
        return BUILTIN_AGENTS[name]
    sim_s = parse_blind(name)
    return None if sim_s is None else blind_command(sim_s)


def builtin_names() -> str:
    """The built-in agents as a help text lists them."""
    return ", ".join([*BUILTIN_AGENTS, f"{BLIND}:SIM_S"])


def missing_requirement(name: str) -> str | None:
    """One line naming what to install when built-in agent `name` cannot run on this machine
    (Playwright not importable, no Chromium program); None when it can, or is not built in."""
    if name not in BROWSER_AGENTS:
        return None
    try:  # (imports playwright's small __init__ only, not its driver)
        playwright = importlib.util.find_spec("playwright.sync_api")
    except ImportError:
        playwright = None
    if playwright is None:
        return f"--agent {name} drives Chromium with Playwright, which is not installed: {BROWSER_EXTRA}"
    from sentinel.core.chromium import chromium_program

    program = chromium_program()
    if not (Path(program).is_file() and os.access(program, os.X_OK)):
        named = "SENTINEL_CHROMIUM names" if os.environ.get("SENTINEL_CHROMIUM") else "the default is"
        return (f"--agent {name} needs Chromium, and there is no program at {program} ({named} it): install "
                f"Debian's chromium (apt-get install chromium) or set SENTINEL_CHROMIUM to a Chromium program")
    return None
