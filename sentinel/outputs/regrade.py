"""`sentinel regrade RUN`: every verdict of a finished run derived again from the session's stored
world (its state.db, read on a read-only connection) and records (result.json's contact,
requests.jsonl's report time), with the grading code of this tree (docs/evidence.md#regrade).

Nothing is rewritten unless asked (`--write`): then result.json, results.json and
summary.json take the new grades, every other field of a result as it was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sentinel.core.evidence import served_requests
from sentinel.core.files import read_json, write_json_atomic
from sentinel.core.grading import Outcome, Result, judge, on_time, reaction_sim, read_verdict
from sentinel.core.scenario import Scenario
from sentinel.core.summary import summarize
from sentinel.outputs.results import finished_sessions, write_result
from sentinel.outputs.run_folder import RUN_FILE


@dataclass(frozen=True)
class Regraded:
    folder: Path
    before: Result
    after: Result | None  # None: not regraded (why in `skipped`)
    skipped: str | None = None

    @property
    def changed(self) -> bool:
        if self.after is None:
            return False
        return (self.before.success, self.before.on_time, _plain(self.before.verdict)) != \
               (self.after.success, self.after.on_time, _plain(self.after.verdict))

    def line(self) -> str:
        if self.after is None:
            return f"{self.before.scenario_id} (trial {self.before.trial}): not regraded: {self.skipped}"
        def grade(r: Result) -> str:
            return f"{'PASS' if r.success else 'FAIL'}{' on time' if r.on_time else ''} (verdict {r.verdict!r})"
        return f"{self.before.scenario_id} (trial {self.before.trial}): {grade(self.before)} → {grade(self.after)}: " \
               f"{self.after.detail}"


def _plain(value: Any) -> Any:
    """A verdict as result.json stores it, so a fresh value compares equal to its stored copy."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    return json.loads(json.dumps(value, default=str))


def contact_wall_s(folder: Path, result: Result) -> float | None:
    """Wall seconds from clock start to the report: the first contact line of requests.jsonl."""
    if result.contact_at is None:
        return None
    for request in served_requests(folder):
        if request.is_report:
            return request.wall_s
    return None


def regrade_session(folder: Path, result: Result, scenario: Scenario, on_time_s: float,
                    virtual: bool = False) -> Regraded:
    """One session graded again from its stored world; virtual: it ran on the virtual clock, whose
    wall times say nothing of the agent (no wall reaction)."""
    if result.is_infra_error:
        return Regraded(folder, result, None, "an infrastructure error: there is no grade to derive again")
    db = folder / "state.db"
    if not db.is_file():
        return Regraded(folder, result, None, f"no stored world ({db} is missing)")
    verdict = read_verdict(db, scenario.grading_sql())
    outcome = Outcome(contact_sim=result.contact_at, contact_wall_s=contact_wall_s(folder, result),
                      speed=result.speed, completion_s=result.completion_s, virtual=virtual)
    if outcome.contact_sim is not None and outcome.contact_wall_s is None:
        return Regraded(folder, result, None, "the report's time is not in requests.jsonl")
    success, detail, reaction, early = judge(scenario, verdict, outcome)
    after = replace(result, success=success, verdict=_plain(verdict.value), detail=detail, reaction_s=reaction,
                    reaction_sim_s=reaction_sim(scenario, success, result.contact_at), early_by_s=early,
                    on_time=on_time(scenario, success, result.contact_at, on_time_s),
                    condition_at=scenario.condition_at)
    same = Regraded(folder, result, after)
    # an unchanged grade keeps its stored reaction (measured unrounded by the session)
    return same if same.changed else Regraded(folder, result, result)


def regrade_run(run_dir: Path, scenarios: dict[str, Scenario], on_time_s: float) -> list[Regraded]:
    """Every finished session of a run, graded again; `scenarios` by id (a variant's by its id)."""
    out = []
    virtual = ((read_json(run_dir / RUN_FILE) or {}).get("clock") or "wall") == "virtual"
    for folder, result in finished_sessions(run_dir):
        scenario = scenarios.get(result.variant or result.scenario_id)
        if scenario is None:
            out.append(Regraded(folder, result, None, f"no scenario {result.variant or result.scenario_id} "
                                                      "in the scenarios folder"))
            continue
        out.append(regrade_session(folder, result, scenario, on_time_s, virtual))
    return out


def write_regrades(run_dir: Path, regraded: list[Regraded]) -> None:
    """Store the new grades: each changed result, and the run's summary over all of them."""
    for item in regraded:
        if item.after is not None and item.after != item.before:
            write_result(item.folder, item.after)
    results = [item.after or item.before for item in regraded]
    previous = read_json(run_dir / "summary.json")
    kept = {k: previous[k] for k in ("wall_s", "sessions", "skipped") if isinstance(previous, dict) and k in previous}
    write_json_atomic(run_dir / "summary.json", {**summarize(results).to_dict(), **kept})
