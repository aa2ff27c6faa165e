"""Where one process saturates: the oracle at 10, 50, 100, 200 and 400 sessions at once.

Each size is a separate `sentinel run --ci --agent oracle --speed 50 --concurrency 0` over
MicroMail and MicroHood (20 scenarios; 50 sessions are 10 of them, alternating, x 5 trials),
all at once even past the runner's default of 50 per core, which is where that default comes
from. Prints one
table (sessions, event lateness p50 / p99 / max, run wall against the longest session,
passed) and writes an SVG plot of lateness p50 and p99 against sessions.

    python benchmarks/lateness_knee.py [--quick] [--sizes 10,50,100] [--plot docs/lateness_knee.svg]

--quick runs 10, 50 and 100 sessions. The machine is shared, so the load average is printed
with each row.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sentinel.core.summary import percentile  # noqa: E402
from sentinel.outputs.plots import Series, scatter_svg  # noqa: E402

ENVS = ("micromail", "microhood")
SIZES = (10, 50, 100, 200, 400)
QUICK = (10, 50, 100)


def selection(sessions: int) -> list[str]:
    """sentinel run options that select `sessions` sessions over the two environments: k of the
    20 scenarios (alternating between them) times n trials, with k as large as divides evenly."""
    names = {env: sorted(p.stem for p in (ROOT / "scenarios" / "verified" / env).glob("*.yaml")) for env in ENVS}
    count = next((k for k in (20, 10, 5, 2) if sessions % k == 0), None) if sessions >= 20 else sessions
    if count is None:
        raise SystemExit(f"{sessions}: choose fewer than 20 sessions or a multiple of 2, 5, 10 or 20")
    options = ["--env", ",".join(ENVS), "--trials", str(sessions // count)]
    if count < 20:
        options += [arg for i in range(count) for arg in ("--task", names[ENVS[i % 2]][i // 2])]
    return options


def measure(sessions: int, speed: float, results: Path) -> dict:
    name = f"knee-{sessions}-{os.getpid()}"
    command = [sys.executable, "-m", "sentinel.cli", "run", "--ci", "--agent", "oracle", "--speed", f"{speed:g}",
               "--concurrency", "0", "--run", name, *selection(sessions)]  # all at once: the knee itself
    began = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    run_dir = results / name
    if not (run_dir / "summary.json").exists():
        raise SystemExit(f"{sessions} sessions: the run failed:\n{done.stderr[-2000:]}")
    summary = json.loads((run_dir / "summary.json").read_text())
    found = [json.loads(p.read_text()) for p in run_dir.glob("*/*/result.json")]
    lateness = [json.loads(line)["lateness_ms"] for events in run_dir.glob("*/*/events.jsonl")
                for line in events.read_text().splitlines() if line.strip()]
    realtime = json.loads((run_dir / "run.json").read_text()).get("realtime_clock")
    shutil.rmtree(run_dir, ignore_errors=True)
    return {"sessions": len(found), "passed": sum(bool(r["success"]) for r in found),
            "p50": percentile(lateness, 50), "p99": percentile(lateness, 99), "max": max(lateness),
            "events": len(lateness), "run_wall": summary["wall_s"],
            "longest": max(r.get("wall_s", 0.0) for r in found), "load": os.getloadavg()[0],
            "realtime": realtime, "elapsed": time.monotonic() - began}


def plot(rows: list[dict], path: Path) -> None:
    series = [Series(f"lateness {q}", points=[(r["sessions"], r[q]) for r in rows]) for q in ("p50", "p99")]
    svg = scatter_svg(series, x_label="sessions at once (one process, 2 cores)", y_label="event lateness (ms)",
                      title="Event lateness against sessions (oracle, speed 50)")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(svg, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"only {', '.join(map(str, QUICK))} sessions")
    parser.add_argument("--sizes", help="comma-separated session counts (default: 10,50,100,200,400)")
    parser.add_argument("--speed", type=float, default=50)
    parser.add_argument("--plot", type=Path, default=ROOT / "docs" / "lateness_knee.svg")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else (QUICK if args.quick else SIZES)
    print(f"{'sessions':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'events':>7} {'run wall':>9} "
          f"{'longest':>8} {'wall/longest':>12} {'passed':>8} {'load':>5} {'rt':>3}", flush=True)
    rows = []
    for size in sizes:
        row = measure(size, args.speed, ROOT / "results")
        rows.append(row)
        print(f"{row['sessions']:>8} {row['p50']:>8.2f} {row['p99']:>8.2f} {row['max']:>8.1f} {row['events']:>7} "
              f"{row['run_wall']:>8.1f}s {row['longest']:>7.1f}s {row['run_wall'] / row['longest']:>12.2f} "
              f"{row['passed']:>4}/{row['sessions']:<3} {row['load']:>5.1f} {'yes' if row['realtime'] else 'no':>3}",
              flush=True)
    plot(rows, args.plot)
    print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
