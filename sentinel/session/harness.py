"""The agent subprocess: build its command, spawn it, stream its output, supervise, terminate.

See docs/protocol.md#sessions and #agents. The agent runs in its own process group; whatever ends the
session, the whole group gets SIGTERM, then SIGKILL after a grace period. Output (stdout and
stderr merged) goes line by line to a callback and, capped to its last bytes, to agent.log.
"""

from __future__ import annotations

import asyncio
import collections
import ctypes
import logging
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sentinel.core.errors import SentinelError
from sentinel.core.files import write_atomic
from sentinel.session.sandbox import Sandbox, contained
from sentinel.session.spawn import start_process

PLACEHOLDERS = ("__TASK_URL__", "__TASK_PROMPT__", "__BASE_DIR__", "__SCENARIO_FILE__", "__CDP_URL__",
                "__MCP_URL__")

CHUNK_BYTES = 64 * 1024         # output is processed in pieces of this size, yielding in between
PAUSE_READING_AT = 1024 * 1024  # unprocessed output above this pauses the pipe (back-pressure)
MAX_LINE_CHARS = 1000           # longest line handed to on_line
POLL_S = 0.02                   # how often terminate() looks whether the group is gone
AFTER_KILL_S = 1.0              # how long to wait for the group and the pipe after SIGKILL
REAPER_SHARE = 0.6              # of the SIGTERM grace: the reaper's own, so it ends all before SIGKILL

log = logging.getLogger(__name__)
PR_SET_PDEATHSIG = 1
_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


AGENT_NICENESS = 10


def _prepare_child() -> None:
    """In the forked child: lower the agent's CPU priority, so that many agents starting or
    polling at once cannot delay the world's timers; and (Linux) have it get SIGKILL if the
    runner dies, even by SIGKILL, so a killed run leaves no agent behind. Grandchildren are
    reaped by the group kill of a normal end."""
    os.nice(AGENT_NICENESS)
    if _LIBC is not None:
        _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def lower_priority(pid: int | None) -> None:
    """Give a just-started agent (the reaper, before it starts the agent) AGENT_NICENESS more
    than this process: a busy machine then delays agents rather than the world's timers."""
    if pid is None:
        return
    try:
        os.setpriority(os.PRIO_PROCESS, pid, min(19, os.getpriority(os.PRIO_PROCESS, 0) + AGENT_NICENESS))
    except OSError:  # it already ended
        pass


def build_command(template: str | list[str], values: dict[str, str]) -> str | list[str]:
    """Substitute placeholders in one pass (a value containing a placeholder stays literal).

    A list runs directly: each element is substituted verbatim. A string runs through the
    shell: each value is inserted shlex.quote()d, so do not quote placeholders in the template.
    """
    if not values:
        return template if isinstance(template, str) else list(template)
    pattern = re.compile("|".join(re.escape(name) for name in values))
    if isinstance(template, str):
        return pattern.sub(lambda m: shlex.quote(values[m.group()]), template)
    return [pattern.sub(lambda m: values[m.group()], part) for part in template]


def check_command(command: str | list[str]) -> None:
    """Raise SentinelError if the command is empty or a list command's program is missing."""
    if isinstance(command, str):
        if not command.strip():
            raise SentinelError("agent command is empty")
        return
    if not command or not command[0]:
        raise SentinelError("agent command is empty")
    program = command[0]
    if os.sep not in program:
        if shutil.which(program) is None:
            raise SentinelError(f"agent program not found on PATH: {program}")
    elif not os.path.exists(program):
        raise SentinelError(f"agent program not found: {program}")
    elif os.path.isdir(program) or not os.access(program, os.X_OK):
        raise SentinelError(f"agent program is not an executable file: {program}")


@dataclass(frozen=True)
class AgentOutcome:
    # "agent_exit" | "deadline" | "startup_timeout" | "harness_error" | "stopped"
    ended_by: str
    exit_code: int | None    # process exit code if it exited normally
    signal: int | None       # signal number if it was killed by a signal
    error: str | None        # harness error message; set exactly when ended_by is harness_error
    log_bytes: int           # total bytes of output the agent produced
    log_dropped: int         # bytes dropped by the cap (head of the output)


class _TailBuffer:
    """Keeps only the last `cap` bytes of everything appended, in bounded memory."""

    def __init__(self, cap: int) -> None:
        self.cap = max(0, cap)
        self.chunks: collections.deque[bytes] = collections.deque()
        self.kept = 0
        self.total = 0

    def append(self, data: bytes) -> None:
        self.total += len(data)
        self.chunks.append(data)
        self.kept += len(data)
        while self.kept > self.cap:
            excess = self.kept - self.cap
            head = self.chunks[0]
            if len(head) <= excess:
                self.chunks.popleft()
                self.kept -= len(head)
            else:
                self.chunks[0] = head[excess:]
                self.kept -= excess

    def render(self) -> bytes:
        """The kept bytes, preceded by a header line if earlier bytes were dropped."""
        body = b"".join(self.chunks)
        dropped = self.total - self.kept
        if not dropped:
            return body
        header = (f"[sentinel: {dropped} earlier bytes dropped; "
                  f"agent.log keeps the last {self.kept} bytes]\n")
        return header.encode() + body


class _LineSplitter:
    """Turns chunks of bytes into complete lines; a line's unbounded tail is discarded."""

    def __init__(self) -> None:
        self._partial = b""

    def feed(self, data: bytes) -> list[str]:
        pieces = data.split(b"\n")
        pieces[0] = self._partial + pieces[0]
        self._partial = pieces.pop()[: MAX_LINE_CHARS * 4]  # utf-8: at most 4 bytes a char
        return [_decode(piece) for piece in pieces]

    def flush(self) -> list[str]:
        rest, self._partial = self._partial, b""
        return [_decode(rest)] if rest else []


def _decode(line: bytes) -> str:
    text = line[: MAX_LINE_CHARS * 4].decode("utf-8", errors="replace")
    return text.rstrip("\r")[:MAX_LINE_CHARS]


class _PipeProtocol(asyncio.SubprocessProtocol):
    """Queues the merged output and notices the agent's exit on its own.

    Python 3.11's Process.wait() only returns once the output pipe is closed too, and a
    grandchild holding the pipe open would keep it waiting; process_exited() does not.
    """

    def __init__(self) -> None:
        self.transport: asyncio.SubprocessTransport | None = None
        self.exited = asyncio.Event()
        self._chunks: collections.deque[bytes] = collections.deque()
        self._pending = 0
        self._paused = False
        self._eof = False
        self._readable = asyncio.Event()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        self._chunks.append(data)
        self._pending += len(data)
        self._readable.set()
        if self._pending >= PAUSE_READING_AT and not self._paused:
            self._paused = True
            self._stdout().pause_reading()

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        self._eof = True
        self._readable.set()

    def process_exited(self) -> None:
        self.exited.set()

    async def read(self) -> bytes:
        """The next chunk of output; b"" once the pipe is closed and everything was read."""
        while not self._chunks:
            if self._eof:
                return b""
            self._readable.clear()
            await self._readable.wait()
        data = self._chunks.popleft()
        self._pending -= len(data)
        if self._paused and self._pending < PAUSE_READING_AT // 2:
            self._paused = False
            self._stdout().resume_reading()
        return data

    def _stdout(self) -> asyncio.ReadTransport:
        assert self.transport is not None, "no output before the process started"
        pipe = self.transport.get_pipe_transport(1)
        assert isinstance(pipe, asyncio.ReadTransport)
        return pipe


class AgentProcess:
    def __init__(self, protocol: _PipeProtocol, *, log_path: Path, log_cap_bytes: int,
                 on_line: Callable[[str], None] | None, term_grace: float) -> None:
        self._protocol = protocol
        assert protocol.transport is not None, "AgentProcess wraps a started process"
        self._transport: asyncio.SubprocessTransport = protocol.transport
        self.pid = self._transport.get_pid()
        self.pgid = self.pid  # start_new_session: the agent leads its own process group
        self._log_path = log_path
        self._tail = _TailBuffer(log_cap_bytes)
        self._on_line = on_line
        self._term_grace = term_grace
        self._spawned_at = time.monotonic()
        self._group_gone = False
        self._termination: asyncio.Future[None] | None = None
        self._pump = asyncio.ensure_future(self._read_output())

    @classmethod
    async def spawn(cls, command: str | list[str], *, cwd: Path, env: dict[str, str],
                    log_path: Path, log_cap_bytes: int,
                    on_line: Callable[[str], None] | None = None,
                    term_grace: float = 3.0, sandbox: Sandbox | None = None,
                    spawner: Executor | None = None) -> AgentProcess:
        """Start the agent in its own process group, stdin from /dev/null, output merged, contained
        so that nothing it starts outlives it (sentinel/session/sandbox.py: a subreaper, or bubblewrap).
        spawner: threads to start it from, outliving it (sentinel/session/spawn.py); without, the
        loop's thread starts it."""
        loop = asyncio.get_running_loop()
        protocol = _PipeProtocol()
        # Under the reaper, no code runs in the forked child: the reaper sets its own death signal
        # and the agent is lowered right after the spawn (lower_priority). A preexec function
        # would force a full fork and keep the event loop waiting until the child, at nice 10 on
        # a busy machine, got to run it: 100-350 ms per agent, 34 s of stalled loop for 200.
        options: dict[str, Any] = dict(cwd=cwd, env={**os.environ, **env}, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
                       preexec_fn=_prepare_child if sandbox is not None else None)
        check_command(command)
        if isinstance(command, list) and os.sep in command[0]:  # relative to where sentinel runs
            command = [os.path.abspath(command[0]), *command[1:]]
        argv = contained(command, grace=term_grace * REAPER_SHARE, sandbox=sandbox)
        try:
            # Started on a worker thread where the system allows (sentinel/session/spawn.py): the loop's
            # thread would otherwise wait for the child to reach exec.
            if await start_process(argv, protocol, spawner, **options) is None:
                await loop.subprocess_exec(lambda: protocol, argv[0], *argv[1:], **options)
        except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the command
            if isinstance(exc, OSError) and exc.strerror:
                message = f"cannot start agent: {exc.strerror}: {exc.filename or command}"
            else:
                message = f"cannot start agent {command!r}: {exc}"
            raise SentinelError(message) from None
        if sandbox is None:
            lower_priority(protocol.transport.get_pid() if protocol.transport else None)
        return cls(protocol, log_path=log_path, log_cap_bytes=log_cap_bytes,
                   on_line=on_line, term_grace=term_grace)

    async def supervise(self, *, started: asyncio.Event, startup_timeout: float,
                        deadline: Callable[[], float],
                        stop: asyncio.Event | None = None,
                        extension: Callable[[], float] = lambda: 0.0,
                        expired: asyncio.Event | None = None) -> AgentOutcome:
        """Wait for the first ending, then terminate the group, drain output, write the log.
        deadline() is read once the clock has started; extension() (wall seconds the deadline has
        moved by since, for the clock's model-time pauses) after every wait. `expired` set is the
        deadline too (the virtual clock's kill time, in sim time)."""
        ended_by, error = "harness_error", None
        try:
            ended_by = await self._wait_for_end(started, startup_timeout, deadline, stop, extension, expired)
        except Exception as exc:
            log.exception("supervising the agent failed")
            error = f"supervising the agent failed: {type(exc).__name__}: {exc}"
        finally:  # also on cancellation: never leave a process group or a missing log behind
            cleanup_error = await self._finish()
        if cleanup_error and error is None:
            ended_by, error = "harness_error", cleanup_error
        return self._outcome(ended_by, error)

    async def _wait_for_end(self, started: asyncio.Event, startup_timeout: float,
                            deadline: Callable[[], float], stop: asyncio.Event | None,
                            extension: Callable[[], float], expired: asyncio.Event | None = None) -> str:
        events = [self._protocol.exited] + ([stop] if stop else []) + ([expired] if expired else [])
        waiters = [asyncio.ensure_future(event.wait()) for event in events]
        began = asyncio.ensure_future(started.wait())
        try:
            start_by = self._spawned_at + startup_timeout
            while not started.is_set():
                if ended := self._ended(stop):
                    return ended
                if (remaining := start_by - time.monotonic()) <= 0:
                    return "startup_timeout"
                await asyncio.wait([*waiters, began], timeout=remaining,
                                   return_when=asyncio.FIRST_COMPLETED)
            end_at = deadline()  # read once the clock has started
            while True:  # the extension is read again after every wait: model-time pauses move it
                if ended := self._ended(stop):
                    return ended
                if expired is not None and expired.is_set():
                    return "deadline"
                if (remaining := end_at + extension() - time.monotonic()) <= 0:
                    return "deadline"
                await asyncio.wait(waiters, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in [*waiters, began]:
                task.cancel()

    def _ended(self, stop: asyncio.Event | None) -> str | None:
        if self._protocol.exited.is_set():
            return "agent_exit"
        if stop is not None and stop.is_set():
            return "stopped"
        return None

    async def _finish(self) -> str | None:
        """Terminate, drain and write the log, each step even if an earlier one failed."""
        problem = None
        try:
            await self.terminate(self._term_grace)
        except Exception as exc:
            log.exception("terminating the agent failed")
            problem = f"terminating the agent failed: {type(exc).__name__}: {exc}"
        try:
            await asyncio.to_thread(write_atomic, self._log_path, self._tail.render())  # off the loop
        except OSError as exc:
            problem = problem or f"cannot write {self._log_path}: {exc}"
        return problem

    def _outcome(self, ended_by: str, error: str | None) -> AgentOutcome:
        code = self._transport.get_returncode()
        return AgentOutcome(
            ended_by=ended_by,
            exit_code=code if code is not None and code >= 0 else None,
            signal=-code if code is not None and code < 0 else None,
            error=error,
            log_bytes=self._tail.total,
            log_dropped=self._tail.total - self._tail.kept,
        )

    async def terminate(self, grace: float) -> None:
        """SIGTERM the group, wait up to `grace` s for it to be gone, then SIGKILL. Idempotent."""
        if self._termination is None:
            self._termination = asyncio.ensure_future(self._terminate(grace))
        await asyncio.shield(self._termination)  # a cancelled caller does not stop the killing

    async def _terminate(self, grace: float) -> None:
        try:
            self._signal_group(signal.SIGTERM)
            if not await self._wait_until_gone(grace):
                self._signal_group(signal.SIGKILL)
                await self._wait_until_gone(AFTER_KILL_S)
        finally:
            await self._stop_reading(AFTER_KILL_S)

    def _signal_group(self, signum: int) -> None:
        if self._group_gone:  # never signal a group id that may since have been reused
            return
        try:
            os.killpg(self.pgid, signum)
        except (ProcessLookupError, PermissionError):
            pass  # already gone (PermissionError: macOS, for a group of zombies)

    async def _wait_until_gone(self, timeout: float) -> bool:
        """Wait until the leader has exited and no live process is left in the group."""
        give_up_at = time.monotonic() + timeout
        while not (self._protocol.exited.is_set() and not self._group_alive()):
            if time.monotonic() >= give_up_at:
                return False
            await asyncio.sleep(POLL_S)
        return True

    def _group_alive(self) -> bool:
        if not self._group_gone:
            self._group_gone = not _group_has_live_member(self.pgid)
        return not self._group_gone

    async def _stop_reading(self, timeout: float) -> None:
        """Let the reader finish, but give up after `timeout` s (an escaped grandchild may keep
        the pipe open forever), then close the pipe."""
        await asyncio.wait([self._pump], timeout=timeout)
        self._pump.cancel()  # no effect if it is done
        [result] = await asyncio.gather(self._pump, return_exceptions=True)
        self._transport.close()
        if isinstance(result, Exception):
            raise result

    async def _read_output(self) -> None:
        lines = _LineSplitter()
        while data := await self._protocol.read():
            for start in range(0, len(data), CHUNK_BYTES):
                piece = data[start:start + CHUNK_BYTES]
                self._tail.append(piece)
                if self._on_line is not None:
                    await self._emit(lines.feed(piece))
                await asyncio.sleep(0)  # a flooding agent must not starve the event loop
        if self._on_line is not None:
            await self._emit(lines.flush())

    async def _emit(self, lines: list[str]) -> None:
        for count, line in enumerate(lines, 1):
            if self._on_line is None:
                return
            try:
                self._on_line(line)
            except Exception:
                log.exception("on_line callback failed; agent output is no longer forwarded")
                self._on_line = None
                return
            if count % 256 == 0:
                await asyncio.sleep(0)


def _group_has_live_member(pgid: int) -> bool:
    """True if a process of the group is alive. killpg(pgid, 0) also reaches zombies, which an
    init that never reaps (common in containers) keeps forever; on Linux, /proc tells them apart."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        names = os.listdir("/proc")
    except OSError:
        return True  # no /proc: trust killpg
    for name in names:
        if not name.isdigit():
            continue
        try:
            stat = Path("/proc", name, "stat").read_text()
        except OSError:
            continue  # exited meanwhile
        state, _ppid, pgrp = stat[stat.rfind(")") + 2:].split()[:3]
        if int(pgrp) == pgid and state not in ("Z", "X"):
            return True
    return False
