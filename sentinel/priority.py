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
A dashboard drawing in another thread of the same process is raised too, one step below
(DISPLAY_PRIORITY): at normal priority the operating system could pause it while it holds the
interpreter's lock, and the runner's loop would wait for the lock as long as it is paused
(measured: event lateness p99 450 ms at 20 sessions, and 1.4 s from a key press to its repaint).

Raising needs root, CAP_SYS_NICE or an RLIMIT_RTPRIO; without them nothing changes (the
agents still run at nice 10).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

REALTIME_PRIORITY = 10  # of 1–99: above every normal process, below the kernel's own threads
DISPLAY_PRIORITY = 5  # a dashboard's thread: above normal processes, below the runner's loop


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
        try:
            os.sched_setscheduler(0, os.SCHED_RR | os.SCHED_RESET_ON_FORK, os.sched_param(priority))
            raised = True
        except (OSError, AttributeError):  # not permitted (an ordinary user), or no such policy
            pass
    try:
        yield raised
    finally:
        if raised and before is not None:
            with contextlib.suppress(OSError):
                os.sched_setscheduler(0, before[0], os.sched_param(before[1]))
