"""Timing figures of a finished run, measured in that one run:

- concurrency: the run's wall time against the sum and the longest of its sessions' wall times
  (all sessions at once should take about as long as the longest, not the sum);
- event-firing lateness: actual minus scheduled wall time of every fired event, p50 and p99.

    python benchmarks/run_timing.py results/<run>
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from sentinel.core.summary import percentile


def main(run_dir: Path) -> int:
    summary = json.loads((run_dir / "summary.json").read_text())
    results = [json.loads(p.read_text()) for p in sorted(run_dir.glob("*/*/result.json"))]
    walls = [r.get("wall_s", 0.0) for r in results]
    lateness = []
    for events in run_dir.glob("*/*/events.jsonl"):
        lateness += [json.loads(line)["lateness_ms"] for line in events.read_text().splitlines() if line.strip()]
    run_wall = summary["wall_s"]
    print(f"sessions: {len(results)}  run wall: {run_wall:.1f} s  "
          f"longest session: {max(walls):.1f} s  sum of sessions: {sum(walls):.1f} s")
    print(f"run wall / longest session: {run_wall / max(walls):.2f}   "
          f"sum of sessions / run wall: {sum(walls) / run_wall:.1f}x")
    if lateness:
        print(f"events fired: {len(lateness)}  lateness p50: {percentile(lateness, 50):.2f} ms  "
              f"p99: {percentile(lateness, 99):.2f} ms  max: {max(lateness):.2f} ms")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(Path(sys.argv[1])))
