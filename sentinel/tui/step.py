"""`sentinel step SCENARIO`: move one scenario's paused clock by hand and watch the verdict.

A thin screen over sentinel.run.stepper.Stepper: keys fire the next event, advance by a chosen
number of sim seconds, or jump to condition_at; after each step it shows the eval_sql verdict,
the baselines beside the same quantities now, and the rows the step inserted, changed or
deleted. The session's start page URL is shown (and `o` opens it) so a person can look at the
app at exactly that moment. With an agent attached, the screen also refreshes after each
agent request that changes the world and at the agent's report (the stepper records those as
steps), lists the agent's requests since the step before, and from the report on shows the
grade a run would give: PASS or FAIL.
"""

from __future__ import annotations

from collections import deque

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, Static

from sentinel.core.bus import AgentOutput, AgentRequest, Contacted, Message
from sentinel.core.errors import SentinelError
from sentinel.run.stepper import RowChange, Step, Stepper
from sentinel.tui.base import SentinelApp
from sentinel.tui.widgets import DETAIL_EVENTS, DETAIL_OUTPUT, event_lines, heading

VALUE_CHARS = 120  # a value longer than this is cut in the list of changes
SHOWN_REQUESTS = 40  # the agent's latest requests listed for a step (a polling agent makes many)
KIND_STYLES = {"inserted": "green", "changed": "yellow", "deleted": "red"}
DEFAULT_ADVANCE_S = 10.0


class AdvanceDialog(ModalScreen[float | None]):
    """Asks how many sim seconds to advance; Enter confirms, Escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, default: float):
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Advance the clock by how many sim seconds?")
            yield Input(value=f"{self.default:g}", id="amount")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            seconds = float(event.value)
        except ValueError:
            self.notify(f"{event.value!r} is not a number of seconds", severity="error")
            return
        self.dismiss(seconds)

    def action_cancel(self) -> None:
        self.dismiss(None)


def changes_text(changes: tuple[RowChange, ...]) -> Text:
    """Each changed row: 'emails inserted em0102' and then its values (only the differing
    ones, 'before → after', for a changed row)."""
    def cut(value) -> str:
        text = repr(value) if isinstance(value, str) else str(value)
        return text if len(text) <= VALUE_CHARS else text[:VALUE_CHARS - 1] + "…"

    out = Text()
    out.append(heading(f"Rows this step changed ({len(changes)})")).append("\n")
    for change in changes:
        out.append(f"{change.table} ", style="bold")
        out.append(change.kind, style=KIND_STYLES[change.kind]).append(f" {change.key}\n")
        if change.kind == "changed":
            values = "; ".join(f"{c}: {cut(a)} → {cut(b)}" for c, a, b in change.columns)
        else:
            side = 2 if change.kind == "inserted" else 1
            values = ", ".join(f"{column[0]}={cut(column[side])}" for column in change.columns)
        out.append(f"  {values}\n", style="dim" if change.kind == "deleted" else "")
    if not changes:
        out.append("  none\n", style="dim")
    return out


def requests_text(requests: tuple[str, ...]) -> Text:
    """The agent's requests since the step before, in order."""
    out = Text()
    out.append(heading(f"Agent requests since the step before ({len(requests)})")).append("\n")
    if len(requests) > SHOWN_REQUESTS:
        out.append(f"  … {len(requests) - SHOWN_REQUESTS} earlier\n", style="dim")
    for request in requests[-SHOWN_REQUESTS:]:
        out.append(f"  {request}\n")
    if not requests:
        out.append("  none\n", style="dim")
    return out


class StepApp(SentinelApp):
    TITLE = "Sentinel step"
    BINDINGS = [
        Binding("n", "fire_next", "Fire next event"),
        Binding("a", "advance", "Advance…"),
        Binding("c", "jump", "Jump to condition"),
        Binding("o", "open_page", "Open URL"),
        *SentinelApp.BINDINGS,
    ]

    def __init__(self, stepper: Stepper, agent_command: str | list[str] | None = None):
        super().__init__()
        self.stepper = stepper
        self.agent_command = agent_command
        self.step: Step | None = None
        self.error: str | None = None
        self.advance_by = DEFAULT_ADVANCE_S
        self.agent_output: deque[str] = deque(maxlen=DETAIL_OUTPUT)
        self.agent_requests = 0
        self._unsubscribe = stepper.bus.subscribe(self._on_bus)
        stepper.on_step = self.show  # the agent's steps too; every step runs on this app's loop

    def compose(self) -> ComposeResult:
        yield Static(id="step-head")
        yield Static(id="verdict")
        with Horizontal(id="body"):
            with VerticalScroll(id="changes"):
                yield Static(id="changes-list")
            with VerticalScroll(id="step-side"):
                yield Static(id="side")
        yield Footer()

    async def on_mount(self) -> None:
        try:
            self.show(await self.stepper.open())
            if self.agent_command is not None:
                await self.stepper.attach_agent(self.agent_command)
        except SentinelError as exc:
            self.error = str(exc)
        except Exception as exc:  # a scenario being written may well crash its preload
            self.error = f"{self.stepper.scenario.path}: the session could not be set up: {exc!r}"
        if self.error:
            self.exit(return_code=2)
            return
        if self.agent_command is not None:
            self.set_interval(0.5, self.show_side)

    async def on_unmount(self) -> None:
        self._unsubscribe()
        await self.stepper.close()

    def _on_bus(self, message: Message) -> None:
        if isinstance(message, AgentOutput):
            self.agent_output.append(message.line)
        elif isinstance(message, AgentRequest):
            self.agent_requests += 1
        elif isinstance(message, Contacted):
            self.notify(f"The agent reported at sim {message.sim:.2f} s: the world is frozen")

    # --- drawing -----------------------------------------------------------------
    def show(self, step: Step) -> None:
        self.step = step
        scenario = self.stepper.scenario
        head = Text()
        head.append(f"{scenario.id}", style="bold")
        condition = "no-op (never)" if scenario.condition_at is None else f"{scenario.condition_at:g} s"
        head.append(f" · condition_at {condition} · sim {step.sim:.2f} s")
        if self.stepper.contact_sim is not None:
            head.append(f" · contacted at sim {self.stepper.contact_sim:.2f} s (frozen)", style="magenta")
        head.append(f"\nURL {self.stepper.url}\nlast step: {step.action}")
        if step.fired:
            head.append(" — fired " + "; ".join(step.fired))
        self.query_one("#step-head", Static).update(head)
        verdict = self.query_one("#verdict", Static)
        line = Text(f"eval_sql verdict: {step.verdict_text}")
        grade = self.stepper.grade
        if grade is not None:
            line.append(f" · graded {'PASS' if grade[0] else 'FAIL'}: {grade[1]}", style="bold")
        verdict.update(line)
        good = step.verdict.truthy if grade is None else grade[0]
        verdict.set_class(good, "true")
        verdict.set_class(not good, "false")
        body = Text()
        if self.agent_command is not None:
            body.append(requests_text(step.requests)).append("\n")
        self.query_one("#changes-list", Static).update(body.append(changes_text(step.changes)))
        self.show_side()

    def show_side(self) -> None:
        if self.step is None:
            return
        side = Text()
        side.append(heading("Baselines (after the preload → now)")).append("\n")
        for measure in self.step.measures:
            moved = measure.now != measure.baseline
            side.append(f"  {measure.name:28} {measure.baseline:>12g} → ")
            side.append(f"{measure.now:g}\n", style="bold" if moved else "dim")
        side.append("\n").append(heading(f"Pending events ({len(self.stepper.pending)})")).append("\n")
        side.append(event_lines(self.stepper.pending))
        fired = self.stepper.fired
        side.append("\n").append(heading(f"Fired events ({len(fired)})")).append("\n")
        side.append(event_lines(fired[-DETAIL_EVENTS:]))
        if self.agent_command is not None:
            status = "running" if self.stepper.agent_running else "ended"
            side.append("\n").append(heading(f"Agent ({status}, {self.agent_requests} requests)")).append("\n")
            for line in self.agent_output:
                side.append(f"  {line}\n")
        self.query_one("#side", Static).update(side)

    # --- keys --------------------------------------------------------------------
    async def _do(self, move) -> None:
        try:
            await move()  # the stepper's on_step shows it
        except SentinelError as exc:
            self.notify(str(exc), severity="warning")
        except Exception as exc:  # an event that cannot be applied: say so, keep the screen
            self.notify(f"the step failed: {exc!r}", severity="error", timeout=20)

    async def action_fire_next(self) -> None:
        await self._do(self.stepper.fire_next)

    async def action_jump(self) -> None:
        await self._do(self.stepper.jump_to_condition)

    def action_advance(self) -> None:
        self.push_screen(AdvanceDialog(self.advance_by), self._advance_chosen)

    async def _advance_chosen(self, seconds: float | None) -> None:
        if seconds is None:
            return
        self.advance_by = seconds
        await self._do(lambda: self.stepper.advance(seconds))

    def action_open_page(self) -> None:
        self.open_in_browser(self.stepper.url, "the start page")
