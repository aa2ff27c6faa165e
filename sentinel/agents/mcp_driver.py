"""A page driver that acts only through the session's MCP tools (the mcp-sleep and mcp-wait_for agents).

It satisfies browse.PageDriver for the strategy agents: `get` is the read_page tool, `follow` is
click, `submit` is submit, `wait_for_change` is the tool of that name; the pages come back as the
tools' structured data (the same page the text shows: links and forms under the server's numbers,
lines as a model reads them), so the planner and the judges see what the text browser would show.

The official MCP SDK client is asynchronous and the strategy agents are not: the client lives in
an event loop on a thread of its own, entered and left in one task (as its cancel scopes need),
and each call is handed to that task and waited for.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from sentinel.agents.browse import BrowseError, Control, Form, Line, Numbering, Page, Screenshot

CALL_WALL_S = 3600.0  # longest one tool call may take (a wait answers by its own timeout)


@dataclass
class ServedPage(Page):
    """A page as the MCP server rendered it: its lines and its numbered forms come with it."""
    lines: list[Line] = field(default_factory=list)
    numbered: list[tuple[int, Form]] = field(default_factory=list)


class McpDriver(Numbering):
    """The strategy agents' browser, over an MCP server's tools (streamable HTTP)."""

    def __init__(self, mcp_url: str, task_url: str):
        super().__init__(task_url)
        self.mcp_url = mcp_url
        self.calls = 0
        self._links: dict[str, int] = {}  # site path → the server's number for it
        self._pages: dict[str, Page] = {}  # path → the page last read there
        self._requests: asyncio.Queue | None = None
        self._loop = asyncio.new_event_loop()
        self._ready: Future[None] = Future()
        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(self._serve(),),
                                        name="mcp-client", daemon=True)
        self._thread.start()
        self._ready.result(timeout=60)

    async def _serve(self) -> None:
        from mcp import Client

        self._requests = asyncio.Queue()
        try:
            async with Client(self.mcp_url, read_timeout_seconds=CALL_WALL_S) as client:
                self._ready.set_result(None)
                while (request := await self._requests.get()) is not None:
                    name, arguments, answer = request
                    try:
                        answer.set_result(await client.call_tool(name, arguments))
                    except Exception as exc:  # handed to the caller, which raises it in its thread
                        answer.set_exception(exc)
        except Exception as exc:
            if not self._ready.done():
                self._ready.set_exception(RuntimeError(f"cannot reach the MCP server at {self.mcp_url}: {exc}"))
            else:
                raise

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        """Call a tool; a tool error becomes BrowseError (a wrong link or form), as with the text browser."""
        answer: Future[Any] = Future()
        assert self._requests is not None
        self._loop.call_soon_threadsafe(self._requests.put_nowait, (name, arguments, answer))
        self.calls += 1
        result = answer.result(timeout=CALL_WALL_S)
        if result.is_error:
            text = " ".join(getattr(block, "text", "") for block in result.content)
            raise BrowseError(text or f"{name} failed")
        return result

    # --- pages from the tools' data ------------------------------------------------------------

    def _page(self, data: dict[str, Any]) -> ServedPage:
        for link in data["links"]:
            self._links[link["href"]] = int(link["ref"])
        numbered = [(int(entry["ref"]), Form(self.url(entry["action"]), entry["method"], dict(entry["fields"]),
                                              [Control(c["name"], c["kind"], list(c["choices"]))
                                               for c in entry["controls"]],
                                              list(entry["buttons"]), ref=str(entry["ref"])))
                    for entry in data["forms"]]
        lines = [Line(line["shown"], line["text"], tuple(self.url(h) for h in line["links"])) for line in data["lines"]]
        page = ServedPage(self.url(data["path"]), int(data["status"]), data["text"],
                          [(self.url(link["href"]), link["text"]) for link in data["links"]],
                          [form for _, form in numbered], lines=lines, numbered=numbered)
        self._pages[page.path] = page
        return page

    def _read(self, name: str, arguments: dict[str, Any]) -> Page:
        return self._page(self.call(name, arguments).structured_content)

    def get(self, path_or_url: str, conditional: bool = False) -> Page:
        return self._read("read_page", {"path": self._path(path_or_url)})

    def follow(self, number: int) -> Page:
        return self._read("click", {"ref": number})

    def submit(self, form: Form, fields: dict[str, str] | None = None) -> Page:
        return self._read("submit", {"form": int(form.ref or 0), "fields": fields or {}})

    def wait_for_change(self, path_or_url: str, timeout_sim_s: float) -> Page:
        """The page once its text differs from what was last read of it, or as last read at the timeout."""
        path = self._path(path_or_url)
        data = self.call("wait_for_change", {"path": path, "timeout_s": max(0.0, timeout_sim_s)}).structured_content
        if "changed" not in data:  # never read before: the tool read it now
            return self._page(data)
        return self.get(path) if data["changed"] or path not in self._pages else self._pages[path]

    def pause(self, wall_s: float, speed: float) -> None:
        """The server's sleep tool, in sim seconds: the session's clock, not this process's, says
        when the pause is over."""
        self.call("sleep", {"seconds": max(0.0, wall_s * speed)})

    def _path(self, path_or_url: str) -> str:
        url = self.site_url(path_or_url)
        return url[len(self.origin):] or "/"

    # --- the model's view: the server's numbers -------------------------------------------------

    def render(self, page: Page) -> list[Line]:
        return page.lines if isinstance(page, ServedPage) else []

    def link_number(self, href: str) -> int:
        path = self._path(href.split("#", 1)[0])
        if path not in self._links:
            raise BrowseError(f"no link to {path} has been shown")
        return self._links[path]

    def link(self, number: int) -> str:
        for path, n in self._links.items():
            if n == number:
                return self.url(path)
        raise BrowseError(f"there is no link [{number}]")

    def numbered_forms(self, page: Page) -> list[tuple[int, Form]]:
        return page.numbered if isinstance(page, ServedPage) else []

    def screenshot(self) -> Screenshot | None:
        return None

    def close(self) -> None:
        if self._requests is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._requests.put_nowait, None)
            self._thread.join(timeout=10)
