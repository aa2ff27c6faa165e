"""A small publish/subscribe bus: the runner and sessions publish, displays subscribe.

Each kind of message is its own frozen dataclass, so a subscriber matches on the type and
reads typed fields. Session messages carry the session key "<env>/<scenario short id>"
(with ".t<n>" when trials repeat). Subscribers are plain callables run synchronously in
publish order; one that raises is reported on stderr and dropped from that message only, so
a broken display never stops a run.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sentinel.core.grading import Result
    from sentinel.core.summary import Summary


@dataclass(frozen=True, kw_only=True)
class Message:
    """Every message: the wall-clock moment (time.time()) it was published."""
    wall: float = field(default_factory=time.time)

    @property
    def session(self) -> str | None:
        return None


@dataclass(frozen=True, kw_only=True)
class RunStarted(Message):
    run: str
    total: int  # sessions in the plan
    to_run: int  # of which still to run (a resumed run keeps the finished ones)
    agent: str
    speed: float


@dataclass(frozen=True, kw_only=True)
class RunFinished(Message):
    run: str
    summary: Summary | None
    wall_s: float


@dataclass(frozen=True, kw_only=True)
class RunNotice(Message):
    """Something the person running should know while the run lasts (the machine is busy)."""
    run: str
    text: str


@dataclass(frozen=True, kw_only=True)
class SessionMessage(Message):
    key: str  # "<env>/<scenario short id>"

    @property
    def session(self) -> str | None:
        return self.key


@dataclass(frozen=True, kw_only=True)
class SessionReady(SessionMessage):
    """The session's site is up and its agent is about to start."""
    url: str | None
    task_url: str
    prompt: str
    pending: tuple[tuple[float, str], ...]  # (sim time, description) of every event still to fire


@dataclass(frozen=True, kw_only=True)
class SessionStarted(SessionMessage):
    """The agent opened /start: the clock runs."""


@dataclass(frozen=True, kw_only=True)
class EventFired(SessionMessage):
    record: dict[str, Any]  # the FiredEvent record, as events.jsonl stores it
    pending: int  # events still to fire


@dataclass(frozen=True, kw_only=True)
class AgentOutput(SessionMessage):
    line: str


@dataclass(frozen=True, kw_only=True)
class AgentRequest(SessionMessage):
    method: str
    path: str
    status: int


@dataclass(frozen=True, kw_only=True)
class Contacted(SessionMessage):
    """The agent's first GET of /contact: the world froze at this sim time."""
    sim: float


@dataclass(frozen=True, kw_only=True)
class SessionGraded(SessionMessage):
    result: Result


@dataclass(frozen=True, kw_only=True)
class SessionSkipped(SessionMessage):
    """A resumed run keeps this session's earlier result."""
    result: Result


class Bus:
    def __init__(self) -> None:
        self._subscribers: list[Callable[[Message], None]] = []

    def subscribe(self, callback: Callable[[Message], None]) -> Callable[[], None]:
        """Add a subscriber; return a function that removes it."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    def publish(self, message: Message) -> None:
        for callback in list(self._subscribers):
            try:
                callback(message)
            except Exception as exc:  # a display must never break a run
                print(f"sentinel: a subscriber failed on {type(message).__name__}: {exc!r}", file=sys.stderr)
