"""The first wave's start line (sentinel/run/plan.py StartGate): held until every session of
the wave has arrived, then passed one every spacing_s wall seconds, in the order they came."""

from __future__ import annotations

import asyncio

from sentinel.run.plan import StartGate


async def test_the_start_line_opens_once_all_arrived_and_lets_them_through_spaced():
    gate = StartGate(3, spacing_s=0.05)
    for key in "abc":
        assert gate.join(key)
    assert not gate.join("d")  # the wave is full
    loop = asyncio.get_running_loop()
    passed: list[tuple[str, float]] = []

    async def runner(key: str) -> None:
        await gate.pass_through(key)
        passed.append((key, loop.time()))

    first = asyncio.ensure_future(runner("a"))
    await asyncio.sleep(0.1)
    assert not passed  # b and c have not arrived: a waits
    before_open = loop.time()  # the gate opens after this, when c arrives
    others = [asyncio.ensure_future(runner(k)) for k in "bc"]
    await asyncio.gather(first, *others)
    assert [key for key, _ in passed] == ["a", "b", "c"]
    # Each turn is kept from the opening, not from the one before (a busy loop may wake a late):
    # the n-th passes no sooner than n spacings after the gate opened (5 ms for the clock's grain).
    assert all(at >= before_open + turn * 0.05 - 0.005 for turn, (_, at) in enumerate(passed))


async def test_a_wave_of_none_is_open_and_unspaced():
    gate = StartGate(0, spacing_s=10.0)
    await asyncio.wait_for(gate.pass_through("a"), timeout=5)
    await asyncio.wait_for(gate.pass_through("b"), timeout=5)  # no wave, no start line to space
