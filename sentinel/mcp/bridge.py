"""`sentinel mcp`: the session's MCP server over stdio, for clients that spawn their servers.

A bridge, not a second server: every message read on stdin goes to the session's streamable HTTP
server (SENTINEL_MCP_URL, or --url) and every answer comes back on stdout. So the tools are the
same code, and their calls are counted in one place, the session's mcp.jsonl, with the session's
own clock (a sleep is in that session's sim seconds, whatever its --speed).
"""

from __future__ import annotations

import os
import sys

import anyio
import httpx2
from mcp.client.streamable_http import streamable_http_client
from mcp.server.stdio import stdio_server

from sentinel.core.protocol import MCP_URL_VARIABLE

CONNECT_WALL_S = 30.0
READ_WALL_S = 3600.0  # a wait_for_change answers by its own timeout (at most an hour of sim time)


async def _pump(source, sink) -> None:
    """Forward messages until the source ends; a line that is not a message is reported and skipped."""
    async with sink:
        async for message in source:
            if isinstance(message, Exception):
                print(f"sentinel mcp: skipped a message: {message}".splitlines()[0], file=sys.stderr, flush=True)
                continue
            await sink.send(message)


async def bridge(url: str) -> None:
    timeout = httpx2.Timeout(CONNECT_WALL_S, read=READ_WALL_S)
    async with httpx2.AsyncClient(timeout=timeout) as http, \
            streamable_http_client(url, http_client=http) as (from_server, to_server), \
            stdio_server() as (from_client, to_client), anyio.create_task_group() as group:

        async def client_to_server() -> None:
            await _pump(from_client, to_server)
            group.cancel_scope.cancel()  # the client closed stdin: it is done

        group.start_soon(client_to_server)
        group.start_soon(_pump, from_server, to_client)


def run_bridge(url: str | None) -> int:
    """Bridge stdio to the server at url (default: $SENTINEL_MCP_URL) until the client closes stdin."""
    url = url or os.environ.get(MCP_URL_VARIABLE)
    if not url:
        print(f"sentinel mcp: no server to bridge to: run it inside a session (which sets {MCP_URL_VARIABLE}) "
              f"or pass --url", file=sys.stderr)
        return 2
    try:
        anyio.run(bridge, url)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the SDK's task groups wrap what failed in exception groups
        cause = _first_leaf(exc)
        if not isinstance(cause, OSError | httpx2.HTTPError):
            raise
        print(f"sentinel mcp: {url}: {cause}".splitlines()[0], file=sys.stderr)
        return 1
    return 0


def _first_leaf(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error
