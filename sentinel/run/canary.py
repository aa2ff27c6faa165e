"""A probe that feels what an agent feels: how long a waiting process takes to get the CPU.

Run by the runner beside the agents, at the agents' niceness (sentinel/session/harness.py), it
wakes every INTERVAL_S, does WORK_S of CPU work, and prints on one line how many wall
milliseconds passed between the moment it should have woken and the moment the work was done,
minus the work itself. On an idle machine that is a fraction of a millisecond; when agents and
whatever else runs on the machine want more CPU than there is, it is how late an agent that
has just seen its condition gets to act. The runner turns these delays into admission and into
the run's fidelity record (sentinel/run/fidelity.py).

    python -m sentinel.run.canary
"""

from __future__ import annotations

import os
import sys
import time

INTERVAL_S = 0.05
WORK_S = 0.001


def busy_for(seconds: float) -> None:
    """Spin until this thread has had `seconds` of CPU (not wall) time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def main() -> int:
    parent = os.getppid()
    due = time.monotonic() + INTERVAL_S
    while os.getppid() == parent:  # the runner gone: stop
        time.sleep(max(0.0, due - time.monotonic()))
        busy_for(WORK_S)
        delay_ms = max(0.0, (time.monotonic() - due - WORK_S) * 1000)
        try:
            print(f"{delay_ms:.2f}", flush=True)
        except BrokenPipeError:
            return 0
        due = max(due + INTERVAL_S, time.monotonic())
    return 0


if __name__ == "__main__":
    sys.exit(main())
