"""Replaying a scenario's timeline to check the per-scenario validity rules (docs/environments.md#validity-rules).

The timeline runs in a real session database with a paused clock that validate advances by
hand. condition_sql and near_miss_sql are read at sample times: a 2 s grid, every event time
(and just before it), the end of every ramp, every [t, value] point in the preload, and the
moments just before and at condition_at and condition_until. From those readings:

- a normal task's condition_sql is false at every sample before condition_at and true at it;
- after condition_until it is false at every sample;
- a no-op's condition_sql is never true, and its near_miss_sql becomes true at some sample;
- eval_sql is false just before condition_at (and, for passive tasks, true at it);
- `_note` rule: the event that flips condition_sql or near_miss_sql (the target, the near miss,
  the event that ends a passing condition: the last event at or before the flip) carries a
  `_note` saying the fact that decides it. Decoys carry one by convention; what makes a row a
  decoy is not something a replay can see, so that part is left to review.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sentinel.core.config import Config
from sentinel.core.environment import Environment
from sentinel.core.scenario import Event, Scenario, expand_self
from sentinel.session.live import Session

JUST_BEFORE = 0.001  # sim seconds before a moment at which a condition must still be false
GRID_S = 2.0

Problems = list[tuple[str, str]]


@dataclass(frozen=True)
class Reading:
    t: float
    condition: bool
    near_miss: bool


async def replay_checks(scenario: Scenario, env: Environment, config: Config) -> Problems:
    """Replay the timeline once with a paused clock and check every per-scenario rule on it."""
    out_dir = Path(tempfile.mkdtemp(prefix="sentinel-validate-"))
    session = Session(scenario, env, config, out_dir=out_dir, speed=1.0)
    problems: Problems = []
    try:
        await session.setup()
        session.clock.start(paused=True)
        readings, eval_problems = await _replay(session, env, scenario, config)
        problems += eval_problems
        problems += condition_problems(scenario, readings)
        problems += note_problems(scenario, readings)
    except Exception as exc:  # an event or SQL that crashes on replay is a scenario problem
        problems.append(("events", f"replaying the timeline failed: {exc!r}"))
    finally:
        await session.abort()
        shutil.rmtree(out_dir, ignore_errors=True)
    return problems


def sample_times(scenario: Scenario, end: float) -> list[float]:
    times = {i * GRID_S for i in range(int(end // GRID_S) + 1)}
    for event in scenario.events:
        times |= {event.at, event.at - JUST_BEFORE}
        ramp = event.fields.get("ramp_s")
        if isinstance(ramp, (int, float)) and not isinstance(ramp, bool):
            times.add(event.at + float(ramp))
        if event.type == "preload":
            times |= {float(t) for t in _points(event.fields)}
    for moment in (scenario.condition_at, scenario.condition_until):
        if moment is not None:
            times |= {moment - JUST_BEFORE, moment}
    return sorted(t for t in times if 0 <= t <= end)


async def _replay(session: Session, env: Environment, scenario: Scenario,
                  config: Config) -> tuple[list[Reading], Problems]:
    problems: Problems = []
    readings: list[Reading] = []
    condition, near_miss = expand_self(scenario.condition_sql), expand_self(scenario.near_miss_sql)
    c = scenario.condition_at
    for t in sample_times(scenario, config.timing.event_timeline_end):
        await _advance(session, env, t)
        readings.append(Reading(t, _truthy(session, condition), _truthy(session, near_miss)))
        if c is None or scenario.eval_sql is None:
            continue
        if abs(t - (c - JUST_BEFORE)) < 1e-9 and _truthy(session, scenario.grading_sql()):
            problems.append(("eval_sql", f"already true at sim {t:g} s, just before condition_at"))
        if t == c and scenario.taxonomy.activity == "passive" and not _truthy(session, scenario.grading_sql()):
            problems.append(("eval_sql", f"still false at condition_at {c:g} s "
                                         "(a passive task must hold once its events fired)"))
    return readings, problems


async def _advance(session: Session, env: Environment, sim_t: float) -> None:
    if sim_t > session.clock.now():
        session.clock.advance_to(sim_t)
    await session.scheduler.fire_due()
    await session.finalize_world()


def _truthy(session: Session, sql: str | None) -> bool:
    if sql is None:
        return False
    verdict = session.read(sql)
    if verdict.error:
        raise RuntimeError(verdict.error)
    return verdict.truthy


def condition_problems(scenario: Scenario, readings: list[Reading]) -> Problems:
    out: Problems = []
    if scenario.condition_sql is None:
        return out
    c, until = scenario.condition_at, scenario.condition_until
    if c is None:
        early = next((r.t for r in readings if r.condition), None)
        if early is not None:
            out.append(("condition_sql", f"true at sim {early:g} s, but a no-op's condition never holds "
                                         "(validity rules: conditions as SQL)"))
        if scenario.near_miss_sql is not None and not any(r.near_miss for r in readings):
            out.append(("near_miss_sql", "never true during the timeline: the no-op has no real near miss "
                                         "(validity rules: near-miss no-ops)"))
        return out
    early = next((r.t for r in readings if r.t < c and r.condition), None)
    if early is not None:
        out.append(("condition_sql", f"already true at sim {early:g} s, before condition_at {c:g} "
                                     "(validity rules: conditions as SQL)"))
    at = next((r for r in readings if r.t == c), None)
    if at is not None and not at.condition:
        out.append(("condition_sql", f"still false at condition_at {c:g} s (validity rules: conditions as SQL)"))
    if until is not None:
        late = next((r.t for r in readings if r.t >= until and r.condition), None)
        if late is not None:
            out.append(("condition_until", f"condition_sql still true at sim {late:g} s, at or after "
                                           f"condition_until {until:g} (validity rules: conditions that pass)"))
    return out


def note_problems(scenario: Scenario, readings: list[Reading]) -> Problems:
    """The event behind each flip of condition_sql or near_miss_sql must carry a _note."""
    out: Problems = []
    flagged: set[int] = set()
    for before, after in zip(readings, readings[1:], strict=False):
        for name, was, now in (("condition_sql", before.condition, after.condition),
                               ("near_miss_sql", before.near_miss, after.near_miss)):
            if was == now:
                continue
            event = _deciding_event(scenario, after.t)
            if event is None or event.note or event.index in flagged:
                continue
            flagged.add(event.index)
            turns = "true" if now else "false"
            out.append((f"events[{event.index}]._note", f"missing: this event turns {name} {turns} "
                                                        f"(at sim {after.t:g} s); say the fact that decides it "
                                                        "(validity rules: readable)"))
    return out


def _deciding_event(scenario: Scenario, t: float) -> Event | None:
    timeline = [e for e in scenario.timeline if e.at <= t]
    return timeline[-1] if timeline else None


def _points(value: Any) -> Iterator[float]:
    """Times of every [t, value] pair nested in a preload's fields (waypoints)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _points(item)
    elif isinstance(value, list):
        if len(value) == 2 and all(_number(v) for v in value):
            yield float(value[0])
        else:
            for item in value:
                yield from _points(item)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
