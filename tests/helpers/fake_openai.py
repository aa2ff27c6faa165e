"""A fake OpenAI-compatible chat-completions server for tests, on aiohttp.

Requests that offer tools are the planner's: they get the scripted replies in order (or, when
the planner is a function, its answer to the request). Requests without tools are the judge's:
a function of the request answers them. A reply can carry tool
calls, text, usage (or none), an error status, or a delay (a slow answer, or one slower than
the client's timeout). The server remembers every request and the usage it actually delivered.

    fake = FakeOpenAI([tool("wait_for", condition="price ≥ $520", timeout_s=30), tool("report", message="up")],
                      judge=lambda request: verdict("540" in last_user_text(request)))
    base_url = await fake.start()      # http://127.0.0.1:PORT/v1
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web


@dataclass(frozen=True)
class Reply:
    tool_calls: tuple[tuple[str, dict[str, Any]], ...] = ()  # (name, arguments)
    content: str = ""
    prompt_tokens: int = 100
    completion_tokens: int = 10
    usage: bool = True  # False: the answer carries no usage
    status: int = 200  # not 200: an error answer
    retry_after: float | None = None
    delay_s: float = 0.0


def tool(name: str, prompt_tokens: int = 100, completion_tokens: int = 10, **arguments: Any) -> Reply:
    return Reply(tool_calls=((name, arguments),), prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)


def error(status: int, retry_after: float | None = None) -> Reply:
    return Reply(status=status, retry_after=retry_after)


def verdict(holds: bool, prompt_tokens: int = 40, completion_tokens: int = 8) -> Reply:
    return Reply(content=json.dumps({"holds": holds, "reason": "fake judge"}), prompt_tokens=prompt_tokens,
                 completion_tokens=completion_tokens)


def last_user_text(request: dict[str, Any]) -> str:
    return next((m.get("content") or "" for m in reversed(request["messages"]) if m["role"] == "user"), "")


@dataclass
class FakeOpenAI:
    planner: list[Reply] | Callable[[dict[str, Any]], Reply]
    judge: Callable[[dict[str, Any]], Reply] = lambda request: verdict(False)
    then: Reply = field(default_factory=lambda: error(500))  # once the planner script is used up
    requests: list[dict[str, Any]] = field(default_factory=list)
    delivered: list[Reply] = field(default_factory=list)  # answers with usage that reached a client
    abandoned: int = 0  # answers the client had stopped waiting for

    def __post_init__(self):
        self._script = iter(()) if callable(self.planner) else iter(self.planner)
        self._ids = itertools.count(1)
        self._runner: web.AppRunner | None = None

    @property
    def sent_prompt_tokens(self) -> int:
        return sum(r.prompt_tokens for r in self.delivered if r.usage)

    @property
    def sent_completion_tokens(self) -> int:
        return sum(r.completion_tokens for r in self.delivered if r.usage)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self.completions)
        return app

    async def start(self) -> str:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        return f"http://127.0.0.1:{self._runner.addresses[0][1]}/v1"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def completions(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.requests.append({**body, "authorization": request.headers.get("Authorization")})
        if not body.get("tools"):
            reply = self.judge(body)
        elif callable(self.planner):
            reply = self.planner(body)
        else:
            reply = next(self._script, self.then)
        if reply.delay_s:
            await asyncio.sleep(reply.delay_s)
        if request.transport is None or request.transport.is_closing():
            self.abandoned += 1
            return web.Response(status=499)
        if reply.status != 200:
            headers = {"Retry-After": f"{reply.retry_after:g}"} if reply.retry_after is not None else {}
            return web.json_response({"error": {"message": f"fake error {reply.status}", "type": "fake"}},
                                     status=reply.status, headers=headers)
        self.delivered.append(reply)
        return web.json_response(self._answer(body, reply))

    def _answer(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
        if reply.tool_calls:
            message["tool_calls"] = [{"id": f"call_{next(self._ids)}", "type": "function",
                                      "function": {"name": name, "arguments": json.dumps(arguments)}}
                                     for name, arguments in reply.tool_calls]
        answer: dict[str, Any] = {"id": "chatcmpl-fake", "object": "chat.completion", "model": body.get("model"),
                                  "choices": [{"index": 0, "message": message,
                                               "finish_reason": "tool_calls" if reply.tool_calls else "stop"}]}
        if reply.usage:
            answer["usage"] = {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
                               "total_tokens": reply.prompt_tokens + reply.completion_tokens}
        return answer

