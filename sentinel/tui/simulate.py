"""The bus messages of a made-up run, for the dashboard's benchmark and snapshot tests.

`SimulatedRun(n)` describes n sessions at a given speed; `messages(until)` returns, in time
order, every message they would have published by that wall time: set-up, start, events
firing, agent output and requests, contact, grade. Deterministic: no randomness, no clock.
"""

from __future__ import annotations

from collections.abc import Callable

from sentinel.core.bus import (
    AgentOutput,
    AgentRequest,
    Contacted,
    EventFired,
    Message,
    RunStarted,
    SessionGraded,
    SessionReady,
    SessionStarted,
)
from sentinel.core.grading import Result

ENVIRONMENTS = ("micromail", "microhood", "microchat", "microhub")
START_WALL = 1_000_000.0  # the made-up run starts at this time.time()
EVENT_EVERY_SIM_S = 30.0
OUTPUT_EVERY_S = 0.3
REQUEST_EVERY_S = 0.5


class SimulatedRun:
    def __init__(self, sessions: int, speed: float = 50.0, deadline_wall_s: float = 42.0):
        self.count = sessions
        self.speed = speed
        self.deadline_wall_s = deadline_wall_s
        self._messages = sorted((m for i in range(sessions) for m in self._session(i)), key=lambda m: m.wall)

    def rows(self) -> list[tuple[str, str, str, str]]:
        """(key, environment, name, start page) of every session, for RunState."""
        return [(self.key(i), self.env(i), self.name(i), f"/{self.env(i)}/") for i in range(self.count)]

    def env(self, i: int) -> str:
        return ENVIRONMENTS[i % len(ENVIRONMENTS)]

    def name(self, i: int) -> str:
        return f"task_{i:03d}" + ("_noop" if self.is_noop(i) else "")

    def key(self, i: int) -> str:
        return f"{self.env(i)}/{self.name(i)}"

    def is_noop(self, i: int) -> bool:
        return i % 5 == 4

    def condition_at(self, i: int) -> float:
        return 60.0 + (i * 37) % 480

    def messages(self, until: float) -> list[Message]:
        return [m for m in self._messages if m.wall <= until]

    def _session(self, i: int) -> list[Message]:
        key, speed = self.key(i), self.speed
        ready = START_WALL + 0.01 * i
        start = ready + 0.2 + 0.01 * (i % 10)
        condition_wall = start + self.condition_at(i) / speed
        end = start + self.deadline_wall_s if self.is_noop(i) else condition_wall + 0.2 + 0.1 * (i % 4)
        events = [EVENT_EVERY_SIM_S * (k + 1) for k in range(int(720 // EVENT_EVERY_SIM_S))]
        out: list[Message] = [RunStarted(run="simulated", total=self.count, to_run=self.count, agent="simulated",
                                         speed=speed, wall=START_WALL)] if i == 0 else []
        out.append(SessionReady(
            key=key, url=f"http://127.0.0.1:{41000 + i}", task_url=f"http://127.0.0.1:{41000 + i}/start",
            prompt=f"Tell me when task {i} happens.",
            pending=tuple((at, f"tick(n={k})") for k, at in enumerate(events)),
            wall=ready))
        out.append(SessionStarted(key=key, wall=start))
        for k, at in enumerate(events):
            wall = start + at / speed
            if wall < end:
                record = {"index": k + 1, "at": at, "type": "tick", "fields": {"n": k}, "sim_at_fire": at,
                          "lateness_ms": 1.0}
                out.append(EventFired(key=key, record=record, pending=len(events) - k - 1, wall=wall))
        out += _every(start, end, OUTPUT_EVERY_S,
                      lambda n, wall: AgentOutput(key=key, line=f"[agent] look {n}", wall=wall))
        out += _every(start, end, REQUEST_EVERY_S,
                      lambda n, wall: AgentRequest(key=key, method="GET", path="/", status=200, wall=wall))
        if not self.is_noop(i):
            out.append(Contacted(key=key, sim=(end - start) * speed, wall=end))
        out.append(SessionGraded(key=key, result=self._result(i, start, end), wall=end + 0.05))
        return out

    def _result(self, i: int, start: float, end: float) -> Result:
        noop = self.is_noop(i)
        success = i % 7 != 3
        reaction = None if noop or not success else round(end - start - self.condition_at(i) / self.speed, 4)
        return Result(
            scenario_id=f"{self.env(i)}-{self.name(i)}", environment=self.env(i),
            activity="noop" if noop else "passive", criteria="absolute", success=success, verdict=int(success),
            detail="simulated", condition_at=None if noop else self.condition_at(i),
            contact_at=None if noop else round((end - start) * self.speed, 4), reaction_s=reaction,
            early_by_s=None, completion_s=round(end - start, 4), ended_by="deadline" if noop else "agent_exit",
            exit_code=0, signal=None, requests=int((end - start) / REQUEST_EVERY_S), live_requests=0,
            bytes_sent=0, prompt_tokens=1000, completion_tokens=100, tool_calls=3, model="simulated",
            cost_usd=0.001, agent="simulated", speed=self.speed)


def _every(start: float, end: float, every: float, make: Callable[[int, float], Message]) -> list[Message]:
    """make(n, wall) for the n-th tick of `every` seconds after start, while before end."""
    out: list[Message] = []
    n = 0
    while start + (n + 1) * every < end:
        n += 1
        out.append(make(n, start + n * every))
    return out
