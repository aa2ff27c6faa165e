"""A small publish/subscribe bus: the runner and sessions publish, displays subscribe.

Subscribers are plain callables run synchronously in publish order; one that raises is
reported on stderr and dropped from that message only, so a broken display never stops a run.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable

# Message kinds, published with the session key "<env>/<scenario short id>" where relevant.
RUN_STARTED = "run_started"        # data: run name, selection size, agent
SESSION_READY = "session_ready"    # data: url, prompt, pending events
SESSION_STARTED = "session_started"  # the agent opened /start: the clock runs
EVENT_FIRED = "event_fired"        # data: FiredEvent record
AGENT_OUTPUT = "agent_output"      # data: a line of agent output
AGENT_REQUEST = "agent_request"    # data: method, path, status
CONTACT = "contact"                # data: sim time of contact
SESSION_GRADED = "session_graded"  # data: the Result
SESSION_SKIPPED = "session_skipped"  # resumed run: already finished
RUN_FINISHED = "run_finished"      # data: summary


@dataclass(frozen=True)
class Message:
    kind: str
    session: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    wall: float = field(default_factory=time.time)


class Bus:
    def __init__(self) -> None:
        self._subscribers: list[Callable[[Message], None]] = []

    def subscribe(self, callback: Callable[[Message], None]) -> Callable[[], None]:
        """Add a subscriber; return a function that removes it."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    def publish(self, kind: str, session: str | None = None, **data: Any) -> None:
        message = Message(kind, session, data)
        for callback in list(self._subscribers):
            try:
                callback(message)
            except Exception as exc:  # a display must never break a run
                print(f"sentinel: a subscriber failed on {kind}: {exc!r}", file=sys.stderr)
