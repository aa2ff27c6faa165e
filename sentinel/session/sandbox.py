"""Where an agent's processes live: contained by a subreaper, or inside a bubblewrap sandbox.

Either way no process the agent starts outlives its session:
- plain: the agent runs under sentinel.session.reaper (a child subreaper), which ends every descendant,
  even one that left the process group with setsid();
- `--sandbox` (docs/protocol.md#agents): the agent runs under bubblewrap in its own PID namespace, so when the
  sandbox ends the kernel ends every process inside it. It sees the system read-only, its own
  working folder read-write, a private /tmp and the host's loopback network (its session's
  site); the repository, catalogs, scenarios, results and other sessions' folders are hidden.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from sentinel.core.errors import SentinelError

BWRAP_MISSING = ("--sandbox needs bubblewrap, which is not installed: install the Debian package "
                 "`bubblewrap` (apt-get install bubblewrap)")


@dataclass(frozen=True)
class Sandbox:
    """What a sandboxed agent may see beyond the read-only system."""

    work_dir: Path                 # read-write: the agent's own working folder
    hidden: tuple[Path, ...]       # folders replaced by an empty one (repository, results, ...)
    readable: tuple[Path, ...] = ()  # paths inside hidden folders it may still read (a built-in
    #                                  agent's code and interpreter, its scenario file)


def argv_of(command: str | list[str]) -> list[str]:
    """A command as the argument vector to run (a string runs through the shell)."""
    return ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)


def reaped(argv: list[str], grace: float) -> list[str]:
    return [sys.executable, "-m", "sentinel.session.reaper", f"{grace:g}", "--", *argv]


def bwrap_program() -> str:
    program = shutil.which("bwrap")
    if program is None:
        raise SentinelError(BWRAP_MISSING)
    return program


def sandboxed(argv: list[str], sandbox: Sandbox) -> list[str]:
    """The bubblewrap command that runs argv inside the sandbox."""
    args = [bwrap_program(), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
            "--unshare-pid", "--die-with-parent", "--new-session"]
    hidden = {p.resolve() for p in sandbox.hidden if p.exists()}
    readable = {p.resolve() for p in sandbox.readable if p.exists()}
    # From the shallowest path down, so that the deeper of two nested paths wins: a readable path
    # inside a hidden folder shows (a built-in agent's code in a checkout), a hidden folder inside
    # a readable one stays hidden (an installed wheel's bundled data, inside sys.prefix).
    for path in sorted(hidden | readable, key=lambda p: (len(p.parts), str(p))):
        if path in readable:
            args += ["--ro-bind", str(path), str(path)]
        elif _nearest_above(path, hidden | readable) not in hidden:  # (else gone with that one)
            args += ["--tmpfs", str(path)]
    work = str(sandbox.work_dir.resolve())
    args += ["--bind", work, work, "--chdir", work, "--", *argv]
    return args


def _nearest_above(path: Path, paths: set[Path]) -> Path | None:
    """The deepest of paths that contains path, if any."""
    return next((parent for parent in path.parents if parent in paths), None)


def contained(command: str | list[str], *, grace: float, sandbox: Sandbox | None) -> list[str]:
    """The argument vector that runs an agent command contained (see the module docstring)."""
    argv = argv_of(command)
    return sandboxed(argv, sandbox) if sandbox is not None else reaped(argv, grace)
