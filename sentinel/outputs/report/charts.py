"""The report's charts: one colour per run, drawn with sentinel.outputs.plots."""

from __future__ import annotations

from dataclasses import dataclass

from sentinel.core.summary import on_time_curve
from sentinel.outputs.plots import Series, bars_svg, histogram_svg, scatter_svg, steps_svg
from sentinel.outputs.report.data import RunData

CHART_W = 560
CHART_H = 330
TAU_MAX_S = 600.0  # the on-time chart's x axis: sim seconds after condition_at


@dataclass(frozen=True)
class Chart:
    key: str  # a stable name, for tests and anchors
    svg: str
    note: str = ""  # one line under the chart: what is left out, what the axis measures


def reaction_chart(runs: list[RunData]) -> Chart:
    series = [Series(run.name, values=[r.reaction_s for r in run.results if r.reaction_s is not None])
              for run in runs]
    count = sum(len(s.values) for s in series)
    svg = histogram_svg(series, x_label="reaction time (wall s after the condition held)",
                        title="Reaction-time distribution", width=CHART_W, height=CHART_H)
    return Chart("reaction", svg, f"{count} successful normal session(s); no-ops and failures have no reaction time.")


def cost_measure(runs: list[RunData]) -> tuple[str, str]:
    """What "cost" means here: dollars if any session was priced, else tokens, else requests."""
    results = [r for run in runs for r in run.results]
    if any(r.cost_usd is not None for r in results):
        return "cost_usd", "cost ($)"
    if any(r.prompt_tokens + r.completion_tokens for r in results):
        return "tokens", "tokens"
    return "requests", "agent requests"


def cost_of(result, measure: str) -> float | None:
    if measure == "cost_usd":
        return result.cost_usd
    if measure == "tokens":
        return result.prompt_tokens + result.completion_tokens
    return result.requests


def cost_chart(runs: list[RunData]) -> Chart:
    measure, label = cost_measure(runs)
    series = []
    for run in runs:
        points = [(r.condition_at, value, f"{r.scenario_id} (trial {r.trial}): {value:g}")
                  for r in run.results
                  if r.condition_at is not None and (value := cost_of(r, measure)) is not None]
        series.append(Series(run.name, points=points))
    svg = scatter_svg(series, x_label="condition_at (sim s)", y_label=label,
                      title=f"{label[0].upper()}{label[1:]} against condition time", width=CHART_W, height=CHART_H)
    note = "No-op scenarios have no condition time and are left out."
    if measure != "cost_usd":
        note += f" No session reported a priced model, so cost is shown as {label}."
    return Chart("cost", svg, note)


def success_chart(runs: list[RunData]) -> Chart:
    environments = sorted({g.name for run in runs for g in run.summary.by_environment})
    series = []
    for run in runs:
        groups = {g.name: g for g in run.summary.by_environment}
        series.append(Series(run.name, values=[groups[e].rate if e in groups else 0.0 for e in environments],
                             errors=[groups[e].stderr if e in groups else 0.0 for e in environments]))
    svg = bars_svg(environments, series, y_label="success rate", title="Success by environment",
                   width=CHART_W, height=CHART_H, percent=True)
    return Chart("success", svg, "Whiskers show ± one standard error (none at 0% or 100%).")


def pass_k_charts(runs: list[RunData]) -> list[Chart]:
    """pass@k and pass^k against k, when some run repeated its trials."""
    if all(run.summary.trials == 1 for run in runs):
        return []
    charts = []
    for key, label, title in (("pass_at", "pass@k", "pass@k: at least one of k trials passes"),
                              ("pass_hat", "pass^k", "pass^k: all k trials pass")):
        series = [Series(run.name, points=[(p.k, getattr(p, key), f"{run.name} {label[:-1]}{p.k}: "
                                            f"{getattr(p, key):.1%}") for p in run.summary.pass_k])
                  for run in runs]
        svg = scatter_svg(series, x_label="k (trials drawn)", y_label=label, title=title, width=CHART_W,
                          height=CHART_H, lines=True, y_percent=True, x_integers=True,
                          x_range=(1, max(run.summary.trials for run in runs)), y_range=(0.0, 1.0))
        charts.append(Chart(key, svg, "Unbiased estimates averaged over scenarios (see sentinel/core/trials.py)."))
    return charts


def tau_corners(results) -> list[float]:
    """Every tau where a run's on-time curve can step: 0, each success's delay, and the end."""
    delays = {r.contact_at - r.condition_at for r in results
              if r.is_normal and r.success and r.contact_at is not None and r.condition_at is not None}
    return sorted({0.0, TAU_MAX_S, *(d for d in delays if 0 <= d <= TAU_MAX_S)})


def on_time_chart(runs: list[RunData], on_time_s: float) -> Chart:
    """The share of normal tasks passed within tau sim s of condition_at, for tau from 0 to 600:
    one curve per run. A monitor rises at once; a timer that never looks rises late, or never."""
    series = [Series(run.name, points=on_time_curve(run.results, tau_corners(run.results))) for run in runs]
    svg = steps_svg(series, x_label="tau (sim s after condition_at)", y_label="normal tasks passed within tau",
                    title="Passed within tau of the condition", width=CHART_W, height=CHART_H, x_max=TAU_MAX_S,
                    marker=(on_time_s, f"on time ≤ {on_time_s:g} s"))
    return Chart("on_time", svg, "Share of normal tasks (no-ops left out) passed with the report at most tau sim "
                                 "seconds after the condition held; the dashed line is the on-time window.")


def overview_charts(runs: list[RunData], on_time_s: float = 60.0) -> list[Chart]:
    return [success_chart(runs), on_time_chart(runs, on_time_s), reaction_chart(runs), cost_chart(runs),
            *pass_k_charts(runs)]
