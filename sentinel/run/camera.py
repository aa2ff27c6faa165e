"""Screenshots of the browser a session lends its agent (`--agent-browser`), taken by the session.

The agent drives that Chromium with whatever it likes (Playwright, @playwright/mcp, raw CDP), so
the session films it from outside, as a second DevTools client of the agent's newest tab: a
picture at each page load, and, while nothing loads, one every `idle_every_s` wall seconds when
the window shows something new (the recorder keeps no picture twice). Pictures go through the
same `ShotRecorder` as the browser agents' own, into the session's `camera/` folder, and count
against the same evidence cap; at the end the session moves them into `shots/` with their sim
times (sentinel/session/shots.py). Filming is evidence, never a reason for a session to fail:
a tab that closes or a browser that stops ends it quietly.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from sentinel.agents.shots import IDLE_EVERY_S, JPEG_QUALITY, ShotRecorder

LOOK_EVERY_S = 1.0  # how often the camera checks for a newer tab and an idle picture
CALL_TIMEOUT_S = 15.0  # a screenshot waits for a frame, which a loaded machine is slow to paint


class Tab:
    """One DevTools connection to a page target: calls with answers, events in a queue."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse):
        self.socket = socket
        self.events: asyncio.Queue[dict | None] = asyncio.Queue()
        self._answers: dict[int, asyncio.Future] = {}
        self._next_id = 0
        self._reader = asyncio.create_task(self._read())

    async def call(self, method: str, params: dict | None = None) -> dict:
        self._next_id += 1
        answer = asyncio.get_running_loop().create_future()
        self._answers[self._next_id] = answer
        await self.socket.send_str(json.dumps({"id": self._next_id, "method": method, "params": params or {}}))
        reply = await asyncio.wait_for(answer, CALL_TIMEOUT_S)
        if "error" in reply:
            raise ConnectionError(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    async def _read(self) -> None:
        try:
            async for message in self.socket:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                data = json.loads(message.data)
                answer = self._answers.pop(data["id"], None) if "id" in data else None
                if answer is not None and not answer.done():
                    answer.set_result(data)
                elif "method" in data:
                    self.events.put_nowait(data)
        finally:
            for answer in self._answers.values():
                if not answer.done():
                    answer.set_exception(ConnectionError("the tab closed"))
            self.events.put_nowait(None)

    async def close(self) -> None:
        self._reader.cancel()
        await asyncio.gather(self._reader, return_exceptions=True)
        await self.socket.close()


class Camera:
    """Films the newest tab of the browser at cdp_url into recorder (see the module's notes)."""

    def __init__(self, cdp_url: str, recorder: ShotRecorder):
        self.cdp_url = cdp_url
        self.recorder = recorder

    async def film(self) -> None:
        async with aiohttp.ClientSession() as http:
            while True:
                target = await self._newest_page(http)
                if target is None:
                    await asyncio.sleep(LOOK_EVERY_S)
                    continue
                with contextlib.suppress(aiohttp.ClientError, ConnectionError, TimeoutError):
                    await self._film_tab(http, target)
                await asyncio.sleep(LOOK_EVERY_S / 10)

    async def _newest_page(self, http: aiohttp.ClientSession) -> dict | None:
        """The page target the agent opened last (DevTools lists the newest first)."""
        try:
            async with http.get(f"{self.cdp_url}/json/list") as response:
                targets = await response.json(content_type=None)
        except (aiohttp.ClientError, ValueError, ConnectionError):
            return None
        pages = [t for t in targets if t.get("type") == "page" and t.get("webSocketDebuggerUrl")]
        return pages[0] if pages else None

    async def _film_tab(self, http: aiohttp.ClientSession, target: dict) -> None:
        """Pictures of one tab until it closes or a newer tab opens."""
        async with http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0) as socket:
            tab = Tab(socket)
            try:
                await tab.call("Page.enable")
                url = target.get("url", "")
                while True:
                    try:
                        event = await asyncio.wait_for(tab.events.get(), LOOK_EVERY_S)
                    except TimeoutError:
                        newest = await self._newest_page(http)
                        if newest is None or newest["id"] != target["id"]:
                            return  # the tab closed, or the agent moved to a newer one
                        if self.recorder.idle_due():
                            await self._shoot(tab, "idle", url)
                        continue
                    if event is None:
                        return
                    url = _main_frame_url(event) or url
                    if event["method"] == "Page.loadEventFired":
                        await self._shoot(tab, "load", url)
            finally:
                await tab.close()

    async def _shoot(self, tab: Tab, reason: str, url: str) -> None:
        if not url.startswith("http"):
            return  # about:blank before the agent's first page: nothing of the session to show
        at = time.time()
        shot = await tab.call("Page.captureScreenshot", {"format": "jpeg", "quality": JPEG_QUALITY})
        picture = base64.b64decode(shot.get("data", ""))
        if picture:
            await asyncio.to_thread(self.recorder.take, picture, reason, urlsplit(url).path, at)


def _main_frame_url(event: dict[str, Any]) -> str | None:
    """The address a navigation event gives the tab's main frame, if it is one."""
    params = event.get("params", {})
    if event["method"] == "Page.frameNavigated" and not params.get("frame", {}).get("parentId"):
        return params["frame"].get("url")
    if event["method"] == "Page.navigatedWithinDocument":
        return params.get("url")
    return None


@contextlib.asynccontextmanager
async def filming(cdp_url: str, folder: Path, cap_bytes: int) -> AsyncIterator[Camera]:
    """The session's camera on its lent browser for the length of the block."""
    camera = Camera(cdp_url, ShotRecorder(folder, cap_bytes, IDLE_EVERY_S, prefix="b"))
    task = asyncio.create_task(camera.film(), name=f"camera on {cdp_url}")
    try:
        yield camera
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
