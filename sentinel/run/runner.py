"""Runs many sessions at once and writes their results (docs/protocol.md#results; the files are
listed in sentinel/outputs/results.py).

Each session is a scenario's site, clock and scheduler (sentinel/session/live.py) with the agent
beside it, working in a fresh folder outside the repository (sentinel/run/agent_folder.py). The
first wave of sessions starts together once all of it is set up (sentinel/run/plan.py's
StartGate), and the loop is tuned for timing while the run lasts (sentinel/run/tuning.py). An
agent's command and variables come from sentinel/session/launch.py, what its session lends it
from sentinel/run/session_helpers.py, and its result from sentinel/session/result.py. Only
built-in agents receive the scenario file (__SCENARIO_FILE__).

A resumed run keeps every finished session and runs again those without a result or with an
infrastructure error. A crash in one session is recorded as that session's infrastructure
error and never stops the others.
"""

from __future__ import annotations

import asyncio
import gc
import platform
import shutil
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import jinja2

import sentinel
from sentinel.agents.usage import derive_costs
from sentinel.core.bus import (
    AgentOutput,
    Bus,
    RunFinished,
    RunNotice,
    RunStarted,
    SessionGraded,
    SessionReady,
    SessionSkipped,
)
from sentinel.core.catalog import Catalog
from sentinel.core.config import Config, available_cores
from sentinel.core.errors import SentinelError
from sentinel.core.files import read_json, write_atomic, write_json_atomic
from sentinel.core.grading import Result, read_costs
from sentinel.core.paths import DATA
from sentinel.core.scenario import Scenario, full_prompt
from sentinel.core.scheduler import DueBoard
from sentinel.core.suites import suite_digest, suite_of
from sentinel.core.summary import summarize
from sentinel.envs import environments as all_environments
from sentinel.envs import get_environment, template_dirs
from sentinel.mcp.calls import read_calls
from sentinel.outputs.results import finished_result, write_result
from sentinel.outputs.run_folder import RUN_FILE, RunIdentity, open_run_folder
from sentinel.run.admission import Admission
from sentinel.run.agent_folder import AGENT_FOLDER, working_folder
from sentinel.run.fidelity import AdmissionGate, Canary, HostSteal, Monitor, calm_now, fidelity_record, probe_first_wave
from sentinel.run.plan import Job, RunHandle, RunPlan, RunReport, StartGate
from sentinel.run.session_helpers import WantedHelpers, started_helpers
from sentinel.run.tuning import tuned_loop
from sentinel.session.harness import AgentOutcome, AgentProcess
from sentinel.session.launch import AgentTerms, agent_launch
from sentinel.session.live import Session
from sentinel.session.proxy import METERED_FILE
from sentinel.session.result import AgentUsage, crashed_result, session_result, stood_still
from sentinel.session.sandbox import Sandbox
from sentinel.web.templates import make_templates

# First-wave clocks start at least START_CORE_SPACING_S / cores apart (a hundred over 15 s on two cores),
# and at most START_SPACING_MAX_S, held while the canary says the machine is not calm: see StartGate.
START_CORE_SPACING_S = 0.3
START_SPACING_MAX_S = 0.4
START_LINE_MAX_S = 15.0  # longest a first-wave agent's /start waits for the others to boot
# Play mode: wall seconds a person has, after opening /contact, to send the form's message. An
# agent's process goes on after its contact (and posts its message) until it exits; a person
# has no process, so the session waits for the POST, this grace, or the person closing the screen.
PERSON_MESSAGE_GRACE_S = 300.0


def compile_templates(templates: jinja2.Environment, environments: set[str]) -> None:
    """Compile the templates of these environments (and the shared ones) before any session
    starts: compiling one on its first page took 10-60 ms of the loop, and every session's
    timers waited for it."""
    others = set(all_environments()) - environments

    def wanted(name: str) -> bool:
        return name.split("/", 1)[0] not in others
    for name in templates.list_templates(filter_func=wanted):
        templates.get_template(name)


class Runner(RunHandle):
    def __init__(self, config: Config, plan: RunPlan, bus: Bus | None = None):
        super().__init__(config, plan, bus)
        self.templates: jinja2.Environment = make_templates(template_dirs())
        self._stops: dict[str, asyncio.Event] = {}
        self._gate = StartGate(0)  # agents of the first wave spawn once every session is set up
        self._start_line = StartGate(0)  # ... and their clocks start once every agent opened /start
        self._catalogs: dict[str, Catalog] = {}  # immutable, so shared by every session of an env
        self.board = DueBoard()  # every session's next event, so any page can apply what is due
        self._heap_frozen = False
        self._spawner: ThreadPoolExecutor | None = None  # while run() runs: starts the agents
        self.start_line_max_s = START_LINE_MAX_S
        self.start_spacing_s = (START_CORE_SPACING_S / available_cores(), START_SPACING_MAX_S)  # least, most
        self.message_grace_s = PERSON_MESSAGE_GRACE_S
        self.realtime = False  # the loop's thread ran at a real-time priority (sentinel/session/priority.py)
        files = [s.path for s in plan.scenarios]
        self.suite = suite_of(files, config.scenarios_dir)  # stamped on run.json and every result.json
        self.suite_digest = suite_digest(((s.environment, s.path) for s in plan.scenarios), config.catalogs_dir)

    def stop(self) -> None:
        """Stop every session (Ctrl-C): agents end cleanly, sessions not yet begun never start."""
        self.stopping = True
        for event in self._stops.values():
            event.set()

    def stop_session(self, key: str) -> None:
        """Stop one running session (recorded as an infrastructure error, so resume reruns it)."""
        if key in self._stops:
            self._stops[key].set()

    async def run(self) -> RunReport:
        async with tuned_loop(self.board) as tuned:  # sentinel/run/tuning.py says what and why
            self.realtime, self._spawner = tuned.realtime, tuned.spawner
            try:
                return await self._run()
            finally:
                self._spawner = None

    async def _run(self) -> RunReport:
        self._open_run_dir()
        compile_templates(self.templates, {s.environment for s in self.plan.scenarios})
        report = RunReport(self.run_dir)
        started = time.monotonic()
        todo = []
        jobs = self.plan.jobs()
        for job in jobs:
            kept = finished_result(job.dir_in(self.run_dir)) if self.plan.resume else None
            if kept is not None:
                report.results.append(kept)
                report.skipped += 1
                self.bus.publish(SessionSkipped(key=job.key, result=kept))
            else:
                todo.append(job)
        self.bus.publish(RunStarted(run=self.plan.name, total=len(jobs), to_run=len(todo), agent=self.plan.agent,
                                    speed=self.plan.speed))
        canary, steal = Canary(), HostSteal()
        await canary.start()
        try:
            gate = await self._admission_gate(canary, len(todo))
            wave = min(gate.admission.allowed if gate.admission else gate.limit or len(todo), len(todo))
            self._gate = StartGate(wave)
            least, most = self.start_spacing_s
            self._start_line = StartGate(wave, least, pace=lambda: calm_now(canary, self.plan.load_speed),
                                         max_spacing_s=most)

            async def one(job: Job) -> Result | None:
                async with gate.slot():
                    return None if self.stopping else await self.run_session(job)

            watch = Monitor(canary, gate, self.plan.load_speed, self._notice, steal)
            monitor = asyncio.create_task(watch.run(), name="monitor")
            try:
                report.results += [r for r in await asyncio.gather(*(one(j) for j in todo)) if r is not None]
            finally:
                monitor.cancel()
        finally:
            await canary.stop()
        self._record_fidelity(fidelity_record(canary, gate, self.plan.load_speed, self.config.timing.on_time_s,
                                               steal, self._start_line.spread_s))
        report.results.sort(key=lambda r: (r.scenario_id, r.trial))
        report.wall_s = time.monotonic() - started
        report.summary = summarize(report.results)
        write_json_atomic(self.run_dir / "summary.json",
                          {**report.summary.to_dict(), "wall_s": round(report.wall_s, 3),
                           "sessions": len(report.results), "skipped": report.skipped})
        self.bus.publish(RunFinished(run=self.plan.name, summary=report.summary, wall_s=report.wall_s))
        return report

    async def _admission_gate(self, canary: Canary, sessions: int) -> AdmissionGate:
        """A fixed limit as asked; or (auto) a first wave as large as plan.concurrency allows when
        the machine is calm before it, a core's worth when it is not, then more as it stays calm."""
        if not self.plan.admission:
            return AdmissionGate(self.plan.concurrency)
        cores = available_cores()
        calm = await probe_first_wave(canary, self.plan.load_speed)
        first = (self.plan.concurrency or sessions) if calm else cores
        return AdmissionGate(0, Admission(sessions, first, step=cores, speed=self.plan.load_speed))

    def _notice(self, text: str) -> None:
        self.bus.publish(RunNotice(run=self.plan.name, text=text))

    def _record_fidelity(self, record: dict) -> None:
        """The run's fidelity (sentinel/run/fidelity.py) into run.json, beside what it was run with."""
        run_json = self.run_dir / RUN_FILE
        write_json_atomic(run_json, {**(read_json(run_json) or {}), "fidelity": record})
        if record.get("warning"):
            self._notice(record["warning"])

    def _open_run_dir(self) -> None:
        """Check the run's folder may hold this run (sentinel/outputs/run_folder.py), then say in
        run.json what the run is made with."""
        identity = RunIdentity(agent=self.plan.agent, speed=self.plan.speed, trials=self.plan.trials,
                               variant_seed=self.plan.variant_seed, model=self.plan.model, suite=self.suite,
                               suite_digest=self.suite_digest, model_time=str(self.plan.model_time),
                               clock=self.plan.clock)
        previous = open_run_folder(self.run_dir, identity, self.plan.resume)
        write_json_atomic(self.run_dir / RUN_FILE, {
            "name": self.plan.name, "agent": self.plan.agent, "command": self.plan.command,
            "speed": self.plan.speed, "concurrency": self.plan.concurrency, "trials": self.plan.trials,
            "model": self.plan.model, "meter": self.plan.meter, "model_time": str(self.plan.model_time),
            "clock": self.plan.clock,
            "sandbox": self.plan.sandbox,
            "agent_browser": self.plan.agent_browser,
            "variant_seed": self.plan.variant_seed,
            "scenarios": [s.id for s in self.plan.scenarios],
            "suite": self.suite, "suite_digest": self.suite_digest,
            "created": (previous or {}).get("created") or datetime.now(UTC).isoformat(),
            "resumed": datetime.now(UTC).isoformat() if previous else None,
            "timing": self.config.timing.__dict__, "realtime_clock": self.realtime,
            "versions": {"sentinel": sentinel.__version__, "python": platform.python_version()},
        })

    async def run_session(self, job: Job) -> Result:
        scenario, key = job.scenario, job.key
        out_dir = job.dir_in(self.run_dir)
        if out_dir.exists():
            shutil.rmtree(out_dir)  # a half-finished earlier attempt: start clean
        out_dir.mkdir(parents=True)
        stop = self._stops.setdefault(key, asyncio.Event())
        began = time.monotonic()
        env = get_environment(scenario.environment)
        catalog = self._catalogs.setdefault(env.name, Catalog.of(env, self.config.catalogs_dir))
        session = Session(scenario, env, self.config, out_dir=out_dir, speed=self.plan.speed, bus=self.bus,
                          templates=self.templates, key=key, catalog=catalog, board=self.board,
                          model_time=self.plan.model_time, virtual=self.plan.clock == "virtual")
        in_first_wave = self._gate.join(key)
        if in_first_wave and self._start_line.join(key):
            session.start_line = lambda: self._wait_at_start_line(key)
        try:
            agent_outcome = await self._drive(session, scenario, out_dir, stop, in_first_wave)
            infra_error = agent_outcome.error
        except SentinelError as exc:
            agent_outcome, infra_error = None, str(exc)
        except Exception as exc:  # a crash here must not stop the other sessions
            agent_outcome, infra_error = None, f"harness crashed: {exc!r}"
            write_atomic(out_dir / "harness_error.txt", traceback.format_exc())
        finally:
            self._gate.arrive(key)
            self._start_line.arrive(key)  # an agent that ended without /start holds no one back
        if not session.is_set_up and infra_error:  # it never got going: say why, not what followed
            await session.abort()
            return await self._record(out_dir, key, replace(self._crashed(scenario, infra_error), trial=job.trial))
        try:
            await session.finish()
        except Exception as exc:
            await session.abort()
            write_atomic(out_dir / "harness_error.txt", traceback.format_exc())
            crashed = self._crashed(scenario, f"session could not finish: {exc!r}")
            return await self._record(out_dir, key, replace(crashed, trial=job.trial))
        # costs.json from the usage logs an agent for the original SentinelBench leaves (if it wrote none)
        await asyncio.to_thread(derive_costs, out_dir / AGENT_FOLDER)
        result = await asyncio.to_thread(self._grade, session, out_dir, agent_outcome, infra_error)
        if result.ended_by == "deadline" and (stood := stood_still(session)):
            self._notice(f"{key}: {stood}")  # one line for the person running, and in the result's detail
        wall_s = round(time.monotonic() - began, 3)
        return await self._record(out_dir, key, replace(result, trial=job.trial, wall_s=wall_s))

    async def _drive(self, session: Session, scenario: Scenario, out_dir: Path,
                     stop: asyncio.Event, in_first_wave: bool) -> AgentOutcome:
        await session.setup()
        await session.start_site()
        if in_first_wave:
            await self._gate.pass_through(session.key)
        if self.plan.command is None:
            return await self._wait_for_person(session, out_dir, stop)
        async with working_folder(out_dir / AGENT_FOLDER, self.config.agent_files_cap_bytes) as work_dir:
            return await self._spawn_and_supervise(session, scenario, out_dir, work_dir, stop)

    async def _spawn_and_supervise(self, session: Session, scenario: Scenario, out_dir: Path, work_dir: Path,
                                   stop: asyncio.Event) -> AgentOutcome:
        assert self.plan.command is not None
        virtual = session.virtual
        timing = self.config.timing
        deadline_s = timing.virtual_wall_cap_s if virtual else self.config.deadline_wall_s(self.plan.speed)
        terms = AgentTerms(time_limit_s=deadline_s, model=self.plan.model,
                           scenario_file=scenario.path if self.plan.gets_scenario_file else None,
                           time_limit_sim_s=timing.kill_at if virtual else None)
        wanted = WantedHelpers.for_agent(self.plan.agent, browser=self.plan.agent_browser, meter=self.plan.proxied)
        async with started_helpers(session, out_dir, wanted) as helpers:
            launch = agent_launch(session, self.plan.command, work_dir, terms, helpers)
            self.bus.publish(ready_message(session, launch.prompt))
            process = await AgentProcess.spawn(
                launch.command, cwd=work_dir, env=launch.environ, log_path=out_dir / "agent.log",
                log_cap_bytes=self.config.agent_log_cap_bytes, term_grace=self.config.timing.term_grace_s,
                on_line=lambda line: self.bus.publish(AgentOutput(key=session.key, line=line)),
                sandbox=self._sandbox(scenario, work_dir) if self.plan.sandbox else None, spawner=self._spawner)
            return await process.supervise(
                started=session.started, startup_timeout=self.config.timing.startup_timeout_s,
                deadline=lambda: (session.clock.started_wall or time.monotonic()) + deadline_s, stop=stop,
                # later by the time the clock was paused while the agent thought (at most max_paused_wall_s)
                extension=lambda: self.config.paused_extension_s(session.thinking.paused_wall_s()),
                expired=virtual.reached_end if virtual else None)  # the virtual clock's kill time

    def _sandbox(self, scenario: Scenario, work_dir: Path) -> Sandbox:
        """What a sandboxed agent sees: its folder; not the repository, scenarios, catalogs or
        results. A built-in agent keeps its own code, interpreter and scenario file, read-only."""
        config = self.config
        readable: tuple[Path, ...] = ()
        if self.plan.gets_scenario_file:
            readable = (Path(sentinel.__file__).parent, Path(sys.prefix), scenario.path)
        return Sandbox(work_dir=work_dir, readable=readable,
                       hidden=(DATA.root, config.results_dir, config.scenarios_dir, config.catalogs_dir))

    async def _wait_at_start_line(self, key: str) -> None:
        """Hold this agent's first /start until every agent of the first wave has opened its
        own (or ended), at most START_LINE_MAX_S: a hundred interpreters booting at once would
        otherwise delay the timers of sessions whose clocks already run."""
        try:
            await asyncio.wait_for(self._start_line.pass_through(key), self.start_line_max_s)
        except TimeoutError:
            pass
        if not self._heap_frozen:
            # Everything alive now (catalogs, compiled templates, the sessions' apps) lives as
            # long as the run: moved out of the collector's sight before any clock runs, a full
            # collection takes a few ms instead of 60, which every session's timers waited for.
            self._heap_frozen = True
            gc.collect()
            gc.freeze()

    async def _wait_for_person(self, session: Session, out_dir: Path, stop: asyncio.Event) -> AgentOutcome:
        """Play mode: no agent process. A person opens the task URL in a browser; the session ends
        at the deadline, at a stop, or after their report (contact): once the contact form's
        message is posted, or message_grace_s after the contact, or when the person stops (closes
        the screen), whichever comes first. The world stays frozen at the contact, so the grade
        is of the state at the first contact, as for an agent."""
        self.bus.publish(ready_message(session, full_prompt(session.scenario, session.contact_url)))
        write_atomic(out_dir / "agent.log", "[sentinel: no agent process; a person played this session]\n")

        def outcome(ended_by: str) -> AgentOutcome:
            return AgentOutcome(ended_by=ended_by, exit_code=None, signal=None, error=None, log_bytes=0, log_dropped=0)

        if not await _first_of(session.started, stop, timeout=self.config.timing.startup_timeout_s):
            return outcome("startup_timeout")
        if stop.is_set() and not session.contacted.is_set():
            return outcome("stopped")
        remaining = (session.clock.started_wall or time.monotonic()) + \
            self.config.deadline_wall_s(self.plan.speed) - time.monotonic()
        await _first_of(session.contacted, stop, timeout=max(0.0, remaining))
        if session.contacted.is_set():
            # a stop now only means the person is done: their report stands
            await _first_of(session.message_sent, stop, timeout=self.message_grace_s)
            return outcome("contact")
        return outcome("stopped" if stop.is_set() else "deadline")

    def _grade(self, session: Session, out_dir: Path, agent: AgentOutcome | None,
               infra_error: str | None) -> Result:
        """The session's Result (sentinel/session/result.py), with what its agent used."""
        costs_file = out_dir / METERED_FILE if self.plan.meter else out_dir / AGENT_FOLDER / "costs.json"
        usage = AgentUsage(read_costs(costs_file, self.config.prices), metered=self.plan.meter,
                           mcp_calls=read_calls(out_dir))  # the agent's calls of its session's MCP server
        return session_result(session, agent, infra_error, usage, self.plan.agent)

    def _crashed(self, scenario: Scenario, error: str) -> Result:
        return crashed_result(scenario, error, self.plan.agent, self.plan.speed)

    async def _record(self, out_dir: Path, key: str, result: Result) -> Result:
        """Write the result (in a thread: file writes never stall other sessions' timers)."""
        result = replace(result, suite=self.suite, suite_digest=self.suite_digest)
        await asyncio.to_thread(write_result, out_dir, result)
        self.bus.publish(SessionGraded(key=key, result=result))
        return result


def ready_message(session: Session, prompt: str) -> SessionReady:
    return SessionReady(key=session.key, url=session.url, task_url=session.task_url, prompt=prompt,
                        pending=tuple((e.at, e.describe()) for e in session.scheduler.pending))


async def _first_of(*events: asyncio.Event, timeout: float) -> bool:
    """Wait until one of the events is set or the timeout passes; True if one was set."""
    waiters = [asyncio.create_task(e.wait()) for e in events]
    try:
        done, _ = await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        return bool(done)
    finally:
        for waiter in waiters:
            waiter.cancel()

