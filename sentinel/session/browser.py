"""The browser a session lends its agent (`--agent-browser`): one headless Chromium per session.

The agent gets its DevTools address as SENTINEL_CDP_URL (and the `__CDP_URL__` placeholder):
`http://127.0.0.1:PORT`, which Playwright's `connect_over_cdp`, `@playwright/mcp --cdp-endpoint`
or any DevTools client accepts (SENTINEL_CDP_WS_URL is the browser's websocket address itself;
sentinel/session/launch.py tells the agent both). See docs/agents-any-stack.md#a-browser-lent-to-the-agent.

The browser belongs to the session, not to the agent: it starts before the agent and is closed
after it, and it stays outside a `--sandbox` (the agent reaches it over loopback). No Chromium
outlives its session:

- it runs under the reaper (sentinel/session/reaper.py) in a process group of its own: closing
  the browser ends that group, and the reaper ends every descendant that left it;
- the reaper has the runner's death as its SIGTERM (PR_SET_PDEATHSIG), so a runner killed by
  SIGKILL still takes the browser with it. It is started from the event loop's thread, which
  lives as long as the run (the death signal follows the thread that started a process).

While it runs, its processes' memory and CPU time are sampled; `close()` writes the figures
to browser.json in the session's result folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass
from pathlib import Path

from sentinel.core.chromium import PROFILE_PREFIX, START_TIMEOUT_S, chromium_argv, chromium_program, devtools_address
from sentinel.core.errors import SentinelError
from sentinel.core.files import write_atomic
from sentinel.session.sandbox import reaped

BROWSER_FILE = "browser.json"
REAPER_GRACE_S = 1.0  # the reaper's wait between SIGTERM and SIGKILL of Chromium's processes
CLOSE_WAIT_S = 5.0
SAMPLE_EVERY_S = 1.0
POLL_S = 0.05
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class BrowserFigures:
    """What the browser cost: written to browser.json."""
    pid: int  # the reaper's, the leader of the browser's process group
    peak_rss_mb: float  # the most its processes held at once (sampled every SAMPLE_EVERY_S)
    cpu_s: float  # CPU seconds of its processes (user + system), at the last sample
    processes: int  # the most processes it ran at once


class SessionBrowser:
    """A running Chromium for one session's agent. Use `lent_browser()`."""

    def __init__(self, process: asyncio.subprocess.Process, profile: Path, port: int, ws_path: str):
        self.process = process
        self.profile = profile
        self.pgid = process.pid  # start_new_session: the reaper leads the browser's group
        self.cdp_url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}{ws_path}"
        self._peak_rss = 0
        self._cpu_ticks = 0
        self._most_processes = 0
        self._sampler = asyncio.create_task(self._sample_forever(), name=f"browser {self.pgid} sampler")

    @classmethod
    async def start(cls, executable: str | None = None) -> SessionBrowser:
        profile = Path(tempfile.mkdtemp(prefix=PROFILE_PREFIX))
        try:
            argv = reaped(chromium_argv(profile, executable), REAPER_GRACE_S)
        except RuntimeError as exc:
            shutil.rmtree(profile, ignore_errors=True)
            raise SentinelError(f"--agent-browser: {exc}") from None
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT_S
        while (address := devtools_address(profile)) is None:
            if process.returncode is not None or time.monotonic() > deadline:
                problem = (f"exited at start with status {process.returncode}" if process.returncode is not None
                           else f"did not open its DevTools port within {START_TIMEOUT_S:g} s")
                await _end_group(process)
                shutil.rmtree(profile, ignore_errors=True)
                raise SentinelError(f"--agent-browser: Chromium {problem}")
            await asyncio.sleep(POLL_S)
        return cls(process, profile, *address)

    def pids(self) -> list[int]:
        """The browser's live processes: its process group, and whatever the reaper still holds."""
        return group_members(self.pgid)

    async def close(self, out_dir: Path | None = None) -> BrowserFigures:
        """End every process of the browser, remove its profile; write browser.json into out_dir."""
        self._sample()
        self._sampler.cancel()
        await asyncio.gather(self._sampler, return_exceptions=True)
        await _end_group(self.process)
        shutil.rmtree(self.profile, ignore_errors=True)
        figures = BrowserFigures(pid=self.pgid, peak_rss_mb=round(self._peak_rss / 2**20, 1),
                                 cpu_s=round(self._cpu_ticks / TICKS, 2), processes=self._most_processes)
        if out_dir is not None:
            await asyncio.to_thread(write_atomic, out_dir / BROWSER_FILE, json.dumps(asdict(figures), indent=2) + "\n")
        return figures

    async def _sample_forever(self) -> None:
        while True:
            self._sample()
            await asyncio.sleep(SAMPLE_EVERY_S)

    def _sample(self) -> None:
        rss = ticks = 0
        members = self.pids()
        for pid in members:
            usage = _usage(pid)
            if usage is not None:
                rss += usage[0]
                ticks += usage[1]
        self._peak_rss = max(self._peak_rss, rss)
        self._cpu_ticks = max(self._cpu_ticks, ticks)
        self._most_processes = max(self._most_processes, len(members))


def check_agent_browser() -> None:
    """Raise SentinelError (one line) if there is no Chromium to lend."""
    if not Path(chromium_program()).is_file():
        raise SentinelError(f"--agent-browser needs Chromium, and there is no program at {chromium_program()}: "
                            f"install Debian's chromium (apt-get install chromium) or set SENTINEL_CHROMIUM")


@contextlib.asynccontextmanager
async def lent_browser(out_dir: Path) -> AsyncIterator[SessionBrowser]:
    """A browser for the length of the block (the agent's life); closed however the block ends."""
    browser = await SessionBrowser.start()
    try:
        yield browser
    finally:
        await asyncio.shield(browser.close(out_dir))


async def _end_group(process: asyncio.subprocess.Process) -> None:
    """SIGTERM the browser's reaper (which ends Chromium's processes, SIGKILL after its grace),
    then SIGKILL whatever is left of the group."""
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(process.wait(), CLOSE_WAIT_S)
    except TimeoutError:
        pass
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    await process.wait()


def group_members(pgid: int) -> list[int]:
    """The live (not zombie) processes of a process group, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat_fields(int(entry.name))
        if fields is not None and fields[2] != "Z" and int(fields[4]) == pgid:
            found.append(int(entry.name))
    return found


def _stat_fields(pid: int) -> list[str] | None:
    """/proc/PID/stat split into fields (field 0 = pid, 1 = name, 2 = state, 4 = pgrp, ...)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name_end = text.rfind(")")  # the name may hold spaces and parentheses
    return [text[: text.find(" ")], text[text.find("(") + 1: name_end], *text[name_end + 2:].split()]


def _usage(pid: int) -> tuple[int, int] | None:
    """(resident bytes, CPU ticks user + system) of one process."""
    fields = _stat_fields(pid)
    if fields is None:
        return None
    return int(fields[23]) * PAGE_SIZE, int(fields[13]) + int(fields[14])
