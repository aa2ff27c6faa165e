"""The loop's thread at a real-time priority, its children and threads at normal priority."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from sentinel.priority import realtime


def policy_name(policy: int) -> str:
    return "rr" if policy & ~os.SCHED_RESET_ON_FORK == os.SCHED_RR else \
        "other" if policy & ~os.SCHED_RESET_ON_FORK == os.SCHED_OTHER else str(policy)


def test_raises_only_this_thread_and_restores_it():
    assert policy_name(os.sched_getscheduler(0)) == "other"
    with realtime() as raised:
        if not raised:
            pytest.skip("this user may not use real-time priorities")
        assert policy_name(os.sched_getscheduler(0)) == "rr"
        seen = []
        thread = threading.Thread(target=lambda: seen.append(os.sched_getscheduler(0)))
        thread.start()
        thread.join()
        child = subprocess.run([sys.executable, "-c", "import os; print(os.sched_getscheduler(0))"],
                               capture_output=True, text=True, check=True)
    assert policy_name(seen[0]) == "other"  # threads it creates run at normal priority
    assert policy_name(int(child.stdout)) == "other"  # and so do the agents it starts
    assert policy_name(os.sched_getscheduler(0)) == "other"  # restored afterwards
