"""Assemble the report: figures formatted once here, one autoescaped template, inline CSS and JS.

Every headline cell carries its raw number in data-value and its name in data-metric, so a
test (or a script) can check the page against `summarize()` without parsing formatted text.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

import sentinel
from sentinel.core.config import Timing
from sentinel.core.evidence import PAGE_SUFFIX, PAGES_FOLDER, SHOTS_FOLDER
from sentinel.core.paths import DATA
from sentinel.core.suites import mixed_suites, suite_label
from sentinel.core.summary import Group, Summary
from sentinel.outputs.export import outcome
from sentinel.outputs.formatting import dollars, seconds, sim_seconds
from sentinel.outputs.plots import series_color
from sentinel.outputs.report.charts import overview_charts
from sentinel.outputs.report.data import RunData, SessionData
from sentinel.outputs.report.timeline import (
    COLORS,
    condition_wall_s,
    contact_wall_s,
    request_kind,
    shorten,
    timeline_svg,
)

TEMPLATE_DIR = DATA.templates / "report"
MAX_LISTED_REQUESTS = 400


@dataclass(frozen=True)
class Cell:
    text: str
    value: Any = None  # the raw number (None: nothing to compare)
    metric: str = ""


@dataclass(frozen=True)
class Row:
    label: str
    cells: list[Cell]
    section: str = ""  # a heading row starts a new section when set


# --- formatting (shared with tests through these functions) ------------------------------------

def fmt_rate(group: Group) -> str:
    return f"{group.rate:.1%} ± {group.stderr:.1%} ({group.passed}/{group.total})"


def fmt_on_time(group: Group) -> str:
    """The on-time share of a group's normal tasks (— for a group of no-ops only)."""
    if group.on_time_rate is None:
        return "—"
    return f"{group.on_time_rate:.1%} ({group.on_time}/{group.normal})"


def fmt_seconds(value: float | None) -> str:
    """The report gives durations to the millisecond."""
    return seconds(value, digits=3)


def fmt_number(value: float | None) -> str:
    return "—" if value is None else f"{value:g}"


def fmt_share(value: float) -> str:
    return f"{value:.1%}"


# --- headline table ----------------------------------------------------------------------------

def _group_rows(runs: list[RunData], kind: str, attribute: str) -> list[Row]:
    names = sorted({g.name for run in runs for g in getattr(run.summary, attribute)})
    rows = []
    for name in names:
        cells = []
        for run in runs:
            group = next((g for g in getattr(run.summary, attribute) if g.name == name), None)
            cells.append(Cell(fmt_rate(group), group.rate, f"{kind}.{name}.rate") if group else Cell("—"))
        rows.append(Row(name, cells))
    return rows


def _on_time_rows(runs: list[RunData], kind: str, attribute: str) -> list[Row]:
    names = sorted({g.name for run in runs for g in getattr(run.summary, attribute) if g.normal})
    rows = []
    for name in names:
        cells = []
        for run in runs:
            group = next((g for g in getattr(run.summary, attribute) if g.name == name), None)
            cells.append(Cell(fmt_on_time(group), group.on_time_rate, f"{kind}.{name}.on_time")
                         if group and group.normal else Cell("—"))
        rows.append(Row(name, cells))
    return rows


def _overall_on_time(run: RunData) -> Cell:
    overall = run.summary.overall
    if not overall.normal:
        return Cell("—")
    return Cell(fmt_on_time(overall), overall.on_time_rate, "overall.on_time")


def _metric_row(runs: list[RunData], label: str, metric: str, formatter) -> Row:
    return Row(label, [Cell(formatter(getattr(run.summary, metric)), getattr(run.summary, metric), metric)
                       for run in runs])


def _pass_rows(runs: list[RunData]) -> list[Row]:
    most = max(run.summary.trials for run in runs)
    rows = []
    for k in range(1, most + 1) if most > 1 else ():
        for label, attribute in ((f"pass@{k}", "pass_at"), (f"pass^{k}", "pass_hat")):
            cells = []
            for run in runs:
                entry = next((p for p in run.summary.pass_k if p.k == k), None)
                if entry is None:
                    cells.append(Cell("—"))
                    continue
                value = getattr(entry, attribute)
                cells.append(Cell(fmt_share(value), value, f"{attribute}.{k}"))
            rows.append(Row(label, cells))
    return rows


def headline_rows(runs: list[RunData]) -> list[Row]:
    rows = [Row("all sessions", [Cell(fmt_rate(r.summary.overall), r.summary.overall.rate, "overall.rate")
                                 for r in runs], section="Success"),
            Row("on time (normal tasks)", [_overall_on_time(r) for r in runs])]
    groupings = (("environment", "by_environment", "By environment"), ("activity", "by_activity", "By activity"),
                 ("criteria", "by_criteria", "By criteria"))
    for kind, attribute, heading in groupings:
        rows.append(Row(heading, [], section=heading))
        rows += _group_rows(runs, kind, attribute)
    for kind, attribute, heading in groupings:
        on_time = _on_time_rows(runs, kind, attribute)
        if on_time:
            rows.append(Row(f"On time {heading.lower()}", [], section=f"On time {heading.lower()}"))
            rows += on_time
    rows.append(Row("Reaction and cost", [], section="Reaction and cost"))
    rows += [_metric_row(runs, "reaction p50", "reaction_p50", fmt_seconds),
             _metric_row(runs, "reaction p90", "reaction_p90", fmt_seconds),
             _metric_row(runs, "reaction p50 (sim)", "reaction_sim_p50", sim_seconds),
             _metric_row(runs, "reaction p90 (sim)", "reaction_sim_p90", sim_seconds),
             _metric_row(runs, "cost median", "cost_median", dollars),
             _metric_row(runs, "cost total", "cost_total", dollars),
             _metric_row(runs, "tokens median", "tokens_median", fmt_number),
             _metric_row(runs, "requests median", "requests_median", fmt_number),
             _metric_row(runs, "infrastructure errors", "infra_errors", fmt_number)]
    passes = _pass_rows(runs)
    if passes:
        rows.append(Row("Repeated trials", [], section="Repeated trials"))
        rows += passes
    return rows


# --- sessions table and views ---------------------------------------------------------------------

def session_row(index: int, session: SessionData, several_runs: bool, trials: bool) -> dict:
    r = session.result
    cells: list[tuple[str, str, object]] = []  # (column, text shown, value it sorts by)
    if several_runs:
        cells.append(("run", session.run, session.run))
    cells += [("scenario", r.scenario_id, r.scenario_id), ("activity", r.activity, r.activity),
              ("criteria", r.criteria, r.criteria)]
    if trials:
        cells.append(("trial", str(r.trial), r.trial))
    on_time = "—" if r.on_time is None else ("yes" if r.on_time else "no")
    cells += [("result", outcome(r), outcome(r)), ("on time", on_time, on_time),
              ("condition", "no-op" if r.condition_at is None else f"{r.condition_at:g}", r.condition_at),
              ("contact", "—" if r.contact_at is None else f"{r.contact_at:.2f}", r.contact_at),
              ("reaction", fmt_seconds(r.reaction_s), r.reaction_s),
              ("reaction sim", sim_seconds(r.reaction_sim_s), r.reaction_sim_s),
              ("requests", str(r.requests), r.requests),
              ("cost", dollars(r.cost_usd), r.cost_usd),
              ("ended by", r.ended_by, r.ended_by)]
    return {"id": f"s{index}", "outcome": outcome(r), "label": f"{session.run} · {session.folder}",
            "cells": [{"key": k, "text": text, "sort": "" if value is None else value} for k, text, value in cells]}


NUMERIC_COLUMNS = {"trial", "condition", "contact", "reaction", "reaction sim", "requests", "cost"}


def session_columns(several_runs: bool, trials: bool) -> list[dict]:
    keys = ((["run"] if several_runs else []) + ["scenario", "activity", "criteria"]
            + (["trial"] if trials else [])
            + ["result", "on time", "condition", "contact", "reaction", "reaction sim", "requests", "cost",
               "ended by"])
    labels = {"condition": "condition (sim s)", "contact": "contact (sim s)", "reaction": "reaction (wall)",
              "reaction sim": "reaction (sim)"}
    return [{"key": k, "label": labels.get(k, k), "type": "number" if k in NUMERIC_COLUMNS else "text"} for k in keys]


def session_view(index: int, session: SessionData, link_base: Path | None = None) -> dict:
    """One session's view; with link_base (the report's folder), links to its pages as served and
    its screenshots, relative to the report."""
    r = session.result
    condition, contact = condition_wall_s(session), contact_wall_s(session)
    facts = [("verdict", f"{outcome(r)} — {r.detail}"),
             ("on time", "— (a no-op has no condition time)" if r.on_time is None else ("yes" if r.on_time else "no")),
             ("eval_sql value", repr(r.verdict)),
             ("condition", "never (no-op)" if r.condition_at is None else
              f"sim {r.condition_at:g} s = wall {condition:.3f} s"),
             ("contact", "none" if r.contact_at is None else f"sim {r.contact_at:.3f} s = wall {contact:.3f} s"),
             ("reaction", f"{fmt_seconds(r.reaction_s)} wall, {sim_seconds(r.reaction_sim_s)}"),
             ("early by", fmt_seconds(r.early_by_s)),
             ("ended by", f"{r.ended_by} (exit code {fmt_number(r.exit_code)}, signal {fmt_number(r.signal)})"),
             ("completion", fmt_seconds(r.completion_s)),
             ("requests", f"{r.requests} pages, {r.live_requests} live refreshes, {r.bytes_sent:,} bytes"),
             ("cost", f"{r.prompt_tokens + r.completion_tokens:,} tokens, {r.tool_calls} tool calls, "
                      f"{dollars(r.cost_usd)}" + (f" ({r.model})" if r.model else "")),
             ("contact message", r.contact_message or "—"), ("agent · speed", f"{r.agent} · {r.speed:g}×")]
    if r.model_calls is not None:
        facts.append(("model time", f"{r.model_calls} model calls, clock paused {seconds(r.paused_wall_s)} "
                                    f"wall, charged {sim_seconds(r.charged_sim_s)}"))
    if r.infra_error:
        facts.insert(1, ("infrastructure error", r.infra_error))
    requests = [q for q in session.requests if not str(q.get("path", "")).startswith("/static/")]
    return {"id": f"s{index}", "title": f"{r.scenario_id}" + (f" · trial {r.trial}" if r.trial > 1 else ""),
            "run": session.run, "folder": session.folder, "outcome": outcome(r), "facts": facts,
            "prompt": session.prompt, "timeline": Markup(timeline_svg(session, shot_links(session, link_base))),
            "events": [{**e, "fields_text": shorten(e.get("fields", {}), 240)} for e in session.events],
            "requests": [{**q, "kind": request_kind(q), "page": page_link(session, q, link_base)}
                         for q in requests[-MAX_LISTED_REQUESTS:]],
            "requests_total": len(requests), "log_tail": session.log_tail, "shots": len(session.shots)}


def _relative(session: SessionData, inside: str, link_base: Path | None) -> str | None:
    if link_base is None or session.path is None:
        return None
    return Path(os.path.relpath(session.path / inside, link_base)).as_posix()


def page_link(session: SessionData, record: dict, link_base: Path | None) -> str | None:
    """The stored body a request returned (pages/<sha>.html.gz), relative to the report."""
    body = record.get("body")
    return _relative(session, f"{PAGES_FOLDER}/{body}{PAGE_SUFFIX}", link_base) if body else None


def shot_links(session: SessionData, link_base: Path | None) -> dict[str, str]:
    links = {shot.file: _relative(session, f"{SHOTS_FOLDER}/{shot.file}", link_base) for shot in session.shots}
    return {name: link for name, link in links.items() if link}


# --- the page ---------------------------------------------------------------------------------------

def run_card(index: int, run: RunData) -> dict:
    info = run.info
    summary: Summary = run.summary
    return {"name": run.name, "color": series_color(index), "agent": info.get("agent", "?"),
            "speed": info.get("speed", "?"), "trials": info.get("trials", 1), "created": _when(info.get("created")),
            "sessions": len(run.sessions), "rate": f"{summary.overall.rate:.1%}",
            "stderr": f"{summary.overall.stderr:.1%}", "passed": f"{summary.overall.passed}/{summary.overall.total}",
            "on_time": "—" if summary.overall.on_time_rate is None else f"{summary.overall.on_time_rate:.1%}",
            "on_time_count": f"{summary.overall.on_time}/{summary.overall.normal}",
            "on_time_s": f"{on_time_s(run):g}",
            "reaction": fmt_seconds(summary.reaction_p50), "infra": summary.infra_errors,
            "command": info.get("command"), "suite": suite_label(info.get("suite"), info.get("suite_digest"))}


def on_time_s(run: RunData) -> float:
    """The on-time window the run was graded with (run.json's timing; the default if missing)."""
    timing = run.info.get("timing")
    value = timing.get("on_time_s") if isinstance(timing, dict) else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else Timing().on_time_s


def _when(stamp: str | None) -> str:
    """An ISO timestamp from run.json as "2026-03-02 09:00 UTC"."""
    if stamp is None:
        return "?"
    try:
        return datetime.fromisoformat(stamp).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    except (TypeError, ValueError):
        return stamp or "?"


def make_environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def render_report(runs: list[RunData], link_base: Path | None = None) -> str:
    """The whole report as one HTML document (no external resources); with link_base (the folder
    it is written to), its session views link each request to the page it served and show the
    screenshots on the time axis (files of the results folders, by relative address)."""
    several = len(runs) > 1
    trials = any(run.summary.trials > 1 for run in runs)
    sessions = [s for run in runs for s in run.sessions]
    suites = mixed_suites((run.info.get("suite"), run.info.get("suite_digest")) for run in runs)
    mixed = suites if len(suites) > 1 else []
    context = {
        "title": "Sentinel report: " + " vs ".join(run.name for run in runs) + (" (different suites)" if mixed else ""),
        "mixed_suites": mixed,
        "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "version": sentinel.__version__,
        "runs": [run_card(i, run) for i, run in enumerate(runs)],
        "headline": headline_rows(runs),
        "charts": [{"key": c.key, "svg": Markup(c.svg), "note": c.note}
                   for c in overview_charts(runs, on_time_s(runs[0]))],
        "columns": session_columns(several, trials),
        "rows": [session_row(i, s, several, trials) for i, s in enumerate(sessions)],
        "views": [session_view(i, s, link_base) for i, s in enumerate(sessions)],
        "colors": COLORS,
    }
    return make_environment().get_template("report.html").render(context)
