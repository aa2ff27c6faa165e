"""The run's eye on the machine: the canary process, admission by its measurements, and the
fidelity record (the policy is sentinel/run/admission.py; docs/timing.md#admission).

With `--concurrency auto` (the default) sessions wait at an AdmissionGate whose allowance the
monitor raises while the machine is calm; with a fixed `--concurrency N` (or 0, all) the gate
is a plain limit, and the canary still measures, so every run.json says whether the machine
held its agents on time. The monitor tells the run's bus when the machine turns busy.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from sentinel.core.summary import percentile
from sentinel.run.admission import BUSY, CALM, WINDOW_S, Admission, Fidelity, delay_sim_s, machine_state
from sentinel.session.harness import AGENT_NICENESS

TICK_S = 0.5
NOTICE_EVERY_S = 10.0  # at most one "machine busy" line this often
PROBE_S = 0.5  # before the first wave: how long the canary samples an otherwise idle runner
PACE_WINDOW_S = 0.5  # the start line passes the next session when this much of the canary was calm


class Canary:
    """The probe process (python -m sentinel.run.canary) and the delays it reported."""

    def __init__(self) -> None:
        self.delays: list[float] = []
        self.recent: deque[tuple[float, float]] = deque()
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task | None = None

    async def start(self) -> None:
        try:
            self._process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "sentinel.run.canary", stdout=asyncio.subprocess.PIPE,
                stdin=asyncio.subprocess.DEVNULL, preexec_fn=lambda: os.nice(AGENT_NICENESS))
        except OSError:
            return  # no probe: admission stays calm, the record says there were no samples
        self._reader = asyncio.create_task(self._read(), name="canary")

    async def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        async for line in self._process.stdout:
            with contextlib.suppress(ValueError):
                value = float(line)
                self.delays.append(value)
                self.recent.append((time.monotonic(), value))

    def window(self, seconds: float = WINDOW_S) -> list[float]:
        """The delays of the last `seconds` wall seconds (at most WINDOW_S)."""
        horizon = time.monotonic() - min(seconds, WINDOW_S)
        while self.recent and self.recent[0][0] < horizon:
            self.recent.popleft()
        return [value for _, value in self.recent]

    async def stop(self) -> None:
        if self._process is not None and self._process.returncode is None:
            self._process.kill()
            await self._process.wait()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader


class HostSteal:
    """How much CPU the host (the hypervisor under a virtual machine) took from this machine while
    the run lasted: /proc/stat's steal time, in all and at its worst over one tick. A stall that no
    admission can prevent shows here; without /proc/stat the record leaves it out."""

    def __init__(self, stat: Path = Path("/proc/stat")) -> None:
        self.stat = stat
        self.first = self.last = self._read()
        self.last_at = time.monotonic()
        self.peak_share = 0.0

    def _read(self) -> float | None:
        """CPU seconds stolen since boot, over all cores (the `cpu` line's eighth value, in ticks)."""
        try:
            return int(self.stat.read_text().split("\n", 1)[0].split()[8]) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return None

    def tick(self) -> None:
        now, at = self._read(), time.monotonic()
        if now is None or self.last is None:
            return
        if at > self.last_at:
            share = (now - self.last) / ((at - self.last_at) * (os.cpu_count() or 1))
            self.peak_share = max(self.peak_share, share)
        self.last, self.last_at = now, at

    def to_dict(self) -> dict:
        self.tick()
        if self.first is None or self.last is None:
            return {}
        return {"host_steal_s": round(self.last - self.first, 2), "host_steal_peak": round(self.peak_share, 3)}


class AdmissionGate:
    """Sessions take a slot to run. Fixed: at most `limit` at once (0: no limit). Auto: at most
    admission.allowed, which the monitor raises."""

    def __init__(self, limit: int, admission: Admission | None = None):
        self.limit = limit
        self.admission = admission
        self.running = 0
        self.waiting = 0
        self.peak = 0
        self._changed = asyncio.Condition()

    def _room(self) -> bool:
        cap = self.admission.allowed if self.admission is not None else self.limit
        return cap <= 0 or self.running < cap

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        async with self._changed:
            self.waiting += 1
            try:
                await self._changed.wait_for(self._room)
            finally:
                self.waiting -= 1
            self.running += 1
            self.peak = max(self.peak, self.running)
        try:
            yield
        finally:
            async with self._changed:
                self.running -= 1
                self._changed.notify_all()

    async def reopen(self) -> None:
        async with self._changed:
            self._changed.notify_all()


class Monitor:
    """Ticks while the run lasts: feeds the canary's window to the admission and tells the bus
    (through `notify`) when the machine is busy, at most every NOTICE_EVERY_S."""

    def __init__(self, canary: Canary, gate: AdmissionGate, speed: float, notify: Callable[[str], None],
                 steal: HostSteal | None = None):
        self.canary, self.gate, self.speed, self.notify = canary, gate, speed, notify
        self.steal = steal
        self._last_notice = -NOTICE_EVERY_S

    async def run(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            if self.steal is not None:
                self.steal.tick()
            recent = self.canary.window()
            admission = self.gate.admission
            if admission is not None:
                before = admission.allowed
                state = admission.observe(recent, self.gate.running, self.gate.waiting, TICK_S)
                if admission.allowed > before:
                    await self.gate.reopen()
            else:
                state = machine_state(recent, self.speed)
            if state == BUSY and time.monotonic() - self._last_notice >= NOTICE_EVERY_S:
                self._last_notice = time.monotonic()
                self.notify(self._busy_line(recent))

    def _busy_line(self, recent: list[float]) -> str:
        p90 = percentile(recent, 90) or 0.0
        line = (f"machine busy: a waiting agent takes {p90:.0f} ms to get the CPU "
                f"({delay_sim_s(p90, self.speed):.1f} sim s at speed {self.speed:g})")
        if self.gate.admission is not None and self.gate.waiting:
            return line + f"; {self.gate.waiting} sessions wait until it calms ({self.gate.running} running)"
        return line + "; on-time results may be the machine's (--concurrency auto admits by this measure)"


async def probe_first_wave(canary: Canary, speed: float) -> bool:
    """Sample the machine before the first wave: True if it is calm."""
    await asyncio.sleep(PROBE_S)
    return machine_state(canary.window(), speed) == CALM


def calm_now(canary: Canary, speed: float) -> bool:
    """Whether the last PACE_WINDOW_S of the canary's wakes were calm: the start line's pace. No
    wake at all in that time means the canary waits for the CPU too (unless it never ran)."""
    recent = canary.window(PACE_WINDOW_S)
    if not recent:
        return not canary.delays
    return machine_state(recent, speed) == CALM


STOLEN_SHARE = 0.2  # a tick in which the host took more than this share of the CPU is named in the warning


def fidelity_record(canary: Canary, gate: AdmissionGate, speed: float, on_time_s: float,
                    steal: HostSteal | None = None, start_spread_s: float | None = None) -> dict:
    admission = gate.admission
    record = {"admission": "auto" if admission is not None else "fixed",
              "concurrency": gate.limit if admission is None else None, "peak_sessions": gate.peak,
              **Fidelity.of(canary.delays, speed, on_time_s).to_dict(), **(steal.to_dict() if steal else {})}
    if record["warning"] and record.get("host_steal_peak", 0) > STOLEN_SHARE:
        record["warning"] += (f"; the host took up to {record['host_steal_peak']:.0%} of this machine's CPU at once "
                              "(steal time), which no admission can prevent")
    if start_spread_s is not None:
        record["start_spread_s"] = round(start_spread_s, 2)
    if admission is not None:
        record.update(first_wave=admission.first_wave, held_s=round(admission.held_s, 1),
                      busy_s=round(admission.busy_s, 1))
    return record
