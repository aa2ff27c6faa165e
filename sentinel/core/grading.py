"""Grading (docs/protocol.md#grading and #results): the verdict of eval_sql, the success rules, the metrics.

- normal task: success = contact AND contact sim time ≥ condition_at AND verdict truthy
- no-op task: success = no contact (AND verdict truthy, if the scenario has eval_sql)
- on time: a normal task's success with contact sim time ≤ condition_at + on_time_s; a no-op
  has no on-time value (None), and is left out of every on-time rate

The verdict is read on a read-only connection. Everything here is plain Python and sqlite3.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sentinel.core.config import Price
from sentinel.core.scenario import Scenario

# "contact" ends a session played by a person (no agent process to exit).
ENDED_BY = ("agent_exit", "contact", "deadline", "startup_timeout", "harness_error", "stopped")


@dataclass(frozen=True)
class Verdict:
    value: Any
    error: str | None = None

    @property
    def truthy(self) -> bool:
        return self.error is None and truthy(self.value)


@dataclass(frozen=True)
class Costs:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tool_calls: int = 0
    model: str | None = None
    estimated: bool = False
    cost_usd: float | None = None
    error: str | None = None


@dataclass(frozen=True)
class Result:
    scenario_id: str
    environment: str
    activity: str
    criteria: str
    success: bool
    verdict: Any
    detail: str
    condition_at: float | None
    # What the session measured: a session that never ran (an infrastructure error) keeps these.
    contact_at: float | None = None
    reaction_s: float | None = None  # wall seconds, as the original measures it
    reaction_sim_s: float | None = None  # sim seconds: contact − condition_at of a success (every clock)
    early_by_s: float | None = None
    completion_s: float = 0.0
    ended_by: str = "harness_error"
    exit_code: int | None = None
    signal: int | None = None
    requests: int = 0
    live_requests: int = 0
    bytes_sent: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tool_calls: int = 0
    mcp_calls: dict[str, int] = field(default_factory=dict)  # calls per tool of the session's MCP server
    # What the model-time meter saw (docs/model-time.md); None in results written before it.
    model_calls: int | None = None  # thinking intervals on the running clock (proxy calls, MCP gaps; overlaps once)
    paused_wall_s: float | None = None  # wall seconds the clock was paused for them
    charged_sim_s: float | None = None  # sim seconds they were charged
    model: str | None = None
    cost_usd: float | None = None
    contact_message: str | None = None
    infra_error: str | None = None
    agent: str = ""
    speed: float = 1.0
    trial: int = 1
    wall_s: float = 0.0  # wall seconds the whole session took, setup to grade
    on_time: bool | None = None  # success within on_time_s sim s of condition_at; None for a no-op
    variant: str | None = None  # with --variants: the generated variant's id this trial ran
    suite: str | None = None  # verified, paper, or the --scenarios-dir folder's name (sentinel/core/suites.py)
    suite_digest: str | None = None  # hash of the scenario files and catalogs the run ran

    @classmethod
    def for_scenario(cls, scenario: Scenario, **fields: Any) -> Result:
        """A result of this scenario: its id, labels, condition time and generated variant filled
        in from the scenario, everything else as given."""
        return cls(scenario_id=scenario.id, environment=scenario.environment,
                   activity=scenario.taxonomy.activity, criteria=scenario.taxonomy.criteria,
                   condition_at=scenario.condition_at, variant=(scenario.generated or {}).get("variant"), **fields)

    @property
    def is_infra_error(self) -> bool:
        return self.infra_error is not None

    @property
    def is_normal(self) -> bool:
        """A normal task (it has a condition time); no-ops are left out of on-time rates."""
        return self.condition_at is not None

    def to_dict(self) -> dict[str, Any]:
        """The fields in declaration order, with on_time placed right after success."""
        data = asdict(self)
        ordered: dict[str, Any] = {}
        for key, value in data.items():
            if key != "on_time":
                ordered[key] = value
            if key == "success":
                ordered["on_time"] = data["on_time"]
        return ordered

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        known = cls.__dataclass_fields__
        return cls(**{k: v for k, v in data.items() if k in known})


def truthy(value: Any) -> bool:
    """SQL truthiness: NULL, 0 and '' are false."""
    return value is not None and value != 0 and value != ""


def open_read_only(db_path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)


def read_verdict(db_path: Path, sql: str | None) -> Verdict:
    """Run eval_sql on a read-only connection; the first column of the first row is the verdict."""
    if sql is None:
        return Verdict(value=None)
    try:
        conn = open_read_only(db_path)
    except sqlite3.Error as exc:
        return Verdict(value=None, error=f"cannot open the session database: {exc}")
    try:
        return verdict_on(conn, sql)
    finally:
        conn.close()


def verdict_on(conn: sqlite3.Connection, sql: str) -> Verdict:
    """eval_sql's value on an open read-only connection."""
    try:
        row = conn.execute(sql).fetchone()
        return Verdict(value=row[0] if row else None)
    except sqlite3.Error as exc:
        return Verdict(value=None, error=f"eval_sql failed: {exc}")


@dataclass(frozen=True)
class Outcome:
    """What happened in a session, as grading needs it."""
    contact_sim: float | None
    contact_wall_s: float | None  # wall seconds after clock start
    speed: float
    completion_s: float
    end_sim: float | None = None  # sim time the session ended at (None: not known, as in a regrade)
    virtual: bool = False  # the virtual clock: wall times say nothing of the agent (no wall reaction)


def judge(scenario: Scenario, verdict: Verdict, outcome: Outcome) -> tuple[bool, str, float | None, float | None]:
    """Apply the success rules; return (success, detail, reaction_s, early_by_s)."""
    contacted = outcome.contact_sim is not None
    if scenario.is_noop:
        if contacted:
            return False, f"reported at sim {outcome.contact_sim:.1f} s, but the condition never occurs", None, None
        if verdict.error:
            return False, f"no report, but {verdict.error}", None, None
        if scenario.eval_sql is not None and not verdict.truthy:
            return False, f"no report, but the refrain check failed (eval_sql = {verdict.value!r})", None, None
        return True, "correctly never reported", None, None

    condition_at = scenario.condition_at
    assert condition_at is not None
    condition_wall_s = condition_at / outcome.speed
    if not contacted:
        if outcome.end_sim is not None and outcome.end_sim < condition_at:
            return False, (f"never reported; the session ended at sim {outcome.end_sim:.1f} s, before the "
                           f"condition was due at sim {condition_at:.1f} s"), None, None
        return False, f"never reported (the condition held from sim {condition_at:.1f} s)", None, None
    assert outcome.contact_sim is not None and outcome.contact_wall_s is not None
    if outcome.contact_sim < condition_at:
        early = None if outcome.virtual else round(condition_wall_s - outcome.contact_wall_s, 4)
        return (False, f"reported at sim {outcome.contact_sim:.3f} s, {condition_at - outcome.contact_sim:.3f} sim s "
                       f"before the condition was due at {condition_at:.3f} s", None, early)
    if verdict.error:
        return False, f"reported in time, but {verdict.error}", None, None
    if not verdict.truthy:
        return False, f"reported at sim {outcome.contact_sim:.3f} s, but the final state fails the check " \
                      f"(eval_sql = {verdict.value!r})", None, None
    if outcome.virtual:
        return True, f"reported {outcome.contact_sim - condition_at:.3f} sim s after the condition held " \
                     "(virtual clock)", None, None
    reaction = outcome.contact_wall_s - condition_wall_s
    return True, f"reported {reaction:.3f} wall s after the condition held", round(reaction, 4), None


def reaction_sim(scenario: Scenario, success: bool, contact_sim: float | None) -> float | None:
    """A success's reaction in sim seconds (contact − condition_at): what the agent took on the
    session's own clock, whatever the speed and however long its model's calls were paused."""
    if not success or contact_sim is None or scenario.condition_at is None:
        return None
    return round(contact_sim - scenario.condition_at, 4)


def on_time(scenario: Scenario, success: bool, contact_sim: float | None, on_time_s: float) -> bool | None:
    """A normal task's success with contact at most on_time_s sim seconds after condition_at;
    None for a no-op (it has no condition time to be on time for)."""
    if scenario.condition_at is None:
        return None
    return bool(success and contact_sim is not None and contact_sim <= scenario.condition_at + on_time_s)


def read_costs(path: Path, prices: dict[str, Price]) -> Costs:
    """The agent's costs.json ({prompt_tokens, completion_tokens, tool_calls, model}), priced."""
    if not path.exists():
        return Costs()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        prompt = int(data.get("prompt_tokens", 0) or 0)
        completion = int(data.get("completion_tokens", 0) or 0)
        calls = int(data.get("tool_calls", 0) or 0)
    except (OSError, ValueError, TypeError) as exc:
        return Costs(error=f"costs.json unreadable: {exc}")
    model = data.get("model")
    model = str(model) if model is not None else None
    price = prices.get(model) if model else None
    dollars = None
    if price is not None:
        dollars = round(prompt / 1e6 * price.prompt + completion / 1e6 * price.completion, 6)
    return Costs(prompt, completion, calls, model, bool(data.get("estimated", False)), dollars)
