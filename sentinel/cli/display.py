"""What the commands print: the console, the displays of a running run (plain lines for --ci, a
rich progress view on a terminal; both only subscribe to the bus), and the grade tables shared
by `run`, `grade` and `tui`."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from sentinel.core.bus import (
    Contacted,
    Message,
    RunFinished,
    RunNotice,
    RunStarted,
    SessionGraded,
    SessionSkipped,
    SessionStarted,
)
from sentinel.core.grading import Result
from sentinel.core.suites import mixed_suites
from sentinel.core.summary import Group, Summary
from sentinel.outputs.formatting import dollars, seconds, sim_seconds


def make_console() -> Console:
    """A console that does not squeeze tables when output goes to a file or a CI log."""
    return Console() if sys.stdout.isatty() else Console(width=160)


def result_line(result: Result) -> str:
    mark = "PASS" if result.success else ("ERROR" if result.is_infra_error else "FAIL")
    return f"{mark:5} {result.scenario_id:45} {result.ended_by:15} {result.detail}"


class PlainLines:
    """One line per thing that happened, for CI logs."""

    def __init__(self, out: TextIO = sys.stdout):
        self.out = out
        self.started = time.monotonic()

    def __call__(self, message: Message) -> None:
        line = plain_line(message)
        if line is not None:
            print(f"[{time.monotonic() - self.started:7.1f}s] {line}", file=self.out, flush=True)


def plain_line(message: Message) -> str | None:
    """The line --ci prints for a bus message, or None for a message it leaves out."""
    if isinstance(message, RunStarted):
        return (f"run {message.run}: {message.to_run} of {message.total} sessions to run, "
                f"agent {message.agent}, speed {message.speed:g}")
    if isinstance(message, SessionStarted):
        return f"started   {message.key}"
    if isinstance(message, Contacted):
        return f"contact   {message.key} at sim {message.sim:.2f} s"
    if isinstance(message, SessionSkipped):
        return f"kept      {message.key} (finished earlier)"
    if isinstance(message, SessionGraded):
        return result_line(message.result)
    if isinstance(message, RunNotice):
        return f"notice    {message.text}"
    if isinstance(message, RunFinished):
        return f"run finished in {message.wall_s:.1f} s"
    return None


class RichProgress:
    """A progress bar with a line per graded session, for a person at a terminal."""

    def __init__(self, console: Console):
        self.console = console
        self.progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[state]}"), TimeElapsedColumn(), console=console)
        self.task: TaskID | None = None
        self.running = 0
        self.passed = 0

    def __call__(self, message: Message) -> None:
        if isinstance(message, RunStarted):
            self.progress.start()
            self.task = self.progress.add_task(f"run {message.run}", total=message.total, state="")
        elif self.task is None:
            return
        elif isinstance(message, SessionStarted):
            self.running += 1
        elif isinstance(message, (SessionGraded, SessionSkipped)):
            result: Result = message.result
            if isinstance(message, SessionGraded):
                self.running -= 1
            self.passed += result.success
            style = "green" if result.success else ("yellow" if result.is_infra_error else "red")
            self.progress.console.print(f"[{style}]{result_line(result)}[/]", highlight=False, markup=True)
            self.progress.advance(self.task)
        elif isinstance(message, RunNotice):
            self.progress.console.print(f"[yellow]{message.text}[/]", highlight=False, markup=True)
        elif isinstance(message, RunFinished):
            self.progress.stop()
            return
        if self.task is not None:
            self.progress.update(self.task, state=f"{self.passed} passed, {max(0, self.running)} running")


def grade_tables(results: list[Result], summary: Summary, title: str) -> list[Table]:
    groups = Table(title=title, show_lines=False)
    for column in ("group", "name", "passed", "total", "rate", "± se", "on time", "on-time rate", "infra errors"):
        groups.add_column(column, justify="right" if column not in ("group", "name") else "left")

    def add(kind: str, group: Group) -> None:
        on_time = "—" if group.on_time_rate is None else f"{group.on_time_rate:.0%}"
        groups.add_row(kind, group.name, str(group.passed), str(group.total), f"{group.rate:.0%}",
                       f"{group.stderr:.0%}", f"{group.on_time}/{group.normal}", on_time, str(group.infra_errors))

    add("overall", summary.overall)
    for kind, items in (("environment", summary.by_environment), ("activity", summary.by_activity),
                        ("criteria", summary.by_criteria)):
        for group in items:
            add(kind, group)
    metrics = Table(title="Reaction and cost", show_header=True)
    for column in ("reaction p50", "reaction p90", "reaction p50 (sim)", "reaction p90 (sim)", "cost median",
                   "cost total", "tokens median", "requests median", "infra errors"):
        metrics.add_column(column, justify="right")
    metrics.add_row(seconds(summary.reaction_p50), seconds(summary.reaction_p90),
                    sim_seconds(summary.reaction_sim_p50), sim_seconds(summary.reaction_sim_p90),
                    dollars(summary.cost_median), dollars(summary.cost_total), f"{summary.tokens_median or 0:g}",
                    f"{summary.requests_median or 0:g}", str(summary.infra_errors))
    sessions = Table(title="Sessions")
    for column in ("scenario", "result", "on time", "ended by", "contact (sim s)", "condition (sim s)", "reaction",
                   "reaction (sim)", "requests"):
        sessions.add_column(column, justify="left" if column in ("scenario", "result", "on time", "ended by")
                            else "right")
    for r in results:
        mark = "[green]pass[/]" if r.success else ("[yellow]error[/]" if r.is_infra_error else "[red]fail[/]")
        sessions.add_row(r.scenario_id, mark, on_time_mark(r), r.ended_by,
                         "—" if r.contact_at is None else f"{r.contact_at:.2f}",
                         "no-op" if r.condition_at is None else f"{r.condition_at:g}",
                         seconds(r.reaction_s), sim_seconds(r.reaction_sim_s), str(r.requests))
    thinking = [model_time_table(summary)] if summary.model_calls is not None else []
    return [sessions, groups, metrics] + thinking + ([pass_k_table(summary)] if summary.trials > 1 else [])


def model_time_table(summary: Summary) -> Table:
    """What the model-time meter saw over the run (docs/model-time.md): the agents' thinking
    intervals, the wall time their clocks were paused for them, and the sim time they were charged."""
    table = Table(title="Model time")
    for column in ("model calls", "paused (wall)", "charged (sim)"):
        table.add_column(column, justify="right")
    table.add_row(str(summary.model_calls), seconds(summary.paused_wall_s), sim_seconds(summary.charged_sim_s))
    return table


def on_time_mark(result: Result) -> str:
    """yes / no for a normal task, — for a no-op (it has no on-time value)."""
    if result.on_time is None:
        return "—"
    return "[green]yes[/]" if result.on_time else "[red]no[/]"


def pass_k_table(summary: Summary) -> Table:
    """pass@k and pass^k for each k (sentinel/core/trials.py says how they are estimated)."""
    table = Table(title="Repeated trials")
    for column in ("k", "pass@k (any of k passes)", "pass^k (all k pass)", "scenarios"):
        table.add_column(column, justify="right")
    for p in summary.pass_k:
        table.add_row(str(p.k), f"{p.pass_at:.1%}", f"{p.pass_hat:.1%}", str(p.scenarios))
    return table


def print_results(console: Console, results: list[Result], summary: Summary, name: str, run_dir: Path,
                  wall_s: float | None) -> None:
    """A finished run's tables and its one-line footer (`sentinel run` and `sentinel tui`)."""
    for table in grade_tables(results, summary, f"Run {name}"):
        console.print(table)
    passed = f"{summary.overall.passed}/{summary.overall.total}"
    suites = "; ".join(mixed_suites((r.suite, r.suite_digest) for r in results))
    print(f"results: {run_dir}  wall time: {wall_s or 0:.1f} s  passed: {passed}  suite: {suites}")
