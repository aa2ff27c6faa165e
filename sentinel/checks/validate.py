"""`sentinel validate`: every check of docs/scenarios.md#validation, one Problem per finding.

Shape checks happen while loading (sentinel.core.scenario). Here: the environment exists, event
types and their fields are known, referenced ids exist in the catalog and none is inserted
twice, events are in order and inside the timeline, condition_at is in range, eval_sql,
condition_sql and near_miss_sql are read-only statements that compile against the schema.
The timeline is then replayed in a real session with a paused clock (sentinel.checks.replay) to check
the validity rules of docs/environments.md#validity-rules on each scenario; the suite rules (spread of target
times, conditions that pass) run in sentinel.checks.suite_rules when a whole environment is checked.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sentinel.checks.paper_rules import paper_problems
from sentinel.checks.replay import replay_checks
from sentinel.checks.suite_rules import suite_problems, suite_split
from sentinel.core.catalog import Catalog
from sentinel.core.config import Config
from sentinel.core.environment import Environment
from sentinel.core.errors import SentinelError
from sentinel.core.scenario import Problem, Scenario, ScenarioError, expand_self, load_scenario, scenario_files
from sentinel.envs import environments
from sentinel.envs.kit import preload_problems, selected
from sentinel.session.live import COMMON_SCHEMA

READ_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION}


async def validate_all(config: Config, paths: list[Path] | None = None,
                       summary: list[str] | None = None) -> tuple[int, list[Problem]]:
    """Validate the given scenario files or folders (default: all); return (files checked, problems).

    The suite rules run when validate sees a whole suite or environment: with no paths (every
    scenario), or over the files of each folder given as a path. Files named one by one are
    checked on their own. The split (passive/active/noop, absolute/relative) of what the suite
    rules saw is appended to `summary` when given.
    """
    groups: list[tuple[Path | None, list[Path]]] = (
        [(None, scenario_files(config.scenarios_dir))] if paths is None else [(p, expand_path(p)) for p in paths])
    seen_ids: dict[str, Path] = {}
    suite: list[Scenario] = []
    slots: list[list[Problem] | Scenario] = []  # per file, in order: its load problems or the scenario
    for path_given, files in groups:
        whole = path_given is None or path_given.is_dir()
        for path in files:
            try:
                scenario = load_scenario(path)
            except ScenarioError as exc:
                slots.append(exc.problems)
                continue
            if scenario.id in seen_ids:
                slots.append([Problem(str(path), "id", f"duplicate of {seen_ids[scenario.id]}")])
                continue
            seen_ids[scenario.id] = path
            slots.append(scenario)
            if whole:
                suite.append(scenario)
    loaded = [s for s in slots if isinstance(s, Scenario)]
    found = iter([await validate_scenario(s, config) for s in loaded])
    problems = [p for slot in slots for p in (next(found) if isinstance(slot, Scenario) else slot)]
    checked = len(slots)
    if suite:
        problems += rules_of(suite, whole_paper=paths is None or any(p.name == "paper" for p, _ in groups if p))
        if summary is not None:
            summary += suite_split(suite)
    return checked, problems


def rules_of(suite: list[Scenario], whole_paper: bool) -> list[Problem]:
    """The suite rules that apply: the paper's when every scenario follows the paper's convention
    (every inventory id needed when the paper folder itself was checked), else the verified suite's."""
    if all(s.is_paper for s in suite):
        return paper_problems(suite, whole_suite=whole_paper)
    return suite_problems(suite)


def expand_path(path: Path) -> list[Path]:
    """A file as given; a folder stands for its scenario files (one environment's, or all)."""
    if not path.is_dir():
        return [path]
    nested = scenario_files(path)
    return nested if nested else scenario_files(path.parent, path.name)


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
    preload_first = bool(scenario.events) and scenario.events[0].type == "preload" and scenario.events[0].at == 0
    if not preload_first and not scenario.is_paper:  # a few of the paper's tasks start with no preload
        out.append(("events[0]", "the first event must be the preload at 0"))
    inserted: dict[str, int] = {}
    previous_at = 0.0
    for event in scenario.events:
        where = f"events[{event.index}]"
        if event.at < previous_at:
            out.append((f"{where}.at", f"{event.at:g} comes before the previous event's {previous_at:g}: out of order"))
        previous_at = max(previous_at, event.at)
        past_end_allowed = scenario.is_paper and event.at > 0  # the paper keeps events that never fire
        if not 0 <= event.at <= timing.event_timeline_end and not past_end_allowed:
            out.append((f"{where}.at", f"{event.at:g} is outside the timeline [0, {timing.event_timeline_end:g}]"))
        etype = env.event_types.get(event.type)
        if etype is None:
            out.append((f"{where}.type", f"unknown event type {event.type!r} for {env.name}; "
                                         f"known: {', '.join(sorted(env.event_types))}"))
            continue
        if etype.preload:
            out += preload_problems(event, etype)
        elif event.at <= 0:
            out.append((f"{where}.at", f"{event.type} belongs on the timeline (at > 0); the preload fills time 0"))
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
    for name in ("eval_sql", "condition_sql", "near_miss_sql"):
        sql = getattr(scenario, name)
        if sql is not None:
            out += [(name, reason) for reason in sql_problems(expand_self(sql) or "", env)]
    if scenario.is_paper:  # the paper's rules: docs/paper-suite.md#format
        return out + paper_checks(scenario)
    if scenario.condition_sql is None:
        out.append(("condition_sql", "missing: every scenario states its condition on the world as SQL "
                                      "(validity rules: conditions as SQL)"))
    if scenario.is_noop and scenario.near_miss_sql is None:
        out.append(("near_miss_sql", "missing: a no-op needs a near miss that becomes true "
                                     "(validity rules: near-miss no-ops)"))
    if scenario.condition_until is not None and scenario.condition_until > timing.event_timeline_end:
        out.append(("condition_until",
                    f"{scenario.condition_until:g} is past the timeline end {timing.event_timeline_end:g}"))
    return out


def paper_checks(scenario: Scenario) -> list[tuple[str, str]]:
    """What a paper task may not carry: a near miss (its no-ops pass by never reporting)."""
    if scenario.near_miss_sql is not None:
        return [("near_miss_sql", "a paper task has no near miss (its no-op passes by never reporting)")]
    return []


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


