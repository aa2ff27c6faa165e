"""`sentinel show`: the page an agent had been served at a sim moment, as its visible text, with
what changed since the page before (docs/evidence.md#show).

The text is the built-in text browser's view of the page (sentinel/core/pagetext.py), so a page
shown again reads as a built-in agent read it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from sentinel.core.errors import SentinelError
from sentinel.core.evidence import Served, read_page, seen_page_at, served_requests
from sentinel.core.grading import Result
from sentinel.core.pagetext import parse_page


@dataclass(frozen=True)
class ShownPage:
    scenario_id: str
    at_sim: float
    at_report: bool  # at_sim is the report's moment
    request: Served  # the request that served (or confirmed, with a 304) the page
    body_sha: str
    html: bytes
    text: str
    previous: Served | None  # the request of the page before, with another body
    changes: list[str]  # unified diff lines of the visible text, previous → this

    def header(self) -> str:
        moment = "the report" if self.at_report else f"sim {self.at_sim:g} s"
        line = (f"{self.scenario_id} at {moment}: {self.request.method} {self.request.path} "
                f"({self.request.status}) served at sim {self.request.sim:g} s, body {self.body_sha[:12]}")
        return line

    def lines(self) -> list[str]:
        """What `sentinel show` prints."""
        out = [self.header(), "", self.text, ""]
        if self.previous is None:
            out.append("changes: none before (the first page the agent was served)")
        elif not self.changes:
            out.append(f"changes since {self.previous.path} at sim {self.previous.sim:g} s: "
                       "none in the visible text")
        else:
            out.append(f"changes since {self.previous.path} at sim {self.previous.sim:g} s:")
            out.extend(self.changes)
        return out


def page_text(html: bytes, path: str, status: int) -> str:
    """The visible text of a stored page, one block per line."""
    return parse_page(path, status, html.decode("utf-8", "replace")).text


def show_page(folder: Path, result: Result, at_sim: float | None = None) -> ShownPage:
    """The page the agent of this session had last been served at `at_sim` (default: its report;
    without a report, the end of the session)."""
    requests = served_requests(folder)
    at_report = at_sim is None and result.contact_at is not None
    moment = at_sim if at_sim is not None else (result.contact_at if at_report else float("inf"))
    assert moment is not None
    found = seen_page_at(requests, moment)
    if found is None:
        where = "at the report" if at_report else f"by sim {moment:g} s"
        raise SentinelError(f"{result.scenario_id}: the agent had been served no page {where}")
    index, sha = found
    request = requests[index]
    html = _stored(folder, result.scenario_id, sha)
    text = page_text(html, request.path, request.status)
    previous = _page_before(requests, index, sha)
    changes: list[str] = []
    if previous is not None and previous.body is not None:
        before = page_text(_stored(folder, result.scenario_id, previous.body), previous.path, previous.status)
        changes = [line for line in difflib.unified_diff(before.splitlines(), text.splitlines(), lineterm="", n=0)
                   if not line.startswith(("---", "+++", "@@"))]
    shown_at = moment if moment != float("inf") else request.sim
    return ShownPage(result.scenario_id, shown_at, at_report, request, sha, html, text, previous, changes)


def _page_before(requests: list[Served], index: int, sha: str) -> Served | None:
    """The last page served before requests[index] whose body differs from it."""
    for request in reversed(requests[:index]):
        if request.body and request.body != sha and not request.is_report:
            return request
    return None


def _stored(folder: Path, scenario_id: str, sha: str) -> bytes:
    try:
        return read_page(folder, sha)
    except FileNotFoundError:
        raise SentinelError(f"{scenario_id}: the page body {sha[:12]} is not stored in {folder} "
                            "(a run from before pages were kept?)") from None
