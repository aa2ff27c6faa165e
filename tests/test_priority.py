"""The loop's thread at a real-time priority, its children and threads at normal priority."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from sentinel.session.priority import realtime


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


def test_worker_pool_threads_are_all_started_and_raised():
    from sentinel.session.priority import WORKER_PRIORITY, worker_pool
    with realtime() as raised:
        if not raised:
            pytest.skip("this user may not use real-time priorities")
        before = threading.active_count()
        pool = worker_pool(workers=3)
        try:
            assert threading.active_count() == before + 3  # started up front, not on first use
            seen = {pool.submit(lambda: (threading.get_ident(), os.sched_getscheduler(0),
                                         os.sched_getparam(0).sched_priority)).result() for _ in range(6)}
        finally:
            pool.shutdown(wait=True)
    assert {policy_name(policy) for _, policy, _ in seen} == {"rr"}
    assert {priority for _, _, priority in seen} == {WORKER_PRIORITY}
