"""Atomic file writes: write a temporary file beside the target, then rename it into place.

A reader (or a resumed run after a crash) sees either the old file or the whole new one,
never half of one.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def write_atomic(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json_atomic(path: Path, data: Any) -> None:
    write_atomic(path, json.dumps(data, indent=2, default=str) + "\n")


def write_jsonl_atomic(path: Path, records: Iterable[Any]) -> None:
    write_atomic(path, "".join(json.dumps(r, default=str) + "\n" for r in records))


def read_json(path: Path) -> Any | None:
    """The parsed file, or None if it is missing or not valid JSON (a crash left it behind)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def remove_temporaries(folder: Path) -> int:
    """Delete leftover *.tmp files of interrupted atomic writes under folder; return how many."""
    count = 0
    for tmp in folder.rglob(".*.tmp"):
        tmp.unlink(missing_ok=True)
        count += 1
    return count
