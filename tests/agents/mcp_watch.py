"""An outside agent on the official MCP SDK client: watch a page with wait_for_change until a text
shows on it, then report. Over streamable HTTP ($SENTINEL_MCP_URL) or, with --stdio, through
`sentinel mcp` spawned as a stdio server (which finds the session from the same variable).

    python tests/agents/mcp_watch.py PATH TEXT MESSAGE [--stdio] [--timeout SIM_S]
"""

import argparse
import asyncio
import os
import sys

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
        names = sorted(tool.name for tool in (await client.list_tools()).tools)
        print("tools:", ", ".join(names), flush=True)
        page = await client.call_tool("read_page", {"path": "/start"})  # starts the session's clock
        if page.structured_content["path"] != args.path:
            page = await client.call_tool("read_page", {"path": args.path})
        seen = text_of(page)
        while args.text not in seen:
            changed = await client.call_tool("wait_for_change", {"path": args.path, "timeout_s": args.timeout})
            seen = text_of(changed)
            print("wait_for_change:", seen.splitlines()[0] if seen else "(empty)", flush=True)
        await client.call_tool("report", {"message": args.message})
        print("reported", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("text")
    parser.add_argument("message")
    parser.add_argument("--stdio", action="store_true")
    parser.add_argument("--timeout", type=float, default=600)
    return asyncio.run(watch(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
