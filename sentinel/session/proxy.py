"""The metering proxy: an OpenAI-compatible endpoint in front of the real one, one per session.

With `sentinel run --meter` the runner starts one for every session on 127.0.0.1 (a free
port), points the agent at it with OPENAI_BASE_URL, and forwards each request to the real
endpoint: the runner's own OPENAI_BASE_URL (default https://api.openai.com/v1). The proxy reads
the `usage` of every answer itself (plain JSON or a server-sent event stream) and writes the
totals to the session's metered.json after each request. The runner prices that file instead of
the agent's costs.json, so the cost does not rest on the agent's word, and marks the result's
model "(metered)".

The agent's own Authorization header is passed on; if it sends none, the proxy adds the
runner's OPENAI_API_KEY. Answers without usage are passed on and counted as `unmetered`.

A run whose model-time policy pauses the clock (--model-time other than wall) starts the proxy
for every session, with or without --meter, and tells the session of every call: one is in
flight from its request to the end of its answer, streamed or not (`CallWatch`; the session
pauses its clock meanwhile: docs/model-time.md). A POST to /v1/sentinel/decision is a rule-based
agent's decision charged as a call (sentinel/agents/decisions.py): answered here, never forwarded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

import aiohttp
from aiohttp import web

from sentinel.core.files import write_json_atomic
from sentinel.core.protocol import DECISION_PATH

DEFAULT_UPSTREAM = "https://api.openai.com/v1"
METERED_FILE = "metered.json"
HOP_HEADERS = {"host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "trailer",
               "upgrade", "proxy-authorization", "proxy-authenticate", "accept-encoding"}
DEFAULT_TIMEOUT_S = 600.0


class CallWatch(Protocol):
    """Who is told of each call in flight (sentinel.session.thinking.SessionThinking)."""

    def call_began(self) -> str: ...

    def call_ended(self, source: str) -> None: ...


@dataclass
class MeteredUsage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tool_calls: int = 0
    model: str | None = None
    requests: int = 0
    errors: int = 0  # answers with status ≥ 400, or the endpoint unreachable
    unmetered: int = 0  # successful answers that carried no usage
    decisions: int = 0  # rule-based decisions charged as calls, answered here (sentinel/agents/decisions.py)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "metered": True}


class MeteringProxy:
    def __init__(self, upstream: str, out_path: Path, api_key: str | None = None,
                 timeout_s: float = DEFAULT_TIMEOUT_S, watch: CallWatch | None = None):
        self.upstream = upstream.rstrip("/")
        self.watch = watch
        self.out_path = out_path
        self.api_key = api_key
        self.timeout_s = timeout_s
        self.usage = MeteredUsage()
        self.url = ""
        self._runner: web.AppRunner | None = None
        self._client: aiohttp.ClientSession | None = None

    @classmethod
    def from_env(cls, out_path: Path, environ: Mapping[str, str] = os.environ,
                 watch: CallWatch | None = None) -> MeteringProxy:
        return cls(environ.get("OPENAI_BASE_URL") or DEFAULT_UPSTREAM, out_path,
                   api_key=environ.get("OPENAI_API_KEY") or None, watch=watch)

    async def start(self) -> str:
        """Listen on a free port of 127.0.0.1; return the base URL to give the agent."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post(f"/v1{DECISION_PATH}", self.decision)
        app.router.add_route("*", "/{tail:.*}", self.forward)
        self._client = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout_s), auto_decompress=True)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}/v1"
        self._save()
        return self.url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._client is not None:
            await self._client.close()
        self._save()

    def _save(self) -> None:
        write_json_atomic(self.out_path, self.usage.to_dict())

    def _target(self, request: web.Request) -> str:
        tail = request.match_info["tail"]
        tail = tail[3:] if tail == "v1" or tail.startswith("v1/") else tail
        query = f"?{request.query_string}" if request.query_string else ""
        return f"{self.upstream}/{tail.lstrip('/')}".rstrip("/") + query

    def _headers(self, request: web.Request) -> dict[str, str]:
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_HEADERS}
        if self.api_key and "authorization" not in {k.lower() for k in headers}:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return headers

    async def forward(self, request: web.Request) -> web.StreamResponse:
        """A call of the agent's model: passed on, metered, and in flight until its answer ends."""
        with self._in_flight():
            return await self._pass_on(request)

    async def decision(self, request: web.Request) -> web.StreamResponse:
        """A rule-based agent's decision, charged as a call: in flight while it is answered, here,
        never forwarded (sentinel/agents/decisions.py). Not a request to the endpoint: no usage."""
        with self._in_flight():
            await request.read()
            self.usage.decisions += 1
            return web.json_response({"charged": True})

    @contextlib.contextmanager
    def _in_flight(self) -> Iterator[None]:
        """A call in flight for the watch (the session's thinking), from here to the block's end."""
        if self.watch is None:
            yield
            return
        source = self.watch.call_began()
        try:
            yield
        finally:
            self.watch.call_ended(source)

    async def _pass_on(self, request: web.Request) -> web.StreamResponse:
        assert self._client is not None
        body = await request.read()
        self.usage.requests += 1
        self._note_model(body)
        try:
            async with self._client.request(request.method, self._target(request), data=body,
                                            headers=self._headers(request)) as upstream:
                if upstream.status >= 400:
                    self.usage.errors += 1
                if upstream.headers.get("Content-Type", "").startswith("text/event-stream"):
                    return await self._stream(request, upstream)
                payload = await upstream.read()
                if upstream.status < 400:
                    self._record(_json_or_none(payload))
                return web.Response(body=payload, status=upstream.status,
                                    content_type=upstream.content_type or "application/json")
        except (TimeoutError, aiohttp.ClientError) as exc:
            self.usage.errors += 1
            timed_out = isinstance(exc, asyncio.TimeoutError)
            status, reason = (504, f"no answer within {self.timeout_s:g} s") if timed_out else (502, str(exc))
            message = f"metering proxy: the endpoint {self.upstream} failed: {reason}"
            return web.json_response({"error": {"message": message, "type": "proxy_error"}}, status=status)
        finally:
            self._save()

    async def _stream(self, request: web.Request, upstream: aiohttp.ClientResponse) -> web.StreamResponse:
        response = web.StreamResponse(status=upstream.status, headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        pending, usage, calls = b"", None, 0
        async for chunk in upstream.content.iter_any():
            await response.write(chunk)
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                event = _json_or_none(line[5:]) if line.startswith(b"data:") else None
                if event:
                    usage = event.get("usage") or usage
                    calls += _streamed_tool_calls(event)
        await response.write_eof()
        if upstream.status < 400:
            self._record({"usage": usage} if usage else None, streamed_calls=calls)
        return response

    def _note_model(self, body: bytes) -> None:
        data = _json_or_none(body)
        if data and isinstance(data.get("model"), str) and self.usage.model is None:
            self.usage.model = data["model"]

    def _record(self, data: dict[str, Any] | None, streamed_calls: int = 0) -> None:
        usage = (data or {}).get("usage")
        if not isinstance(usage, dict):
            self.usage.unmetered += 1
            return
        self.usage.prompt_tokens += int(usage.get("prompt_tokens", usage.get("input_tokens", 0)) or 0)
        self.usage.completion_tokens += int(usage.get("completion_tokens", usage.get("output_tokens", 0)) or 0)
        calls = streamed_calls
        for choice in (data or {}).get("choices") or []:
            if isinstance(choice, dict):
                calls += len((choice.get("message") or {}).get("tool_calls") or [])
        self.usage.tool_calls += calls


def _json_or_none(raw: bytes) -> dict[str, Any] | None:
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _streamed_tool_calls(event: dict[str, Any]) -> int:
    """Tool calls begun in one streamed chunk: a call's first delta carries its id."""
    count = 0
    for choice in event.get("choices") or []:
        if isinstance(choice, dict):
            count += sum(1 for call in (choice.get("delta") or {}).get("tool_calls") or []
                         if isinstance(call, dict) and call.get("id"))
    return count
