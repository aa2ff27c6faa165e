"""What a session lends its agent, for exactly as long as the agent lives: the runner and the
stepper start them here, and tell the agent their addresses (sentinel/session/launch.py).

- The session's MCP server (sentinel/mcp/server.py), at SENTINEL_MCP_URL, which keeps its calls
  in mcp.jsonl: for every agent that may use it (`serves_mcp`).
- With --agent-browser: a headless Chromium (sentinel/session/browser.py) at SENTINEL_CDP_URL,
  filmed by the session (sentinel/run/camera.py).
- With --meter, or a model-time policy that pauses the clock: a metering proxy
  (sentinel/session/proxy.py) the agent reaches through OPENAI_BASE_URL, which records the model
  usage in metered.json and tells the session of every call in flight (docs/model-time.md).

The MCP server, the proxy and the site all tell the session's SessionThinking when the agent thinks.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path

from sentinel.agents import builtin_command
from sentinel.run.camera import filming
from sentinel.session.browser import lent_browser
from sentinel.session.launch import LentHelpers
from sentinel.session.live import Session
from sentinel.session.proxy import METERED_FILE, MeteringProxy
from sentinel.session.shots import CAMERA_SHOTS


def serves_mcp(agent: str) -> bool:
    """Whether a session of this agent serves MCP: any agent of yours (--cmd) and the mcp-* agents;
    not the built-in agents that read pages over HTTP, for whom a server per session (a few ms of
    the loop to start, a socket) would only cost the other sessions' timers."""
    return builtin_command(agent) is None or agent.startswith("mcp-")


@dataclass(frozen=True)
class WantedHelpers:
    """Which helpers a session starts for its agent."""
    mcp: bool = False
    browser: bool = False
    meter: bool = False

    @classmethod
    def for_agent(cls, agent: str, *, browser: bool = False, meter: bool = False) -> WantedHelpers:
        """The MCP server where the agent may use it (serves_mcp), and what the run asked for."""
        return cls(mcp=serves_mcp(agent), browser=browser, meter=meter)


@contextlib.asynccontextmanager
async def started_helpers(session: Session, out_dir: Path, wanted: WantedHelpers) -> AsyncIterator[LentHelpers]:
    """Start the wanted helpers (their files go to out_dir); they stop when the block ends."""
    assert session.url is not None, "the site starts before the agent"
    async with contextlib.AsyncExitStack() as helpers:
        lent = LentHelpers()
        if wanted.mcp:
            from sentinel.mcp.server import McpHost  # the MCP SDK loads only when a session serves it

            host = McpHost(session.url, session.clock, out_dir, watch=session.tool_watch)
            lent = replace(lent, mcp_url=await host.start())
            helpers.push_async_callback(host.stop)
        if wanted.browser:
            browser = await helpers.enter_async_context(lent_browser(out_dir))
            lent = replace(lent, cdp_url=browser.cdp_url, cdp_ws_url=browser.ws_url)
            await helpers.enter_async_context(  # stops before the browser closes
                filming(browser.cdp_url, out_dir / CAMERA_SHOTS, session.config.evidence_cap_bytes))
        if wanted.meter:
            proxy = MeteringProxy.from_env(out_dir / METERED_FILE, watch=session.thinking)
            await proxy.start()
            helpers.push_async_callback(proxy.stop)
            lent = replace(lent, model_base_url=proxy.url)
        yield lent
