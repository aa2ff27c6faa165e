"""An outside agent on the official MCP SDK client that "thinks" before every tool call: it sleeps
THINK wall seconds first (a stand-in for its model's latency), then watches a page with
wait_for_change until a text shows on it, and reports. With --first PATH its first call reads
that page instead of /start (the clock-start trap of issue #43).

    python tests/agents/mcp_think.py PATH TEXT MESSAGE --think SECONDS [--first PATH]
"""

import argparse
import asyncio
import os
import sys
import time

from mcp import Client


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


async def watch(args) -> int:
    async with Client(os.environ["SENTINEL_MCP_URL"], read_timeout_seconds=3600) as client:

        async def call(name: str, arguments: dict):
            time.sleep(args.think)  # the model deciding what to do next (blocking, as a sync client would)
            result = await client.call_tool(name, arguments)
            print(f"{name}: {text_of(result).splitlines()[0] if text_of(result) else '(empty)'}", flush=True)
            return result

        page = await call("read_page", {"path": args.first})
        if page.structured_content["path"] != args.path:
            page = await call("read_page", {"path": args.path})
        seen = text_of(page)
        while args.text not in seen:
            seen = text_of(await call("wait_for_change", {"path": args.path, "timeout_s": 600}))
        await call("report", {"message": args.message})
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("text")
    parser.add_argument("message")
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--first", default="/start")
    return asyncio.run(watch(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
