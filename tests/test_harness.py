"""The agent harness against real, misbehaving agent processes (scripts in tests/agents/)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from sentinel.core.errors import SentinelError
from sentinel.session.harness import REAPER_SHARE, AgentOutcome, AgentProcess, build_command, check_command

AGENTS = Path(__file__).parent / "agents"
GRACE = 0.5


def agent(name: str, *args: object) -> list[str]:
    return [sys.executable, str(AGENTS / f"{name}.py"), *map(str, args)]


def process_state(pid: int) -> str | None:
    """The state letter from /proc/<pid>/stat ('Z' for a zombie), or None if there is none."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return None
    return stat[stat.rfind(")") + 2:].split()[0]


def assert_dead(pid: int) -> None:
    """Gone, or a zombie (an init that never reaps, as in containers, leaves those behind)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return
    assert process_state(pid) == "Z", f"process {pid} survived"


def assert_group_gone(pgid: int) -> None:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return
    members = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except FileNotFoundError:
            continue
        state, _ppid, pgrp = stat[stat.rfind(")") + 2:].split()[:3]
        if int(pgrp) == pgid:
            members.append((int(name), state))
    assert all(state == "Z" for _, state in members), f"group {pgid} survived: {members}"


@dataclass
class Run:
    tmp_path: Path
    started_on: str | None = None  # set `started` when a line contains this
    lines: list[str] = field(default_factory=list)
    started: asyncio.Event = field(default_factory=asyncio.Event)
    deadline_at: float | None = None
    agent: AgentProcess | None = None

    @property
    def log(self) -> bytes:
        return (self.tmp_path / "agent.log").read_bytes()

    def on_line(self, line: str) -> None:
        self.lines.append(line)
        if self.started_on is not None and self.started_on in line:
            self.started.set()

    async def __call__(self, command: str | list[str], *, env: dict[str, str] | None = None,
                       startup_timeout: float = 10.0, deadline_after: float = 10.0,
                       stop: asyncio.Event | None = None, cap: int = 1 << 20) -> AgentOutcome:
        def deadline() -> float:
            self.deadline_at = time.monotonic() + deadline_after
            return self.deadline_at

        self.agent = await AgentProcess.spawn(
            command, cwd=self.tmp_path, env=env or {}, log_path=self.tmp_path / "agent.log",
            log_cap_bytes=cap, on_line=self.on_line, term_grace=GRACE)
        outcome = await self.agent.supervise(started=self.started, startup_timeout=startup_timeout,
                                             deadline=deadline, stop=stop)
        assert_group_gone(self.agent.pgid)
        return outcome


@pytest.fixture
def run(tmp_path: Path) -> Run:
    return Run(tmp_path)


async def test_well_behaved_agent_exits_0(run: Run) -> None:
    outcome = await run(agent("well_behaved"))
    assert (outcome.ended_by, outcome.exit_code, outcome.signal, outcome.error) == (
        "agent_exit", 0, None, None)
    assert b"hello from the agent\n" in run.log and b"a warning on stderr\n" in run.log
    assert outcome.log_bytes == len(run.log) and outcome.log_dropped == 0
    assert sorted(run.lines) == ["a warning on stderr", "hello from the agent"]


@pytest.mark.slow
async def test_agent_ignoring_sigterm_is_killed_after_grace(run: Run) -> None:
    run.started_on = "ready"  # SIGTERM is ignored from then on
    outcome = await run(agent("ignore_sigterm"), deadline_after=0.2)
    overrun = time.monotonic() - run.deadline_at
    assert (outcome.ended_by, outcome.exit_code, outcome.signal) == ("deadline", None, 9)
    assert GRACE * REAPER_SHARE <= overrun < GRACE + 0.5  # the reaper's share of the grace, then SIGKILL


async def test_grandchildren_are_reaped_after_agent_exit(run: Run) -> None:
    pid_file = run.tmp_path / "grandchildren.pids"
    outcome = await run(agent("grandchildren", pid_file), deadline_after=0.2)
    assert (outcome.ended_by, outcome.exit_code) == ("agent_exit", 0)
    pids = [int(pid) for pid in pid_file.read_text().split()]
    assert len(pids) == 3
    for pid in pids:
        assert_dead(pid)
    assert b"leaving my children behind" in run.log


async def test_flooding_agent_keeps_only_the_tail(run: Run) -> None:
    megabytes, cap = 50, 1 << 20
    run.started_on = "FLOOD-END-MARKER"
    lag = 0.0

    async def measure_lag() -> None:
        nonlocal lag
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.01)
            lag = max(lag, time.monotonic() - before - 0.01)

    ticker = asyncio.create_task(measure_lag())
    began = time.monotonic()
    outcome = await run(agent("flood", megabytes), deadline_after=0.1, cap=cap)
    ticker.cancel()
    produced = megabytes * 1024 * 1000 + len(b"FLOOD-END-MARKER\n")
    assert outcome.ended_by == "deadline" and outcome.signal == signal.SIGTERM
    assert (outcome.log_bytes, outcome.log_dropped) == (produced, produced - cap)
    header = (f"[sentinel: {produced - cap} earlier bytes dropped; "
              f"agent.log keeps the last {cap} bytes]\n").encode()
    log = run.log
    assert log.startswith(header) and len(log) == len(header) + cap
    assert log.endswith(b"x" * 999 + b"\nFLOOD-END-MARKER\n")
    assert len(run.lines) == megabytes * 1024 + 1 and run.lines[-1] == "FLOOD-END-MARKER"
    assert lag < 0.2, f"the event loop stalled for {lag:.3f} s"
    assert time.monotonic() - began < 10


async def test_agent_exit_code_3(run: Run) -> None:
    outcome = await run(agent("exit_code", 3))
    assert (outcome.ended_by, outcome.exit_code, outcome.signal) == ("agent_exit", 3, None)


@pytest.mark.slow
async def test_agent_that_never_starts_hits_startup_timeout(run: Run) -> None:
    began = time.monotonic()
    outcome = await run(agent("hang"), startup_timeout=0.5)
    assert (outcome.ended_by, outcome.signal) == ("startup_timeout", signal.SIGTERM)
    assert 0.5 <= time.monotonic() - began < 0.5 + GRACE


async def test_agent_hanging_after_start_hits_deadline(run: Run) -> None:
    run.started.set()
    outcome = await run(agent("hang"), startup_timeout=0.1, deadline_after=0.3)
    assert (outcome.ended_by, outcome.signal) == ("deadline", signal.SIGTERM)
    assert 0 <= time.monotonic() - run.deadline_at < GRACE


@pytest.mark.parametrize("program", ["/no/such/agent", "no-such-agent-xyz"])
async def test_missing_program_is_a_clear_error(tmp_path: Path, program: str) -> None:
    with pytest.raises(SentinelError, match=f"agent program not found.*: {program}$"):
        check_command([program, "--flag"])
    with pytest.raises(SentinelError, match=f"agent program not found.*: {program}$"):
        await AgentProcess.spawn([program], cwd=tmp_path, env={},
                                 log_path=tmp_path / "agent.log", log_cap_bytes=1000)
    with pytest.raises(SentinelError, match="empty"):
        check_command([])
    with pytest.raises(SentinelError, match="empty"):
        check_command("  ")
    with pytest.raises(SentinelError, match="cannot start agent: No such file or directory"):
        await AgentProcess.spawn(agent("hang"), cwd=tmp_path / "missing", env={},
                                 log_path=tmp_path / "agent.log", log_cap_bytes=1000)


def test_build_command_substitutes_lists_verbatim_and_quotes_for_the_shell(tmp_path: Path) -> None:
    prompt = "'; rm -rf x; echo ' \"quoted\" $HOME __BASE_DIR__"
    values = {"__TASK_PROMPT__": prompt, "__TASK_URL__": "http://127.0.0.1:8000/start",
              "__BASE_DIR__": str(tmp_path)}
    assert build_command(["agent", "__TASK_PROMPT__", "--url=__TASK_URL__", "__BASE_DIR__"],
                         values) == ["agent", prompt, "--url=http://127.0.0.1:8000/start",
                                     str(tmp_path)]
    (tmp_path / "x").mkdir()
    command = build_command("printf %s __TASK_PROMPT__", values)
    printed = subprocess.run(["sh", "-c", command], cwd=tmp_path, capture_output=True,
                             text=True, check=True).stdout
    assert printed == prompt and (tmp_path / "x").is_dir()


async def test_stop_event_ends_the_session(run: Run) -> None:
    stop = asyncio.Event()
    asyncio.get_running_loop().call_later(0.2, stop.set)
    outcome = await run(agent("hang"), stop=stop)
    assert (outcome.ended_by, outcome.signal) == ("stopped", signal.SIGTERM)


async def test_env_reaches_the_agent(run: Run) -> None:
    url = "http://127.0.0.1:4321/start"
    outcome = await run(agent("print_env", "SENTINEL_TASK_URL"), env={"SENTINEL_TASK_URL": url})
    assert (outcome.ended_by, outcome.exit_code) == ("agent_exit", 0)
    assert run.lines == [f"SENTINEL_TASK_URL={url}"]
    assert run.log == f"SENTINEL_TASK_URL={url}\n".encode()


async def test_harness_error_still_terminates_and_writes_the_log(run: Run) -> None:
    def broken_deadline() -> float:
        raise RuntimeError("no clock")

    run.started_on = "ready"
    run.agent = await AgentProcess.spawn(
        agent("hang"), cwd=run.tmp_path, env={}, log_path=run.tmp_path / "agent.log",
        log_cap_bytes=1000, on_line=run.on_line, term_grace=GRACE)
    outcome = await run.agent.supervise(started=run.started, startup_timeout=5,
                                        deadline=broken_deadline)
    assert outcome.ended_by == "harness_error" and "no clock" in outcome.error
    assert run.log == b"ready\n"
    assert_group_gone(run.agent.pgid)


def alive(pid: int) -> bool:
    """True while pid runs (a zombie, ended but not yet collected, counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


async def test_a_setsid_grandchild_ends_with_the_session(run: Run) -> None:
    """A child that left the agent's process group and session (setsid) while holding the output
    pipe: the subreaper ends it when the agent exits, and the harness does not hang on the pipe."""
    pid_file = run.tmp_path / "escaped.pid"
    began = time.monotonic()
    try:
        outcome = await run(agent("escaping_child", pid_file))
        assert (outcome.ended_by, outcome.exit_code) == ("agent_exit", 0)
        assert time.monotonic() - began < 2.5
        assert not alive(int(pid_file.read_text()))
    finally:
        if pid_file.exists() and alive(int(pid_file.read_text())):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)


async def test_cancelled_supervise_still_terminates_and_writes_the_log(run: Run) -> None:
    run.started_on = "ready"
    run.agent = await AgentProcess.spawn(
        agent("hang"), cwd=run.tmp_path, env={}, log_path=run.tmp_path / "agent.log",
        log_cap_bytes=1000, on_line=run.on_line, term_grace=GRACE)
    task = asyncio.create_task(run.agent.supervise(
        started=run.started, startup_timeout=5, deadline=lambda: time.monotonic() + 5))
    await asyncio.wait_for(run.started.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert run.log == b"ready\n"
    assert_group_gone(run.agent.pgid)


async def test_shell_command_gets_substituted_values(run: Run) -> None:
    prompt = "it's \"quoted\"; echo injected"
    command = build_command("printf '%s\\n' __TASK_PROMPT__ \"$SENTINEL_TASK_URL\"",
                            {"__TASK_PROMPT__": prompt})
    outcome = await run(command, env={"SENTINEL_TASK_URL": "http://127.0.0.1:1/start"})
    assert (outcome.ended_by, outcome.exit_code) == ("agent_exit", 0)
    assert run.lines == [prompt, "http://127.0.0.1:1/start"]


async def test_lines_are_decoded_and_capped(run: Run) -> None:
    outcome = await run(agent("long_lines"))
    assert outcome.ended_by == "agent_exit"
    assert run.lines == ["y" * 1000, "bad \ufffd byte", "windows", "no newline at the end"]
    assert run.log.endswith(b"windows\r\nno newline at the end")


async def test_agent_runs_at_lower_priority(run: Run) -> None:
    """The agent, started by the reaper once the harness lowered it, runs AGENT_NICENESS below."""
    from sentinel.session.harness import AGENT_NICENESS
    outcome = await run([sys.executable, "-c", "import os; print('nice', os.nice(0))"])
    assert outcome.exit_code == 0
    assert run.lines == [f"nice {min(19, os.nice(0) + AGENT_NICENESS)}"]
