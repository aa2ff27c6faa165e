"""Driving the Textual apps with the pilot: waiting on a condition, and a graphical browser that
only records what it was asked to open."""

from __future__ import annotations


async def wait_until(pilot, condition, timeout: float = 60.0) -> None:
    """Let the app run until condition() holds (it polls every 50 ms)."""
    for _ in range(int(timeout / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("condition not reached in time")


class FakeBrowser:
    """Stands in for the person's graphical browser: records what it was asked to open."""

    def __init__(self, opened: list[str]):
        self.opened = opened

    def open(self, url: str, new: int = 0) -> bool:
        self.opened.append(url)
        return True
