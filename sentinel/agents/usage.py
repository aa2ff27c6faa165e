"""Token accounting for the strategy agents, written to the session's costs.json.

An LLM's tokens come from the API's `usage`. The rule-based judge and planner send nothing, so
they count the text they would have sent: characters / 4, a common rule of thumb for English
with OpenAI tokenizers, plus a few tokens per message for the chat format. Such counts are
written with `"estimated": true`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sentinel.files import write_json_atomic

CHARS_PER_TOKEN = 4
TOKENS_PER_MESSAGE = 4  # role and separators of the chat format


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def estimate_prompt_tokens(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> int:
    """What a chat-completions request with these messages and tool schemas would cost."""
    total = 0
    for message in messages:
        total += TOKENS_PER_MESSAGE + estimate_tokens(message.get("content") or "")
        for call in message.get("tool_calls") or ():
            total += estimate_tokens(call["function"]["name"] + call["function"]["arguments"])
    if tools:
        total += estimate_tokens(json.dumps(tools, separators=(",", ":")))
    return total


@dataclass
class Meter:
    """Running totals for one agent process; `save` writes them as costs.json."""
    model: str
    estimated: bool = False
    path: Path | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tool_calls: int = 0
    calls: dict[str, int] = field(default_factory=dict)  # model calls by role: planner, judge
    errors: int = 0

    def add(self, role: str, prompt_tokens: int, completion_tokens: int) -> None:
        self.prompt_tokens += prompt_tokens
        self.completion_tokens += completion_tokens
        self.calls[role] = self.calls.get(role, 0) + 1
        self.save()

    def add_tool_call(self) -> None:
        self.tool_calls += 1

    def add_error(self) -> None:
        self.errors += 1
        self.save()

    def to_dict(self) -> dict[str, Any]:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "tool_calls": self.tool_calls, "model": self.model, "estimated": self.estimated,
                "model_calls": dict(self.calls), "model_errors": self.errors}

    def save(self) -> None:
        """Written after every model call, so a session killed at its deadline keeps its cost."""
        if self.path is not None:
            write_json_atomic(self.path, self.to_dict())
