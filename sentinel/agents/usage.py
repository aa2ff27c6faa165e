"""Token accounting for the strategy agents, written to the session's costs.json.

An LLM's tokens come from the API's `usage`. The rule-based judge and planner send nothing, so
they count the text they would have sent: characters / 4, a common rule of thumb for English
with OpenAI tokenizers, plus a few tokens per message for the chat format. A screenshot
(an `image_url` part, PNG) counts by OpenAI's published rule for high-detail images: scale to
fit 2048 × 2048, then so the short side is at most 768 px, and count 85 tokens plus 170 per
512-px tile (a 1280 × 800 viewport: 6 tiles, 1,105 tokens). Such counts are written with
`"estimated": true`.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sentinel.files import write_json_atomic

CHARS_PER_TOKEN = 4
TOKENS_PER_MESSAGE = 4  # role and separators of the chat format
IMAGE_BASE_TOKENS = 85
IMAGE_TILE_TOKENS = 170
UNREADABLE_IMAGE_TOKENS = 765  # a 1024 × 768 image, when a data URL's size cannot be read


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def image_tokens(width: int, height: int) -> int:
    """Tokens of one high-detail image of this size (OpenAI's tile rule)."""
    if width <= 0 or height <= 0:
        return IMAGE_BASE_TOKENS
    scale = min(1.0, 2048 / max(width, height))
    width, height = width * scale, height * scale
    scale = min(1.0, 768 / min(width, height))
    width, height = width * scale, height * scale
    return IMAGE_BASE_TOKENS + IMAGE_TILE_TOKENS * math.ceil(width / 512) * math.ceil(height / 512)


def png_size(data_url: str) -> tuple[int, int] | None:
    """Width and height of a base64 PNG data URL, from its IHDR header."""
    _, _, payload = data_url.partition("base64,")
    try:
        head = base64.b64decode(payload[:44])  # 33 bytes: signature and IHDR
    except (binascii.Error, ValueError):
        return None
    if len(head) < 24 or not head.startswith(b"\x89PNG"):
        return None
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def content_tokens(content: Any) -> tuple[int, int]:
    """(all tokens, image tokens) of a message's content: a string, or a list of text and
    image_url parts."""
    if isinstance(content, str) or not content:
        return estimate_tokens(content or ""), 0
    text = images = 0
    for part in content:
        if part.get("type") == "image_url":
            size = png_size(str((part.get("image_url") or {}).get("url", "")))
            images += image_tokens(*size) if size else UNREADABLE_IMAGE_TOKENS
        else:
            text += estimate_tokens(str(part.get("text") or ""))
    return text + images, images


def estimate_image_tokens(messages: list[dict[str, Any]]) -> int:
    """The share of a request's prompt that is images."""
    return sum(content_tokens(message.get("content"))[1] for message in messages)


def estimate_prompt_tokens(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> int:
    """What a chat-completions request with these messages and tool schemas would cost."""
    total = 0
    for message in messages:
        total += TOKENS_PER_MESSAGE + content_tokens(message.get("content"))[0]
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
    image_tokens: int = 0  # the estimated share of prompt_tokens that was screenshots
    screenshots: int = 0  # screenshots taken and shown to the planner

    def add(self, role: str, prompt_tokens: int, completion_tokens: int, image_tokens: int = 0) -> None:
        self.image_tokens += image_tokens
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
        data = {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "tool_calls": self.tool_calls, "model": self.model, "estimated": self.estimated,
                "model_calls": dict(self.calls), "model_errors": self.errors}
        if self.screenshots:
            data.update(screenshots=self.screenshots, image_tokens=self.image_tokens)
        return data

    def save(self) -> None:
        """Written after every model call, so a session killed at its deadline keeps its cost."""
        if self.path is not None:
            write_json_atomic(self.path, self.to_dict())
