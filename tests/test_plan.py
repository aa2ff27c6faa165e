"""The first wave's start line (sentinel/run/plan.py StartGate): held until every session of
the wave has arrived, then passed one every spacing_s wall seconds, in the order they came."""

from __future__ import annotations

import asyncio

import pytest

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
    """A gate of size 0 (the runner's before it plans a wave) has no place to join and holds no
    one: every session passes at once, whatever the spacing."""
    gate = StartGate(0, spacing_s=10.0)
    assert not gate.join("a")
    loop = asyncio.get_running_loop()
    before = loop.time()
    times = await asyncio.wait_for(open_gate_and_pass(gate, "ab"), timeout=5)
    assert len(times) == 2
    assert loop.time() - before < 1.0  # the second did not wait out a 10 s spacing


async def open_gate_and_pass(gate: StartGate, keys: str) -> list[float]:
    """Every key arrives at once; the times (from the opening) at which each passed, in order."""
    loop = asyncio.get_running_loop()
    opened = loop.time()
    times: dict[str, float] = {}

    async def one(key: str) -> None:
        await gate.pass_through(key)
        times[key] = loop.time() - opened
    for key in keys:
        gate.join(key)
    await asyncio.gather(*(one(k) for k in keys))
    return [times[k] for k in keys]


@pytest.mark.slow
async def test_a_paced_start_line_holds_the_next_session_while_the_machine_is_busy():
    calm = False
    gate = StartGate(3, spacing_s=0.01, pace=lambda: calm, max_spacing_s=0.3)
    times = await open_gate_and_pass(gate, "abc")
    # The first passes at once; the others each wait out the most a busy machine is allowed to hold them.
    assert times[0] < 0.1
    assert times[1] - times[0] >= 0.3 - 0.005 and times[2] - times[1] >= 0.3 - 0.005
    assert gate.spread_s >= 0.6 - 0.01


async def test_a_paced_start_line_on_a_calm_machine_only_keeps_the_spacing():
    gate = StartGate(3, spacing_s=0.05, pace=lambda: True, max_spacing_s=10.0)
    times = await asyncio.wait_for(open_gate_and_pass(gate, "abc"), timeout=5)
    assert all(at >= turn * 0.05 - 0.005 for turn, at in enumerate(times))
    assert times[-1] < 5  # never held for max_spacing_s


async def test_a_paced_start_line_lets_the_next_through_as_soon_as_it_calms():
    loop = asyncio.get_running_loop()
    calm_from = loop.time() + 0.2
    gate = StartGate(2, spacing_s=0.0, pace=lambda: loop.time() >= calm_from, max_spacing_s=30.0)
    times = await asyncio.wait_for(open_gate_and_pass(gate, "ab"), timeout=10)
    assert 0.2 - 0.01 <= times[1] < 10
