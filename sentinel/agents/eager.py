"""The eager agent: reports at once, without looking. It must fail every normal scenario.

    python -m sentinel.agents.eager TASK_URL
"""

from __future__ import annotations

import sys

from sentinel.agents.browse import Browser


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    browser = Browser(args[0])
    browser.get(args[0])
    browser.get("/contact")
    browser.post("/contact", {"message": "The condition holds."})
    print("[eager] reported immediately", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
