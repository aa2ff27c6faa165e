"""An outside agent on the official MCP SDK client: watch a page with wait_for_change until a text
shows on it, then report. Over streamable HTTP ($SENTINEL_MCP_URL) or, with --stdio, through
`sentinel mcp` spawned as a stdio server (which finds the session from the same variable).

With --think SECONDS it sleeps that many wall seconds before every tool call (a stand-in for its
model's latency, issue #43); with --first PATH its first call reads that page instead of /start
(the clock-start trap).

    python tests/agents/mcp_watch.py PATH TEXT MESSAGE [--stdio] [--timeout SIM_S] [--think S] [--first PATH]
"""

import argparse
import asyncio
import os
import sys
import time

from mcp import Client, StdioServerParameters


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


async def watch(args) -> int:
    if args.stdio:
        server = StdioServerParameters(command=sys.executable, args=["-m", "sentinel.cli", "mcp"],
                                       env=dict(os.environ))
    else:
        server = os.environ["SENTINEL_MCP_URL"]
    async with Client(server, read_timeout_seconds=3600) as client:

        async def call(name: str, arguments: dict):
            if args.think:
                time.sleep(args.think)  # blocks like a model call would: nothing else runs meanwhile
            return await client.call_tool(name, arguments)

        names = sorted(tool.name for tool in (await client.list_tools()).tools)
        print("tools:", ", ".join(names), flush=True)
        page = await call("read_page", {"path": args.first})  # /start starts the session's clock
        if page.structured_content["path"] != args.path:
            page = await call("read_page", {"path": args.path})
        seen = text_of(page)
        while args.text not in seen:
            seen = text_of(await call("wait_for_change", {"path": args.path, "timeout_s": args.timeout}))
            print("wait_for_change:", seen.splitlines()[0] if seen else "(empty)", flush=True)
        await call("report", {"message": args.message})
        print("reported", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("text")
    parser.add_argument("message")
    parser.add_argument("--stdio", action="store_true")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--first", default="/start")
    return asyncio.run(watch(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
