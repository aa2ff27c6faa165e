"""The agent's working folder: a fresh temporary folder outside the repository, so that no
relative path leads the agent to a scenario, a catalog or an earlier result; when the session
ends, what it holds (up to a cap) is copied into the session's results and the folder removed."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import tempfile
from pathlib import Path

from sentinel.core.files import write_atomic

AGENT_FOLDER = "agent"  # inside a session's result folder: what the agent left in its working folder


WORK_PREFIX = "sentinel-"  # the agent's temporary working folder, under the system temp dir


@contextlib.asynccontextmanager
async def working_folder(keep_in: Path, cap_bytes: int):
    """A fresh temporary folder outside the repository for the agent to work in; when the session
    ends, whatever it holds (up to cap_bytes) is copied to keep_in and the folder is removed, in
    a thread, so that copying never stalls other sessions' timers."""
    work_dir = Path(tempfile.mkdtemp(prefix=WORK_PREFIX)).resolve()
    try:
        yield work_dir
    finally:
        await asyncio.to_thread(_keep_and_remove, work_dir, keep_in, cap_bytes)


def _keep_and_remove(work_dir: Path, keep_in: Path, cap_bytes: int) -> None:
    try:
        keep_files(work_dir, keep_in, cap_bytes)
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)


def keep_files(work_dir: Path, keep_in: Path, cap_bytes: int) -> None:
    """Copy an agent's folder into the results, files beyond cap_bytes left out; what could not be
    kept, and why, is listed in copy_errors.txt."""
    kept, left_out = 0, []

    def copy(source: str, target: str) -> str:
        nonlocal kept
        size = os.lstat(source).st_size
        if kept + size > cap_bytes:
            left_out.append(f"{Path(source).relative_to(work_dir)}: {size:,} bytes, over the {cap_bytes:,}-byte cap")
            return target
        kept += size
        return shutil.copy2(source, target)

    try:
        shutil.copytree(work_dir, keep_in, symlinks=True, dirs_exist_ok=True, copy_function=copy)
    except (OSError, shutil.Error) as exc:  # a socket or unreadable file: keep the rest, say what failed
        left_out.append(f"some files could not be copied: {exc}")
    if left_out:
        keep_in.mkdir(parents=True, exist_ok=True)
        write_atomic(keep_in / "copy_errors.txt", "not kept of the agent's folder:\n" + "\n".join(left_out) + "\n")
