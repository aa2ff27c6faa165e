"""Admission by measurement (sentinel/run/admission.py) and its edges (sentinel/run/fidelity.py):
the policy with made-up delays, the gate and the canary as real objects and a real process."""

from __future__ import annotations

import asyncio
import json
import os
import time
from dataclasses import replace

import pytest
from helpers.runs import make_config, plan

from sentinel.run.admission import BUSY, CALM, STEADY, Admission, Fidelity, machine_state
from sentinel.run.fidelity import AdmissionGate, Canary, HostSteal, calm_now
from sentinel.run.runner import Runner


def test_the_machine_state_is_the_agents_loss_in_sim_seconds():
    assert machine_state([], 50) == CALM
    assert machine_state([1.0] * 20, 50) == CALM  # 1 ms at speed 50: 0.05 sim s
    assert machine_state([20.0] * 20, 50) == STEADY  # 1 sim s
    assert machine_state([60.0] * 20, 50) == BUSY  # 3 sim s
    assert machine_state([60.0] * 20, 1) == CALM  # the same wait costs nothing at speed 1
    assert machine_state([1.0] * 18 + [500.0] * 2, 50) == BUSY  # the slowest tenth decides


def test_admission_grows_while_calm_and_stops_while_busy():
    admission = Admission(total=100, first_wave=10, step=2, speed=50)
    assert admission.allowed == 10
    assert admission.observe([0.5] * 10, running=10, waiting=90, tick_s=0.5) == CALM
    assert admission.allowed == 12
    assert admission.observe([100.0] * 10, running=11, waiting=89, tick_s=0.5) == BUSY
    assert admission.allowed == 11  # no new session while busy; none stopped either
    assert admission.held_s == 0.5 and admission.busy_s == 0.5
    assert admission.observe([30.0] * 10, running=11, waiting=89, tick_s=0.5) == STEADY
    assert admission.allowed == 11 and admission.held_s == 1.0
    for _ in range(100):
        admission.observe([0.1], running=admission.allowed, waiting=1, tick_s=0.5)
    assert admission.allowed == 100  # never past the run's sessions


def test_nothing_waiting_changes_nothing_while_calm():
    admission = Admission(total=5, first_wave=5, step=2, speed=50)
    admission.observe([0.1], running=5, waiting=0, tick_s=0.5)
    assert admission.allowed == 5 and admission.held_s == 0


def test_fidelity_says_when_the_machine_did_not_hold_agents_on_time():
    quiet = Fidelity.of([0.2] * 99 + [5.0], speed=50, on_time_s=60)
    assert quiet.held_on_time and quiet.warning() is None
    busy = Fidelity.of([0.2] * 90 + [200.0] * 10, speed=50, on_time_s=60)  # p99 200 ms = 10 sim s
    assert not busy.held_on_time and "did not hold the agents on time" in busy.warning()
    assert busy.to_dict()["cpu_wait_ms"]["p99"] == pytest.approx(200.0)
    assert Fidelity.of([], speed=50, on_time_s=60).samples == 0


async def test_a_fixed_gate_lets_a_session_in_when_another_leaves():
    gate = AdmissionGate(2)
    order: list[str] = []
    release = asyncio.Event()

    async def session(name: str) -> None:
        async with gate.slot():
            order.append(name)
            await release.wait()

    tasks = [asyncio.create_task(session(n)) for n in "abc"]
    while gate.running + gate.waiting < 3:
        await asyncio.sleep(0)
    assert gate.running == 2
    assert gate.waiting == 1
    assert order == ["a", "b"]
    release.set()
    await asyncio.gather(*tasks)
    assert order == ["a", "b", "c"]
    assert gate.peak == 2
    assert gate.running == 0


async def test_an_auto_gate_opens_when_the_admission_allows_more():
    admission = Admission(total=3, first_wave=1, step=2, speed=50)
    gate = AdmissionGate(0, admission)
    release = asyncio.Event()

    async def session() -> None:
        async with gate.slot():
            await release.wait()

    tasks = [asyncio.create_task(session()) for _ in range(3)]
    while gate.running + gate.waiting < 3:
        await asyncio.sleep(0)
    assert gate.running == 1
    admission.observe([0.1], running=gate.running, waiting=gate.waiting, tick_s=0.5)
    await gate.reopen()
    while gate.running < 3:
        await asyncio.sleep(0)
    release.set()
    await asyncio.gather(*tasks)


async def test_the_canary_is_a_real_process_that_reports_and_stops():
    canary = Canary()
    await canary.start()
    try:
        for _ in range(200):
            if len(canary.delays) >= 3:
                break
            await asyncio.sleep(0.05)
        assert len(canary.delays) >= 3 and all(d >= 0 for d in canary.delays)
        assert canary.window()
    finally:
        await canary.stop()
    assert canary._process is not None and canary._process.returncode is not None


@pytest.mark.slow
async def test_every_run_records_its_fidelity_in_run_json(tmp_path):
    config = make_config(tmp_path)
    await Runner(config, replace(plan("eager"), admission=True)).run()
    record = json.loads((config.results_dir / "r" / "run.json").read_text())["fidelity"]
    assert record["admission"] == "auto" and record["peak_sessions"] >= 1
    assert record["canary_samples"] > 0 and record["first_wave"] >= 1
    assert set(record["cpu_wait_ms"]) == {"p50", "p90", "p99", "max"}
    assert record["host_steal_s"] >= 0 and 0 <= record["host_steal_peak"] <= 1  # this machine has /proc/stat
    await Runner(config, replace(plan("eager", name="fixed"), concurrency=1)).run()
    fixed = json.loads((config.results_dir / "fixed" / "run.json").read_text())["fidelity"]
    assert fixed["admission"] == "fixed"
    assert fixed["concurrency"] == 1
    assert fixed["peak_sessions"] == 1


def test_host_steal_reads_the_cpu_lines_steal_ticks_in_all_and_at_its_worst(tmp_path):
    stat = tmp_path / "stat"
    ticks = os.sysconf("SC_CLK_TCK")

    def steal(n: int) -> None:
        stat.write_text(f"cpu  100 0 50 900 3 0 1 {n} 0 0\ncpu0 50 0 25 450 1 0 0 0 0 0\n")
    steal(10)
    before = time.monotonic()
    meter = HostSteal(stat)
    steal(10 + ticks // 2)  # half a CPU second stolen within one tick
    meter.tick()
    tick_s = time.monotonic() - before
    assert meter.peak_share >= (ticks // 2) / ticks / (tick_s * (os.cpu_count() or 1))
    assert meter.to_dict()["host_steal_s"] == round((ticks // 2) / ticks, 2)
    assert HostSteal(tmp_path / "missing").to_dict() == {}
    stat.write_text("garbage")
    assert HostSteal(stat).to_dict() == {}


def test_the_start_lines_pace_is_the_canarys_last_half_second():
    canary = Canary()
    assert calm_now(canary, 50)  # no canary ever ran: nothing to pace by
    now = time.monotonic()
    canary.delays += [1.0, 1.0]
    canary.recent.extend([(now - 5, 1.0), (now - 4, 1.0)])
    assert not calm_now(canary, 50)  # it reported before, and nothing lately: it waits for the CPU too
    canary.recent.extend([(now, 2.0), (now, 3.0)])
    assert calm_now(canary, 50)  # 3 ms late is 0.15 sim s at speed 50
    canary.recent.append((now, 40.0))
    assert not calm_now(canary, 50)  # 40 ms is 2 sim s
    assert calm_now(canary, 1)  # ... and 0.04 sim s at speed 1
