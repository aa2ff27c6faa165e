"""The `sentinel mcp` subcommand; the MCP SDK loads only when it runs (sentinel/mcp/bridge.py)."""

from __future__ import annotations

import argparse

from sentinel.core.protocol import MCP_URL_VARIABLE


def add_commands(subparsers) -> None:
    command = subparsers.add_parser("mcp", help="serve the session's MCP tools over stdio (for an agent's MCP client)")
    command.add_argument("--url", help=f"the session's MCP server (default: ${MCP_URL_VARIABLE})")
    command.set_defaults(func=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    from sentinel.mcp.bridge import run_bridge

    return run_bridge(args.url)
