"""The per-session MCP server (docs/agents-any-stack.md): the agent's tools over its session's site,
served over streamable HTTP beside the site, and over stdio by `sentinel mcp`."""

MCP_URL_VARIABLE = "SENTINEL_MCP_URL"  # the agent's environment variable with the server's URL
MCP_PLACEHOLDER = "__MCP_URL__"  # the same URL, in an agent command
