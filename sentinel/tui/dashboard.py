"""`sentinel tui`: the same run as `sentinel run`, shown live.

The app subscribes a RunState to the runner's bus and redraws on a timer (base.REFRESH_S):
only the rows that changed plus the running ones, and only the cells whose text differs, so a
hundred sessions publishing at once cost a few cell updates per tick rather than a redraw per
message. Running and quitting are RunApp's (base.py).
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static

from sentinel.tui.base import RunApp, RunDriver, SentinelApp
from sentinel.tui.rows import RowList, header_text
from sentinel.tui.state import CONTACTED, FILTERS, GRADED, RUNNING, RunState, SessionView
from sentinel.tui.textview import TextView
from sentinel.tui.widgets import mark_cell, session_detail, state_cell, totals_line

COLUMNS = (("environment", 12, "left"), ("session", 22, "left"), ("state", 9, "left"),
           ("sim clock", 9, "right"), ("result", 11, "left"))


class DashboardApp(RunApp):
    TITLE = "Sentinel"
    BINDINGS = [
        Binding("f", "cycle_filter", "Filter"),
        Binding("slash", "search", "Search"),
        Binding("o", "open_selected", "Open URL"),
        Binding("s", "stop_selected", "Stop session"),
        *SentinelApp.BINDINGS,
    ]

    def __init__(self, state: RunState, runner: RunDriver | None = None, freeze_heap: bool = False):
        super().__init__(state, runner, freeze_heap)
        self.state_filter = "all"
        self.search = ""
        self.typing: str | None = None  # the search being typed after `/`, None when not typing
        self._shown: dict[str, tuple[Text, int | None]] = {}  # what _show last put in each Static

    def compose(self) -> ComposeResult:
        yield Static(id="summary")
        with Horizontal(id="body"):
            with Vertical(id="sessions-pane"):
                yield Static(header_text(COLUMNS), id="sessions-head")
                yield RowList(COLUMNS, id="sessions", key_filter=self._search_key)
            yield TextView(id="detail", key_filter=self._search_key)
        yield Footer()

    def on_mount(self) -> None:
        self.rebuild_rows()
        self.start_run()
        self.rows.focus()

    def run_finished(self) -> None:
        self.notify("Run finished: every session is graded. Press q to close.", timeout=10)

    @property
    def rows(self) -> RowList:
        return self.query_one("#sessions", RowList)

    # --- drawing -------------------------------------------------------------
    def rebuild_rows(self) -> None:
        """Fill the list with the sessions the filter lets through (the selection stays)."""
        self.state.take_dirty()
        visible = self.state.visible(self.state_filter, self.search)
        self.rows.set_rows([(view.key, self._cells(view)) for view in visible])
        self._show_selected(force=True)

    def refresh_view(self, force: bool = False) -> None:
        """One tick: update the rows that changed or whose clock runs, the detail, the totals."""
        if not self.query("#sessions"):  # the screen is closing
            return
        dirty = self.state.take_dirty()
        rows = self.rows
        for view in self.state.sessions.values():
            if view.key in dirty or view.state in (RUNNING, CONTACTED):
                rows.update_row(view.key, self._cells(view))
        if any(rows.has_row(key) != self.state.sessions[key].matches(self.state_filter, self.search)
               for key in dirty):
            self.rebuild_rows()  # a session came into the filter or went out of it
            return
        self._show_selected(force, dirty)

    def _show_selected(self, force: bool = False, dirty: frozenset[str] | set[str] = frozenset()) -> None:
        """The detail of the selected session (if it changed or its clock runs) and the totals."""
        selected = self.rows.selected_key
        if selected is not None and (force or selected in dirty or self.state.sessions[selected].state != GRADED):
            self._show("#detail", session_detail(self.state.sessions[selected], self.state))
        elif selected is None:
            self._show("#detail", Text("No session selected", style="dim"))
        self._show("#summary", self._summary())

    def _show(self, selector: str, text: Text) -> None:
        """Put text in the detail pane (a TextView: repaints only its changed lines) or in a
        Static, laying the screen out again only if the Static's height changes: a layout
        repaints every widget, and the totals change at every tick without changing height."""
        found = self.query(selector)
        if not found:  # the screen is closing
            return
        shown = self._shown.get(selector)
        if shown is not None and shown[0] == text:
            return
        view = found.first()
        if isinstance(view, TextView):
            self._shown[selector] = (text, None)
            view.update(text)
            return
        static = found.first(Static)
        width = static.content_region.width
        height = len(text.wrap(self.app.console, width)) if width > 0 else None
        self._shown[selector] = (text, height)
        static.update(text, layout=height is None or shown is None or shown[1] != height)

    def _cells(self, view: SessionView) -> tuple:
        sim = f"{view.sim_now(self.state.now(), self.state.speed):.1f}"
        return (view.environment, view.name, state_cell(view), sim, mark_cell(view))

    def _summary(self) -> Text:
        line = totals_line(self.state, self.state.totals())
        line.append(f"  filter {self.state_filter}" + (f" '{self.search}'" if self.search else ""), style="dim")
        if self.typing is not None:
            line.append("  search: ", style="bold").append(f"{self.typing}▏", style="reverse")
            line.append(" Enter applies, Escape clears", style="dim")
        if self.quitting:
            line.append("  stopping agents…", style="bold yellow")
        return line

    def selected_key(self) -> str | None:
        return self.rows.selected_key

    def on_row_list_highlighted(self, event: RowList.Highlighted) -> None:
        if self.query("#sessions"):
            self._show_selected(force=True)  # a cursor move changes no row: only the detail

    # --- keys ------------------------------------------------------------------
    def action_cycle_filter(self) -> None:
        self.state_filter = FILTERS[(FILTERS.index(self.state_filter) + 1) % len(FILTERS)]
        self.rebuild_rows()

    def action_search(self) -> None:
        """Start typing a search; it is shown in the summary bar (no box appears: showing one
        would lay the whole screen out again, twice per search)."""
        self.typing = self.search
        self._show("#summary", self._summary())

    def _search_key(self, event: events.Key) -> bool:
        """While a search is typed, every key (but Ctrl-C) edits it instead of acting; True if
        the key was taken."""
        if self.typing is None:
            return False
        if event.key == "enter":
            self.search, self.typing = self.typing.strip(), None
            self.rebuild_rows()
        elif event.key == "escape":
            self.search, self.typing = "", None
            self.rebuild_rows()
        elif event.key == "backspace":
            self.typing = self.typing[:-1]
        elif event.character is not None and event.is_printable:
            self.typing += event.character
        self._show("#summary", self._summary())
        return True

    def action_open_selected(self) -> None:
        key = self.selected_key()
        view = self.state.sessions.get(key) if key else None
        if view is not None and view.state == GRADED:
            self.notify(f"{key} has ended: its site is closed", severity="warning")
            return
        self.open_in_browser(view.open_url if view else None, f"{key}")

    def action_stop_selected(self) -> None:
        key = self.selected_key()
        if key is None or self.runner is None:
            return
        view = self.state.sessions[key]
        if view.state == GRADED or view.url is None:
            self.notify(f"{key} has {'already ended' if view.url else 'not begun'}", severity="warning")
            return
        view.stop_asked = True
        self.in_runner(self.runner.stop_session, key)
        self.notify(f"Stopping {key}; it is recorded as stopped and a resumed run runs it again")
