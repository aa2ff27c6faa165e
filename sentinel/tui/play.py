"""`sentinel play SCENARIO`: a person is the agent.

The run is an ordinary one-session run with no agent process (RunPlan command None): the
person opens the task URL in a browser (which starts the clock), watches the app, and reports
by opening the contact URL, which freezes the world: the grade is of the state at that first
contact. The session goes on until the person sends the contact form's message (kept in
result.json as contact_message), closes this screen, or PERSON_MESSAGE_GRACE_S passes
(sentinel/run/runner.py). The runner grades it and writes its result like any agent's. The
screen shows only what an agent is given — the prompt and the task URL — plus the sim clock,
the deadline, and finally the grade; never the scripted events.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from sentinel.run.runner import PERSON_MESSAGE_GRACE_S, Runner
from sentinel.tui.base import RunApp, SentinelApp
from sentinel.tui.state import RunState, SessionView, result_text
from sentinel.tui.widgets import MARK_STYLES, heading


class PlayApp(RunApp):
    TITLE = "Sentinel play"
    BINDINGS = [Binding("o", "open_task", "Open task URL"), *SentinelApp.BINDINGS]

    def __init__(self, state: RunState, runner: Runner | None = None, result_path: str = "",
                 freeze_heap: bool = False):
        super().__init__(state, runner, freeze_heap)
        self.result_path = result_path

    @property
    def view(self) -> SessionView:
        return next(iter(self.state.sessions.values()))

    def compose(self) -> ComposeResult:
        yield Static(id="play-head")
        with VerticalScroll(id="play-body"):
            yield Static(id="play-task")
        yield Static(id="play-result")
        yield Footer()

    def on_mount(self) -> None:
        self.start_run()
        self.refresh_view()

    def refresh_view(self) -> None:
        view, state = self.view, self.state
        self.query_one("#play-head", Static).update(Text.assemble(
            (view.scenario_id or view.key, "bold"), f" · you are the agent · speed {state.speed:g}"))
        self.query_one("#play-task", Static).update(self._task_text(view))
        self.query_one("#play-result", Static).update(self._result_text(view))

    def _task_text(self, view: SessionView) -> Text:
        state = self.state
        out = Text()
        out.append(heading("Your task")).append("\n")
        out.append((view.prompt or "(setting up the session…)") + "\n\n")
        out.append("Task URL  ", style="bold").append(f"{view.task_url or '…'}\n")
        out.append("Press o to open it in your browser; opening it starts the clock.\n\n", style="dim")
        if view.started_wall is None:
            out.append("Sim clock  ", style="bold").append("not started: it starts when you open the task URL\n")
            out.append("Deadline   ", style="bold").append(
                f"{state.deadline_wall_s:.0f} wall s after you open the task URL\n")
        else:
            now = state.now()
            out.append("Sim clock  ", style="bold").append(f"{view.sim_now(now, state.speed):.1f} s\n")
            left = max(0.0, view.started_wall + state.deadline_wall_s - now)
            deadline = f"at sim {state.deadline_wall_s * state.speed:.0f} s"
            out.append("Deadline   ", style="bold").append(
                f"{deadline}, {left:.0f} wall s from now\n" if view.result is None else f"{deadline} (ended)\n")
        contact = "not yet" if view.contact_sim is None else f"at sim {view.contact_sim:.3f} s"
        out.append("Contact    ", style="bold").append(f"{contact}\n")
        out.append("Requests   ", style="bold").append(f"{view.requests}\n")
        return out

    def _result_text(self, view: SessionView) -> Text:
        if self.quitting:
            return Text("Stopping…", style="bold yellow")
        if view.result is None and view.contact_sim is not None:
            return Text("Reported: the world is frozen and will be graded as it is now. Add a message in the "
                        f"contact form if you like (within {PERSON_MESSAGE_GRACE_S:.0f} s), or press q to finish.",
                        style="bold")
        if view.result is None:
            return Text("Report by visiting the contact URL from the prompt once the condition holds "
                        "(or never, if it never does).", style="dim")
        out = Text(result_text(view.result) + "\n", style=MARK_STYLES.get(view.mark, ""))
        if self.result_path:
            out.append(f"Written to {self.result_path} · press q to close", style="")
        return out

    def exit_code(self) -> int:
        """0 for a graded session: closing the screen after the report is how a person finishes."""
        result = self.view.result
        return 0 if result is not None and not result.is_infra_error else super().exit_code()

    def run_finished(self) -> None:
        self.notify("Graded. Press q to close.", timeout=10)

    def action_open_task(self) -> None:
        if self.view.result is not None:
            self.notify("The session has ended", severity="warning")
            return
        self.open_in_browser(self.view.task_url, "the task")
