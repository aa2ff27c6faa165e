"""A run's results on disk, written by the runner and read by everything else.

results/<run>/run.json                     configuration and versions
results/<run>/summary.json                 aggregates, rewritten at the end
results/<run>/<env>/<session>/result.json  written last: its presence marks a finished session
                               agent.log, events.jsonl, requests.jsonl, state.db,
                               results.json (the original SentinelBench's format)
                               agent/   what the agent left in its working folder (costs.json)
"""

from __future__ import annotations

from pathlib import Path

from sentinel.core.files import read_json, write_json_atomic
from sentinel.core.grading import Result
from sentinel.outputs.sentinelbench import write_results_json


def session_dir(run_dir: Path, environment: str, name: str) -> Path:
    """Where one session's files live: results/<run>/<env>/<session name>/."""
    return run_dir / environment / name


def read_result(path: Path) -> Result | None:
    """A result.json as a Result; None when it is missing, unreadable or not a result."""
    data = read_json(path)
    if not isinstance(data, dict):
        return None
    try:
        return Result.from_dict(data)
    except TypeError:
        return None


def finished_result(folder: Path) -> Result | None:
    """The stored result of a finished session, or None if it must run (again)."""
    result = read_result(folder / "result.json")
    return None if result is None or result.is_infra_error else result


def write_result(out_dir: Path, result: Result) -> None:
    write_results_json(out_dir, result)  # the original SentinelBench's results.json, for its scripts
    write_json_atomic(out_dir / "result.json", result.to_dict())


def finished_sessions(run_dir: Path) -> list[tuple[Path, Result]]:
    """(session folder, result) for every readable result.json under a run folder, sorted by
    scenario id and trial."""
    found = []
    for path in run_dir.glob("*/*/result.json"):
        result = read_result(path)
        if result is not None:
            found.append((path.parent, result))
    return sorted(found, key=lambda item: (item[1].scenario_id, item[1].trial))


def load_results(run_dir: Path) -> list[Result]:
    """Every result.json under a run folder, sorted by scenario id and trial."""
    return [result for _, result in finished_sessions(run_dir)]
