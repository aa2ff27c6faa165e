"""The MCP server's view of the session's site: an asynchronous text browser on aiohttp's client.

It runs in the session's own event loop, so nothing here may block: pages come over HTTP like any
agent's (they appear in the session's requests.jsonl), and are parsed and numbered by the text
browser's pure code (sentinel/agents/browse.py), so a model reads them exactly as the built-in
text browser shows them. Cookies are kept (the site's flash messages), ETags are remembered, and
waiting for a change is the site's long-poll (docs/protocol.md#waiting), never a poll.
"""

from __future__ import annotations

import urllib.parse

import aiohttp

from sentinel.agents.browse import LONG_POLL_WALL_S, Form, Numbering, Page, parse_page, wait_headers
from sentinel.core.protocol import SLEEP_PATH

TIMEOUT_WALL_S = 30.0  # an ordinary page request


class SiteReader(Numbering):
    """Fetches pages of one site without blocking the loop; numbers links and forms for the
    whole session, like Browser."""

    def __init__(self, base_url: str):
        super().__init__(base_url)
        self._http: aiohttp.ClientSession | None = None
        self._cache: dict[str, Page] = {}  # the last 200 of each address read with GET

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None:  # made inside the loop that uses it
            # unsafe: keep cookies of an IP-address host (the site is 127.0.0.1)
            self._http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    def last_read(self, url: str) -> Page | None:
        return self._cache.get(url)

    async def get(self, url: str, conditional: bool = False) -> Page:
        cached = self._cache.get(url)
        headers = {"If-None-Match": cached.etag} if conditional and cached and cached.etag else {}
        return await self._fetch("GET", url, headers=headers)

    async def wait_for_change(self, url: str, timeout_sim_s: float) -> Page:
        """The page once its bytes differ from the copy last read, or that copy at the timeout:
        one request, answered by the site when its world moves. Without a copy, a plain read."""
        cached = self._cache.get(url)
        if cached is None or not cached.etag:
            return await self.get(url)
        headers = wait_headers(cached.etag, timeout_sim_s)
        return await self._fetch("GET", url, headers=headers, timeout_s=LONG_POLL_WALL_S)

    async def sleep(self, sim_s: float) -> None:
        """The site's /sleep: answers once sim_s sim seconds have passed on the session's clock."""
        url = self.url(SLEEP_PATH) + "?" + urllib.parse.urlencode({"seconds": f"{sim_s:g}"})
        timeout = aiohttp.ClientTimeout(total=LONG_POLL_WALL_S)
        async with self._session().get(url, timeout=timeout) as response:
            await response.read()

    async def submit(self, form: Form, fields: dict[str, str]) -> Page:
        """Send a form with its default values overridden by `fields`, as a browser would."""
        values = {**form.fields, **fields}
        if form.method == "post":
            return await self._fetch("POST", form.action, data=values)
        base = form.action.split("?", 1)[0]
        return await self.get(base + "?" + urllib.parse.urlencode(values))

    async def _fetch(self, method: str, url: str, *, headers: dict[str, str] | None = None,
                     data: dict[str, str] | None = None, timeout_s: float = TIMEOUT_WALL_S) -> Page:
        timeout = aiohttp.ClientTimeout(total=timeout_s)
        async with self._session().request(method, url, headers=headers or {}, data=data, timeout=timeout,
                                           allow_redirects=True, max_redirects=10) as response:
            body = await response.read()
            final = str(response.url)
            if response.status == 304 and url in self._cache:
                return self._cache[url]
            page = parse_page(final, response.status, body.decode("utf-8", errors="replace"),
                              response.headers.get("ETag"))
            if response.status == 200 and response.method == "GET":
                self._cache[final] = page
                self._cache[url] = page
            return page
