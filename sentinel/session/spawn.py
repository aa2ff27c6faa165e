"""Starting an agent's process without holding up the event loop.

asyncio starts a subprocess on the loop's own thread, and that thread then waits until the
child has reached exec: on a machine busy with agents, the new child (at normal priority)
waits for a core, and every session's timers wait with it (measured: 80-130 ms per agent
started while other sessions ran, the waves of a run larger than the machine carries). Here the
child is started on a worker thread (subprocess.Popen, which waits there instead), and the
loop then only attaches to it: its output pipe through the loop's own pipe transport, its exit
through a pid file descriptor (Linux 5.3+), with no thread per process either.

The thread that starts a process must outlive it: the agent's reaper asks Linux to kill it
when its parent dies (PR_SET_PDEATHSIG), and its parent is that thread, not the process. So
the caller passes its own executor, one that lasts as long as the agents it starts (the
runner's, shut down only when every session of the run has ended).

`start_process` hands the caller's SubprocessProtocol what asyncio's own transport would give
it: connection_made, pipe_data_received(1, ...), pipe_connection_lost(1, ...), process_exited.
Where pid file descriptors are missing it returns None, and the caller uses asyncio's way.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import subprocess
from concurrent.futures import Executor
from typing import Any


@functools.cache  # what the kernel offers does not change while the process runs
def pidfd_works() -> bool:
    if not hasattr(os, "pidfd_open"):
        return False
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError:  # an older kernel, or a sandbox that forbids the call
        return False
    return True


class _OutputPipe(asyncio.Protocol):
    """Forwards the read end of the child's stdout to the process protocol, as fd 1."""

    def __init__(self, owner: SpawnedProcess) -> None:
        self.owner = owner

    def data_received(self, data: bytes) -> None:
        self.owner.protocol.pipe_data_received(1, data)

    def eof_received(self) -> bool:
        return False  # close the transport: connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        self.owner.protocol.pipe_connection_lost(1, exc)
        self.owner.pipe_closed()


class SpawnedProcess(asyncio.SubprocessTransport):
    """The part of asyncio's SubprocessTransport that AgentProcess uses, for a process started
    by `start_process`."""

    def __init__(self, loop: asyncio.AbstractEventLoop, process: subprocess.Popen,
                 protocol: asyncio.SubprocessProtocol) -> None:
        super().__init__()
        self.loop = loop
        self.process = process
        self.protocol = protocol
        self.pipe: asyncio.ReadTransport | None = None
        self._pidfd: int | None = os.pidfd_open(process.pid)
        self._returncode: int | None = None
        self._exit_told = False
        loop.add_reader(self._pidfd, self._reap)

    def _reap(self) -> None:
        """The pid file descriptor is readable: the child has ended."""
        self._stop_watching()
        try:
            _, status = os.waitpid(self.process.pid, 0)
            self._returncode = os.waitstatus_to_exitcode(status)
        except ChildProcessError:  # reaped elsewhere
            self._returncode = 255
        self.process.returncode = self._returncode
        self._tell_exit()

    def _stop_watching(self) -> None:
        if self._pidfd is not None:
            self.loop.remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None

    def pipe_closed(self) -> None:
        self._tell_exit()

    def _tell_exit(self) -> None:
        # As asyncio does: process_exited only once the output pipe is connected and the child
        # has ended (the pipe may still be open if a grandchild holds it).
        if self._returncode is not None and not self._exit_told:
            self._exit_told = True
            self.protocol.process_exited()

    # --- SubprocessTransport -------------------------------------------------
    def get_pid(self) -> int:
        return self.process.pid

    def get_returncode(self) -> int | None:
        return self._returncode

    def get_pipe_transport(self, fd: int) -> Any:
        return self.pipe if fd == 1 else None

    def send_signal(self, signum: int) -> None:
        if self._returncode is None:
            self.process.send_signal(signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def is_closing(self) -> bool:
        return self.pipe is None or self.pipe.is_closing()

    def close(self) -> None:
        """Close the pipe; a child still running is killed (as asyncio's transport does)."""
        if self.pipe is not None and not self.pipe.is_closing():
            self.pipe.close()
        if self._returncode is None and self.process.poll() is None:
            self.process.kill()


def _kill_started(starting: asyncio.Future) -> None:
    if not starting.cancelled() and starting.exception() is None:
        process = starting.result()
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)  # it leads its own group (start_new_session)
        process.wait()


async def start_process(argv: list[str], protocol: asyncio.SubprocessProtocol, executor: Executor | None,
                        **options: Any) -> SpawnedProcess | None:
    """Start argv (Popen options, stdout=PIPE) on one of the executor's threads; None without
    an executor or where pid file descriptors are missing (the caller then uses
    loop.subprocess_exec)."""
    if executor is None or not pidfd_works():
        return None
    loop = asyncio.get_running_loop()
    starting = loop.run_in_executor(executor, functools.partial(subprocess.Popen, argv, **options))
    try:
        process = await asyncio.shield(starting)
    except asyncio.CancelledError:  # the run is stopping: end the process once it exists
        starting.add_done_callback(_kill_started)
        raise
    transport = SpawnedProcess(loop, process, protocol)
    protocol.connection_made(transport)
    assert process.stdout is not None
    pipe, _ = await loop.connect_read_pipe(lambda: _OutputPipe(transport), process.stdout)
    transport.pipe = pipe
    return transport
