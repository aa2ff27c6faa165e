"""A small client for any OpenAI-compatible chat-completions endpoint (OpenAI, Azure's v1
endpoint, vLLM, Ollama, LM Studio, ...), over urllib so an agent starts fast.

    client = ChatClient("gpt-4o-mini", Endpoint.from_env())
    reply = client.complete(messages, tools=TOOLS)   # reply.tool_calls, reply.prompt_tokens, ...

The endpoint comes from the environment: OPENAI_BASE_URL (default https://api.openai.com/v1),
OPENAI_API_KEY (optional for local servers), SENTINEL_LLM_TIMEOUT_S (seconds one request may
take, default 60) and SENTINEL_LLM_RETRIES (default 3). Rate limits (429), server errors (5xx),
timeouts and dropped connections are retried with growing pauses; anything else, or the last
failure, raises LLMError with a one-line reason.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sentinel.agents.usage import estimate_prompt_tokens, estimate_tokens

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_RETRIES = 3
RETRY_STATUSES = {408, 409, 429, 500, 502, 503, 504}
MAX_PAUSE_S = 20.0


class LLMError(Exception):
    """The endpoint could not give an answer (after retries, where retrying makes sense)."""


@dataclass(frozen=True)
class Endpoint:
    base_url: str = DEFAULT_BASE_URL
    api_key: str | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    retries: int = DEFAULT_RETRIES

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Endpoint:
        def number(name: str, default: float) -> float:
            try:
                return float(environ.get(name) or default)
            except ValueError:
                raise LLMError(f"{name}={environ[name]!r} is not a number") from None

        return cls(base_url=(environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL).rstrip("/"),
                   api_key=environ.get("OPENAI_API_KEY") or None,
                   timeout_s=number("SENTINEL_LLM_TIMEOUT_S", DEFAULT_TIMEOUT_S),
                   retries=int(number("SENTINEL_LLM_RETRIES", DEFAULT_RETRIES)))

    def headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
            if (urllib.parse.urlsplit(self.base_url).hostname or "").endswith(".azure.com"):
                headers["api-key"] = self.api_key  # Azure OpenAI takes its keys in this header
        return headers


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]
    error: str | None = None  # the arguments were not a JSON object


@dataclass(frozen=True)
class Completion:
    message: dict[str, Any]  # the assistant message, to append to the conversation as it is
    content: str
    tool_calls: tuple[ToolCall, ...]
    prompt_tokens: int
    completion_tokens: int
    usage_reported: bool  # False: the endpoint sent no usage, so the tokens are estimated


class ChatClient:
    def __init__(self, model: str, endpoint: Endpoint, *, sleep: Callable[[float], None] = time.sleep,
                 log: Callable[[str], None] = print):
        self.model = model
        self.endpoint = endpoint
        self._sleep = sleep
        self._log = log

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None,
                 deadline: float | None = None) -> Completion:
        """One chat completion. `deadline` (time.monotonic()) bounds timeouts and retry pauses."""
        body: dict[str, Any] = {"model": self.model, "messages": messages}
        if tools:
            body["tools"] = tools
            body["tool_choice"] = "auto"
        data = self._post(json.dumps(body).encode("utf-8"), deadline)
        return parse_completion(data, messages, tools)

    def _post(self, payload: bytes, deadline: float | None) -> dict[str, Any]:
        url = f"{self.endpoint.base_url}/chat/completions"
        attempt = 0
        while True:
            timeout = self.endpoint.timeout_s
            if deadline is not None:
                timeout = min(timeout, deadline - time.monotonic())
                if timeout <= 0:
                    raise LLMError("no time left for a model call")
            request = urllib.request.Request(url, data=payload, headers=self.endpoint.headers(), method="POST")
            try:
                with urllib.request.urlopen(request, timeout=timeout) as response:
                    return _json_object(response.read())
            except urllib.error.HTTPError as err:
                reason = f"{url} answered {err.code}: {_error_text(err)}"
                retry = err.code in RETRY_STATUSES
                pause = _retry_after(err.headers.get("Retry-After"))
            except TimeoutError:
                reason, retry, pause = f"{url} did not answer within {timeout:.1f} s", True, None
            except (urllib.error.URLError, ConnectionError, OSError) as err:
                reason, retry, pause = f"cannot reach {url}: {getattr(err, 'reason', err)}", True, None
            attempt += 1
            if not retry or attempt > self.endpoint.retries:
                raise LLMError(reason)
            pause = min(MAX_PAUSE_S, pause if pause is not None else 2 ** (attempt - 1))
            if deadline is not None and time.monotonic() + pause >= deadline:
                raise LLMError(f"{reason} (no time left to retry)")
            self._log(f"model call failed ({reason}); retry {attempt} of {self.endpoint.retries} in {pause:g} s")
            self._sleep(pause)


def parse_completion(data: dict[str, Any], messages: list[dict[str, Any]],
                     tools: list[dict[str, Any]] | None) -> Completion:
    """Read a chat-completions answer; estimate the usage if the endpoint sent none."""
    try:
        message = data["choices"][0]["message"]
    except (KeyError, IndexError, TypeError):
        raise LLMError(f"the answer has no choices[0].message: {json.dumps(data)[:200]}") from None
    content = message.get("content") or ""
    calls = tuple(_tool_call(raw, i) for i, raw in enumerate(message.get("tool_calls") or ()))
    usage = data.get("usage") or {}
    reported = isinstance(usage.get("prompt_tokens"), int)
    if reported:
        prompt, completion = usage["prompt_tokens"], int(usage.get("completion_tokens") or 0)
    else:
        prompt = estimate_prompt_tokens(messages, tools)
        completion = estimate_tokens(content + "".join(c.name + json.dumps(c.arguments) for c in calls))
    return Completion(assistant_message(content, calls), content, calls, prompt, completion, reported)


def assistant_message(content: str, calls: tuple[ToolCall, ...]) -> dict[str, Any]:
    """An assistant turn as it goes back into the conversation."""
    message: dict[str, Any] = {"role": "assistant", "content": content or None}
    if calls:
        message["tool_calls"] = [{"id": c.id, "type": "function",
                                  "function": {"name": c.name, "arguments": json.dumps(c.arguments)}} for c in calls]
    return message


def _tool_call(raw: Any, index: int) -> ToolCall:
    function = (raw.get("function") or {}) if isinstance(raw, dict) else {}
    call_id = (raw.get("id") if isinstance(raw, dict) else None) or f"call_{index}"
    name = str(function.get("name") or "")
    arguments = function.get("arguments") or "{}"
    if isinstance(arguments, dict):  # some servers send an object instead of a JSON string
        return ToolCall(call_id, name, arguments)
    try:
        parsed = json.loads(arguments)
    except (TypeError, ValueError):
        return ToolCall(call_id, name, {}, error=f"arguments are not valid JSON: {str(arguments)[:120]}")
    if not isinstance(parsed, dict):
        return ToolCall(call_id, name, {}, error="arguments must be a JSON object")
    return ToolCall(call_id, name, parsed)


def _json_object(raw: bytes) -> dict[str, Any]:
    try:
        data = json.loads(raw)
    except ValueError:
        raise LLMError(f"the answer is not JSON: {raw[:200]!r}") from None
    if not isinstance(data, dict):
        raise LLMError("the answer is not a JSON object")
    return data


def _error_text(err: urllib.error.HTTPError) -> str:
    try:
        body = err.read().decode("utf-8", errors="replace")
    except OSError:
        return err.reason or ""
    try:
        detail = json.loads(body).get("error")
        if isinstance(detail, dict):
            return str(detail.get("message") or detail)[:300]
        if detail:
            return str(detail)[:300]
    except (ValueError, AttributeError):
        pass
    return " ".join(body.split())[:300]


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None
