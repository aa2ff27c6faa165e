"""An outside agent through @playwright/mcp: it spawns the MCP server over stdio, attached to the
session's browser (--cdp-endpoint SENTINEL_CDP_URL), with the official `mcp` SDK client, and acts
only on the accessibility snapshots the server returns (YAML with [ref=...] marks): it watches the
task page until a row header names the awaited sender, then types the report into the contact
form and presses Send, by ref.

usage: mcp_watcher.py PATH/TO/@playwright/mcp/cli.js "SENDER"
"""
import asyncio
import os
import re
import sys

from mcp import ClientSession, StdioServerParameters, stdio_client

POLL_S = 0.5


def snapshot_of(result) -> str:
    return "".join(getattr(part, "text", "") for part in result.content)


def ref_of(snapshot: str, role: str, name: str) -> str | None:
    """The ref of the first node `role "name"` in a snapshot."""
    match = re.search(rf'- {role} "{re.escape(name)}"[^\n]*\[ref=(\w+)\]', snapshot)
    return match.group(1) if match else None


async def main(cli: str, sender: str) -> None:
    server = StdioServerParameters(command="node", args=[cli, "--cdp-endpoint", os.environ["SENTINEL_CDP_URL"]])
    async with stdio_client(server) as (read, write), ClientSession(read, write) as mcp:
        await mcp.initialize()
        snapshot = snapshot_of(await mcp.call_tool("browser_navigate", {"url": os.environ["SENTINEL_TASK_URL"]}))
        print(f"first snapshot: {len(snapshot)} characters", flush=True)
        while ref_of(snapshot, "rowheader", sender) is None:
            await asyncio.sleep(POLL_S)
            snapshot = snapshot_of(await mcp.call_tool("browser_snapshot", {}))
        print(f"{sender} is in the snapshot", flush=True)
        form = snapshot_of(await mcp.call_tool("browser_navigate", {"url": os.environ["SENTINEL_CONTACT_URL"]}))
        if ref_of(form, "textbox", "Message") is None:
            form = snapshot_of(await mcp.call_tool("browser_snapshot", {}))
        typed = await mcp.call_tool("browser_type", {"element": "Message", "target": ref_of(form, "textbox", "Message"),
                                                     "text": f"A message from {sender} has arrived."})
        if typed.is_error:
            print(f"typing failed: {snapshot_of(typed)}", flush=True)
        send = {"element": "Send", "target": ref_of(form, "button", "Send")}
        done = snapshot_of(await mcp.call_tool("browser_click", send))
        if "Your report was sent" not in done:  # the click's snapshot came before the next page
            done = snapshot_of(await mcp.call_tool("browser_wait_for", {"text": "Your report was sent"}))
        print("sent" if "Your report was sent" in done else f"not sent:\n{done}", flush=True)


asyncio.run(main(sys.argv[1], sys.argv[2]))
