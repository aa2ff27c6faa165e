"""Runs that survive being killed: SIGKILL the runner at random moments, resume, repeat.

    python benchmarks/kill_resume.py [--kills 5] [--speed 20] [--seed 1]

One run of the whole suite with a slow agent (it opens the task and stays 3 to 12 s without
reporting) is killed with SIGKILL at a random moment after at least one more session finished,
then resumed with --resume, `--kills` times, then resumed once more to the end. At the end it
checks, and prints: every scenario has exactly one complete result (result.json parses, its
events.jsonl and requests.jsonl lines parse, its state.db passes integrity_check), results
finished before a kill are byte for byte unchanged, no `.tmp` file is left anywhere in the run,
and no agent process of the run is alive (each carries a token on its command line). Exit 1 if
any check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# Opens the task, then stays 3 to 12 s (by its session's port) without reporting: sessions end at
# different moments, so the kills land between finished and unfinished ones.
SLOW_AGENT = ("import sys, time, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=30).read(); "
              "time.sleep(3 + int(sys.argv[1].split(':')[2].split('/')[0]) % 10)")


def sentinel(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "sentinel.cli", *args], cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def alive_with(token: str) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and token.encode() in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def finished_count(run_dir: Path) -> int:
    return len(list(run_dir.glob("*/*/result.json")))


def wait_for_progress(run_dir: Path, process: subprocess.Popen, limit_s: float = 60.0) -> None:
    """Until one more session than now has finished (or the runner ended, or limit_s passed)."""
    before, give_up_at = finished_count(run_dir), time.monotonic() + limit_s
    while finished_count(run_dir) <= before and process.poll() is None and time.monotonic() < give_up_at:
        time.sleep(0.1)


def complete(folder: Path) -> bool:
    """A finished session's files are whole: JSON parses, JSONL lines parse, the database is sound."""
    try:
        json.loads((folder / "result.json").read_text())
        for log in ("events.jsonl", "requests.jsonl"):
            if (folder / log).exists():
                for line in (folder / log).read_text().splitlines():
                    json.loads(line)
        with sqlite3.connect(f"file:{folder / 'state.db'}?mode=ro", uri=True) as db:
            return db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    except (OSError, ValueError, sqlite3.Error):
        return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--speed", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pick = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="sentinel-killresume-"))
    (work / "k.toml").write_text(f'[run]\nresults_dir = "{work / "results"}"\n[timing]\nreaction_window_s = 2\n')
    token = f"killresume-{uuid.uuid4().hex[:12]}"
    command = " ".join([shlex.quote(sys.executable), "-c", shlex.quote(SLOW_AGENT), "__TASK_URL__", token])
    run = ["run", "--ci", "--config", str(work / "k.toml"), "--cmd", command, "--speed", f"{args.speed:g}",
           "--run", "k"]
    kills = resumes = 0
    kept: dict[Path, bytes] = {}  # results finished before a kill: a resume must leave them as they were
    for attempt in range(args.kills):
        process = sentinel(*run, *(["--resume"] if attempt else []), cwd=REPO)
        resumes += bool(attempt)
        wait_for_progress(work / "results" / "k", process)
        time.sleep(pick.uniform(0.0, 1.5))  # a random moment after the run made progress
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            kills += 1
        process.wait()
        finished = finished_count(work / "results" / "k")
        kept.update({p: p.read_bytes() for p in (work / "results" / "k").glob("*/*/result.json") if p not in kept})
        print(f"kill {kills}: runner killed with {finished} sessions finished", flush=True)
        time.sleep(0.5)
    last = sentinel(*run, "--resume", cwd=REPO)
    resumes += 1
    _, errors = last.communicate(timeout=600)
    time.sleep(1.0)
    run_dir = work / "results" / "k"
    sessions = [p for p in run_dir.glob("*/*") if p.is_dir()]
    results = [p for p in sessions if (p / "result.json").exists()]
    broken = [str(p.relative_to(run_dir)) for p in results if not complete(p)]
    leftovers = [str(p) for p in run_dir.rglob("*.tmp")]
    survivors = alive_with(token)
    changed = [str(p.relative_to(run_dir)) for p, before in kept.items() if p.read_bytes() != before]
    print(f"{kills} kills, {resumes} resumes; last resume exit {last.returncode}")
    print(f"sessions {len(sessions)}, with one complete result {len(results) - len(broken)}, broken {broken or 0}, "
          f"without a result {len(sessions) - len(results)}")
    print(f".tmp files left: {len(leftovers)}; agent processes alive: {len(survivors)}; "
          f"results finished before a kill and changed by a resume: {len(changed)} of {len(kept)}")
    ok = (last.returncode == 0 and not broken and len(results) == len(sessions) and len(sessions) > 0
          and not leftovers and not survivors and not changed)
    if not ok and errors:
        print(errors.strip().splitlines()[-1], file=sys.stderr)
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    print("OK: no result lost or duplicated" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
