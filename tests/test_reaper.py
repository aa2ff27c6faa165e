"""The agent's reaper (sentinel/session/reaper.py) waits on signals: it does not wake while its agent runs."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper is Linux only")


def wakeups(pid: int) -> int:
    """How many times the process has gone to sleep and been woken (voluntary context switches)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("voluntary_ctxt_switches")))


@pytest.mark.slow
def test_an_idle_reaper_sleeps_until_its_agent_ends() -> None:
    # a 20 ms poll woke about 50 times in this second; waiting on SIGCHLD wakes only at the end
    reaper = subprocess.Popen([sys.executable, "-m", "sentinel.session.reaper", "1", "--", "sleep", "1.5"])
    try:
        time.sleep(0.4)  # past the reaper's start-up
        before = wakeups(reaper.pid)
        time.sleep(1.0)
        assert wakeups(reaper.pid) - before <= 5
    finally:
        assert reaper.wait(timeout=10) == 0


def test_a_stopped_reaper_ends_its_agent_and_dies_of_the_same_signal() -> None:
    reaper = subprocess.Popen([sys.executable, "-m", "sentinel.session.reaper", "1", "--", "sleep", "30"])
    time.sleep(0.4)
    began = time.monotonic()
    reaper.terminate()
    assert reaper.wait(timeout=10) == -15  # sleep died of the SIGTERM, and the reaper the same way
    assert time.monotonic() - began < 5
