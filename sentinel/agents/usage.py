"""Token accounting: the strategy agents' costs.json, and costs.json derived from the usage
logs an agent written for the original SentinelBench leaves behind (derive_costs).

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

from sentinel.core.files import write_json_atomic

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
    scale = min(1.0, 2048 / max(width, height))  # the long side fits in 2048
    wide, high = width * scale, height * scale
    scale = min(1.0, 768 / min(wide, high))  # then the short side in 768
    wide, high = wide * scale, high * scale
    return IMAGE_BASE_TOKENS + IMAGE_TILE_TOKENS * math.ceil(wide / 512) * math.ceil(high / 512)


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


# --- costs.json from an agent's own OpenAI-style usage logs ---------------------------------
# Browser agents written for the original SentinelBench log every model call's `usage` object
# to usage.jsonl and their conversation to all_messages.json, in their working folder or in a
# run folder one level below it; the original sums them into costs.json with a script run
# after the benchmark. The runner does it at the end of each session instead.

USAGE_LOG = "usage.jsonl"
MESSAGES_LOG = "all_messages.json"
COSTS_FILE = "costs.json"
MAX_USAGE_BYTES = 256 * 1024 * 1024  # read no further: an agent's folder is not trusted
MAX_MESSAGES_BYTES = 64 * 1024 * 1024
MAX_LINE_BYTES = 1024 * 1024  # a usage object is a few hundred bytes


@dataclass
class UsageTotals:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    total_tokens: int = 0
    llm_calls: int = 0
    tool_calls: int = 0
    unreadable_lines: int = 0
    models: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def add_call(self, entry: Any) -> None:
        """One line of usage.jsonl: {"usage": {...}, "model": ...} or a bare usage object."""
        self.llm_calls += 1
        if not isinstance(entry, dict):
            return
        nested = entry.get("usage")
        usage: dict[str, Any] = nested if isinstance(nested, dict) else entry
        prompt = _count(usage.get("prompt_tokens", usage.get("input_tokens")))
        completion = _count(usage.get("completion_tokens", usage.get("output_tokens")))
        details = usage.get("completion_tokens_details") or usage.get("output_tokens_details")
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        self.reasoning_tokens += _count(details.get("reasoning_tokens")) if isinstance(details, dict) else 0
        total = usage.get("total_tokens")
        self.total_tokens += _count(total) if total is not None else prompt + completion
        model = entry.get("model")
        if isinstance(model, str) and model:
            self.models[model] = self.models.get(model, 0) + 1

    def to_costs(self, sources: list[str]) -> dict[str, Any]:
        model = max(self.models, key=lambda m: self.models[m]) if self.models else None
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "reasoning_tokens": self.reasoning_tokens, "total_tokens": self.total_tokens,
                "llm_calls": self.llm_calls, "tool_calls": self.tool_calls, "model": model,
                "estimated": False, "derived_from": sources, "unreadable_lines": self.unreadable_lines,
                **({"notes": self.notes} if self.notes else {})}


def derive_costs(agent_dir: Path) -> dict[str, Any] | None:
    """Write costs.json in the agent's folder from the usage logs it left there, when it wrote
    no costs.json itself; return what was written, or None when there was nothing to derive.

    usage.jsonl (one model call per line) is looked for in the folder and in its direct
    subfolders (the original's browser agent writes into a run folder named by a UUID); the
    tool calls are those of the assistant messages in the all_messages.json beside it."""
    costs = agent_dir / COSTS_FILE
    if costs.exists() or costs.is_symlink():
        return None
    logs = usage_logs(agent_dir)
    if not logs:
        return None
    totals = UsageTotals()
    for log in logs:
        _add_usage_log(totals, log)
        _add_tool_calls(totals, log.parent / MESSAGES_LOG, agent_dir)
    record = totals.to_costs([str(log.relative_to(agent_dir)) for log in logs])
    try:
        write_json_atomic(costs, record)
    except OSError:  # the agent took away our right to write in its folder: no costs, no crash
        return None
    return record


def usage_logs(agent_dir: Path) -> list[Path]:
    """Regular usage.jsonl files (never links) in the folder and one level below, sorted."""
    if not agent_dir.is_dir():
        return []
    candidates = [agent_dir / USAGE_LOG]
    try:
        candidates += sorted(d / USAGE_LOG for d in agent_dir.iterdir() if d.is_dir() and not d.is_symlink())
    except OSError:
        pass
    return [p for p in candidates if _regular_file(p)]


def _add_usage_log(totals: UsageTotals, log: Path) -> None:
    read = 0
    try:
        with log.open("rb") as handle:
            while True:
                raw = handle.readline(MAX_LINE_BYTES)
                read += len(raw)
                if not raw:
                    return
                if read > MAX_USAGE_BYTES:
                    totals.notes.append(f"{log.name}: read only the first {MAX_USAGE_BYTES} bytes")
                    return
                if len(raw) == MAX_LINE_BYTES and not raw.endswith(b"\n"):  # no usage line is this long
                    totals.unreadable_lines += 1
                    while raw and not raw.endswith(b"\n") and read <= MAX_USAGE_BYTES:
                        raw = handle.readline(MAX_LINE_BYTES)
                        read += len(raw)
                    continue
                _add_line(totals, raw)
    except OSError as exc:
        totals.notes.append(f"{log.name}: cannot be read ({exc.strerror})")


def _add_line(totals: UsageTotals, raw: bytes) -> None:
    line = raw.strip()
    if not line:
        return
    try:
        entry = json.loads(line)
    except (ValueError, RecursionError):  # a line cut short when the agent was killed, or not JSON
        totals.unreadable_lines += 1
        return
    totals.add_call(entry)


def _add_tool_calls(totals: UsageTotals, messages_path: Path, agent_dir: Path) -> None:
    if not _regular_file(messages_path):
        return
    where = str(messages_path.relative_to(agent_dir))
    try:
        if messages_path.stat().st_size > MAX_MESSAGES_BYTES:
            totals.notes.append(f"{where}: larger than {MAX_MESSAGES_BYTES} bytes, tool calls not counted")
            return
        messages = json.loads(messages_path.read_bytes())
    except (OSError, ValueError, RecursionError):
        totals.notes.append(f"{where}: not readable JSON, tool calls not counted")
        return
    if isinstance(messages, dict):
        messages = messages.get("messages")
    if not isinstance(messages, list):
        totals.notes.append(f"{where}: not a list of messages, tool calls not counted")
        return
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "assistant":
            calls = message.get("tool_calls")
            totals.tool_calls += len(calls) if isinstance(calls, list) else 0


def _regular_file(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def _count(value: Any) -> int:
    """A token count as logged; anything that is not a non-negative number counts as 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        return 0
    return int(value)
