"""Sessions never see each other's data, at scale: many sessions at once, each with an agent that
posts marked text into every form it finds as fast as it can (tests/agents/spammer.py).

    python benchmarks/isolation.py [--trials 10] [--seconds 5] [--speed 50]

Runs every scenario `--trials` times at once (10 trials of the 10 MicroMail scenarios = 100
sessions by default), then checks: every session's database holds only its own agent's mark, no
agent saw another session's mark on a page, and how many marks were stored and posts made.
"""

from __future__ import annotations

import argparse
import shlex
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SPAMMER = REPO / "tests" / "agents" / "spammer.py"


def marks_in(db_path: Path) -> list[str]:
    found = []
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as db:
        for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
            for row in db.execute(f"SELECT * FROM {table}"):
                found += [v for v in row if isinstance(v, str) and "mark-" in v.lower()]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--speed", type=float, default=50.0)
    parser.add_argument("--env", default="micromail")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="sentinel-isolation-"))
    (work / "i.toml").write_text(f'[run]\nresults_dir = "{work / "results"}"\n[timing]\nreaction_window_s = 2\n')
    command = " ".join([shlex.quote(sys.executable), shlex.quote(str(SPAMMER)), "__TASK_URL__", f"{args.seconds:g}"])
    done = subprocess.run([sys.executable, "-m", "sentinel.cli", "run", "--ci", "--config", str(work / "i.toml"),
                           "--env", args.env, "--trials", str(args.trials), "--speed", f"{args.speed:g}",
                           "--cmd", command, "--run", "spam"], cwd=REPO, capture_output=True, text=True)
    sessions = sorted(p for p in (work / "results" / "spam").glob("*/*") if (p / "result.json").exists())
    leaks, foreign, stored, posts = [], [], 0, 0
    for folder in sessions:
        log = (folder / "agent.log").read_text(errors="replace")
        leaks += [line for line in log.splitlines() if line.startswith("LEAK")]
        if "SPAMMED " not in log:
            continue
        posted, own = log.split("SPAMMED ")[1].split()[0], log.split(" as ")[-1].strip().lower()
        posts += int(posted)
        for value in marks_in(folder / "state.db") if (folder / "state.db").exists() else []:
            stored += 1
            if own not in value.lower():
                foreign.append(f"{folder.name}: {value[:60]}")
    print(f"sessions {len(sessions)} (exit {done.returncode}); posts {posts}; marks stored {stored}")
    print(f"pages showing another session's mark: {len(leaks)}; rows holding another session's mark: {len(foreign)}")
    ok = done.returncode == 0 and sessions and stored > 0 and not leaks and not foreign
    print("OK: no session saw or holds another's data" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
