"""The record of a session's MCP calls: one line per call in the session folder's mcp.jsonl
(sim time, tool, arguments, a short result, whether it failed), and the count per tool that
result.json gives as `mcp_calls`. No MCP SDK here: grading reads the counts."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

CALLS_FILE = "mcp.jsonl"
MAX_LOGGED_CHARS = 200  # of an argument or a result, in mcp.jsonl


def _short(value: Any) -> Any:
    if isinstance(value, str):
        return value if len(value) <= MAX_LOGGED_CHARS else value[:MAX_LOGGED_CHARS] + "…"
    if isinstance(value, dict):
        return {str(k): _short(v) for k, v in list(value.items())[:20]}
    if isinstance(value, list):
        return [_short(v) for v in value[:20]]
    return value


class CallLog:
    """The session's record of MCP calls, in sim seconds."""

    def __init__(self, now: Callable[[], float]):
        self.now = now
        self.records: list[dict[str, Any]] = []

    def add(self, tool: str, arguments: dict[str, Any], result: str, error: bool) -> None:
        self.records.append({"sim": round(self.now(), 3), "tool": tool, "arguments": _short(arguments),
                             "result": _short(result.splitlines()[0] if result else ""), "error": error})



def count_calls(records: list[dict[str, Any]]) -> dict[str, int]:
    counted: dict[str, int] = {}
    for record in records:
        counted[str(record.get("tool"))] = counted.get(str(record.get("tool")), 0) + 1
    return counted


def read_calls(session_dir: Path) -> dict[str, int]:
    """Calls per tool of a finished session (its mcp.jsonl); {} without one."""
    path = session_dir / CALLS_FILE
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    return count_calls([json.loads(line) for line in lines if line.strip()])

