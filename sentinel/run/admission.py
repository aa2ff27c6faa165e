"""Admission that protects fidelity: how many sessions may run at once, decided from measurements.

The measurement is the canary's (sentinel/run/canary.py): how many wall milliseconds a process
at the agents' priority waits, each time it wakes, before it has done a millisecond of work. An
agent that has just seen its condition waits the same before it can act, and at speed v every
wall millisecond is v/1000 sim seconds of reaction time. So the thresholds are sim seconds:

- calm: the slowest tenth of recent wakes (p90 over WINDOW_S) costs at most CALM_SIM_S; more
  sessions may start, STEP at a time per tick;
- busy: it costs BUSY_SIM_S or more; no session starts until it calms;
- in between: hold the sessions that run, start none.

A run that admits this way is as large as the machine allows, whatever else the machine is doing:
on a quiet machine every session starts at once; beside a busy build, fewer at a time, and each
still on time. The same delays, kept for the whole run, make its fidelity record (run.json).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sentinel.core.summary import percentile

CALM_SIM_S = 0.5
BUSY_SIM_S = 2.0
WINDOW_S = 2.0
# A run is reported as not held on time when the canary's p99 cost this much of the on-time window
# (the share of on_time_s that an agent's every wake could lose to the machine).
LATE_SHARE = 0.05

CALM, STEADY, BUSY = "calm", "steady", "busy"


def _pct(values: Sequence[float], q: float) -> float:
    return percentile(values, q) or 0.0


def delay_sim_s(delay_ms: float, speed: float) -> float:
    """Sim seconds an agent loses to a wall delay of delay_ms at this speed."""
    return delay_ms / 1000.0 * speed


def machine_state(recent_ms: Sequence[float], speed: float) -> str:
    """calm, steady or busy, from the canary's recent delays (no samples: calm)."""
    if not recent_ms:
        return CALM
    cost = delay_sim_s(_pct(recent_ms, 90), speed)
    return CALM if cost <= CALM_SIM_S else BUSY if cost >= BUSY_SIM_S else STEADY


@dataclass
class Admission:
    """How many sessions may run now. `allowed` starts at first_wave; each calm tick with
    sessions waiting adds `step`, up to `total`; a busy tick brings it down to the sessions
    running (a running session is never stopped for the machine's sake: only new ones wait)."""
    total: int
    first_wave: int
    step: int
    speed: float
    allowed: int = field(init=False)
    held_s: float = 0.0  # wall seconds during which sessions waited because the machine was not calm
    busy_s: float = 0.0  # wall seconds the machine was busy, waiting sessions or not

    def __post_init__(self) -> None:
        self.allowed = max(1, min(self.total, self.first_wave))

    def observe(self, recent_ms: Sequence[float], running: int, waiting: int, tick_s: float) -> str:
        """One tick: the canary's recent delays, the sessions running and waiting; returns the state."""
        state = machine_state(recent_ms, self.speed)
        if state == BUSY:
            self.busy_s += tick_s
            self.allowed = max(1, min(self.allowed, running))
        if waiting and state != CALM:
            self.held_s += tick_s
        elif waiting:
            self.allowed = min(self.total, max(self.allowed, running) + self.step)
        return state


@dataclass(frozen=True)
class Fidelity:
    """What the canary saw over a whole run, for run.json and the closing lines."""
    samples: int
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    speed: float
    on_time_s: float

    @classmethod
    def of(cls, delays_ms: Sequence[float], speed: float, on_time_s: float) -> Fidelity:
        values = list(delays_ms) or [0.0]
        return cls(len(delays_ms), _pct(values, 50), _pct(values, 90), _pct(values, 99),
                   max(values), speed, on_time_s)

    @property
    def held_on_time(self) -> bool:
        """Whether the machine gave agents the CPU in time: the canary's p99 cost under
        LATE_SHARE of the on-time window."""
        return delay_sim_s(self.p99_ms, self.speed) <= LATE_SHARE * self.on_time_s

    def warning(self) -> str | None:
        if self.held_on_time:
            return None
        return (f"this machine did not hold the agents on time: a waiting agent took up to {self.p99_ms:.0f} ms "
                f"(p99; {delay_sim_s(self.p99_ms, self.speed):.1f} sim s at speed {self.speed:g}) to get the CPU; "
                f"reaction times and on-time results are partly the machine's")

    def to_dict(self) -> dict:
        return {"canary_samples": self.samples, "cpu_wait_ms": {"p50": round(self.p50_ms, 2),
                "p90": round(self.p90_ms, 2), "p99": round(self.p99_ms, 2), "max": round(self.max_ms, 2)},
                "cpu_wait_sim_s_p99": round(delay_sim_s(self.p99_ms, self.speed), 3),
                "held_on_time": self.held_on_time, "warning": self.warning()}
