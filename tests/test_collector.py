"""Full garbage collections during a run: only when due and no event is about to fall due."""

from __future__ import annotations

import asyncio
import gc

from sentinel.clock import ManualTime
from sentinel.collector import CHECK_S, collections_between_events
from sentinel.scheduler import DueBoard


def make_young_collections(count: int) -> None:
    """Allocate container objects until the middle generation was collected `count` times."""
    start = gc.get_count()[2]
    keep = []
    while gc.get_count()[2] - start < count:
        keep.append([[] for _ in range(100)])
        if len(keep) > 50:
            keep.clear()


async def test_full_collections_wait_for_a_quiet_moment():
    wall = ManualTime(0.0)
    board = DueBoard(wall)
    board.aim("a scheduler", 0.01)  # an event falls due in 10 ms: not a moment to collect
    full = []

    def seen(phase: str, info: dict) -> None:
        if phase == "stop" and info["generation"] == 2:
            full.append(info)
    before = gc.get_threshold()
    gc.callbacks.append(seen)
    try:
        async with collections_between_events(board):
            make_young_collections(before[2] * 2)  # twice what would start a full one
            await asyncio.sleep(CHECK_S * 3)
            assert full == []  # the interpreter's own are off, and the board is not quiet
            board.aim("a scheduler", 5.0)  # the next event is 5 s away
            await asyncio.sleep(CHECK_S * 3)
            assert len(full) == 1
        assert gc.get_threshold() == before  # restored after the run
    finally:
        gc.callbacks.remove(seen)
