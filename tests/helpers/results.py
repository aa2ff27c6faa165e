"""Results made by hand, with known answers, for tests of aggregates and output formats."""

from __future__ import annotations

from pathlib import Path

from sentinel.core.files import write_json_atomic
from sentinel.core.grading import Result


def make_result(scenario_id: str = "microhood-rise", success: bool = True, trial: int = 1, **changes) -> Result:
    """A plausible Result of a normal task; pass keyword arguments to change any field."""
    environment = scenario_id.split("-", 1)[0]
    fields = dict(
        scenario_id=scenario_id, environment=environment, activity="passive", criteria="absolute",
        success=success, verdict=1 if success else 0,
        detail="reported 0.200 wall s after the condition held" if success else "never reported",
        condition_at=60.0, contact_at=62.0 if success else None, reaction_s=0.2 if success else None,
        early_by_s=None, completion_s=1.5, ended_by="agent_exit", exit_code=0, signal=None, requests=12,
        live_requests=0, bytes_sent=40_000, prompt_tokens=0, completion_tokens=0, tool_calls=0, model=None,
        cost_usd=None, contact_message="done" if success else None, agent="scripted", speed=50.0, trial=trial,
        wall_s=2.0)
    fields.update(changes)
    if "on_time" not in changes:  # a success of a normal task is on time unless said otherwise
        fields["on_time"] = None if fields["condition_at"] is None else bool(fields["success"])
    return Result(**fields)


def write_run(run_dir: Path, results: list[Result], trials: int = 1) -> Path:
    """Lay results out as the runner does: <run>/<env>/<short id>[.t<n>]/result.json, plus run.json."""
    for r in results:
        short = r.scenario_id.split("-", 1)[-1]
        folder = run_dir / r.environment / (short if trials == 1 else f"{short}.t{r.trial}")
        write_json_atomic(folder / "result.json", r.to_dict())
    write_json_atomic(run_dir / "run.json", {"name": run_dir.name, "agent": "scripted", "speed": 50.0,
                                             "trials": trials, "created": "2026-03-02T09:00:00+00:00"})
    return run_dir
