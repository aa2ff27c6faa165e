"""Scenario files: YAML (or JSON) under scenarios/<suite>/<env>/<name>.yaml, loaded into frozen dataclasses.

Loading checks the shape of a file (keys, types, ranges) and reports every problem as a
`Problem` naming file, field and reason. Checks that need an environment (event types,
catalog ids, eval_sql against the schema) live in `sentinel.checks.validate`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sentinel.core.solution import Step, parse_solution

# libyaml's safe loader when PyYAML was built with it (ten times faster on the long preload lists)
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

SCENARIO_KEYS = {
    "id", "environment", "prompt", "condition_at", "start_page", "taxonomy",
    "events", "eval_sql", "solution", "description",
    "condition_sql", "near_miss_sql", "condition_until", "generated", "convention",
}
# Which suite's rules a file follows (docs/paper-suite.md#format): `verified` (the default) or
# `paper` (the original benchmark's: its prompt sentence, no near misses, no passing conditions).
CONVENTIONS = ("verified", "paper")
TAXONOMY_KEYS = {"activity", "criteria", "difficulty", "distraction"}
ACTIVITIES = ("passive", "active", "noop")
CRITERIA = ("absolute", "relative")
SELF_SQL = "(SELECT id FROM personas WHERE is_self=1)"


@dataclass(frozen=True)
class Problem:
    file: str
    field: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}: {self.field}: {self.reason}"


@dataclass(frozen=True)
class Event:
    at: float
    type: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    index: int = 0  # position in the scenario's event list, for messages and logs
    note: str = ""  # `_note`: the fact that decides this event (target, decoy, near miss)

    def describe(self) -> str:
        detail = ", ".join(f"{k}={v}" for k, v in self.fields.items() if not isinstance(v, (list, dict)))
        return f"{self.type}({detail})" if detail else self.type


@dataclass(frozen=True)
class Taxonomy:
    activity: str
    criteria: str
    difficulty: str | None = None
    distraction: str | None = None


@dataclass(frozen=True)
class Scenario:
    id: str
    environment: str
    prompt: str
    condition_at: float | None
    start_page: str
    taxonomy: Taxonomy
    events: tuple[Event, ...]
    eval_sql: str | None
    solution: tuple[Step, ...]
    path: Path
    description: str = ""
    condition_sql: str | None = None  # the prompt's condition on the world alone
    near_miss_sql: str | None = None  # no-op only: the condition with one clause relaxed
    condition_until: float | None = None  # when a condition that passes stops holding
    # `sentinel generate`'s record: {seed, kind, index, knobs: {...}} (None for an authored scenario)
    generated: Mapping[str, Any] | None = None
    convention: str = "verified"  # one of CONVENTIONS

    @property
    def is_paper(self) -> bool:
        return self.convention == "paper"

    @property
    def is_noop(self) -> bool:
        return self.condition_at is None

    @property
    def short_id(self) -> str:
        return self.id.split("-", 1)[-1]

    @property
    def preload(self) -> tuple[Event, ...]:
        return tuple(e for e in self.events if e.at <= 0)

    @property
    def timeline(self) -> tuple[Event, ...]:
        return tuple(e for e in self.events if e.at > 0)

    def grading_sql(self) -> str | None:
        """eval_sql with the SELF shorthand expanded (docs/environments.md#personas)."""
        return expand_self(self.eval_sql)


def expand_self(sql: str | None) -> str | None:
    """Replace the SELF shorthand with the self persona's id query."""
    if sql is None:
        return None
    return re.sub(r"\bSELF\b", SELF_SQL, sql)


class ScenarioError(Exception):
    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


def load_scenario(path: Path) -> Scenario:
    """Load one scenario file; raise ScenarioError listing every shape problem."""
    problems: list[Problem] = []
    name = str(path)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError([Problem(name, "-", f"cannot read file: {exc}")]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else "-"
        raise ScenarioError([Problem(name, where, f"not valid YAML: {getattr(exc, 'problem', exc)}")]) from None
    if not isinstance(data, dict):
        raise ScenarioError([Problem(name, "-", "expected a mapping of scenario fields")])

    def bad(field_name: str, reason: str) -> None:
        problems.append(Problem(name, field_name, reason))

    for key in sorted(set(data) - SCENARIO_KEYS):
        bad(key, "unknown key")
    sid = _text(data, "id", bad)
    env = _text(data, "environment", bad)
    prompt = _text(data, "prompt", bad)
    if sid and env and not sid.startswith(f"{env}-"):
        bad("id", f"must start with '{env}-'")
    generated = _generated(data.get("generated"), bad)
    if env and path.parent.name != env and generated is None:  # a generated set lives wherever --out put it
        bad("environment", f"'{env}' but the file lies in scenarios/{path.parent.name}/")
    condition_at = data.get("condition_at", "missing")
    if condition_at == "missing":
        bad("condition_at", "missing (use null for a no-op task)")
        condition_at = None
    elif condition_at is not None and (isinstance(condition_at, bool) or not isinstance(condition_at, (int, float))):
        bad("condition_at", f"expected a number of sim seconds or null, got {condition_at!r}")
        condition_at = None
    start_page = data.get("start_page", f"/{env}/")
    if not isinstance(start_page, str) or not start_page.startswith("/"):
        bad("start_page", "expected a path starting with '/'")
        start_page = f"/{env}/"
    taxonomy = _taxonomy(data.get("taxonomy"), bad)
    if taxonomy and (taxonomy.activity == "noop") != (condition_at is None) and data.get("condition_at") != "missing":
        bad("condition_at", "must be null exactly when taxonomy.activity is noop")
    events = _events(data.get("events"), bad)
    eval_sql = data.get("eval_sql")
    if eval_sql is not None and (not isinstance(eval_sql, str) or not eval_sql.strip()):
        bad("eval_sql", "expected SQL text")
        eval_sql = None
    if eval_sql is None and condition_at is not None:
        bad("eval_sql", "missing: a normal task needs grading SQL")
    condition_sql = _optional_sql(data, "condition_sql", bad)
    near_miss_sql = _optional_sql(data, "near_miss_sql", bad)
    if near_miss_sql is not None and condition_at is not None:
        bad("near_miss_sql", "only a no-op task has a near miss")
    condition_until = _condition_until(data, condition_at, bad)
    convention = data.get("convention", "verified")
    if convention not in CONVENTIONS:
        bad("convention", f"expected one of {', '.join(CONVENTIONS)}, got {convention!r}")
    elif convention == "paper" and data.get("condition_until") is not None:
        bad("condition_until", "a paper task's condition persists once true (no condition_until)")
    solution, solution_problems = parse_solution(data.get("solution"))
    for where, reason in solution_problems:
        bad(where, reason)
    description = data.get("description", "")
    if problems:
        raise ScenarioError(problems)
    assert taxonomy is not None
    return Scenario(
        id=sid, environment=env, prompt=prompt.strip(),
        condition_at=float(condition_at) if condition_at is not None else None,
        start_page=start_page, taxonomy=taxonomy, events=events,
        eval_sql=eval_sql.strip() if eval_sql else None, solution=solution,
        path=path, description=str(description), condition_sql=condition_sql,
        near_miss_sql=near_miss_sql, condition_until=condition_until, generated=generated,
        convention=convention,
    )


def _generated(value: Any, bad) -> dict[str, Any] | None:
    """The `generated` record of a generated scenario: seed, kind, index and knobs."""
    if value is None:
        return None
    if not isinstance(value, dict) or not {"seed", "kind", "index"} <= set(value):
        bad("generated", "expected a mapping with seed, kind, index (and knobs)")
        return None
    return dict(value)


def _optional_sql(data: dict, key: str, bad) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        bad(key, "expected SQL text")
        return None
    return value.strip()


def _condition_until(data: dict, condition_at: Any, bad) -> float | None:
    value = data.get("condition_until")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        bad("condition_until", f"expected sim seconds, got {value!r}")
        return None
    if condition_at is None:
        bad("condition_until", "a no-op has no condition to pass")
        return None
    if value <= condition_at:
        bad("condition_until", f"{value:g} must come after condition_at {condition_at:g}")
        return None
    return float(value)


def _text(data: dict, key: str, bad) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        bad(key, "missing or not text")
        return ""
    return value


def _taxonomy(raw: Any, bad) -> Taxonomy | None:
    if not isinstance(raw, dict):
        bad("taxonomy", "missing: expected activity and criteria")
        return None
    for key in sorted(set(raw) - TAXONOMY_KEYS):
        bad(f"taxonomy.{key}", "unknown key")
    activity, criteria = raw.get("activity"), raw.get("criteria")
    if activity not in ACTIVITIES:
        bad("taxonomy.activity", f"expected one of {', '.join(ACTIVITIES)}, got {activity!r}")
    if criteria not in CRITERIA:
        bad("taxonomy.criteria", f"expected one of {', '.join(CRITERIA)}, got {criteria!r}")
    if activity not in ACTIVITIES or criteria not in CRITERIA:
        return None
    return Taxonomy(activity, criteria, raw.get("difficulty"), raw.get("distraction"))


def _events(raw: Any, bad) -> tuple[Event, ...]:
    if not isinstance(raw, list) or not raw:
        bad("events", "expected a list of events starting with a preload")
        return ()
    events = []
    for i, item in enumerate(raw):
        where = f"events[{i}]"
        if not isinstance(item, dict):
            bad(where, "expected a mapping {at, type, ...}")
            continue
        at, etype = item.get("at"), item.get("type")
        if isinstance(at, bool) or not isinstance(at, (int, float)):
            bad(f"{where}.at", f"expected sim seconds, got {at!r}")
            continue
        if not isinstance(etype, str) or not etype:
            bad(f"{where}.type", "missing")
            continue
        note = item.get("_note", "")
        if not isinstance(note, str):
            bad(f"{where}._note", "expected a sentence of text")
            note = ""
        for key in sorted(k for k in item if isinstance(k, str) and k.startswith("_") and k != "_note"):
            bad(f"{where}.{key}", "unknown authoring field (only _note is allowed)")
        payload = {k: v for k, v in item.items() if k not in ("at", "type") and not str(k).startswith("_")}
        events.append(Event(at=float(at), type=etype, fields=payload, index=i, note=note.strip()))
    return tuple(events)


def scenario_files(root: Path, env: str | None = None) -> list[Path]:
    """Every scenario file under root (optionally one environment's), sorted."""
    folders = [root / env] if env else sorted(p for p in root.iterdir() if p.is_dir()) if root.exists() else []
    files: list[Path] = []
    for folder in folders:
        files += sorted(p for p in folder.glob("*") if p.suffix in (".yaml", ".yml", ".json"))
    return files


# What every agent is told after the scenario's own prompt (docs/protocol.md#agents).
CONTACT_SENTENCE = ("When the condition above holds, report it by visiting {contact} once. "
                    "If it never holds, never visit that page.")
# The paper's convention (docs/paper-suite.md#format): report once, at the end; no word on a
# condition that may never hold.
PAPER_CONTACT_SENTENCE = ("Once the task above is done, report it by visiting {contact}, once, as your "
                          "last step. A report sent before the condition holds counts as a failure.")


def full_prompt(scenario: Scenario, contact_url: str) -> str:
    sentence = PAPER_CONTACT_SENTENCE if scenario.is_paper else CONTACT_SENTENCE
    return f"{scenario.prompt}\n\n{sentence.format(contact=contact_url)}"
