"""The rich Text the screens show: a session's detail, the run's totals, a list of events."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from sentinel.outputs.formatting import dollars, seconds
from sentinel.tui.state import (
    CONTACTED,
    GRADED,
    RUNNING,
    WAITING,
    RunState,
    SessionView,
    Totals,
    result_text,
)

STATE_STYLES = {WAITING: "dim", RUNNING: "cyan", CONTACTED: "magenta", GRADED: "bold"}
MARK_STYLES = {"pass": "bold green", "fail": "bold red", "error": "bold yellow"}
DETAIL_EVENTS = 12  # pending / fired events listed in a detail pane
DETAIL_OUTPUT = 15  # agent output lines in a detail pane


def heading(text: str) -> Text:
    return Text(text, style="bold underline")


def event_lines(events: Iterable[tuple[float, str]], limit: int = DETAIL_EVENTS) -> Text:
    """'  at  120: new_email(email_id=em0034)' lines, at most `limit`, with a count of the rest."""
    items = list(events)
    out = Text()
    for at, description in items[:limit]:
        out.append(f"  at {at:>5g}: ", style="dim")
        out.append(f"{description}\n")
    if len(items) > limit:
        out.append(f"  … {len(items) - limit} more\n", style="dim")
    if not items:
        out.append("  none\n", style="dim")
    return out


def state_cell(view: SessionView) -> Text:
    if view.stop_asked and view.state != GRADED:
        return Text("stopping", style="yellow")
    return Text(view.state, style=STATE_STYLES.get(view.state, ""))


def mark_cell(view: SessionView) -> Text:
    label = f"{view.mark} (kept)" if view.kept and view.mark else view.mark
    return Text(label, style=MARK_STYLES.get(view.mark, ""))


def session_detail(view: SessionView, state: RunState) -> Text:
    """The detail pane: prompt, URL, pending and fired events, output tail, requests, contact."""
    out = Text()
    out.append(f"{view.scenario_id or view.key}\n", style="bold")
    out.append(f"state {view.state} · sim {view.sim_now(state.now(), state.speed):.1f} s · "
               f"requests {view.requests}\n")
    out.append(f"URL {view.open_url or '(not set up yet)'}\n")
    contact = "not yet" if view.contact_sim is None else f"at sim {view.contact_sim:.3f} s"
    if view.contact_sim is not None and view.started_wall is not None and view.contact_wall is not None:
        contact += f" ({view.contact_wall - view.started_wall:.2f} wall s after start)"
    out.append(f"contact {contact}\n")
    if view.result is not None:
        out.append(result_text(view.result) + "\n", style=MARK_STYLES.get(view.mark, ""))
    out.append("\n").append(heading("Prompt")).append("\n")
    out.append((view.prompt or "(not set up yet)") + "\n\n")
    out.append(heading(f"Pending events ({len(view.pending)})")).append("\n")
    out.append(event_lines(view.pending))
    fired = [(r["at"], f"{r['type']} (fired at sim {r['sim_at_fire']:.2f}, {r['lateness_ms']:+.1f} ms)")
             for r in view.fired]
    out.append("\n").append(heading(f"Fired events ({len(fired)})")).append("\n")
    out.append(event_lines(fired[-DETAIL_EVENTS:], DETAIL_EVENTS))
    out.append("\n").append(heading(f"Agent output (last {DETAIL_OUTPUT} lines)")).append("\n")
    for line in list(view.output)[-DETAIL_OUTPUT:]:
        out.append(f"  {line}\n")
    if not view.output:
        out.append("  none yet\n", style="dim")
    return out


def totals_line(state: RunState, totals: Totals) -> Text:
    """The summary bar of the dashboard."""
    out = Text()
    out.append(f"{state.run_name} ", style="bold")
    out.append(f"agent {state.agent} · speed {state.speed:g}  ")
    out.append(f"passed {totals.passed}", style="green")
    out.append("  ")
    out.append(f"failed {totals.failed}", style="red")
    out.append(f"  running {totals.running}  waiting {totals.waiting}  ")
    out.append(f"infra errors {totals.infra_errors}", style="yellow" if totals.infra_errors else "")
    out.append(f"\nreaction p50 {seconds(totals.reaction_p50)}  cost so far {dollars(totals.cost_usd)}  ")
    if state.finished:
        out.append(f"finished in {state.finished_wall_s:.1f} s", style="bold")
    else:
        out.append(f"wall left ≤ {totals.wall_left_s or 0:.0f} s")
    return out
