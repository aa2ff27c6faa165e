"""`sentinel grade --format json|csv`: a run's results for scripts and spreadsheets.

json: {"run", "summary" (as summary.json, with pass_k), "sessions" (every result.json)}.
csv: one row per session with the columns of result.json; with repeated trials, each row
also carries its scenario's trials, passes and per-scenario pass@k / pass^k for k = 1..K (the
run's figures are the means of those over scenarios).
"""

from __future__ import annotations

import csv
import io
import json

from sentinel.core.grading import Result
from sentinel.core.summary import Summary
from sentinel.core.trials import pass_at_k, pass_hat_k, trial_counts

SESSION_COLUMNS = ("scenario_id", "environment", "activity", "criteria", "trial", "outcome", "success", "on_time",
                   "verdict", "condition_at", "contact_at", "reaction_s", "early_by_s", "completion_s", "ended_by",
                   "exit_code", "signal", "requests", "live_requests", "bytes_sent", "prompt_tokens",
                   "completion_tokens", "tool_calls", "model", "cost_usd", "wall_s", "infra_error", "detail",
                   "contact_message")


def outcome(result: Result) -> str:
    return "pass" if result.success else ("error" if result.is_infra_error else "fail")


def grade_json(run: str, results: list[Result], summary: Summary) -> str:
    sessions = [{**r.to_dict(), "outcome": outcome(r)} for r in results]
    return json.dumps({"run": run, "summary": summary.to_dict(), "sessions": sessions}, indent=2, default=str) + "\n"


def grade_csv(run: str, results: list[Result], summary: Summary) -> str:
    trials = summary.trials
    columns = ["run", *SESSION_COLUMNS]
    if trials > 1:
        columns += ["scenario_trials", "scenario_passes"]
        columns += [f"pass@{k}" for k in range(1, trials + 1)] + [f"pass^{k}" for k in range(1, trials + 1)]
    counts = trial_counts(results)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for r in results:
        row = {"run": run, **{c: getattr(r, c) for c in SESSION_COLUMNS if c != "outcome"}, "outcome": outcome(r)}
        if trials > 1:
            n, c = counts[r.scenario_id]
            row.update(scenario_trials=n, scenario_passes=c)
            for k in range(1, n + 1):
                row[f"pass@{k}"] = round(pass_at_k(n, c, k), 6)
                row[f"pass^{k}"] = round(pass_hat_k(n, c, k), 6)
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return out.getvalue()
