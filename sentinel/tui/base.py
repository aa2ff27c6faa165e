"""The base apps: SentinelApp (styles, opening a URL, quit keys) and RunApp, an app that drives
a Runner and shows a RunState fed by the runner's bus.

The runner runs in its own thread with its own event loop, so drawing the screen never
delays a session's event timers (measured: with the runner in the app's loop, event lateness
p99 went from ~40 ms to ~220 ms for ten sessions). `sentinel tui` goes one step further and
gives it a RunnerProcess (sentinel/run/runner_process.py): the thread then only relays the
messages of a runner in another process. Bus messages cross over through a deque (append and
popleft are thread-safe) and are applied to the RunState on the app's side at each tick;
stopping is handed to the runner's loop with call_soon_threadsafe.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import threading
import webbrowser
from collections import deque

from textual.app import App
from textual.binding import Binding

from sentinel.core.bus import Message
from sentinel.core.errors import SentinelError
from sentinel.run.plan import RunReport
from sentinel.run.runner import Runner
from sentinel.run.runner_process import RunnerProcess
from sentinel.session.priority import DISPLAY_PRIORITY, realtime
from sentinel.tui.state import RunState

REFRESH_S = 0.25  # how often a running screen redraws
RunDriver = Runner | RunnerProcess  # what a RunApp drives: a runner here, or one in its own process


class SentinelApp(App):
    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("q", "quit", "Quit"), Binding("ctrl+c", "quit", "Quit", show=False, priority=True)]

    def open_in_browser(self, url: str | None, what: str = "the page") -> None:
        """Open url in the person's graphical browser and say so (the URL stays on screen to
        copy). A text browser (lynx, w3m) is never started: it would take over this terminal."""
        if not url:
            self.notify("No URL yet: the session is not set up", severity="warning")
            return
        browser = graphical_browser()
        if browser is None:
            self.notify(f"No graphical browser found; open {url} yourself", severity="warning", timeout=15)
            return
        browser.open(url, new=2)
        self.notify(f"Opening {what}: {url}")


def graphical_browser() -> webbrowser.BaseBrowser | None:
    """The browser webbrowser would use, unless it is one that runs in the terminal."""
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return None
    in_terminal = type(browser) is webbrowser.GenericBrowser or getattr(browser, "background", True) is False
    return None if in_terminal else browser


class RunApp(SentinelApp):
    """Runs `runner` (if given) and applies its bus messages to `state`. Without a runner the
    app only shows `state`, which tests and benchmarks feed with messages themselves.

    Quitting while the run goes on stops every agent cleanly (Runner.stop) and leaves once the
    runner has written every finished result, so `--resume` continues the run."""

    def __init__(self, state: RunState, runner: RunDriver | None = None, freeze_heap: bool = False):
        """freeze_heap: gc.freeze() the heap before the run begins (the commands set it; tests
        leave it off, since it would keep their earlier garbage for the rest of the session)."""
        super().__init__()
        self.state = state
        self.runner = runner
        self.freeze_heap = freeze_heap
        self.report: RunReport | None = None
        self.error: str | None = None  # why the run could not run (shown by the command)
        self.quitting = False
        self._inbox: deque[Message] = deque()
        self._unsubscribe = runner.bus.subscribe(self._inbox.append) if runner else None
        self._thread: threading.Thread | None = None
        self._runner_loop: asyncio.AbstractEventLoop | None = None
        self._end_seen = False
        self._priority = contextlib.ExitStack()  # the app's thread raised while a run goes on

    # --- the runner's thread ---------------------------------------------------
    def start_run(self) -> None:
        """Call from on_mount: start the redraw timer, and the runner's thread once the first
        screen is painted (painting it is the app's heaviest moment; the runner's first
        events should not compete with it)."""
        self.set_interval(REFRESH_S, self.tick)
        if self.runner is not None:
            self._thread = threading.Thread(target=self._run_in_thread, name="sentinel-runner", daemon=True)
            self.call_after_refresh(self._begin_run)

    def _begin_run(self) -> None:
        if self.freeze_heap:
            # Everything alive now (modules, the app, its widgets) lives as long as the run, so
            # it is moved out of the collector's sight: a full collection then takes ~10 ms
            # instead of 50-100 ms, which otherwise showed as events fired that much late.
            gc.collect()
            gc.freeze()
        if self._thread is not None and self.is_running:
            # The screen's thread just below the runner's loop (sentinel/session/priority.py): paused by
            # the OS while holding the interpreter's lock, it would hold up the runner's timers.
            self._priority.enter_context(realtime(DISPLAY_PRIORITY))
            self._thread.start()

    def _run_in_thread(self) -> None:
        assert self.runner is not None
        runner = self.runner

        async def run() -> RunReport:
            self._runner_loop = asyncio.get_running_loop()
            return await runner.run()

        try:
            self.report = asyncio.run(run())
        except SentinelError as exc:
            self.error = str(exc)
        except Exception as exc:  # never leave the screen waiting for a run that died
            self.error = f"the run crashed: {exc!r}"

    @property
    def running(self) -> bool:
        """True from start_run until the runner's thread has ended."""
        return self._thread is not None and (self._thread.is_alive() or self._thread.ident is None)

    def in_runner(self, function, *args) -> None:
        """Call a Runner method (stop, stop_session) on the runner's own loop."""
        loop = self._runner_loop
        if loop is not None and self.running:
            loop.call_soon_threadsafe(function, *args)
        else:  # the run has not begun its loop yet (or is over): no asyncio state to race with
            function(*args)

    # --- the app's side ----------------------------------------------------------
    def drain(self) -> None:
        """Apply every bus message that arrived since the last tick."""
        while self._inbox:
            self.state.apply(self._inbox.popleft())

    def tick(self) -> None:
        self.drain()
        self.refresh_view()
        if self._thread is not None and not self.running and not self._end_seen:
            self._end_seen = True
            if self.error:
                self.exit(return_code=2)
            elif self.quitting:
                self.exit(return_code=self.exit_code())
            else:
                self.run_finished()

    def exit_code(self) -> int:
        return 130 if self.runner is not None and self.runner.stopping else 0

    def refresh_view(self) -> None:
        """Redraw what changed; called every REFRESH_S."""

    def run_finished(self) -> None:
        """The run ended by itself (every session graded)."""

    async def action_quit(self) -> None:  # Textual awaits it, like the App method it replaces
        if not self.running:
            self.exit(return_code=self.exit_code())
        elif not self.quitting:
            assert self.runner is not None
            self.quitting = True
            self.in_runner(self.runner.stop)  # tick() exits once every result is written
            self.refresh_view()

    async def on_unmount(self) -> None:
        thread = self._thread
        if thread is not None and thread.ident is None:
            self._thread = None  # closed before the run began: it never will
        elif thread is not None and thread.is_alive():  # closed some other way: leave no agent behind
            assert self.runner is not None
            self.in_runner(self.runner.stop)
            await asyncio.to_thread(thread.join)
        if self._unsubscribe:
            self._unsubscribe()
        self._priority.close()
