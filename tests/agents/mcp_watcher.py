"""An outside agent through @playwright/mcp: it spawns the MCP server over stdio, attached to the
session's browser (--cdp-endpoint SENTINEL_CDP_URL), with the official `mcp` SDK client, and acts
only on the accessibility snapshots the server returns (YAML with [ref=...] marks).

  mcp_watcher.py CLI inbox SENDER
      passive: watch the task page until a row header names SENDER, then report.
  mcp_watcher.py CLI react CHAT PHRASE EMOJI
      active: open the chat named CHAT from the task page, watch it until a message says PHRASE,
      react EMOJI to that message (its own Reaction box and React button, by ref), then report.

The report is typed into the contact form and sent by pressing Send, by ref.
CLI: the path of @playwright/mcp's cli.js.
"""
import asyncio
import os
import re
import sys

from mcp import ClientSession, StdioServerParameters, stdio_client

POLL_S = 0.5
SENT = "Your report was sent"


def snapshot_of(result) -> str:
    return "".join(getattr(part, "text", "") for part in result.content)


def ref_of(snapshot: str, role: str, name: str) -> str | None:
    """The ref of the first node `role "name"` in a snapshot."""
    match = re.search(rf'- {role} "{re.escape(name)}"[^\n]*\[ref=(\w+)\]', snapshot)
    return match.group(1) if match else None


def item_saying(snapshot: str, phrase: str) -> str | None:
    """The snapshot lines of the list item whose text holds phrase (up to the next item)."""
    items = re.split(r"\n(?=\s*- listitem )", snapshot)
    return next((item for item in items if phrase in item and item.lstrip().startswith("- listitem")), None)


class Agent:
    def __init__(self, mcp: ClientSession):
        self.mcp = mcp

    async def call(self, tool: str, arguments: dict) -> str:
        result = await self.mcp.call_tool(tool, arguments)
        text = snapshot_of(result)
        if result.is_error:
            print(f"{tool} failed: {text}", flush=True)
        return text

    async def watch(self, snapshot: str, seen) -> str:
        """Snapshots of the page until seen(snapshot) says the awaited thing is there."""
        while not seen(snapshot):
            await asyncio.sleep(POLL_S)
            snapshot = await self.call("browser_snapshot", {})
        return snapshot

    async def report(self, message: str) -> None:
        form = await self.call("browser_navigate", {"url": os.environ["SENTINEL_CONTACT_URL"]})
        if ref_of(form, "textbox", "Message") is None:
            form = await self.call("browser_snapshot", {})
        await self.call("browser_type", {"element": "Message", "target": ref_of(form, "textbox", "Message"),
                                         "text": message})
        done = await self.call("browser_click", {"element": "Send", "target": ref_of(form, "button", "Send")})
        if SENT not in done:  # the click's snapshot came before the next page
            done = await self.call("browser_wait_for", {"text": SENT})
        print("sent" if SENT in done else f"not sent:\n{done}", flush=True)


async def inbox(agent: Agent, first: str, sender: str) -> None:
    await agent.watch(first, lambda snapshot: ref_of(snapshot, "rowheader", sender) is not None)
    print(f"{sender} is in the snapshot", flush=True)
    await agent.report(f"A message from {sender} has arrived.")


async def react(agent: Agent, first: str, chat: str, phrase: str, emoji: str) -> None:
    listing = await agent.watch(first, lambda snapshot: ref_of(snapshot, "link", chat) is not None)
    opened = await agent.call("browser_click", {"element": chat, "target": ref_of(listing, "link", chat)})
    snapshot = await agent.watch(opened, lambda snapshot: item_saying(snapshot, phrase) is not None)
    item = item_saying(snapshot, phrase)
    print(f"a message in {chat} says {phrase!r}", flush=True)
    box, button = ref_of(item, "combobox", "Reaction"), ref_of(item, "button", "React")
    await agent.call("browser_select_option", {"element": "Reaction", "target": box, "values": [emoji]})
    reacted = await agent.call("browser_click", {"element": "React", "target": button})
    if f"{emoji} 1 (you)" not in reacted:
        reacted = await agent.call("browser_wait_for", {"text": f"{emoji} 1 (you)"})
    print("reacted" if f"{emoji} 1 (you)" in reacted else f"no reaction shown:\n{reacted}", flush=True)
    await agent.report(f"The message saying {phrase!r} arrived in {chat}; I reacted {emoji}.")


async def main(cli: str, mode: str, *arguments: str) -> None:
    server = StdioServerParameters(command="node", args=[cli, "--cdp-endpoint", os.environ["SENTINEL_CDP_URL"]])
    async with stdio_client(server) as (read, write), ClientSession(read, write) as mcp:
        await mcp.initialize()
        agent = Agent(mcp)
        first = await agent.call("browser_navigate", {"url": os.environ["SENTINEL_TASK_URL"]})
        print(f"first snapshot: {len(first)} characters", flush=True)
        await {"inbox": inbox, "react": react}[mode](agent, first, *arguments)


asyncio.run(main(*sys.argv[1:]))
