"""Names of the site's HTTP protocol that both sides use: the site (sentinel/web) and the page
readers of the built-in agents (sentinel/agents). See docs/protocol.md."""

from __future__ import annotations

# A conditional GET that also sends this header, a number of sim seconds, waits until its page
# differs from the ETag it names, or that long (docs/protocol.md#waiting; sentinel/web/waiting.py).
WAIT_HEADER = "X-Wait-Change"
