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
}
