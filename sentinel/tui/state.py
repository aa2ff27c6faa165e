"""What the dashboard knows about a run, built only from bus messages (no Textual here).

`RunState.apply` is a bus subscriber: it updates one `SessionView` per session and remembers
which sessions changed, so the screen redraws only those rows (plus the running ones, whose
sim clocks move). Sim clocks are computed from the moment a session's clock started (the
SESSION_STARTED message) and the run's speed; they stop at contact and at grading.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from sentinel.core.bus import (
    AgentOutput,
    AgentRequest,
    Contacted,
    EventFired,
    Message,
    RunFinished,
    RunStarted,
    SessionGraded,
    SessionMessage,
    SessionReady,
    SessionSkipped,
    SessionStarted,
)
from sentinel.core.grading import Result
from sentinel.core.summary import percentile

WAITING, RUNNING, CONTACTED, GRADED = "waiting", "running", "contacted", "graded"
FILTERS = ("all", "active", "failed", "passed")  # `f` cycles through them
OUTPUT_LINES = 200  # agent output kept per session
OUTPUT_LINE_CHARS = 400


@dataclass
class SessionView:
    key: str  # "<env>/<session name>", as on the bus
    environment: str
    name: str
    scenario_id: str = ""
    state: str = WAITING
    url: str | None = None  # the session's site
    task_url: str | None = None
    start_page: str = "/"
    prompt: str = ""
    pending: list[tuple[float, str]] = field(default_factory=list)  # (due sim time, description)
    fired: list[dict] = field(default_factory=list)  # EVENT_FIRED records
    output: deque[str] = field(default_factory=lambda: deque(maxlen=OUTPUT_LINES))
    requests: int = 0
    started_wall: float | None = None  # time.time() when the clock started
    contact_sim: float | None = None
    contact_wall: float | None = None
    result: Result | None = None
    kept: bool = False  # finished in an earlier attempt (resume)
    stop_asked: bool = False

    def sim_now(self, now: float, speed: float) -> float:
        """The session's sim clock: running from start, fixed at contact and at the end."""
        if self.result is not None:
            if self.result.contact_at is not None:
                return self.result.contact_at
            return self.result.completion_s * speed
        if self.contact_sim is not None:
            return self.contact_sim
        if self.started_wall is None:
            return 0.0
        return max(0.0, now - self.started_wall) * speed

    @property
    def mark(self) -> str:
        """pass, fail, error (infrastructure), or '' while not graded."""
        if self.result is None:
            return ""
        if self.result.is_infra_error:
            return "error"
        return "pass" if self.result.success else "fail"

    @property
    def open_url(self) -> str | None:
        """What a person may open without touching the clock: the start page, never /start."""
        return f"{self.url}{self.start_page}" if self.url else None

    def matches(self, state_filter: str, text: str) -> bool:
        if state_filter == "active" and self.state == GRADED:
            return False
        if state_filter == "failed" and self.mark not in ("fail", "error"):
            return False
        if state_filter == "passed" and self.mark != "pass":
            return False
        return not text or text.lower() in self.key.lower()


@dataclass(frozen=True)
class Totals:
    passed: int
    failed: int
    running: int
    waiting: int
    infra_errors: int
    reaction_p50: float | None
    cost_usd: float | None
    wall_left_s: float | None  # an estimate; None once nothing is left to run


class RunState:
    def __init__(self, sessions: list[tuple[str, str, str, str]], *, speed: float, deadline_wall_s: float,
                 concurrency: int = 0, run_name: str = "", agent: str = "",
                 now: Callable[[], float] = time.time):
        """sessions: (key, environment, session name, start page) in display order."""
        self.speed = speed
        self.deadline_wall_s = deadline_wall_s
        self.concurrency = concurrency
        self.run_name = run_name
        self.agent = agent
        self.now = now
        self.sessions: dict[str, SessionView] = {
            key: SessionView(key, env, name, start_page=page) for key, env, name, page in sessions}
        self.dirty: set[str] = set(self.sessions)
        self.started_wall: float | None = None
        self.finished_wall_s: float | None = None

    @classmethod
    def for_plan(cls, plan, config, now: Callable[[], float] = time.time) -> RunState:
        """The state of a RunPlan's sessions, all waiting."""
        rows = [(job.key, job.scenario.environment, job.name, job.scenario.start_page) for job in plan.jobs()]
        state = cls(rows, speed=plan.speed, deadline_wall_s=config.deadline_wall_s(plan.speed),
                    concurrency=plan.concurrency, run_name=plan.name, agent=plan.agent, now=now)
        for job in plan.jobs():
            state.sessions[job.key].scenario_id = job.scenario.id
        return state

    # --- the bus subscriber ----------------------------------------------------
    def apply(self, message: Message) -> None:
        if isinstance(message, RunStarted):
            self.started_wall = message.wall
            return
        if isinstance(message, RunFinished):
            self.finished_wall_s = message.wall_s
            return
        if not isinstance(message, SessionMessage):
            return
        view = self._view(message.key)
        self.dirty.add(view.key)
        if isinstance(message, SessionReady):
            view.url, view.task_url, view.prompt = message.url, message.task_url, message.prompt
            view.pending = [(float(at), str(text)) for at, text in message.pending]
        elif isinstance(message, SessionStarted):
            view.state, view.started_wall = RUNNING, message.wall
        elif isinstance(message, EventFired):
            view.fired.append(message.record)
            left = message.pending
            view.pending = view.pending[max(0, len(view.pending) - left):] if left else []
        elif isinstance(message, AgentOutput):
            view.output.append(message.line[:OUTPUT_LINE_CHARS])
        elif isinstance(message, AgentRequest):
            view.requests += 1
        elif isinstance(message, Contacted):
            view.state, view.contact_sim, view.contact_wall = CONTACTED, message.sim, message.wall
        elif isinstance(message, (SessionGraded, SessionSkipped)):
            view.state, view.result = GRADED, message.result
            view.scenario_id = message.result.scenario_id
            view.kept = isinstance(message, SessionSkipped)

    def _view(self, key: str) -> SessionView:
        if key not in self.sessions:  # not in the plan (should not happen): show it anyway
            env, _, name = key.partition("/")
            self.sessions[key] = SessionView(key, env, name)
        return self.sessions[key]

    def take_dirty(self) -> set[str]:
        dirty, self.dirty = self.dirty, set()
        return dirty

    # --- what the screens show -------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.finished_wall_s is not None

    def visible(self, state_filter: str = "all", text: str = "") -> list[SessionView]:
        return [v for v in self.sessions.values() if v.matches(state_filter, text)]

    def totals(self) -> Totals:
        views = list(self.sessions.values())
        results = [v.result for v in views if v.result is not None]
        costs = [r.cost_usd for r in results if r.cost_usd is not None]
        p50 = percentile([r.reaction_s for r in results if r.reaction_s is not None], 50)
        return Totals(
            passed=sum(r.success for r in results),
            failed=sum(not r.success and not r.is_infra_error for r in results),
            running=sum(v.state in (RUNNING, CONTACTED) for v in views),
            waiting=sum(v.state == WAITING for v in views),
            infra_errors=sum(r.is_infra_error for r in results),
            reaction_p50=p50, cost_usd=round(sum(costs), 6) if costs else None,
            wall_left_s=self.wall_left())

    def wall_left(self) -> float | None:
        """At most this many wall seconds until every session has ended (an estimate that
        assumes waiting sessions start at once, in waves of `concurrency`)."""
        if self.finished:
            return None
        now = self.now()
        running = [v for v in self.sessions.values() if v.state in (RUNNING, CONTACTED)]
        left = max((v.started_wall + self.deadline_wall_s - now for v in running if v.started_wall), default=0.0)
        waiting = sum(v.state == WAITING for v in self.sessions.values())
        if waiting:
            slots = self.concurrency or len(self.sessions)
            left = max(left, math.ceil(waiting / slots) * self.deadline_wall_s)
        return max(0.0, left)


# --- text shared by the screens ---------------------------------------------------
def result_text(result: Result) -> str:
    """One line about a graded session: the mark, the reaction and the grading detail."""
    mark = "ERROR" if result.is_infra_error else ("PASS" if result.success else "FAIL")
    reaction = f", reaction {result.reaction_s:.3f} s" if result.reaction_s is not None else ""
    return f"{mark}{reaction}: {result.detail}"
