"""The rule-based judge's and planner's decisions, charged as model calls (docs/model-time.md).

A rule-based decision takes no time, so under a model-time policy it would cost nothing and show
nothing of what the policy does. So each one is sent, as an outside agent's model call would be,
through the session's metering proxy: a tiny POST to DECISION_PATH under SENTINEL_PROXY_URL,
which the proxy answers itself (it is never forwarded to a provider) and counts as one call in
flight from request to answer. The session pauses and charges it like any other. Without the
variable (no proxy for the session) nothing is sent. A failed post is said once and ignored: a
decision is never lost for want of its charge.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping

from sentinel.core.protocol import DECISION_PATH, PROXY_URL_VARIABLE

POST_TIMEOUT_S = 10.0


class DecisionCalls:
    def __init__(self, proxy_url: str | None, log: Callable[[str], None] = print):
        self.url = f"{proxy_url.rstrip('/')}{DECISION_PATH}" if proxy_url else None
        self._log = log
        self._failed = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ,
                 log: Callable[[str], None] = print) -> DecisionCalls:
        return cls(environ.get(PROXY_URL_VARIABLE) or None, log)

    def charge(self, kind: str) -> None:
        """One decision of this kind ("planner", "judge") as a call through the proxy."""
        if self.url is None:
            return
        body = json.dumps({"kind": kind}).encode()
        request = urllib.request.Request(self.url, data=body, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=POST_TIMEOUT_S) as answer:
                answer.read()
        except (OSError, urllib.error.URLError) as exc:
            if not self._failed:
                self._failed = True
                self._log(f"the session's proxy did not take a decision call ({exc}); going on without")
