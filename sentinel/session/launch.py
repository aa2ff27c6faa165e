"""How an agent is started on a session: its command, with the placeholders filled in, and the
environment variables it gets (docs/protocol.md#environment-variables).

The runner and the stepper both start their agents from `agent_launch`, so an agent stepped by
hand is told everything a run would tell it: the session's addresses, the speed, the model, the
evidence cap, and the addresses of what the session lends it (its MCP server, a Chromium, a
metering proxy; sentinel/run/session_helpers.py starts them).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sentinel.core.protocol import (
    CLOCK_VARIABLE,
    MCP_PLACEHOLDER,
    MCP_URL_VARIABLE,
    PROXY_URL_VARIABLE,
    SIM_LIMIT_VARIABLE,
)
from sentinel.core.scenario import full_prompt
from sentinel.session.harness import build_command, check_command
from sentinel.session.live import Session


@dataclass(frozen=True)
class LentHelpers:
    """The addresses of what a session lends its agent; None where it lends nothing."""
    mcp_url: str | None = None  # the session's MCP server
    cdp_url: str | None = None  # a headless Chromium's DevTools address (--agent-browser)
    cdp_ws_url: str | None = None  # ... and that browser's own websocket
    model_base_url: str | None = None  # the metering proxy, in place of the model's endpoint (--meter, --model-time)


@dataclass(frozen=True)
class AgentTerms:
    """What an agent is told besides its session's addresses and speed."""
    time_limit_s: float  # wall seconds it has after it opens the task URL
    model: str | None = None  # --model
    scenario_file: Path | None = None  # built-in agents only: the file holds the answers
    time_limit_sim_s: float | None = None  # the virtual clock: sim seconds it has after it opens the task


@dataclass(frozen=True)
class AgentLaunch:
    """An agent ready to spawn: its command, its environment variables, and its prompt."""
    command: str | list[str]
    environ: dict[str, str]
    prompt: str


def agent_launch(session: Session, template: str | list[str], work_dir: Path, terms: AgentTerms,
                 helpers: LentHelpers = LentHelpers()) -> AgentLaunch:
    """The command (template with its placeholders filled in) and variables of an agent that
    works in work_dir on this session, whose site is up. Raises SentinelError when the command
    is empty or its program is missing."""
    prompt = full_prompt(session.scenario, session.contact_url)
    environ = {
        "SENTINEL_TASK_URL": session.task_url, "SENTINEL_TASK_PROMPT": prompt,
        "SENTINEL_CONTACT_URL": session.contact_url,
        "SENTINEL_COSTS_FILE": str(work_dir / "costs.json"),
        "SENTINEL_TIME_LIMIT_S": f"{terms.time_limit_s:.3f}",
        "SENTINEL_SPEED": f"{session.speed:g}",
        CLOCK_VARIABLE: "virtual" if session.clock.virtual else "wall",
        "SENTINEL_EVIDENCE_CAP_BYTES": str(session.config.evidence_cap_bytes),  # screenshots kept (agents/shots.py)
        **_given({SIM_LIMIT_VARIABLE: f"{terms.time_limit_sim_s:g}" if terms.time_limit_sim_s else None,
                  "SENTINEL_MODEL": terms.model, MCP_URL_VARIABLE: helpers.mcp_url,
                  "SENTINEL_CDP_URL": helpers.cdp_url, "SENTINEL_CDP_WS_URL": helpers.cdp_ws_url,
                  "OPENAI_BASE_URL": helpers.model_base_url, PROXY_URL_VARIABLE: helpers.model_base_url}),
    }
    placeholders = {
        "__TASK_URL__": session.task_url, "__TASK_PROMPT__": prompt, "__BASE_DIR__": str(work_dir),
        "__SCENARIO_FILE__": str(terms.scenario_file.resolve()) if terms.scenario_file else "",
        "__CDP_URL__": helpers.cdp_url or "", MCP_PLACEHOLDER: helpers.mcp_url or "",
    }
    command = build_command(template, placeholders)
    check_command(command)
    return AgentLaunch(command, environ, prompt)


def _given(variables: dict[str, str | None]) -> dict[str, str]:
    """The variables that have a value (an agent is not told of what it does not get)."""
    return {name: value for name, value in variables.items() if value}
