"""The silent agent: opens the task, then never reports. It passes exactly the no-op scenarios.

    python -m sentinel.agents.silent TASK_URL
"""

from __future__ import annotations

import sys

from sentinel.agents.browse import open_task


def main(argv: list[str] | None = None) -> int:
    browser = open_task(argv)
    print("[silent] opened the task; staying quiet until stopped", flush=True)
    while True:  # on the virtual clock a sleep through the site, so its world moves to the end
        browser.pacing.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
