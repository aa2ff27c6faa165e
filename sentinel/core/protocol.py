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
