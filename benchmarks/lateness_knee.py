"""Where one process saturates: the oracle at 25, 50, 100, 200 and 400 sessions at once.

Each size is a separate `sentinel run --ci --agent AGENT --speed 50 --concurrency 0` over
MicroMail and MicroHood (20 scenarios; 50 sessions are 10 of them, alternating, x 5 trials),
all at once, past anything admission would allow, so the table shows the knee itself. AGENT is
`oracle` (it waits for pages to change with the site's long-poll) and, with --before,
`oracle-poll` too (the same oracle re-reading every 0.2 wall s, as it did before), measured one
after the other at each size. Prints one table (agent, sessions, on-time share of the normal
tasks, passed, event lateness p50 / p99 / max, CPU seconds per session of the whole run with
its agents, the canary's p99, run wall against the longest session, load) and writes an SVG
plot of lateness p50 and p99 against sessions.

    python benchmarks/lateness_knee.py [--quick] [--before] [--sizes 25,50,100] [--plot docs/lateness_knee.svg]

--quick runs 25, 50 and 100 sessions. The machine is shared, so the load average is printed
with each row.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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
SIZES = (25, 50, 100, 200, 400)
QUICK = (25, 50, 100)


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


def measure(sessions: int, speed: float, results: Path, agent: str = "oracle") -> dict:
    name = f"knee-{agent}-{sessions}-{os.getpid()}"
    row = measure_run(name, results, ["--agent", agent, "--speed", f"{speed:g}", "--concurrency", "0",
                                      *selection(sessions)])  # all at once: the knee itself
    return {**row, "agent": agent}


def measure_run(name: str, results: Path, options: list[str], keep: bool = False) -> dict:
    """One `sentinel run --ci --run NAME OPTIONS`, measured: sessions, passed, normal tasks on time,
    event lateness p50/p99/max, CPU per session (the run and its agents), the canary's p99, run wall
    against the longest session, the load. The run's folder is removed unless `keep`."""
    command = [sys.executable, "-m", "sentinel.cli", "run", "--ci", "--run", name, *options]
    began = time.monotonic()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    run_dir = results / name
    if not (run_dir / "summary.json").exists():
        raise SystemExit(f"{name}: the run failed:\n{done.stderr[-2000:]}")
    summary = json.loads((run_dir / "summary.json").read_text())
    found = [json.loads(p.read_text()) for p in run_dir.glob("*/*/result.json")]
    lateness = [json.loads(line)["lateness_ms"] for events in run_dir.glob("*/*/events.jsonl")
                for line in events.read_text().splitlines() if line.strip()]
    run_json = json.loads((run_dir / "run.json").read_text())
    realtime = run_json.get("realtime_clock")
    canary_p99 = (run_json.get("fidelity") or {}).get("cpu_wait_ms", {}).get("p99")
    normal = [r for r in found if r.get("condition_at") is not None]
    if not keep:
        shutil.rmtree(run_dir, ignore_errors=True)
    return {"sessions": len(found), "passed": sum(bool(r["success"]) for r in found),
            "on_time": sum(bool(r.get("on_time")) for r in normal), "normal": len(normal),
            "cpu_per_session": cpu_s / max(1, len(found)), "canary_p99": canary_p99,
            "p50": percentile(lateness, 50), "p99": percentile(lateness, 99), "max": max(lateness),
            "events": len(lateness), "run_wall": summary["wall_s"],
            "longest": max(r.get("wall_s", 0.0) for r in found), "load": os.getloadavg()[0],
            "realtime": realtime, "elapsed": time.monotonic() - began, "run_dir": run_dir,
            "missed": sorted(f"{r['scenario_id']}#{r['trial']}" for r in found
                             if not r["success"] or (r.get("condition_at") is not None and not r.get("on_time")))}


def plot(rows: list[dict], path: Path) -> None:
    series = [Series(f"lateness {q}", points=[(r["sessions"], r[q]) for r in rows]) for q in ("p50", "p99")]
    svg = scatter_svg(series, x_label="sessions at once (one process, 2 cores)", y_label="event lateness (ms)",
                      title="Event lateness against sessions (oracle, speed 50)")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(svg, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"only {', '.join(map(str, QUICK))} sessions")
    parser.add_argument("--sizes", help="comma-separated session counts (default: 25,50,100,200,400)")
    parser.add_argument("--before", action="store_true", help="also measure oracle-poll (the oracle polling)")
    parser.add_argument("--speed", type=float, default=50)
    parser.add_argument("--plot", type=Path, default=ROOT / "docs" / "lateness_knee.svg")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else (QUICK if args.quick else SIZES)
    agents = ("oracle-poll", "oracle") if args.before else ("oracle",)
    print(f"{'agent':>11} {'sessions':>8} {'on time':>9} {'share':>6} {'passed':>8} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7} {'cpu s/sess':>10} {'canary p99':>10} {'wall/longest':>14} {'load':>5}", flush=True)
    rows = []
    for size in sizes:
        for agent in agents:
            row = measure(size, args.speed, ROOT / "results", agent)
            rows.append(row)
            canary = "—" if row["canary_p99"] is None else f"{row['canary_p99']:.1f} ms"
            print(f"{agent:>11} {row['sessions']:>8} {row['on_time']:>4}/{row['normal']:<4} "
                  f"{row['on_time'] / max(1, row['normal']):>6.0%} {row['passed']:>4}/{row['sessions']:<3} "
                  f"{row['p50']:>7.2f} {row['p99']:>7.2f} {row['max']:>7.1f} {row['cpu_per_session']:>10.2f} "
                  f"{canary:>10} {row['run_wall']:>6.1f}/{row['longest']:<6.1f} {row['load']:>5.1f}", flush=True)
    plot([r for r in rows if r["agent"] == "oracle"], args.plot)
    print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
