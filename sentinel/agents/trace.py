"""The strategy agents' own record of what they did: `trace.jsonl` beside costs.json, one line
per planner decision with the tool calls it made, what each returned, and the tokens it took.

`sentinel export --format atif` turns it into the steps of an ATIF trajectory
(docs/evidence.md#export); an agent of one's own may write the same lines.

    {"wall": 1796168200.1, "message": "...", "prompt_tokens": 812, "completion_tokens": 40,
     "calls": [{"id": "call_1", "name": "open", "arguments": {...}, "result": "..."}]}
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from sentinel.agents.usage import Meter

TRACE_FILE = "trace.jsonl"
MAX_RESULT_CHARS = 20_000  # a tool result as the planner saw it, at most (a page reading is cut at as much)


@dataclass
class Turn:
    """One decision of the planner: begun before its tool calls run, written after them."""
    meter: Meter
    wall: float = field(default_factory=time.time)
    calls: list[dict[str, Any]] = field(default_factory=list)
    prompt_before: int = 0
    completion_before: int = 0

    @classmethod
    def begin(cls, meter: Meter) -> Turn:
        """A turn starting now: the tokens counted from here on (planner and judge) are its own."""
        return cls(meter, prompt_before=meter.prompt_tokens, completion_before=meter.completion_tokens)

    def add(self, call_id: str, name: str, arguments: dict[str, Any], result: str) -> None:
        self.calls.append({"id": call_id, "name": name, "arguments": arguments,
                           "result": result[:MAX_RESULT_CHARS]})

    def save(self, message: dict[str, Any]) -> None:
        """Append the turn to trace.jsonl beside costs.json (nothing without a costs file)."""
        if self.meter.path is None:
            return
        content = message.get("content")
        record = {"wall": round(self.wall, 3), "message": content if isinstance(content, str) else "",
                  "model": self.meter.model,
                  "prompt_tokens": self.meter.prompt_tokens - self.prompt_before,
                  "completion_tokens": self.meter.completion_tokens - self.completion_before,
                  "calls": self.calls}
        try:
            with (self.meter.path.parent / TRACE_FILE).open("a", encoding="utf-8") as out:
                out.write(json.dumps(record, default=str) + "\n")
        except OSError:
            pass  # a full or read-only folder: the agent goes on; the trace is evidence, not state

