"""`sentinel validate`: every check of DESIGN §5, one Problem per finding.

Shape checks happen while loading (sentinel.scenario). Here: the environment exists, event
types and their fields are known, referenced ids exist in the catalog and none is inserted
twice, events are in order and inside the timeline, condition_at is in range, eval_sql is one
read-only statement that compiles against the schema, and — replaying the timeline in a real
session with a paused clock — eval_sql is false just before condition_at and, for passive
tasks, true at condition_at.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path

from sentinel.catalog import Catalog
from sentinel.config import Config
from sentinel.envs import environments
from sentinel.envs.base import Environment
from sentinel.envs.kit import preload_problems, selected
from sentinel.errors import SentinelError
from sentinel.scenario import Problem, Scenario, ScenarioError, load_scenario, scenario_files
from sentinel.session import COMMON_SCHEMA, Session

JUST_BEFORE = 0.001  # sim seconds before condition_at at which eval_sql must still be false
READ_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION}


async def validate_all(config: Config, paths: list[Path] | None = None) -> tuple[int, list[Problem]]:
    """Validate the given scenario files (default: all); return (files checked, problems)."""
    files = paths if paths is not None else scenario_files(config.scenarios_dir)
    problems: list[Problem] = []
    seen_ids: dict[str, Path] = {}
    for path in files:
        try:
            scenario = load_scenario(path)
        except ScenarioError as exc:
            problems += exc.problems
            continue
        if scenario.id in seen_ids:
            problems.append(Problem(str(path), "id", f"duplicate of {seen_ids[scenario.id]}"))
        seen_ids[scenario.id] = path
        problems += await validate_scenario(scenario, config)
    return len(files), problems


async def validate_scenario(scenario: Scenario, config: Config) -> list[Problem]:
    name = str(scenario.path)
    envs = environments()
    env = envs.get(scenario.environment)
    if env is None:
        return [Problem(name, "environment", f"unknown environment; known: {', '.join(sorted(envs))}")]
    try:
        catalog = Catalog.of(env, config.catalogs_dir)
        found = [Problem(name, f, r) for f, r in static_checks(scenario, env, catalog, config)]
        if env.check_scenario:
            found += [Problem(name, f, r) for f, r in env.check_scenario(scenario, catalog, config.timing)]
    except SentinelError as exc:
        return [Problem(name, "catalog", str(exc))]
    if found:
        return found  # replaying a broken scenario would only repeat the same problems
    return [Problem(name, f, r) for f, r in await replay_checks(scenario, env, config)]


def static_checks(scenario: Scenario, env: Environment, catalog: Catalog, config: Config) -> list[tuple[str, str]]:
    timing = config.timing
    out: list[tuple[str, str]] = []
    at = scenario.condition_at
    if at is not None and not timing.min_condition_at <= at <= timing.max_condition_at:
        out.append(("condition_at", f"{scenario.condition_at:g} is outside "
                                    f"[{timing.min_condition_at:g}, {timing.max_condition_at:g}]"))
    if not scenario.events or scenario.events[0].type != "preload" or scenario.events[0].at != 0:
        out.append(("events[0]", "the first event must be the preload at 0"))
    inserted: dict[str, int] = {}
    previous_at = 0.0
    for event in scenario.events:
        where = f"events[{event.index}]"
        if event.at < previous_at:
            out.append((f"{where}.at", f"{event.at:g} comes before the previous event's {previous_at:g}: out of order"))
        previous_at = max(previous_at, event.at)
        if not 0 <= event.at <= timing.event_timeline_end:
            out.append((f"{where}.at", f"{event.at:g} is outside the timeline [0, {timing.event_timeline_end:g}]"))
        etype = env.event_types.get(event.type)
        if etype is None:
            out.append((f"{where}.type", f"unknown event type {event.type!r} for {env.name}; "
                                         f"known: {', '.join(sorted(env.event_types))}"))
            continue
        if etype.preload:
            out += preload_problems(event, etype)
        for key in sorted(set(event.fields) - etype.fields):
            out.append((f"{where}.{key}", f"unknown field for {event.type}"))
        for key in etype.required:
            if key not in event.fields:
                out.append((f"{where}.{key}", f"missing: {event.type} needs it"))
        for key, collection in etype.refs.items():
            value = event.fields.get(key)
            if isinstance(value, dict):
                value = list(value)  # a mapping keyed by ids (price waypoints per symbol)
            for rid in selected(catalog, collection, value):
                if not catalog.has(collection, rid):
                    out.append((f"{where}.{key}", f"{rid!r} is not in the {collection} catalog"))
                elif key in etype.inserts:
                    if rid in inserted:
                        out.append((f"{where}.{key}", f"{rid!r} is already inserted by events[{inserted[rid]}]"))
                    inserted[rid] = event.index
    if scenario.eval_sql is not None:
        out += [("eval_sql", reason) for reason in sql_problems(scenario.grading_sql() or "", env)]
    return out


def sql_problems(sql: str, env: Environment) -> list[str]:
    """Compile sql against the schema; it must be one statement that only reads."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(COMMON_SCHEMA + env.schema.read_text(encoding="utf-8"))
        conn.set_authorizer(lambda action, *_: sqlite3.SQLITE_OK if action in READ_ACTIONS else sqlite3.SQLITE_DENY)
        conn.execute(f"EXPLAIN {sql}")
        return []
    except sqlite3.ProgrammingError as exc:
        return [f"must be exactly one statement ({exc})"]
    except sqlite3.DatabaseError as exc:
        if "not authorized" in str(exc):
            return ["must be one read-only SELECT (it writes, attaches or changes settings)"]
        return [f"does not compile against the {env.name} schema: {exc}"]
    finally:
        conn.close()


async def replay_checks(scenario: Scenario, env: Environment, config: Config) -> list[tuple[str, str]]:
    """Replay the timeline with a paused clock; check eval_sql around condition_at."""
    if scenario.condition_at is None or scenario.eval_sql is None:
        return []
    out_dir = Path(tempfile.mkdtemp(prefix="sentinel-validate-"))
    session = Session(scenario, env, config, out_dir=out_dir, speed=1.0)
    problems: list[tuple[str, str]] = []
    try:
        await session.setup()
        session.clock.start(paused=True)
        before = max(0.0, scenario.condition_at - JUST_BEFORE)
        if await _verdict_at(session, before):
            problems.append(("eval_sql", f"already true at sim {before:g} s, just before condition_at"))
        if scenario.taxonomy.activity == "passive" and not await _verdict_at(session, scenario.condition_at):
            problems.append(("eval_sql", f"still false at condition_at {scenario.condition_at:g} s "
                                         "(a passive task must hold once its events fired)"))
    except Exception as exc:  # an event that crashes on replay is a scenario problem
        problems.append(("events", f"replaying the timeline failed: {exc!r}"))
    finally:
        await session.abort()
        shutil.rmtree(out_dir, ignore_errors=True)
    return problems


async def _verdict_at(session: Session, sim_t: float) -> bool:
    if sim_t > session.clock.now():
        session.clock.advance_to(sim_t)
    await session.scheduler.fire_due()
    verdict = await session.verdict()
    if verdict.error:
        raise RuntimeError(verdict.error)
    return verdict.truthy
