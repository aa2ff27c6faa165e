"""The eager agent: reports at once, without looking. It must fail every normal scenario.

    python -m sentinel.agents.eager TASK_URL
"""

from __future__ import annotations

import sys

from sentinel.agents.browse import open_task


def main(argv: list[str] | None = None) -> int:
    open_task(argv).contact("The condition holds.")
    print("[eager] reported immediately", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
