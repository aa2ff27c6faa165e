"""Names of the protocol that both sides use: the site's HTTP (sentinel/web, and the page readers
of the built-in agents in sentinel/agents) and the session's MCP server as an agent finds it (its
launch, sentinel/session/launch.py, and `sentinel mcp`). See docs/protocol.md."""

from __future__ import annotations

# A conditional GET that also sends this header, a number of sim seconds, waits until its page
# differs from the ETag it names, or that long (docs/protocol.md#waiting; sentinel/web/waiting.py).
WAIT_HEADER = "X-Wait-Change"

MCP_URL_VARIABLE = "SENTINEL_MCP_URL"  # the agent's environment variable with the server's URL
MCP_PLACEHOLDER = "__MCP_URL__"  # the same URL, in an agent command

# Set only when the session's own metering proxy serves the agent's model calls (the same URL as
# its OPENAI_BASE_URL then): the rule-based built-in agents charge each decision as a call there,
# a POST to DECISION_PATH under it, which the proxy answers itself (docs/model-time.md).
PROXY_URL_VARIABLE = "SENTINEL_PROXY_URL"
DECISION_PATH = "/sentinel/decision"

# GET SLEEP_PATH?seconds=S answers once S sim seconds have passed on the session's clock (at most
# MAX_SLEEP_SIM_S; 0 answers at once): the pause of an agent that waits without watching a page.
# Its answer (plain text) carries the session's sim time in SIM_TIME_HEADER, so `?seconds=0` tells it.
SLEEP_PATH = "/sleep"
MAX_SLEEP_SIM_S = 3600.0
SIM_TIME_HEADER = "X-Sim-Time"

# The agent is told its session's clock (wall or virtual: docs/model-time.md#the-virtual-clock) and,
# on the virtual clock, its time limit in sim seconds beside SENTINEL_TIME_LIMIT_S.
CLOCK_VARIABLE = "SENTINEL_CLOCK"
SIM_LIMIT_VARIABLE = "SENTINEL_TIME_LIMIT_SIM_S"
