"""The deadline agent: opens the task and reports shortly before the time limit, without looking.

It shows what guessing earns: it passes passive tasks whose condition still holds late, and
fails every no-op. The time limit comes from SENTINEL_TIME_LIMIT_S (wall seconds after start).

    python -m sentinel.agents.deadline TASK_URL
"""

from __future__ import annotations

import os
import sys
import time

from sentinel.agents.browse import open_task


def main(argv: list[str] | None = None) -> int:
    limit = float(os.environ.get("SENTINEL_TIME_LIMIT_S", "630"))
    margin = min(5.0, limit * 0.1)
    browser = open_task(argv)
    print(f"[deadline] will report {margin:.1f} s before the {limit:.1f} s limit", flush=True)
    time.sleep(max(0.0, limit - margin))
    browser.contact("Reporting before time runs out.")
    print("[deadline] reported", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
