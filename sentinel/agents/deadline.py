"""The deadline agent: opens the task and reports shortly before the time limit, without looking.

It shows what guessing earns: it passes passive tasks whose condition still holds late, and
fails every no-op. The time limit comes from SENTINEL_TIME_LIMIT_S (wall seconds after start; on
the virtual clock SENTINEL_TIME_LIMIT_SIM_S, sim seconds, slept through the site: agents/pacing.py).

    python -m sentinel.agents.deadline TASK_URL
"""

from __future__ import annotations

import sys

from sentinel.agents.browse import open_task


def main(argv: list[str] | None = None) -> int:
    browser = open_task(argv)
    limit = browser.pacing.limit_s(630.0)
    margin = min(5.0, limit * 0.1)
    print(f"[deadline] will report {margin:.1f} s before the {limit:.1f} s limit", flush=True)
    browser.pacing.sleep(max(0.0, limit - margin))
    browser.contact("Reporting before time runs out.")
    print("[deadline] reported", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
