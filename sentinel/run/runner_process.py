"""A run in a process of its own, for a screen: `sentinel tui` draws in one process and runs
the sessions in another.

In one process the screen's thread and the runner's loop take turns at the interpreter's lock,
and a page render of 2.5 ms stretched to 5-8 ms while the screen painted (event lateness p99
5.7-6.8 ms with the dashboard up, 1.9-2.3 ms without it). Two processes share no lock: the
runner runs exactly as under `sentinel run`.

RunnerProcess stands in for a Runner where a screen drives one: `bus` carries the child's
messages, `stop()` and `stop_session(key)` reach the child's runner, `stopping` says a stop was
asked, and `run()` returns the child's RunReport (or raises SentinelError with why it failed).

The wire, parent → child: the child's stdin carries one frame (config and plan), then commands,
one per line ("stop", "stop-session <key>"); when it closes (the screen's process ended), the
child stops its run as Ctrl-C would, keeping every finished result. Child → parent: a pipe of
frames ("message", bus message), then one ("report", RunReport) or ("error", text). A frame is
a 4-byte big-endian length and a pickle. The child's stdout and stderr go to a file the parent
reads afterwards (`output`), since the screen owns the terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import signal
import struct
import subprocess
import sys
import tempfile
import traceback
from typing import IO, Any, BinaryIO

from sentinel.core.bus import Bus
from sentinel.core.config import Config
from sentinel.core.errors import SentinelError
from sentinel.run.plan import RunHandle, RunPlan, RunReport

HEADER = struct.Struct(">I")
PIPE_BYTES = 1 << 20  # room for bursts of messages while the screen's process is busy drawing


def write_frame(stream: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(HEADER.pack(len(data)) + data)
    stream.flush()


def read_frame(stream: IO[bytes]) -> Any:
    """The next frame's value; EOFError once the stream ends (also in the middle of a frame)."""
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        raise EOFError
    size = HEADER.unpack(header)[0]
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


def _widen(fd: int) -> None:
    """Make a pipe hold PIPE_BYTES where Linux allows it (it holds 64 KiB by default)."""
    with contextlib.suppress(AttributeError, OSError):
        import fcntl
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)


class RunnerProcess(RunHandle):
    """A Runner's run in a child process, seen through the Runner's surface (module docstring)."""

    def __init__(self, config: Config, plan: RunPlan, bus: Bus | None = None):
        super().__init__(config, plan, bus)
        self.output = ""  # what the child printed (stdout and stderr), once run() has returned
        self._process: subprocess.Popen | None = None
        self._early: list[str] = []  # commands given before the child started

    def stop(self) -> None:
        self.stopping = True
        self._command("stop")

    def stop_session(self, key: str) -> None:
        self._command(f"stop-session {key}")

    def _command(self, line: str) -> None:
        process = self._process
        if process is None:
            self._early.append(line)
            return
        assert process.stdin is not None
        with contextlib.suppress(OSError, ValueError):  # the child has ended: nothing left to stop
            process.stdin.write(line.encode() + b"\n")
            process.stdin.flush()

    async def run(self) -> RunReport:
        with tempfile.TemporaryFile() as log:
            read_fd, write_fd = os.pipe()
            _widen(write_fd)
            try:
                self._process = subprocess.Popen(
                    [sys.executable, "-m", "sentinel.run.runner_process", str(write_fd)],
                    stdin=subprocess.PIPE, stdout=log, stderr=log, pass_fds=(write_fd,))
            except OSError:
                os.close(read_fd)
                raise
            finally:
                os.close(write_fd)
            with os.fdopen(read_fd, "rb") as frames:
                assert self._process.stdin is not None
                with contextlib.suppress(OSError):
                    write_frame(self._process.stdin, (self.config, self.plan))
                for line in self._early:
                    self._command(line)
                outcome = await asyncio.to_thread(self._receive, frames)
            code = await asyncio.to_thread(self._process.wait)
            self._process.stdin.close()
            log.seek(0)
            self.output = log.read().decode(errors="replace")
        return self._report(outcome, code)

    def _receive(self, frames: BinaryIO) -> tuple[str, Any] | None:
        """Publish the child's messages until its report or error comes (or its pipe ends)."""
        while True:
            try:
                kind, value = read_frame(frames)
            except EOFError:
                return None
            if kind == "message":
                self.bus.publish(value)
            else:
                return kind, value

    def _report(self, outcome: tuple[str, Any] | None, code: int) -> RunReport:
        if outcome is not None and outcome[0] == "report":
            return outcome[1]
        if outcome is not None:
            raise SentinelError(outcome[1])
        last = self.output.strip().splitlines()[-1:] or ["(it printed nothing)"]
        raise SentinelError(f"the runner's process ended (exit code {code}) without a report: {last[0]}")


# --- the child ------------------------------------------------------------------------------

def _read_exactly(fd: int, size: int) -> bytes:
    chunks = []
    while size:
        chunk = os.read(fd, size)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


class _Commands:
    """Reads command lines from stdin on the child's loop and hands them to the runner."""

    def __init__(self, runner, loop: asyncio.AbstractEventLoop):
        self.runner = runner
        self.loop = loop
        self.pending = b""
        os.set_blocking(0, False)
        self.readable()  # commands sent before the run began (a stop) act before any session starts
        loop.add_reader(0, self.readable)

    def readable(self) -> None:
        try:
            chunk = os.read(0, 4096)
        except BlockingIOError:
            return
        if not chunk:  # the screen's process is gone: stop as Ctrl-C would
            self.loop.remove_reader(0)
            self.runner.stop()
            return
        self.pending += chunk
        *lines, self.pending = self.pending.split(b"\n")
        for line in lines:
            word, _, key = line.decode().partition(" ")
            if word == "stop":
                self.runner.stop()
            elif word == "stop-session":
                self.runner.stop_session(key)


def child_main(message_fd: int) -> int:
    from sentinel.run.ray_backend import RayRunner, make_runner

    # The screen decides when to stop (its quit key, or closing stdin); a terminal's Ctrl-C
    # reaches both processes and must not kill this one halfway through writing results.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    frames = os.fdopen(message_fd, "wb")
    config, plan = pickle.loads(_read_exactly(0, HEADER.unpack(_read_exactly(0, HEADER.size))[0]))
    bus = Bus()
    unsubscribe = None

    def forward(message) -> None:
        try:
            write_frame(frames, ("message", message))
        except OSError:  # the screen's process is gone (stdin's end stops the run): stop writing
            assert unsubscribe is not None
            unsubscribe()
    unsubscribe = bus.subscribe(forward)

    async def drive(runner) -> RunReport:
        loop = asyncio.get_running_loop()
        _Commands(runner, loop)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(sig, runner.stop)
        return await runner.run()

    try:
        runner = make_runner(config, plan, bus)
        if isinstance(runner, RayRunner):
            runner.connect()
        outcome: tuple[str, Any] = ("report", asyncio.run(drive(runner)))
    except SentinelError as exc:
        outcome = ("error", str(exc))
    except Exception as exc:  # say why on the screen; the whole traceback goes to the output
        traceback.print_exc()
        outcome = ("error", f"the run crashed: {exc!r}")
    with contextlib.suppress(OSError):
        write_frame(frames, outcome)
    return 0 if outcome[0] == "report" else 1


if __name__ == "__main__":
    sys.exit(child_main(int(sys.argv[1])))
