"""`sentinel export RUN --format atif --out DIR`: one ATIF trajectory per session
(docs/evidence.md#export), built with the `atif` package's models, so every file written is valid.

A trajectory has, in order:
- a user step: the task prompt;
- the agent's steps. An agent that writes `trace.jsonl` (the built-in sleep / wait_for agents,
  sentinel/agents/trace.py) gives one step per planner decision, with its tool calls, what each
  returned, and its tokens. Any other agent gives one step per page read, from requests.jsonl:
  the request as its action, and the page's visible text (pages as served, only when it changed
  since the last read of that page) as its observation;
- a system step: the report (its sim time and message, or that none came) and the grade.
Tokens and cost of the session (result.json) are the final metrics.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from atif import Agent, FinalMetrics, Metrics, Observation, ObservationResult, Step, ToolCall, Trajectory

import sentinel
from sentinel.core.evidence import Served, read_jsonl, read_page
from sentinel.core.grading import Result
from sentinel.outputs.evidence import page_text

SCHEMA_VERSION = "ATIF-v1.8"
TRACE_FILE = "agent/trace.jsonl"  # where a session keeps what its agent wrote (sentinel/agents/trace.py)


def timestamp(wall: float | None) -> str | None:
    return None if wall is None else datetime.fromtimestamp(wall, UTC).isoformat().replace("+00:00", "Z")


def trajectory(folder: Path, result: Result, prompt: str | None) -> Trajectory:
    """The ATIF trajectory of one finished session."""
    records = read_jsonl(folder / "requests.jsonl")
    trace = read_jsonl(folder / TRACE_FILE)
    steps: list[Step] = [Step(step_id=1, source="user", message=prompt or f"(the prompt of {result.scenario_id})",
                              timestamp=timestamp(records[0]["wall"]) if records else None)]
    steps += trace_steps(trace, len(steps) + 1) if trace else page_steps(folder, records, len(steps) + 1)
    steps.append(report_step(result, records, len(steps) + 1))
    agent = Agent(name=result.agent or "agent", version=sentinel.__version__, model_name=result.model,
                  extra={"speed": result.speed})
    metrics = FinalMetrics(total_prompt_tokens=result.prompt_tokens, total_completion_tokens=result.completion_tokens,
                           total_cost_usd=result.cost_usd, total_steps=len(steps),
                           extra={"tool_calls": result.tool_calls, "requests": result.requests})
    return Trajectory(schema_version=SCHEMA_VERSION, session_id=session_name(result), agent=agent, steps=steps,
                      final_metrics=metrics, extra={"scenario_id": result.scenario_id, "trial": result.trial,
                                                    "environment": result.environment},
                      notes=None if trace else "The agent wrote no trace: its steps are its page reads.")


def _arguments(call: dict[str, Any]) -> dict[str, Any]:
    """A recorded call's arguments; {} when it recorded none, or not as an object."""
    arguments = call.get("arguments")
    return arguments if isinstance(arguments, dict) else {}


def trace_steps(trace: list[dict[str, Any]], first_id: int) -> list[Step]:
    """One agent step per decision the agent recorded."""
    steps = []
    for number, turn in enumerate(trace, first_id):
        calls = [c for c in turn.get("calls", []) if isinstance(c, dict)]
        tool_calls = [ToolCall(tool_call_id=str(c.get("id") or f"call_{number}_{i}"), function_name=str(c.get("name")),
                               arguments=_arguments(c))
                      for i, c in enumerate(calls)]
        results = [ObservationResult(source_call_id=call.tool_call_id, content=str(c.get("result", "")))
                   for call, c in zip(tool_calls, calls, strict=True)]
        tokens = Metrics(prompt_tokens=int(turn.get("prompt_tokens") or 0),
                         completion_tokens=int(turn.get("completion_tokens") or 0))
        steps.append(Step(step_id=number, source="agent", timestamp=timestamp(turn.get("wall")),
                          model_name=turn.get("model"), message=str(turn.get("message") or ""),
                          tool_calls=tool_calls or None, observation=Observation(results=results) if results else None,
                          metrics=tokens))
    return steps


def page_steps(folder: Path, records: list[dict[str, Any]], first_id: int) -> list[Step]:
    """One agent step per request of the agent's (static files and the report left out)."""
    steps: list[Step] = []
    last_body: dict[str, str] = {}
    for record in records:
        served = Served.of(record)
        if served.static or served.is_report or served.live:
            continue
        steps.append(Step(step_id=first_id + len(steps), source="agent", timestamp=timestamp(record.get("wall")),
                          message=f"{served.method} {served.path}", llm_call_count=0,
                          observation=Observation(results=[ObservationResult(content=seen(folder, served, last_body))]),
                          extra={"sim": served.sim, "status": served.status, "body": served.body}))
    return steps


def seen(folder: Path, served: Served, last_body: dict[str, str]) -> str:
    """What a page read showed: the visible text when the page changed, else a short note."""
    if served.status == 304:
        return f"{served.status}: unchanged since the last read"
    if served.body is None:
        return f"{served.status}" + (": not kept (the session's evidence cap was reached)" if served.capped else "")
    if last_body.get(served.path) == served.body:
        return f"{served.status}: the same page as the last read of {served.path}"
    last_body[served.path] = served.body
    try:
        return f"{served.status}:\n" + page_text(read_page(folder, served.body), served.path, served.status)
    except FileNotFoundError:
        return f"{served.status}: the body {served.body[:12]} is missing from the session's pages"


def report_step(result: Result, records: list[dict[str, Any]], step_id: int) -> Step:
    """The system's closing step: the report and the grade."""
    if result.contact_at is None:
        message = "No report."
    else:
        message = f"Reported at sim {result.contact_at:g} s" + (f": {result.contact_message}"
                                                               if result.contact_message else ".")
    grade = {"success": result.success, "on_time": result.on_time, "verdict": result.verdict,
             "detail": result.detail, "condition_at": result.condition_at, "contact_at": result.contact_at,
             "reaction_s": result.reaction_s}
    end = records[-1].get("wall") if records else None
    return Step(step_id=step_id, source="system", message=message, timestamp=timestamp(end),
                observation=Observation(results=[ObservationResult(content=result.detail)]),
                extra={"grade": json.loads(json.dumps(grade, default=str))})


def session_name(result: Result) -> str:
    return result.scenario_id if result.trial == 1 else f"{result.scenario_id}-trial{result.trial}"


def write_trajectories(sessions: list[tuple[Path, Result]], prompts: dict[str, str], out: Path) -> list[Path]:
    """One `<session>.json` per session in `out`; return the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for folder, result in sessions:
        document = trajectory(folder, result, prompts.get(result.variant or result.scenario_id))
        path = out / f"{session_name(result)}.json"
        path.write_text(json.dumps(document.to_json_dict(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written
