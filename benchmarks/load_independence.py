"""Does the oracle's result depend on load? The three checks, each run three times in a row.

- `--trials 10` over MicroMail and MicroHood (200 sessions), no `--concurrency` option;
- the whole suite (100 sessions) with `--concurrency 0` (all at once);
- the whole suite with no `--concurrency` option (auto admission).

All with the built-in oracle at speed 50. A run meets the bar when every session passes, every
normal task is reported on time and event lateness p99 is at most 5 ms. Prints one row per run
and, for a run that missed, the sessions that did; their run folders are kept (results/li-*)
as the evidence. Exit 0 when every run met the bar.

    python benchmarks/load_independence.py [--repeat 3] [--only trials,c0,auto] [--speed 50]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from lateness_knee import measure_run

ROOT = Path(__file__).resolve().parent.parent
CHECKS = {
    "trials": ["--trials", "10", "--env", "micromail,microhood"],
    "c0": ["--concurrency", "0"],
    "auto": [],
}
LATENESS_P99_MS = 5.0


def met(row: dict) -> bool:
    return (row["passed"] == row["sessions"] and row["on_time"] == row["normal"]
            and row["p99"] <= LATENESS_P99_MS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default=",".join(CHECKS), help="which checks, comma-separated")
    parser.add_argument("--speed", type=float, default=50)
    args = parser.parse_args()
    checks = [c for c in args.only.split(",") if c]
    unknown = [c for c in checks if c not in CHECKS]
    if unknown:
        raise SystemExit(f"unknown check {unknown[0]!r}: choose from {', '.join(CHECKS)}")
    print(f"{'check':>6} {'#':>2} {'passed':>8} {'on time':>9} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
          f"{'canary p99':>10} {'cpu s/sess':>10} {'wall s':>7} {'load':>5}  bar", flush=True)
    all_met = True
    for check in checks:
        for n in range(1, args.repeat + 1):
            name = f"li-{check}-{n}-{os.getpid()}"
            options = ["--agent", "oracle", "--speed", f"{args.speed:g}", *CHECKS[check]]
            row = measure_run(name, ROOT / "results", options, keep=True)
            ok = met(row)
            all_met &= ok
            canary = "—" if row["canary_p99"] is None else f"{row['canary_p99']:.0f} ms"
            print(f"{check:>6} {n:>2} {row['passed']:>4}/{row['sessions']:<3} {row['on_time']:>4}/{row['normal']:<4} "
                  f"{row['p50']:>7.2f} {row['p99']:>7.2f} {row['max']:>7.1f} {canary:>10} "
                  f"{row['cpu_per_session']:>10.2f} {row['run_wall']:>7.1f} {row['load']:>5.1f}  "
                  f"{'met' if ok else 'MISSED'}", flush=True)
            if ok:
                shutil.rmtree(row["run_dir"], ignore_errors=True)
            else:
                print(f"        kept {row['run_dir'].relative_to(ROOT)}: {', '.join(row['missed']) or 'lateness'}",
                      flush=True)
    print("every run met the bar" if all_met else "some runs missed the bar")
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
