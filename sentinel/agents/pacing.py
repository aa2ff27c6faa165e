"""How a built-in agent lets its own time pass (docs/model-time.md#the-virtual-clock).

On the wall clock an agent's seconds are wall seconds: it sleeps in its own process while the
session's sim time runs on at SENTINEL_SPEED. On the virtual clock (SENTINEL_CLOCK=virtual) nothing
moves while an agent sleeps in its own process, so there an agent's seconds are its session's sim
seconds: it sleeps through the site's /sleep, and reads the time from that page's answer. The
runner gives such an agent SENTINEL_SPEED 1, so every "seconds × speed" an agent works out for the
site's waits stays right, and its time limit in sim seconds (SENTINEL_TIME_LIMIT_SIM_S).
"""

from __future__ import annotations

import math
import os
import time
import urllib.error
import urllib.parse
import urllib.request

from sentinel.core.protocol import CLOCK_VARIABLE, MAX_SLEEP_SIM_S, SIM_LIMIT_VARIABLE, SIM_TIME_HEADER, SLEEP_PATH

SLEEP_TIMEOUT_WALL_S = 3600.0  # socket timeout of one /sleep: the site answers when the sleep is over


class Pacing:
    """An agent's own seconds: wall seconds (site None), or its session's sim seconds."""

    def __init__(self, site: str | None = None):
        self.site = site  # the site's origin (http://host:port) on the virtual clock

    @classmethod
    def from_env(cls, task_url: str) -> Pacing:
        if os.environ.get(CLOCK_VARIABLE) != "virtual":
            return cls()
        parts = urllib.parse.urlsplit(task_url)
        return cls(f"{parts.scheme}://{parts.netloc}")

    @property
    def virtual(self) -> bool:
        return self.site is not None

    def limit_s(self, default: float) -> float:
        """The agent's time limit in its own seconds, as the runner gives it."""
        name = SIM_LIMIT_VARIABLE if self.virtual else "SENTINEL_TIME_LIMIT_S"
        try:
            limit = float(os.environ.get(name) or default)
        except ValueError:
            return default
        return limit if math.isfinite(limit) and limit > 0 else default

    def now(self) -> float:
        return self._site_sleep(0.0) if self.virtual else time.monotonic()

    def sleep(self, seconds: float) -> None:
        seconds = max(0.0, seconds)
        if not self.virtual:
            time.sleep(seconds)
            return
        while seconds > 0:  # one /sleep lasts at most MAX_SLEEP_SIM_S
            part = min(seconds, MAX_SLEEP_SIM_S)
            self._site_sleep(part)
            seconds -= part

    def _site_sleep(self, sim_s: float) -> float:
        """GET the site's /sleep; return the sim time it answered at."""
        url = f"{self.site}{SLEEP_PATH}?" + urllib.parse.urlencode({"seconds": f"{sim_s:g}"})
        try:
            with urllib.request.urlopen(url, timeout=SLEEP_TIMEOUT_WALL_S) as response:
                response.read()
                return float(response.headers.get(SIM_TIME_HEADER) or 0.0)
        except (urllib.error.URLError, ValueError) as exc:
            raise OSError(f"the site's {SLEEP_PATH} did not answer: {exc}") from None


WALL = Pacing()
