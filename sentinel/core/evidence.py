"""Where a session keeps the evidence of what its agent saw (docs/evidence.md), and how to read it.

    <session>/requests.jsonl          one line per request; a page's line names its body ("body")
    <session>/pages/<digest>.html.gz  each distinct body served, once (digest: 20 hex of its SHA-1)
    <session>/pages.json              how much was stored, and whether the cap was hit
    <session>/shots/<n>.png           browser screenshots (browser agents)
    <session>/shots.jsonl             one line per screenshot: file, sim seconds, why it was taken

The session writes them (sentinel/session/pages.py, sentinel/session/shots.py); `sentinel show`,
the report and the exports read them through the functions here.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path

PAGES_FOLDER = "pages"
PAGES_INDEX = "pages.json"
PAGE_SUFFIX = ".html.gz"
SHOTS_FOLDER = "shots"
SHOTS_INDEX = "shots.jsonl"
REQUESTS_LOG = "requests.jsonl"


def page_file(folder: Path, sha: str) -> Path:
    """Where a stored body lives under a session folder."""
    return folder / PAGES_FOLDER / f"{sha}{PAGE_SUFFIX}"


def read_page(folder: Path, sha: str) -> bytes:
    """A stored body's bytes (FileNotFoundError when it was never stored)."""
    return gzip.decompress(page_file(folder, sha).read_bytes())


def read_jsonl(path: Path) -> list[dict]:
    """The records of a JSON-lines file; [] when it is missing. A torn last line is skipped."""
    if not path.is_file():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records


@dataclass(frozen=True)
class Served:
    """One request of the agent's, as requests.jsonl recorded it."""
    sim: float
    wall_s: float  # wall seconds after clock start
    method: str
    path: str
    status: int
    body: str | None  # the stored body's digest, when the answer carried one and it was kept
    live: bool = False
    capped: bool = False  # the body was not kept: the session's evidence cap was reached

    @classmethod
    def of(cls, record: dict) -> Served:
        return cls(sim=float(record.get("sim", 0.0)), wall_s=float(record.get("wall_s", 0.0)),
                   method=str(record.get("method", "GET")), path=str(record.get("path", "")),
                   status=int(record.get("status", 0)),
                   body=record.get("body"), live=bool(record.get("live")), capped=bool(record.get("body_cap")))

    @property
    def static(self) -> bool:
        return self.path.startswith("/static/")

    @property
    def is_report(self) -> bool:
        """The site's own contact page: the agent's report, not a page of the app it watched."""
        return self.path == "/contact" or self.path.startswith("/contact?")


def served_requests(folder: Path) -> list[Served]:
    """The agent's requests of a session, in order, without static files."""
    return [s for s in map(Served.of, read_jsonl(folder / REQUESTS_LOG)) if not s.static]


def seen_page_at(requests: list[Served], sim: float) -> tuple[int, str] | None:
    """The request whose page of the app the agent had last been served at `sim`, and its body:
    the last answer with a body; a 304 stands for the last body served for its path (the agent's
    copy). The contact page is left out: at the report it is the page the agent opens last."""
    last_body: dict[str, str] = {}
    found: tuple[int, str] | None = None
    for index, request in enumerate(requests):
        if request.sim > sim:
            break
        if request.is_report:
            continue
        if request.body:
            last_body[request.path] = request.body
            found = (index, request.body)
        elif request.status == 304 and request.path in last_body:
            found = (index, last_body[request.path])
    return found


def sim_at_wall(records: list[dict], wall: float, speed: float, end_sim: float) -> float:
    """The sim time at a wall clock time (epoch seconds) of a session, from its request log: the
    last request at or before it, plus the wall seconds since at the session's speed; never past
    the session's end (its world froze at the report)."""
    sim, at = 0.0, None
    for record in records:
        if record.get("wall", 0.0) > wall:
            break
        sim, at = float(record.get("sim", 0.0)), float(record["wall"])
    if at is None:
        return 0.0
    return round(min(end_sim, sim + (wall - at) * speed), 4)


@dataclass(frozen=True)
class Shot:
    """One screenshot of the session's browser."""
    file: str  # under shots/
    sim: float
    reason: str  # load, idle, agent
    path: str  # the page's path


def shots_of(folder: Path) -> list[Shot]:
    return [Shot(str(r["file"]), float(r.get("sim", 0.0)), str(r.get("reason", "")), str(r.get("path", "")))
            for r in read_jsonl(folder / SHOTS_INDEX) if "file" in r]
