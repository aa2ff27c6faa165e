"""Pages as served: the body of every page a session served to its agent, kept once per content.

Each distinct body is stored as `pages/<digest>.html.gz` in the session's folder (the layout:
sentinel/core/evidence.py), and the
request's line in `requests.jsonl` names it (`"body": "<digest>"`: the first 20 hex digits of its
SHA-1, as in its ETag), so what the agent saw at any
moment can be shown again (`sentinel show`, docs/evidence.md#pages).

Serving stays fast: a page with an ETag is named by the hash the site made for it (no second
hash), another body seen before costs one hash (none when it is the very bytes object last
seen), and a new body is compressed and written on a worker thread. The
bytes kept per session are capped (`run.evidence_cap_bytes` in sentinel.toml); past the cap a
request's line says `"body_cap": true` instead of naming a body, and `pages.json` records when
the cap was hit.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import shutil
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from sentinel.core.evidence import PAGES_FOLDER, PAGES_INDEX, page_file
from sentinel.web.cache import body_digest

RECENT_BODIES = 16  # the page cache's bytes objects: one identity check instead of a hash
COMPRESS_LEVEL = 6


@dataclass(frozen=True)
class CapState:
    cap_bytes: int
    stored: int  # distinct bodies kept
    stored_bytes: int  # their compressed size
    skipped: int  # distinct bodies not kept because the cap was reached
    cap_hit_at_sim: float | None  # sim seconds of the first body the cap kept out

    def as_record(self) -> dict:
        return {"cap_bytes": self.cap_bytes, "stored": self.stored, "stored_bytes": self.stored_bytes,
                "skipped": self.skipped, "cap_hit": self.cap_hit_at_sim is not None,
                "cap_hit_at_sim": self.cap_hit_at_sim}


class PageStore:
    """The distinct bodies of one session, written under `folder` (a work folder moved into the
    results at the end: `move_to`)."""

    def __init__(self, folder: Path, cap_bytes: int):
        self.folder = folder
        self.cap_bytes = cap_bytes
        self._known: set[str] = set()
        self._recent: OrderedDict[int, tuple[bytes, str]] = OrderedDict()  # id(body) → (body, sha)
        self._pending: list[tuple[asyncio.Future, int]] = []  # writes under way, with the size guessed for each
        self._guessed = 0  # the guessed sizes of the writes under way
        self._written = 0  # compressed bytes of the finished writes
        self._skipped = 0
        self._cap_hit_at: float | None = None

    def record(self, body: bytes, sim: float, digest: str | None = None) -> str | None:
        """The name of this body (`digest` when the site already hashed it for its ETag), stored
        if new; None when the cap keeps it out."""
        sha = digest or self._sha_of(body)
        if sha in self._known:
            return sha
        self._settle()
        if self._written + self._guessed >= self.cap_bytes:
            self._skipped += 1
            if self._cap_hit_at is None:
                self._cap_hit_at = sim
            return None
        self._known.add(sha)
        guess = len(body) // 4 + 1  # until written: pages compress about 4-10 times
        self._guessed += guess
        # On the loop's default executor: in a run, threads raised just below the loop's priority
        # (sentinel/run/tuning.py). A writer at normal priority, preempted by the agents while it
        # held the GIL, held the loop with it: event lateness p99 went from 5 to 40-60 ms.
        write = asyncio.get_running_loop().run_in_executor(None, self._write, sha, body)
        self._pending.append((write, guess))
        return sha

    def _settle(self) -> None:
        """Count the finished writes at their real size."""
        if not self._pending or not self._pending[0][0].done():
            return
        running = []
        for future, guess in self._pending:
            if future.done():
                self._guessed -= guess
                try:
                    self._written += future.result()
                except OSError:  # a full disk: the line names a body that is missing, show says so
                    pass
            else:
                running.append((future, guess))
        self._pending = running

    def _sha_of(self, body: bytes) -> str:
        key = id(body)
        hit = self._recent.get(key)
        if hit is not None and hit[0] is body:
            self._recent.move_to_end(key)
            return hit[1]
        sha = body_digest(body)
        self._recent[key] = (body, sha)  # holding the bytes keeps their id from being reused
        if len(self._recent) > RECENT_BODIES:
            self._recent.popitem(last=False)
        return sha

    def _write(self, sha: str, body: bytes) -> int:
        path = page_file(self.folder, sha)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = gzip.compress(body, COMPRESS_LEVEL, mtime=0)
        path.write_bytes(data)
        return len(data)

    async def flush(self) -> CapState:
        """Wait for every pending write; the store's totals."""
        await asyncio.gather(*(f for f, _ in self._pending), return_exceptions=True)
        self._settle()
        return self.state()

    def state(self) -> CapState:
        return CapState(self.cap_bytes, len(self._known), self._written, self._skipped, self._cap_hit_at)

    def move_to(self, out_dir: Path, state: CapState) -> None:
        """Move the stored bodies into the session's result folder, with pages.json (blocking: call
        from a thread, after flush)."""
        source = self.folder / PAGES_FOLDER
        target = out_dir / PAGES_FOLDER
        if source.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            for path in source.iterdir():
                shutil.move(str(path), target / path.name)
        (out_dir / PAGES_INDEX).write_text(json.dumps(state.as_record()) + "\n", encoding="utf-8")
