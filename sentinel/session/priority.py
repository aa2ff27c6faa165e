"""The world's clock ahead of everything else on the machine, where the system allows it.

Every session's timers, pages and event writes run on one thread, the event loop's. On a
machine whose cores are busy (a hundred agents parsing pages, other jobs), that thread waits
for the operating system's scheduler to give it a core each time a timer expires; at normal
priority that wait is tens to hundreds of milliseconds, the bulk of what remained of event
lateness (benchmarks/lateness_probe.py). A round-robin real-time priority makes the loop's
thread run the moment its timer expires.

Only that one thread is raised, with SCHED_RESET_ON_FORK, so the agents it starts and the
threads it creates run at normal priority. Linux caps real-time threads at 95% of each second
(sched_rt_runtime_us), so even a loop that never slept could not lock the machine up.
A screen's thread is raised too, below the runner (DISPLAY_PRIORITY), so a key repaints at
once on a machine busy with agents. Where the runner shares the screen's process (`sentinel
play`) it matters more: at normal priority the operating system could pause the screen's thread
while it holds the interpreter's lock, and the runner's loop would wait for the lock as long as
it is paused (measured: event lateness p99 450 ms at 20 sessions, and 1.4 s from a key press to
its repaint). `sentinel tui` runs its sessions in a process of their own (runner_process.py).

The loop hands slow work (a finished session's files, grading) to worker threads, and those
must not hold it up either: a thread the loop creates makes it wait until the OS first runs the
thread (Thread.start waits for that), and a normal-priority thread that the OS pauses while it
holds the interpreter's lock makes the loop wait as long as it is paused; on a machine busy
with agents, tens of milliseconds each (measured: every late event of a 100-session run fell
where a session ended). So a raised loop gets `worker_pool`: threads started up front, raised
one step below it (WORKER_PRIORITY).

Raising needs root, CAP_SYS_NICE or an RLIMIT_RTPRIO; without them nothing changes (the
agents still run at nice 10).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

REALTIME_PRIORITY = 10  # of 1–99: above every normal process, below the kernel's own threads
WORKER_PRIORITY = 9  # the runner's worker threads: just below its loop
DISPLAY_PRIORITY = 5  # a dashboard's thread: above normal processes, below the runner's loop
WORKERS = 8


def _policy() -> tuple[int, int] | None:
    """(policy, priority) of the calling thread, or None where the OS has no such call."""
    if not hasattr(os, "sched_getscheduler"):
        return None
    return os.sched_getscheduler(0), os.sched_getparam(0).sched_priority


@contextlib.contextmanager
def realtime(priority: int = REALTIME_PRIORITY) -> Iterator[bool]:
    """Run the block with the calling thread at a real-time priority if allowed; yields whether
    it is. The thread's earlier policy is restored afterwards."""
    before = _policy()
    raised = False
    if before is not None and before[0] == os.SCHED_OTHER:
        raised = raise_this_thread(priority)
    try:
        yield raised
    finally:
        if raised and before is not None:
            with contextlib.suppress(OSError):
                os.sched_setscheduler(0, before[0], os.sched_param(before[1]))


def raise_this_thread(priority: int) -> bool:
    """Put the calling thread at a real-time priority if allowed (children and threads it
    creates at normal priority); return whether it is."""
    try:
        os.sched_setscheduler(0, os.SCHED_RR | os.SCHED_RESET_ON_FORK, os.sched_param(priority))
    except (OSError, AttributeError):  # not permitted (an ordinary user), or no such policy
        return False
    return True


def worker_pool(workers: int = WORKERS, priority: int = WORKER_PRIORITY) -> ThreadPoolExecutor:
    """A thread pool whose threads are all started now (none is created later, while the loop
    waits) and raised to `priority` where allowed."""
    pool = ThreadPoolExecutor(workers, thread_name_prefix="sentinel-worker",
                              initializer=raise_this_thread, initargs=(priority,))
    everyone = threading.Barrier(workers)  # each start-up task waits for all: one thread each
    for started in [pool.submit(everyone.wait, 10) for _ in range(workers)]:
        started.result()
    return pool
