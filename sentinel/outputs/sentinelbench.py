"""The original SentinelBench's result formats, so its users' scripts read our runs unchanged.

Every session writes `results.json` beside our richer `result.json`, with the seven fields the
original's /evaluate returns, in the original's units. The original divides every time by
speed_factor when a scenario is loaded, so its "simulation" clock is the wall clock since the
task started: all its times are wall seconds since the clock started (at speed 1.0 the same
as sim seconds).

| field | meaning |
|---|---|
| success | the task passed (the same rule; contact times compared to the millisecond) |
| detail | a sentence on why it passed or failed |
| evaluation_time | when the world stopped: the report, or else the session's end |
| condition_at | when the condition became true; null for a no-op task |
| contact_get_time | when the agent opened the contact page (its report); null if never |
| contact_post_time | when it sent the contact form; null if never (the world is frozen from the report |
|                   | on, so it equals contact_get_time)                                                 |
| contact_message | the message it sent; null if none |

Deliberate differences: times keep milliseconds (the original truncates the contact times to
whole seconds), a POST without a prior GET counts as the report (as it does in our grading),
and a session that crashed in the harness still gets a results.json (success false, detail
"infrastructure error: ...") where the original writes only error.txt and drops the task.

`grade_report` prints the original's `grade` table and summary lines for a run, with the
medians beside the averages and a line counting infrastructure errors.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sentinel.core.files import write_json_atomic
from sentinel.core.grading import Result

RESULTS_FILE = "results.json"
RESULTS_FIELDS = ("success", "detail", "evaluation_time", "condition_at", "contact_get_time",
                  "contact_post_time", "contact_message")
# an agent's own costs (agent/ since agents work in a temp folder; costs.json in older runs), or --meter's
COST_FILES = ("agent/costs.json", "costs.json", "metered.json")
TABLE_COLUMNS = ("name", "evaluation_time", "success", "stop_time", "condition_at", "reaction_time",
                 "prompt_tokens", "completion_tokens", "tool_calls")


def results_record(result: Result) -> dict[str, Any]:
    """The original's results.json for one of our results."""
    speed = result.speed or 1.0

    def wall(sim: float | None) -> float | None:
        return None if sim is None else round(sim / speed, 3)

    contact = wall(result.contact_at)
    return {
        "success": bool(result.success),
        "detail": result.detail,
        "evaluation_time": contact if contact is not None else round(result.completion_s, 3),
        "condition_at": wall(result.condition_at),
        "contact_get_time": contact,
        "contact_post_time": contact if result.contact_message is not None else None,
        "contact_message": result.contact_message,
    }


def write_results_json(folder: Path, result: Result) -> None:
    write_json_atomic(folder / RESULTS_FILE, results_record(result))


@dataclass(frozen=True)
class Row:
    name: str
    evaluation_time: float | None
    success: bool
    stop_time: float | None
    condition_at: float | None
    reaction_time: float | None
    prompt_tokens: int | None
    completion_tokens: int | None
    tool_calls: int | None
    infra_error: bool = False

    def cells(self) -> list[str]:
        return [_cell(getattr(self, column)) for column in TABLE_COLUMNS]


def make_rows(sessions: list[tuple[Path, Result]]) -> list[Row]:
    """One row per session, as the original's grade builds it from results.json and costs.json."""
    repeated = any(result.trial > 1 for _, result in sessions)
    rows = []
    for folder, result in sessions:
        record = results_record(result)
        stop, condition = record["contact_get_time"], record["condition_at"]
        reaction = round(stop - condition, 3) if record["success"] and stop is not None and condition is not None \
            else None
        priced = any((folder / name).is_file() for name in COST_FILES)
        rows.append(Row(
            name=f"{result.scenario_id}.t{result.trial}" if repeated else result.scenario_id,
            evaluation_time=record["evaluation_time"], success=record["success"], stop_time=stop,
            condition_at=condition, reaction_time=reaction,
            prompt_tokens=result.prompt_tokens if priced else None,
            completion_tokens=result.completion_tokens if priced else None,
            tool_calls=result.tool_calls if priced else None, infra_error=result.is_infra_error))
    return rows


def grade_report(sessions: list[tuple[Path, Result]]) -> str:
    """The original's grade output: a table, a blank line, then the summary lines."""
    rows = make_rows(sessions)
    table = [list(TABLE_COLUMNS)] + [row.cells() for row in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(TABLE_COLUMNS))]
    lines = [" | ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=False)) for line in table]
    lines.insert(1, "-+-".join("-" * width for width in widths))
    return "\n".join(lines + [""] + summary_lines(rows)) + "\n"


def summary_lines(rows: list[Row]) -> list[str]:
    total = len(rows)
    passed = sum(row.success for row in rows)
    rate = passed / total if total else 0.0
    reactions = [row.reaction_time for row in rows if row.success and row.reaction_time is not None]
    lines = [f"Total Tasks: {total}", f"Task Success Rate: {rate:.1%} ({passed}/{total})",
             f"Average Reaction Time: {_average(reactions, 's')}",
             f"Median Reaction Time: {_median(reactions, 's')}"]
    for label, field in (("Prompt Tokens", "prompt_tokens"), ("Completion Tokens", "completion_tokens"),
                         ("Tool Calls", "tool_calls")):
        values = [getattr(row, field) for row in rows if getattr(row, field) is not None]
        lines += [f"Average {label}: {_average(values)}", f"Median {label}: {_median(values)}"]
    errors = sum(row.infra_error for row in rows)
    lines.append(f"Infrastructure Errors: {errors} (counted above as failures; the original leaves them out)")
    return lines


def _average(values: list[Any], unit: str = "") -> str:
    return f"{sum(values) / len(values):.1f}{unit}" if values else "N/A"


def _median(values: list[Any], unit: str = "") -> str:
    return f"{statistics.median(values):.1f}{unit}" if values else "N/A"


def _cell(value: Any) -> str:
    return "" if value is None else str(value)
