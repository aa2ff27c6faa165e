"""Full garbage collections during a run: only when due and no event is about to fall due."""

from __future__ import annotations

import asyncio
import gc

from sentinel.core.clock import ManualTime
from sentinel.core.scheduler import DueBoard
from sentinel.session.collector import CHECK_S, collections_between_events


def make_young_collections(count: int) -> None:
    """Allocate container objects until the middle generation was collected `count` times."""
    start = gc.get_count()[2]
    keep = []
    for _ in range(1_000_000):  # bounded: a collector left off would hang the suite otherwise
        if gc.get_count()[2] - start >= count:
            return
        keep.append([[] for _ in range(100)])
        if len(keep) > 50:
            keep.clear()
    raise AssertionError("the interpreter's own collections are off")


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


async def test_overlapping_runs_turn_full_collections_back_on_only_when_the_last_ends():
    board = DueBoard(ManualTime(0.0))
    before = gc.get_threshold()
    first, second = collections_between_events(board), collections_between_events(board)
    await first.__aenter__()
    await second.__aenter__()
    await first.__aexit__(None, None, None)  # the first run ends while the second goes on
    assert gc.get_threshold()[2] != before[2]
    await second.__aexit__(None, None, None)
    assert gc.get_threshold() == before
