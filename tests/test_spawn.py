"""Agents started off the loop's thread: output, exit code and the end told as asyncio would."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from sentinel.session.spawn import pidfd_works, start_process

pytestmark = pytest.mark.skipif(not pidfd_works(), reason="no pid file descriptors here")


class Recorder(asyncio.SubprocessProtocol):
    def __init__(self) -> None:
        self.output = b""
        self.pipe_closed = asyncio.Event()
        self.exited = asyncio.Event()
        self.transport = None

    def connection_made(self, transport) -> None:
        self.transport = transport

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        assert fd == 1
        self.output += data

    def pipe_connection_lost(self, fd: int, exc) -> None:
        self.pipe_closed.set()

    def process_exited(self) -> None:
        self.exited.set()


@pytest.fixture
def spawner():
    with ThreadPoolExecutor(1) as pool:
        yield pool


OPTIONS = dict(stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)


async def test_output_and_exit_code_of_a_process_started_off_the_loop(spawner):
    protocol = Recorder()
    script = "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"
    transport = await start_process([sys.executable, "-c", script], protocol, spawner, **OPTIONS)
    assert transport is not None and protocol.transport is transport
    assert transport.get_pid() > 0 and transport.get_pipe_transport(1) is not None
    await asyncio.wait_for(asyncio.gather(protocol.exited.wait(), protocol.pipe_closed.wait()), 10)
    assert transport.get_returncode() == 3
    assert protocol.output.split() == [b"out", b"err"]  # stderr merged into stdout
    transport.close()


async def test_close_kills_a_process_still_running(spawner):
    protocol = Recorder()
    transport = await start_process([sys.executable, "-c", "import time; time.sleep(60)"], protocol, spawner, **OPTIONS)
    assert transport is not None
    transport.close()
    await asyncio.wait_for(protocol.exited.wait(), 10)
    assert transport.get_returncode() == -9


async def test_a_missing_program_raises_as_popen_does(tmp_path, spawner):
    with pytest.raises(FileNotFoundError):
        await start_process([str(tmp_path / "no-such-agent")], Recorder(), spawner, **OPTIONS)


@pytest.mark.slow
async def test_cancelled_while_starting_leaves_no_process_behind(tmp_path, spawner):
    marker = tmp_path / "pid"
    script = f"import os, time; open({str(marker)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
    task = asyncio.create_task(start_process([sys.executable, "-c", script], Recorder(), spawner, **OPTIONS))
    await asyncio.sleep(0)  # the worker thread is starting it
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(40):  # the process, once it existed, was killed and reaped
        if marker.exists() and marker.read_text():
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    if marker.exists() and marker.read_text():
        pid = int(marker.read_text())
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_without_an_executor_the_caller_uses_asyncio():
    assert await start_process([sys.executable, "-c", "pass"], Recorder(), None, **OPTIONS) is None
