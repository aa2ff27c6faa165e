"""What a report shows, read from results folders (docs/protocol.md#results): every session's result, fired
events, requests, agent log tail and prompt, and each run's summary."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sentinel.core.config import Config
from sentinel.core.errors import SentinelError
from sentinel.core.evidence import REQUESTS_LOG, Shot, read_jsonl, shots_of
from sentinel.core.files import read_json
from sentinel.core.grading import Result
from sentinel.core.scenario import Scenario, ScenarioError, full_prompt, load_scenario, scenario_files
from sentinel.core.summary import Summary, summarize
from sentinel.outputs.results import finished_sessions

LOG_TAIL_LINES = 60
LOG_TAIL_CHARS = 8000
CONTACT_PLACEHOLDER = "http://127.0.0.1:<port>/contact"


@dataclass(frozen=True)
class SessionData:
    run: str  # the run's name
    folder: str  # "<env>/<session>" inside the run folder
    result: Result
    prompt: str | None  # None when the scenario file is no longer found
    events: tuple[dict[str, Any], ...]  # events.jsonl records
    requests: tuple[dict[str, Any], ...]  # requests.jsonl records
    log_tail: str
    path: Path | None = None  # the session's folder (its pages and screenshots, docs/evidence.md)
    shots: tuple[Shot, ...] = ()  # a browser agent's screenshots


@dataclass(frozen=True)
class RunData:
    name: str
    path: Path
    info: dict[str, Any]  # run.json (empty if missing)
    sessions: tuple[SessionData, ...]
    summary: Summary

    @property
    def results(self) -> list[Result]:
        return [s.result for s in self.sessions]


def log_tail(path: Path) -> str:
    """The last lines of an agent log (bounded in lines and characters)."""
    try:
        with path.open("rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - LOG_TAIL_CHARS * 4))
            text = handle.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    lines = text.splitlines()[-LOG_TAIL_LINES:]
    return "\n".join(lines)[-LOG_TAIL_CHARS:]


def scenario_index(config: Config, run_dirs: tuple[Path, ...] = ()) -> dict[str, Scenario]:
    """Every loadable scenario under the configured folder (a generated set's files directly in
    it, or one folder per environment), and the runs' own generated variants
    (results/<run>/variants/, by the variant's id), by id."""
    folder = config.scenarios_dir
    flat = sorted(p for p in folder.glob("*") if p.suffix in (".yaml", ".yml", ".json")) if folder.is_dir() else []
    files = flat or scenario_files(folder)
    for run_dir in run_dirs:
        files += sorted((run_dir / "variants").glob("*/*.yaml"))
    found = {}
    for path in files:
        try:
            scenario = load_scenario(path)
        except ScenarioError:
            continue
        found[scenario.id] = scenario
    return found


def load_sessions(run_dir: Path, scenarios: dict[str, Scenario]) -> list[SessionData]:
    """Every finished session of a run, in the order load_results gives (scenario id, trial)."""
    sessions = []
    for folder, result in finished_sessions(run_dir):
        scenario = scenarios.get(result.scenario_id)
        sessions.append(SessionData(
            run=run_dir.name, folder=f"{folder.parent.name}/{folder.name}", result=result,
            prompt=full_prompt(scenario, CONTACT_PLACEHOLDER) if scenario else None,
            events=tuple(read_jsonl(folder / "events.jsonl")), requests=tuple(read_jsonl(folder / REQUESTS_LOG)),
            log_tail=log_tail(folder / "agent.log"), path=folder, shots=tuple(shots_of(folder))))
    return sessions


def load_run(run_dir: Path, scenarios: dict[str, Scenario]) -> RunData:
    sessions = load_sessions(run_dir, scenarios)
    if not sessions:
        raise SentinelError(f"{run_dir}: no finished sessions yet")
    info = read_json(run_dir / "run.json")
    return RunData(name=run_dir.name, path=run_dir, info=info if isinstance(info, dict) else {},
                   sessions=tuple(sessions), summary=summarize([s.result for s in sessions]))


def load_runs(run_dirs: list[Path], config: Config) -> list[RunData]:
    names = [d.name for d in run_dirs]
    if len(set(names)) != len(names):
        raise SentinelError(f"runs to compare need different names: {', '.join(names)}")
    scenarios = scenario_index(config, tuple(run_dirs))
    return [load_run(d, scenarios) for d in run_dirs]
