"""Screenshots as evidence: what a browser agent's window showed, kept beside the session's pages
(docs/evidence.md#screenshots).

A `ShotRecorder` writes pictures into `shots/` of the agent's working folder (JPEG for its own,
PNG for those the agent took for its model), with one line each in
`shots/index.jsonl` (wall time, why it was taken, the page's path). It takes one at every page
load and, while the agent only re-reads the page it is on, at most one per `idle_every_s` wall
seconds; a screenshot the agent takes for itself is kept too. Past the session's evidence cap
(SENTINEL_EVIDENCE_CAP_BYTES, from `run.evidence_cap_bytes`) it keeps no more and says so in the
index. At the end the session moves them into its folder with their sim times
(sentinel/session/shots.py).

Any browser the session drives (the Chromium agents, a session-owned browser) records through
`ShotRecorder.take(png, reason, path)`; `ShotRecorder.for_agent()` builds one from the agent's
environment.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SHOTS_FOLDER = "shots"
INDEX = "index.jsonl"
CAP_ENV = "SENTINEL_EVIDENCE_CAP_BYTES"
DEFAULT_CAP_BYTES = 20_000_000
IDLE_EVERY_S = 5.0
JPEG_QUALITY = 70  # the recorder's own pictures: about 2/3 of a PNG's bytes, the text still legible
PNG_MAGIC = b"\x89PNG"  # wall seconds between two screenshots of a page the agent only re-reads


@dataclass
class ShotRecorder:
    folder: Path | None  # the shots/ folder; None: keep nothing (not run by Sentinel)
    cap_bytes: int = DEFAULT_CAP_BYTES
    idle_every_s: float = IDLE_EVERY_S
    clock: Callable[[], float] = time.time
    count: int = 0
    stored_bytes: int = 0
    capped: bool = False
    last_at: float | None = field(default=None)
    last_digest: bytes = b""
    prefix: str = ""  # before each file's number: two recorders can share one shots/ folder

    @classmethod
    def for_agent(cls, idle_every_s: float = IDLE_EVERY_S) -> ShotRecorder:
        """A recorder writing into shots/ beside the agent's costs.json (its working folder);
        outside a Sentinel session (no SENTINEL_COSTS_FILE) one that keeps nothing, rather than
        filling whatever folder the browser was started in."""
        costs = os.environ.get("SENTINEL_COSTS_FILE")
        if not costs:
            return cls(None, 0, idle_every_s)
        try:
            cap = int(os.environ.get(CAP_ENV, DEFAULT_CAP_BYTES))
        except ValueError:
            cap = DEFAULT_CAP_BYTES
        return cls(Path(costs).parent / SHOTS_FOLDER, cap, idle_every_s)

    def idle_due(self) -> bool:
        """A re-read of the same page may take a screenshot now."""
        return self.last_at is None or self.clock() - self.last_at >= self.idle_every_s

    def take(self, png: bytes, reason: str, path: str, at: float | None = None) -> bool:
        # `png`: the picture's bytes, PNG or JPEG (its file is named by its kind)
        """Keep one screenshot taken at wall time `at` (default: now); False when it is the same
        picture as the last one kept, or the cap keeps it out (the index says so once)."""
        now = self.clock() if at is None else at
        self.last_at = now
        if self.folder is None:
            return False
        digest = hashlib.sha1(png).digest()
        if self.capped or digest == self.last_digest:
            return False
        self.last_digest = digest
        if self.stored_bytes + len(png) > self.cap_bytes:
            self.capped = True
            self._index({"wall": round(now, 3), "cap_hit": True, "cap_bytes": self.cap_bytes})
            return False
        self.count += 1
        name = f"{self.prefix}{self.count:05d}.{'png' if png.startswith(PNG_MAGIC) else 'jpg'}"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / name).write_bytes(png)
        except OSError:
            return False  # a full disk: the agent goes on without evidence
        self.stored_bytes += len(png)
        self._index({"wall": round(now, 3), "file": name, "reason": reason, "path": path, "bytes": len(png)})
        return True

    def _index(self, record: dict) -> None:
        if self.folder is None:
            return
        try:
            with (self.folder / INDEX).open("a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")
        except OSError:
            pass
