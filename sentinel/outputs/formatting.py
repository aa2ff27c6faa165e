"""How a duration and an amount of money read wherever Sentinel shows one: the CLI's tables, the
TUI's screens and the HTML report. A value there is none of (a session that never reacted, an
agent whose cost is unknown) reads as MISSING."""

from __future__ import annotations

MISSING = "—"


def seconds(value: float | None, digits: int = 2) -> str:
    """A duration: "1.25 s" (to `digits` decimals)."""
    return MISSING if value is None else f"{value:.{digits}f} s"


def sim_seconds(value: float | None, digits: int = 2) -> str:
    """A duration on the session's clock: "1.25 sim s"."""
    return MISSING if value is None else f"{value:.{digits}f} sim s"


def dollars(value: float | None) -> str:
    """An amount in US dollars, to a hundredth of a cent: "$0.0123"."""
    return MISSING if value is None else f"${value:.4f}"
