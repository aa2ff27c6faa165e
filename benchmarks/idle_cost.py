"""What a waiting session's process wrapper costs while its agent sleeps, measured in one run.

N agents that only sleep are started under this tree's reaper (sentinel/session/reaper.py) and
under the reaper of a baseline commit (default 4944847, which polled its children every 20 ms),
one batch after another, each twice: sleeping SHORT_S and sleeping S. The difference between the
two batches' CPU (the children's rusage) is what the wrappers cost while they wait, apart from
their start-up; divided by N x (S - SHORT_S) it is the share of a core one waiting session's
wrapper takes.

    python benchmarks/idle_cost.py [--sessions 100] [--seconds 10] [--baseline REV]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHORT_S = 0.5


def batch_cpu(prefix: list[str], sessions: int, seconds: float) -> float:
    """CPU seconds (user + system) of `sessions` processes `prefix + sleep seconds`, run at once."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    procs = [subprocess.Popen([*prefix, "sleep", f"{seconds:g}"]) for _ in range(sessions)]
    for proc in procs:
        proc.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--baseline", default="4944847")
    args = parser.parse_args()
    old = subprocess.run(["git", "-C", str(REPO), "show", f"{args.baseline}:sentinel/session/reaper.py"],
                         capture_output=True, text=True)
    if old.returncode != 0:
        sys.exit(f"idle_cost: cannot read the baseline's reaper: {old.stderr.strip()}")
    with tempfile.TemporaryDirectory() as folder:
        baseline_reaper = Path(folder) / "reaper_baseline.py"
        baseline_reaper.write_text(old.stdout)
        wrappers = {"this tree": [sys.executable, str(REPO / "sentinel/session/reaper.py"), "1", "--"],
                    args.baseline: [sys.executable, str(baseline_reaper), "1", "--"]}
        idle = {}
        for name, prefix in wrappers.items():
            short = batch_cpu(prefix, args.sessions, SHORT_S)
            long = batch_cpu(prefix, args.sessions, args.seconds)
            idle[name] = max(0.0, long - short) / (args.sessions * (args.seconds - SHORT_S))
            print(f"{name}: start-up and {SHORT_S:g} s {short:.2f} CPU s, with {args.seconds:g} s {long:.2f} CPU s; "
                  f"waiting: {idle[name]:.4%} of a core per session")
    ours, theirs = idle["this tree"], idle[args.baseline]
    print(f"{args.sessions} waiting sessions: this tree {ours * args.sessions:.3f} cores, {args.baseline} "
          f"{theirs * args.sessions:.3f} cores; ratio {args.baseline}/this tree "
          + (f"{theirs / ours:.1f}x" if ours > 0 else "unbounded (this tree costs nothing measurable)"))

if __name__ == "__main__":
    main()
