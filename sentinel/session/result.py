"""A finished session's Result: its grade (core/grading.py's judge on the state at the first
contact, or at the end), what ended the agent, its requests and what it used. The runner writes
it (sentinel/outputs/results.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sentinel.core.grading import Costs, Outcome, Result, judge, on_time, reaction_sim
from sentinel.core.scenario import Scenario
from sentinel.session.harness import AgentOutcome
from sentinel.session.live import Session


@dataclass(frozen=True)
class AgentUsage:
    """What the agent used: its model's tokens and cost (its costs.json, or what the metering proxy
    measured) and its calls of the session's MCP server, per tool."""
    costs: Costs
    metered: bool
    mcp_calls: Mapping[str, int]


def session_result(session: Session, agent: AgentOutcome | None, infra_error: str | None,
                   usage: AgentUsage, agent_name: str) -> Result:
    """The Result of a session that has finished (Session.finish); agent is None when the harness
    failed before the agent ended."""
    scenario, verdict, contact = session.scenario, session.final_verdict, session.contact_record
    assert verdict is not None, "graded before the session finished"
    clock = session.clock
    end_wall = contact.wall_s if contact else (clock.frozen_wall or 0) - (clock.started_wall or 0)
    outcome = Outcome(contact_sim=contact.sim if contact else None,
                      contact_wall_s=contact.wall_s if contact else None,
                      speed=session.speed, completion_s=max(0.0, end_wall), end_sim=clock.now(),
                      virtual=clock.virtual)
    success, detail, reaction, early = judge(scenario, verdict, outcome)
    ended_by = agent.ended_by if agent else "harness_error"
    if ended_by == "deadline" and (stood := stood_still(session)):
        detail = f"{detail}; {stood}"
    if ended_by == "stopped":
        infra_error = infra_error or "stopped before the session ended"
    if infra_error:
        success, detail = False, f"infrastructure error: {infra_error}"
    costs = usage.costs
    thinking = session.thinking.thinking
    model = costs.model
    if model and (usage.metered or costs.estimated):  # say where the token counts come from
        model = f"{model} ({'metered' if usage.metered else 'estimated'})"
    return Result.for_scenario(
        scenario, success=success, verdict=_jsonable(verdict.value), detail=detail,
        contact_at=round(contact.sim, 4) if contact else None,
        reaction_s=reaction, reaction_sim_s=reaction_sim(scenario, success, contact.sim if contact else None),
        early_by_s=early, completion_s=round(outcome.completion_s, 4),
        ended_by=ended_by, exit_code=agent.exit_code if agent else None,
        signal=agent.signal if agent else None, requests=session.stats.requests,
        live_requests=session.stats.live_requests, bytes_sent=session.stats.bytes_sent,
        prompt_tokens=costs.prompt_tokens, completion_tokens=costs.completion_tokens,
        tool_calls=costs.tool_calls or sum(usage.mcp_calls.values()), mcp_calls=dict(usage.mcp_calls),
        model_calls=thinking.model_calls, paused_wall_s=round(thinking.paused_wall_s, 4),
        charged_sim_s=round(thinking.charged_sim_s, 4), model=model,
        cost_usd=costs.cost_usd,
        contact_message=contact.message if contact else None, infra_error=infra_error,
        agent=agent_name, speed=session.speed,
        on_time=on_time(scenario, success, contact.sim if contact else None, session.config.timing.on_time_s),
    )


def stood_still(session: Session) -> str | None:
    """On the virtual clock, why a session that ended at its deadline before its kill time did: its
    wall cap came first, so its agent spent that long neither waiting through the site nor thinking
    (waiting in its own process, say: its world stood still meanwhile). None otherwise."""
    virtual = session.virtual
    if virtual is None or virtual.reached_end.is_set():
        return None
    cap = session.config.timing.virtual_wall_cap_s
    return (f"the session ended at its wall cap ({cap:g} wall s) at sim {session.clock.now():.1f} s: on the "
            f"virtual clock the world moves only while the agent waits through its site (a long-poll, /sleep, "
            f"the MCP waits) or its model thinks, and this agent mostly did neither")


def crashed_result(scenario: Scenario, error: str, agent_name: str, speed: float) -> Result:
    """The Result of a session that could not run or finish: an infrastructure error."""
    return Result.for_scenario(scenario, success=False, verdict=None, detail=f"infrastructure error: {error}",
                               infra_error=error, agent=agent_name, speed=speed,
                               on_time=None if scenario.is_noop else False)


def _jsonable(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return value
