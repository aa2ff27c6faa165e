"""Step mode (`sentinel step`): one scenario with a paused clock, moved by hand.

The session is built as for a run, its site is served, and its clock starts paused at sim 0,
so nothing happens until a step: fire the next event, advance by some sim seconds, or jump to
condition_at. After each step the environment's derived tables are written (as at grading)
and the step reports what a scenario author needs to see: the eval_sql verdict, the
baselines next to the same quantities now, and every row the step inserted, changed or
deleted. Rows are compared by reading each table before and after, keyed by primary key (or
rowid when a table has none).

An agent may be attached: it is started as in a run (sentinel/session/launch.py: the same
variables and placeholders, and the same MCP server or lent Chromium, sentinel/run/session_helpers.py),
but its GET of /start does not start the clock (it already runs, paused), so the world moves only
when a person steps it. It has no deadline, and may read the scenario file whatever it is.
Every step lists the agent's requests since the step before. An agent's request that changes
the world is a step of its own ("agent: POST /..."), as is its report: the agent's contact
freezes the world for good, as in a run, and that step carries the grade a run would give
(judge on the state at the contact; wall times are taken as sim time over the speed, since a
stepped clock has no wall time of its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sentinel.agents import BUILTIN_AGENTS
from sentinel.core.bus import AgentOutput, AgentRequest, Bus, Contacted, Message
from sentinel.core.config import Config
from sentinel.core.errors import SentinelError
from sentinel.core.grading import Outcome, Verdict, judge
from sentinel.core.scenario import Scenario
from sentinel.envs import get_environment
from sentinel.run.session_helpers import WantedHelpers, started_helpers
from sentinel.session.harness import AgentOutcome, AgentProcess
from sentinel.session.launch import AgentTerms, agent_launch
from sentinel.session.live import Session
from sentinel.world.state import World

AGENT_NEVER_ENDS_S = 10 * 365 * 24 * 3600.0  # no deadline while a person steps the clock


@dataclass(frozen=True)
class RowChange:
    table: str
    kind: str  # "inserted", "changed" or "deleted"
    key: str  # the row's primary key (or "rowid N"), comma separated when composite
    columns: tuple[tuple[str, Any, Any], ...]  # (column, before, after); only differing ones when changed


@dataclass(frozen=True)
class Measure:
    name: str
    baseline: float  # recorded after the preload
    now: float  # the same quantity on the current state


@dataclass(frozen=True)
class Step:
    """What one step did and what the world looks like after it."""
    action: str  # "opened", "fired next event", "advanced 10 s", "jumped to condition_at"
    sim: float  # sim time after the step
    fired: tuple[str, ...]  # descriptions of the events this step fired, "at 60: type(...)"
    verdict: Verdict
    measures: tuple[Measure, ...]
    changes: tuple[RowChange, ...]
    has_sql: bool = True  # a no-op scenario may have no eval_sql
    requests: tuple[str, ...] = ()  # the agent's requests since the step before, "POST /x → 302"
    grade: tuple[bool, str] | None = None  # at the agent's report: (success, detail) as a run grades it

    @property
    def grade_text(self) -> str | None:
        if self.grade is None:
            return None
        return f"{'PASS' if self.grade[0] else 'FAIL'}: {self.grade[1]}"

    @property
    def verdict_text(self) -> str:
        if not self.has_sql:
            return "no eval_sql (a no-op passes when no contact happens)"
        if self.verdict.error:
            return self.verdict.error
        return f"{'TRUE' if self.verdict.truthy else 'false'} ({self.verdict.value!r})"


Snapshot = dict[str, dict[tuple, dict[str, Any]]]  # table → key → column → value


class Stepper:
    """model and agent_browser: what a run's --model and --agent-browser give an attached agent."""

    def __init__(self, scenario: Scenario, config: Config, *, speed: float = 1.0,
                 world_start: datetime | None = None, bus: Bus | None = None, model: str | None = None,
                 agent_browser: bool = False):
        self.scenario = scenario
        self.config = config
        self.model = model
        self.agent_browser = agent_browser
        self.bus = bus or Bus()
        self.env = get_environment(scenario.environment)
        self._work_dir = Path(tempfile.mkdtemp(prefix="sentinel-step-"))
        self.session = Session(scenario, self.env, config, out_dir=self._work_dir / "session", speed=speed,
                               bus=self.bus, world_start=world_start)
        self.steps: list[Step] = []
        self._snapshot: Snapshot = {}
        self._agent: AgentProcess | None = None
        self._agent_task: asyncio.Task[AgentOutcome] | None = None
        self._helpers = contextlib.AsyncExitStack()  # what the session lends the agent, while it lives
        self._stop_agent = asyncio.Event()
        self.on_step: Callable[[Step], None] | None = None  # told of every step, the agent's too
        self._requests: list[str] = []  # the agent's requests since the last step
        self._lock = asyncio.Lock()  # one step at a time: a step's changes are its own
        self._agent_moved = asyncio.Event()  # an agent request or the report, not yet looked at
        self._watcher: asyncio.Task | None = None
        self._unsubscribe = self.bus.subscribe(self._on_bus)

    # --- lifecycle ---------------------------------------------------------
    async def open(self) -> Step:
        """Build the session, serve its site, start the clock paused at sim 0."""
        await self.session.setup()
        await self.session.start_site()
        self.session.clock.start(paused=True)
        verdict = await self.session.verdict()
        self._snapshot = await snapshot_tables(self.session.world)
        return await self._record("opened", [], self._snapshot, verdict)

    async def attach_agent(self, command: str | list[str], *, agent: str | None = None) -> None:
        """Start an agent on the task URL, as a run would; it runs until it exits or the stepper
        closes. agent: its name, which says whether the session serves it MCP (by default the
        built-in agent whose command this is, else "custom", as for --cmd)."""
        work_dir = self._work_dir / "agent"
        work_dir.mkdir()
        self.session.out_dir.mkdir(parents=True, exist_ok=True)  # the helpers' files (mcp.jsonl, browser.json)
        wanted = WantedHelpers.for_agent(agent or agent_named(command), browser=self.agent_browser)
        terms = AgentTerms(time_limit_s=AGENT_NEVER_ENDS_S, model=self.model, scenario_file=self.scenario.path)
        try:
            helpers = await self._helpers.enter_async_context(
                started_helpers(self.session, self.session.out_dir, wanted))
            launch = agent_launch(self.session, command, work_dir, terms, helpers)
            self._agent = await AgentProcess.spawn(
                launch.command, cwd=work_dir, env=launch.environ, log_path=work_dir / "agent.log",
                log_cap_bytes=self.config.agent_log_cap_bytes, term_grace=self.config.timing.term_grace_s,
                on_line=lambda line: self.bus.publish(AgentOutput(key=self.session.key, line=line)))
        except BaseException:
            await self._helpers.aclose()
            raise
        self._watcher = asyncio.create_task(self._watch_agent(), name=f"step watcher {self.session.key}")
        began = asyncio.Event()
        began.set()  # the clock already runs (paused): no start-up wait
        self._agent_task = asyncio.create_task(self._agent.supervise(
            started=began, startup_timeout=AGENT_NEVER_ENDS_S,
            deadline=lambda: time.monotonic() + AGENT_NEVER_ENDS_S, stop=self._stop_agent))

    @property
    def agent_running(self) -> bool:
        return self._agent_task is not None and not self._agent_task.done()

    async def close(self) -> None:
        """Stop the agent (if any), the site and the database; remove the working folder."""
        if self._agent_task is not None:
            self._stop_agent.set()
            await asyncio.gather(self._agent_task, return_exceptions=True)
        await self._helpers.aclose()  # after the agent, as in a run
        if self._watcher is not None:
            self._watcher.cancel()
            await asyncio.gather(self._watcher, return_exceptions=True)
        self._unsubscribe()
        self._unsubscribe = lambda: None  # closing twice is fine
        await self.session.abort()
        shutil.rmtree(self._work_dir, ignore_errors=True)

    # --- what a person sees -------------------------------------------------
    @property
    def url(self) -> str:
        """The scenario's start page: opening it never starts or moves the clock."""
        return f"{self.session.url}{self.scenario.start_page}"

    @property
    def now(self) -> float:
        return self.session.clock.now()

    @property
    def pending(self) -> list[tuple[float, str]]:
        return [(e.at, e.describe()) for e in self.session.scheduler.pending]

    @property
    def fired(self) -> list[tuple[float, str]]:
        return [(f.event.at, f.event.describe()) for f in self.session.scheduler.fired]

    @property
    def contact_sim(self) -> float | None:
        record = self.session.contact_record
        return record.sim if record else None

    @property
    def requests_since_step(self) -> tuple[str, ...]:
        """The agent's requests since the last step (the next step will list them)."""
        return tuple(self._requests)

    @property
    def grade(self) -> tuple[bool, str] | None:
        """(success, detail) as a run would grade the agent's report; None before it."""
        return next((step.grade for step in reversed(self.steps) if step.grade is not None), None)

    # --- the agent's moves ------------------------------------------------------
    def _on_bus(self, message: Message) -> None:
        if isinstance(message, AgentRequest) and message.key == self.session.key:
            self._requests.append(f"{message.method} {message.path} → {message.status}")
            self._agent_moved.set()
        elif isinstance(message, Contacted) and message.key == self.session.key:
            self._agent_moved.set()

    async def _watch_agent(self) -> None:
        """After the agent's requests (a burst at a time) and its report: a step if the world
        changed or the agent just reported."""
        graded = False
        while True:
            await self._agent_moved.wait()
            self._agent_moved.clear()
            async with self._lock:
                reported = self.session.contact_record is not None and not graded
                after = await self._state_now()
                if reported or diff_tables(self._snapshot, after[0]):
                    graded = graded or reported
                    action = "agent reported" if reported else "agent request"
                    await self._record(action, [], *after, grade=self._grade(after[1]) if reported else None)

    async def _state_now(self) -> tuple[Snapshot, Verdict]:
        verdict = await self.session.verdict()  # derived tables written: the rows show the graded state
        return await snapshot_tables(self.session.world), verdict

    def _grade(self, verdict: Verdict) -> tuple[bool, str]:
        contact = self.session.contact_record
        assert contact is not None
        speed = self.session.speed
        outcome = Outcome(contact_sim=contact.sim, contact_wall_s=contact.sim / speed, speed=speed,
                          completion_s=contact.sim / speed)
        success, detail, _, _ = judge(self.scenario, verdict, outcome)
        return success, detail

    # --- steps ---------------------------------------------------------------
    async def fire_next(self) -> Step:
        async with self._lock:
            self._check_can_move()
            if self.session.scheduler.next_due() is None:
                raise SentinelError("no events left to fire")
            before = len(self.session.scheduler.fired)
            await self.session.scheduler.fire_next()
            return await self._after("fired next event", before)

    async def advance(self, sim_seconds: float) -> Step:
        async with self._lock:
            self._check_can_move()
            if not sim_seconds > 0:
                raise SentinelError(f"advance by a positive number of sim seconds, not {sim_seconds:g}")
            before = len(self.session.scheduler.fired)
            self.session.clock.advance(sim_seconds)
            await self.session.scheduler.fire_due()
            return await self._after(f"advanced {sim_seconds:g} s", before)

    async def jump_to_condition(self) -> Step:
        async with self._lock:
            self._check_can_move()
            target = self.scenario.condition_at
            if target is None:
                raise SentinelError("a no-op scenario has no condition_at to jump to")
            if target < self.now:
                raise SentinelError(f"sim {self.now:g} s is already past condition_at {target:g} s")
            before = len(self.session.scheduler.fired)
            self.session.clock.advance_to(target)
            await self.session.scheduler.fire_due()
            return await self._after("jumped to condition_at", before)

    def _check_can_move(self) -> None:
        if self.session.clock.frozen:
            raise SentinelError(f"the world froze at contact (sim {self.now:.2f} s); no more steps")

    async def _after(self, action: str, fired_before: int) -> Step:
        fired = [f"at {r.event.at:g}: {r.event.describe()}" for r in self.session.scheduler.fired[fired_before:]]
        after, verdict = await self._state_now()
        return await self._record(action, fired, after, verdict)

    async def _record(self, action: str, fired: list[str], after: Snapshot, verdict: Verdict,
                      grade: tuple[bool, str] | None = None) -> Step:
        now_values = await self.env.baselines(self.session.world)
        measures = tuple(Measure(name, value, float(now_values.get(name, 0.0)))
                         for name, value in self.session.baselines.items())
        changes = diff_tables(self._snapshot, after)
        self._snapshot = after
        requests, self._requests = tuple(self._requests), []
        step = Step(action, round(self.now, 6), tuple(fired), verdict, measures, tuple(changes),
                    has_sql=self.scenario.eval_sql is not None, requests=requests, grade=grade)
        self.steps.append(step)
        if self.on_step is not None:
            self.on_step(step)
        return step


def agent_named(command: str | list[str]) -> str:
    """The name of the built-in agent whose command this is; "custom" for any other."""
    return next((name for name, argv in BUILTIN_AGENTS.items() if argv == command), "custom")


async def snapshot_tables(world: World) -> Snapshot:
    """Every row of every table, keyed by primary key (or rowid)."""
    tables = [row[0] for row in await world.fetch_all(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    out: Snapshot = {}
    for table in tables:
        quoted = '"' + table.replace('"', '""') + '"'
        info = await world.fetch_all(f"PRAGMA table_info({quoted})")
        columns = [row["name"] for row in info]
        keys = [row["name"] for row in sorted(info, key=lambda r: r["pk"]) if row["pk"] > 0] or ["rowid"]
        selected = ", ".join('"' + k.replace('"', '""') + '"' if k != "rowid" else "rowid" for k in keys)
        prefix = ("rowid",) if keys == ["rowid"] else ()
        out[table] = {}
        for row in await world.fetch_all(f"SELECT {selected}, * FROM {quoted}"):
            values = tuple(row)
            out[table][prefix + values[:len(keys)]] = dict(zip(columns, values[len(keys):], strict=True))
    return out


def diff_tables(before: Snapshot, after: Snapshot) -> list[RowChange]:
    """The rows inserted, changed or deleted between two snapshots, table by table."""
    changes: list[RowChange] = []
    for table in sorted(set(before) | set(after)):
        old, new = before.get(table, {}), after.get(table, {})
        for key in sorted(set(old) | set(new), key=repr):
            name = " ".join(str(k) for k in key) if key[:1] == ("rowid",) else ", ".join(str(k) for k in key)
            if key not in old:
                changes.append(RowChange(table, "inserted", name, tuple((c, None, v) for c, v in new[key].items())))
            elif key not in new:
                changes.append(RowChange(table, "deleted", name, tuple((c, v, None) for c, v in old[key].items())))
            elif old[key] != new[key]:
                differing = tuple((c, old[key].get(c), v) for c, v in new[key].items() if old[key].get(c) != v)
                changes.append(RowChange(table, "changed", name, differing))
    return changes
