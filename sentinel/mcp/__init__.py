"""The per-session MCP server (docs/agents-any-stack.md): the agent's tools over its session's site,
served over streamable HTTP beside the site, and over stdio by `sentinel mcp`. How an agent finds
it (SENTINEL_MCP_URL, __MCP_URL__) is named in sentinel/core/protocol.py."""
