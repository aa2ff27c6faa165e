"""Run an agent so that no process it starts outlives it: `python -m sentinel.session.reaper GRACE -- PROGRAM ARGS...`

The group kill of the harness reaches every process of the agent's process group, but a
grandchild that calls setsid() leaves the group. This small parent uses the kernel's child
subreaper (PR_SET_CHILD_SUBREAPER): every orphaned descendant of the agent, whatever group or
session it moved to, is re-parented to this process instead of to init. When the agent exits,
or when this process gets SIGTERM (the harness ending the session, or the runner dying), each
descendant gets SIGTERM, then SIGKILL after GRACE seconds, until none is left; then it exits
with the agent's status. Linux only; elsewhere it simply runs the agent.

It waits on signals, not on a timer: SIGCHLD, SIGTERM and SIGINT are blocked and taken with
sigwaitinfo, so a reaper costs no CPU while its agent runs (a 20 ms poll cost each of a hundred
sessions about 0.5% of a core, docs/timing.md).
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
WAKE_S = 0.05  # while ending: the longest wait for a SIGCHLD before looking at the children again
SIGNALS = {signal.SIGCHLD, signal.SIGTERM, signal.SIGINT}


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
    ended: list[tuple[int, int]] = []
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
        wait_for_child(min(WAKE_S, max(0.0, give_up_at - time.monotonic())))
    while children():
        signal_children(signal.SIGKILL)
        ended.update(reap())
        wait_for_child(WAKE_S)
    ended.update(reap())
    return ended


def wait_for_child(timeout: float) -> None:
    """Sleep until a child ends (SIGCHLD, blocked by main) or timeout seconds pass."""
    if hasattr(signal, "sigtimedwait"):
        signal.sigtimedwait({signal.SIGCHLD}, timeout)
    else:
        time.sleep(timeout)


def exit_code(status: int) -> int:
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print("usage: python -m sentinel.session.reaper GRACE -- PROGRAM ARGS...", file=sys.stderr)
        return 2
    grace, command = float(argv[0]), argv[2:]
    if not hasattr(signal, "sigwaitinfo"):  # not Linux: no subreaper either, simply run the agent
        return subprocess.call(command)
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # the runner died: clean up rather than vanish
    # Block the signals this process waits for, so that none is lost between two waits; the
    # agent gets the usual mask back before it runs.
    unblocked = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)

    def in_agent() -> None:
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)

    try:
        agent = subprocess.Popen(command, preexec_fn=in_agent)
    except OSError as exc:
        print(f"cannot start agent: {exc.strerror}: {exc.filename or command[0]}", file=sys.stderr)
        return 127
    status = None
    while status is None:
        for pid, wait_status in reap():
            if pid == agent.pid:
                status = wait_status
        if status is None and signal.sigwaitinfo(SIGNALS).si_signo != signal.SIGCHLD:
            break  # SIGTERM or SIGINT: the session is ending
    collected = end_all(grace)
    if status is None:  # stopped before the agent ended: it ended with the rest
        status = collected.get(agent.pid, signal.SIGKILL)  # (a bare signal number is a "killed by" status)
    if os.WIFSIGNALED(status):  # end the same way, so the harness sees the agent's signal
        signum = os.WTERMSIG(status)
        if signum not in (signal.SIGKILL, signal.SIGSTOP):  # (those two have no handler to reset)
            signal.signal(signum, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)  # a blocked signal would not end it
        os.kill(os.getpid(), signum)
    return exit_code(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
