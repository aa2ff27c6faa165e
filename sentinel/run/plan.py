"""What a run is made of: the plan (agent, speed, scenarios, options), its jobs (one per session),
the gate that holds the first wave until all of it is set up, the run's report, and the handle
whoever drives a run holds."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sentinel.agents import builtin_command
from sentinel.core.bus import Bus
from sentinel.core.config import Config
from sentinel.core.errors import SentinelError
from sentinel.core.grading import Result
from sentinel.core.model_time import ModelTime
from sentinel.core.scenario import Scenario
from sentinel.core.summary import Summary
from sentinel.outputs.results import session_dir

PACE_POLL_S = 0.02  # how often a paced start line asks whether the machine has calmed


@dataclass(frozen=True)
class RunPlan:
    name: str
    agent: str  # a built-in name, "custom", or "human" (play mode)
    command: str | list[str] | None  # None: no agent process, a person plays through a browser
    speed: float
    scenarios: tuple[Scenario, ...]
    concurrency: int = 0  # 0: all at once; with admission: the most at once (0: no bound)
    admission: bool = False  # --concurrency auto: sessions start as the machine allows (run/fidelity.py)
    resume: bool = False
    trials: int = 1  # each scenario runs this many times, as separate sessions
    model: str | None = None  # --model: given to the agent as SENTINEL_MODEL
    meter: bool = False  # --meter: a metering proxy per session measures the agent's model usage
    model_time: ModelTime = ModelTime()  # --model-time: the clock while the agent thinks (docs/model-time.md)
    clock: str = "wall"  # --clock: wall, or virtual (sim time moves only by waits and charged model time)
    sandbox: bool = False  # --sandbox: each agent runs under bubblewrap (sentinel/session/sandbox.py)
    agent_browser: bool = False  # --agent-browser: a Chromium per session (sentinel/session/browser.py)
    # --variants: scenario id → one generated variant per trial (same id, so trials group by kind)
    variants: Mapping[str, tuple[Scenario, ...]] = field(default_factory=dict)
    variant_seed: int | None = None

    def __post_init__(self) -> None:
        if self.command is not None and not self.gets_scenario_file and _mentions(self.command, "__SCENARIO_FILE__"):
            raise SentinelError("agent command: __SCENARIO_FILE__ is given to built-in agents only (--agent NAME); "
                                "a scenario file holds the answers, so your agent reads the task from the prompt")

    @property
    def gets_scenario_file(self) -> bool:
        """Only a built-in agent, run with its own command (options may follow), may read the
        scenario file."""
        builtin = builtin_command(self.agent)
        return builtin is not None and isinstance(self.command, list) and self.command[:len(builtin)] == builtin

    @property
    def load_speed(self) -> float:
        """Sim seconds a wall second of the machine's delay costs an agent: the speed on the wall
        clock; 0 on the virtual clock, whose time stands still while an agent waits for the CPU. So
        admission and the fidelity record (sentinel/run/fidelity.py) see no cost there."""
        return 0.0 if self.clock == "virtual" else self.speed

    @property
    def proxied(self) -> bool:
        """Whether each session starts a metering proxy: --meter, or a policy that pauses the clock
        for model calls, which the proxy sees."""
        return self.meter or self.model_time.pauses

    def jobs(self) -> list[Job]:
        return [Job(self.variants[s.id][t - 1] if s.id in self.variants else s, t, self.trials)
                for s in self.scenarios for t in range(1, self.trials + 1)]


@dataclass(frozen=True)
class Job:
    """One session to run: a scenario and, with repeated trials, which trial."""
    scenario: Scenario
    trial: int = 1
    trials: int = 1

    @property
    def name(self) -> str:
        """The session's folder name: the scenario's short id, with .t<n> when trials repeat."""
        short = self.scenario.short_id
        return short if self.trials == 1 else f"{short}.t{self.trial}"

    @property
    def key(self) -> str:
        return f"{self.scenario.environment}/{self.name}"

    def dir_in(self, run_dir: Path) -> Path:
        """This session's results folder inside a run's folder."""
        return session_dir(run_dir, self.scenario.environment, self.name)


@dataclass
class RunReport:
    run_dir: Path
    results: list[Result] = field(default_factory=list)
    skipped: int = 0
    wall_s: float = 0.0
    summary: Summary | None = None


class RunHandle(ABC):
    """A run as whoever drives it sees it (the API, a screen): its config, plan, bus and folder;
    `run()`, `stop()`, `stop_session(key)`, and `stopping` once a stop was asked. A Runner runs
    the sessions in this process, a RunnerProcess (sentinel/run/runner_process.py) in a child."""

    def __init__(self, config: Config, plan: RunPlan, bus: Bus | None = None):
        self.config = config
        self.plan = plan
        self.bus = bus or Bus()  # the run's messages (sentinel/core/bus.py)
        self.run_dir = config.results_dir / plan.name
        self.stopping = False

    @abstractmethod
    async def run(self) -> RunReport:
        """Run every session of the plan; the report once all have ended."""

    @abstractmethod
    def stop(self) -> None:
        """Stop every session (Ctrl-C): agents end cleanly, finished results are kept."""

    @abstractmethod
    def stop_session(self, key: str) -> None:
        """Stop one running session (recorded as an infrastructure error, so resume reruns it)."""


class StartGate:
    """Holds the first wave of sessions until all of them are set up, so that no session's
    clock runs while others still build their databases (which would delay its events).

    Once open, the sessions pass one at a time, in the order they arrived, instead of all in the
    same instant. A session's first seconds are its busiest (its agent's first reads, the early
    events it answers); a hundred of them at once queue for the CPU, and the tasks whose
    condition comes first were reported late for it. Each session's clock starts at its own
    first page, so its timeline is unchanged; only the wall time of the run grows.

    spacing_s: the n-th passes no sooner than n spacings after the opening.
    pace: when given, a session also waits while pace() is False (the machine is not calm) for
    at most max_spacing_s after the one before it passed: how fast a wave can start is measured
    on the machine, not guessed from its cores."""

    def __init__(self, size: int, spacing_s: float = 0.0, pace: Callable[[], bool] | None = None,
                 max_spacing_s: float = 0.0):
        self._slots = size
        self._waiting: set[str] = set()
        self._open = asyncio.Event()
        self._spacing_s = spacing_s
        self._pace = pace
        self._max_spacing_s = max(spacing_s, max_spacing_s)
        self._turn = asyncio.Condition()  # whose turn it is to pass: the order of arrival
        self._passed = self._next = 0
        self._opened_at = self._last_pass = 0.0
        if size <= 0:
            self._open.set()

    def join(self, key: str) -> bool:
        """Reserve a place in the first wave; False once the wave is full."""
        if self._slots <= 0:
            return False
        self._slots -= 1
        self._waiting.add(key)
        return True

    def arrive(self, key: str) -> None:
        """This session is ready (or failed): it no longer holds the others back."""
        self._waiting.discard(key)
        if self._slots <= 0 and not self._waiting and not self._open.is_set():
            self._opened_at = asyncio.get_running_loop().time()
            self._open.set()

    @property
    def spread_s(self) -> float:
        """Wall seconds from the opening to the last session that passed (0 before any)."""
        return max(0.0, self._last_pass - self._opened_at)

    async def pass_through(self, key: str) -> None:
        turn, self._passed = self._passed, self._passed + 1  # its place in the order of arrival
        self.arrive(key)
        await self._open.wait()
        loop = asyncio.get_running_loop()
        async with self._turn:
            await self._turn.wait_for(lambda: self._next == turn)
            delay = self._opened_at + turn * self._spacing_s - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            if self._pace is not None and turn:
                held_until = self._last_pass + self._max_spacing_s
                while not self._pace() and loop.time() < held_until:
                    await asyncio.sleep(PACE_POLL_S)
            self._last_pass, self._next = loop.time(), turn + 1
            self._turn.notify_all()


def _mentions(command: str | list[str], placeholder: str) -> bool:
    return placeholder in (command if isinstance(command, str) else " ".join(command))
