"""The per-session MCP server: the tools of tools.py, served over streamable HTTP on loopback.

`McpHost` runs inside the session's own asyncio process (docs/agents-any-stack.md): the official
SDK's MCPServer gives the protocol, its Starlette app is served by uvicorn's Server on a socket
bound to 127.0.0.1, as one task of the loop (uvicorn's signal capture is left out: the runner owns
the process's signals). The agent gets the URL as SENTINEL_MCP_URL (and __MCP_URL__). Only the
tools are served: nothing of grading, the scenario or the world is reachable through it.

Every call is recorded (sim time, tool, arguments, a short result), kept in the session folder as
mcp.jsonl when the host stops; the result counts them (`mcp_calls`). A malformed call gets an MCP
tool error with a one-line message.

The session is told when the agent thinks (`ToolWatch`, docs/model-time.md): from a tool's answer,
once no other tool call is in flight, to the agent's next request of any kind (every message it
POSTs to this server is reported, and the site reports its pages; the listening GET its client
opens by itself, and its own bookkeeping, listing tools, pings and notifications, are not the
agent acting). Parallel tool calls are one gap.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, Protocol

import aiohttp
import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent
from pydantic import ValidationError

from sentinel.core.files import write_jsonl_atomic
from sentinel.mcp.calls import CALLS_FILE, CallLog
from sentinel.mcp.site import SiteReader
from sentinel.mcp.tools import Outcome, SessionClock, SiteTools, ToolFailure

MCP_PATH = "/mcp"
SHUTDOWN_GRACE_WALL_S = 2
INSTRUCTIONS = (
    "Tools for one Sentinel task: read the site's pages as text (links [n] and forms [form n] numbered), "
    "follow links, send forms, wait in sim seconds, and report once through the contact page. "
    "wait_for_change returns only the lines that changed, as soon as they change.")

log = logging.getLogger(__name__)


class ToolWatch(Protocol):
    """Who is told of the agent's tool calls and requests (sentinel.session.thinking.SessionThinking)."""

    def agent_acts(self) -> None: ...

    async def tool_starts(self, name: str) -> None: ...

    def tool_answered(self, name: str) -> None: ...


class _Unwatched:
    """No session to tell (a server started by hand, as in the tool tests)."""

    def agent_acts(self) -> None:
        pass

    async def tool_starts(self, name: str) -> None:
        pass

    def tool_answered(self, name: str) -> None:
        pass


def one_line(error: BaseException) -> str:
    """The message of a failed call, as one line: a validation error names its fields."""
    cause = error.__cause__
    if isinstance(cause, ValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                             for e in cause.errors())
        return f"bad arguments: {problems}"
    text = " ".join(str(error).split())
    return text.removeprefix("Error executing tool ").split(": ", 1)[-1] if text.startswith("Error executing") \
        else text


class RecordingServer(MCPServer):
    """MCPServer that records every call, and answers a failed one with a one-line tool error."""

    def __init__(self, calls: CallLog, watch: ToolWatch | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.calls = calls
        self.watch = watch or _Unwatched()

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        await self.watch.tool_starts(name)
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as exc:
            message = one_line(exc)
            self.calls.add(name, arguments, message, error=True)
            raise ToolError(message) from None
        finally:
            self.watch.tool_answered(name)
        text = next((c.text for c in getattr(result, "content", []) if isinstance(c, TextContent)), "")
        self.calls.add(name, arguments, text, error=bool(getattr(result, "is_error", False)))
        return result


def _answer(outcome: Outcome) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=outcome.text)], structured_content=outcome.data)


async def _run(step: Awaitable[Outcome]) -> CallToolResult:
    try:
        return _answer(await step)
    except ToolFailure as exc:
        raise ToolError(str(exc)) from None
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise ToolError(f"the site did not answer: {type(exc).__name__} {exc}".strip()) from None


def build_server(tools: SiteTools, calls: CallLog, watch: ToolWatch | None = None) -> MCPServer:
    """The MCP server of one agent: six tools over its session's site."""
    server = RecordingServer(calls, watch, name="sentinel", instructions=INSTRUCTIONS, log_level="WARNING")

    async def read_page(path: str) -> CallToolResult:
        """Read a page of the site (a path such as /micromail/folder/inbox): its visible text, each
        link marked [n] and each form summarised as [form n]."""
        return await _run(tools.read_page(path))

    async def click(ref: int) -> CallToolResult:
        """Follow link [ref] (numbers hold for the whole session) and return the page it opens."""
        return await _run(tools.click(ref))

    async def submit(form: int | str, fields: dict[str, str] | None = None) -> CallToolResult:
        """Send form [form n] of the page read last, with these field values over its defaults;
        return the resulting page."""
        return await _run(tools.submit(form, fields))

    async def sleep(seconds: float) -> CallToolResult:
        """Wait this many sim seconds, then return."""
        return await _run(tools.sleep(seconds))

    async def wait_for_change(path: str, timeout_s: float) -> CallToolResult:
        """Wait until the page's visible text differs from what you last read of it, then return only
        the changed lines ('+' new, '-' gone); or return at timeout_s sim seconds with no change."""
        return await _run(tools.wait_for_change(path, timeout_s))

    async def report(message: str) -> CallToolResult:
        """Report to the user, once, when the task's condition holds: opens the contact page and sends
        the message. Never report if the condition does not hold."""
        return await _run(tools.report(message))

    for tool in (read_page, click, submit, sleep, wait_for_change, report):
        server.add_tool(tool, structured_output=False)
    return server


# Messages an MCP client sends by itself, not as the agent's act: listing tools to check a result
# against its schema (the SDK does so right after a tool's first answer), pings, notifications.
CLIENT_BOOKKEEPING = ("initialize", "tools/list", "ping")


def acts(body: bytes) -> bool:
    """Whether a POSTed JSON-RPC message (or batch) is the agent acting: anything but the client's
    own bookkeeping (an unreadable body counts as acting)."""
    try:
        parsed = json.loads(body)
    except ValueError:
        return True
    messages = parsed if isinstance(parsed, list) else [parsed]
    methods = [m.get("method") if isinstance(m, dict) else None for m in messages]
    return any(not isinstance(method, str) or not (method in CLIENT_BOOKKEEPING or method.startswith("notifications/"))
               for method in methods)


def watched(served: Any, watch: ToolWatch) -> Any:
    """The ASGI app `served`, telling `watch` of every message the agent POSTs that is its act (the
    GET a client opens by itself to listen for the server's messages is not)."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "http" or scope.get("method") != "POST":
            await served(scope, receive, send)
            return
        received = [await receive()]  # the body, read ahead (a few hundred bytes), then given on as it came
        while received[-1].get("type") == "http.request" and received[-1].get("more_body"):
            received.append(await receive())
        if acts(b"".join(m.get("body", b"") for m in received)):
            watch.agent_acts()
        ahead = iter(received)

        async def replayed() -> Any:
            return next(ahead, None) or await receive()

        await served(scope, replayed, send)

    return app


class _LoopServer(uvicorn.Server):
    """uvicorn's server as one task among the session's: it leaves the process's signals alone,
    and it sleeps until told to stop instead of waking ten times a second to ask (uvicorn's own
    main loop), which a hundred sessions' servers would do a thousand times a second beside the
    world's timers (docs/timing.md#admission). The price: no Date header (the tools need none)."""

    def __init__(self, config: uvicorn.Config):
        super().__init__(config)
        self._exit = asyncio.Event()

    @contextlib.contextmanager
    def capture_signals(self):
        yield

    async def main_loop(self) -> None:
        await self.on_tick(0)  # the default headers, once
        await self._exit.wait()

    def exit(self) -> None:
        self.should_exit = True
        self._exit.set()


class McpHost:
    """One session's MCP server on 127.0.0.1, for as long as its agent runs."""

    def __init__(self, site_url: str, clock: SessionClock, out_dir: Path, watch: ToolWatch | None = None):
        self.reader = SiteReader(site_url)
        self.calls = CallLog(clock.now)
        self.out_dir = out_dir
        self.watch = watch or _Unwatched()
        self.server = build_server(SiteTools(self.reader, clock), self.calls, self.watch)
        self.url: str | None = None
        self._uvicorn: _LoopServer | None = None
        self._task: asyncio.Task | None = None

    async def start(self) -> str:
        app = watched(self.server.streamable_http_app(streamable_http_path=MCP_PATH), self.watch)
        config = uvicorn.Config(app, log_config=None, log_level="warning", access_log=False, lifespan="on",
                                timeout_graceful_shutdown=SHUTDOWN_GRACE_WALL_S, date_header=False)
        listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(("127.0.0.1", 0))
        listening.setblocking(False)
        port = listening.getsockname()[1]
        self._uvicorn = _LoopServer(config)
        self._task = asyncio.create_task(self._uvicorn.serve(sockets=[listening]), name=f"mcp {port}")
        while not self._uvicorn.started:  # lifespan and bind: a few ms
            if self._task.done():
                self._task.result()  # raises why it could not start
                raise RuntimeError("the MCP server stopped while starting")
            await asyncio.sleep(0.005)
        self.url = f"http://127.0.0.1:{port}{MCP_PATH}"
        return self.url

    async def stop(self) -> None:
        """Stop serving, and keep the record of calls in the session folder."""
        if self._uvicorn is not None and self._task is not None:
            self._uvicorn.exit()
            await asyncio.gather(self._task, return_exceptions=True)
        await self.reader.close()
        await asyncio.to_thread(write_jsonl_atomic, self.out_dir / CALLS_FILE, self.calls.records)
