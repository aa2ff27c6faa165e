"""Run an agent so that no process it starts outlives it: `python -m sentinel.session.reaper GRACE -- PROGRAM ARGS...`

The group kill of the harness reaches every process of the agent's process group, but a
grandchild that calls setsid() leaves the group. This small parent uses the kernel's child
subreaper (PR_SET_CHILD_SUBREAPER): every orphaned descendant of the agent, whatever group or
session it moved to, is re-parented to this process instead of to init. When the agent exits,
or when this process gets SIGTERM (the harness ending the session, or the runner dying), each
descendant gets SIGTERM, then SIGKILL after GRACE seconds, until none is left; then it exits
with the agent's status. Linux only; elsewhere it simply runs the agent.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
POLL_S = 0.02


def _prctl(option: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    return ctypes.CDLL(None, use_errno=True).prctl(option, value) == 0


def children() -> list[int]:
    """This process's children, as the kernel lists them (re-parented orphans included)."""
    found: list[int] = []
    for task in Path("/proc/self/task").glob("*/children"):
        try:
            found += [int(pid) for pid in task.read_text().split()]
        except OSError:
            continue
    return found


def reap() -> list[tuple[int, int]]:
    """Collect every child that has ended: [(pid, wait status)]."""
    ended = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended
        if pid == 0:
            return ended
        ended.append((pid, status))


def signal_children(signum: int) -> None:
    for pid in children():
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass


def end_all(grace: float) -> dict[int, int]:
    """SIGTERM every descendant, SIGKILL what is left after `grace`, until no child remains
    (killing a child re-parents its own children here, so the loop reaches them in turn).
    Returns pid → wait status of the children it collected."""
    ended: dict[int, int] = {}
    signal_children(signal.SIGTERM)
    give_up_at = time.monotonic() + grace
    while children() and time.monotonic() < give_up_at:
        ended.update(reap())
        time.sleep(POLL_S)
    while children():
        signal_children(signal.SIGKILL)
        ended.update(reap())
        time.sleep(POLL_S)
    ended.update(reap())
    return ended


def exit_code(status: int) -> int:
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print("usage: python -m sentinel.session.reaper GRACE -- PROGRAM ARGS...", file=sys.stderr)
        return 2
    grace, command = float(argv[0]), argv[2:]
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # the runner died: clean up rather than vanish
    stopping: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, frame: stopping.append(signum))
    signal.signal(signal.SIGINT, lambda signum, frame: stopping.append(signum))
    try:
        agent = subprocess.Popen(command, preexec_fn=lambda: _prctl(PR_SET_PDEATHSIG, signal.SIGKILL))
    except OSError as exc:
        print(f"cannot start agent: {exc.strerror}: {exc.filename or command[0]}", file=sys.stderr)
        return 127
    status = None
    while status is None and not stopping:
        for pid, ended in reap():
            if pid == agent.pid:
                status = ended
        if status is None:
            time.sleep(POLL_S)
    ended = end_all(grace)
    if status is None:  # stopped before the agent ended: it ended with the rest
        status = ended.get(agent.pid, signal.SIGKILL)  # (a bare signal number is a "killed by" status)
    if os.WIFSIGNALED(status):  # end the same way, so the harness sees the agent's signal
        signum = os.WTERMSIG(status)
        if signum not in (signal.SIGKILL, signal.SIGSTOP):  # (those two have no handler to reset)
            signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
    return exit_code(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
