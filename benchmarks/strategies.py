"""Sleep against wait_for, with the rule-based judge and planner, on every scenario.

Runs the `sleep` agent, then the `wait_for` agent, on all scenarios (or those of `--env`) at one
speed (default 10), or reads two finished runs, and prints:

- per scenario: condition_at, tokens of each strategy and their ratio, pass / fail;
- per strategy: success rate, median tokens per task, median and total cost, reaction p50;
- per environment: each strategy's passes and median tokens, and sleep's median over wait_for's;
- tokens against condition_at: a least-squares line per strategy over the normal tasks
  (tokens per sim second of waiting), for all of them and for those that watch one page
  (no `open_new` step, where nothing but the waiting costs);

and draws tokens against condition_at as an SVG scatter plot. The tokens are the estimates of
the rule-based judge and planner (what they would have sent a model, characters / 4).

    python benchmarks/strategies.py [--speed 10] [--env micromail ...] [--concurrency N|auto]
                                    [--plot results/strategies.svg]
    python benchmarks/strategies.py --runs results/<sleep run> results/<wait_for run>
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import yaml

from sentinel.agents import BUILTIN_AGENTS
from sentinel.core.config import load_config
from sentinel.core.grading import Result
from sentinel.core.scenario import load_scenario, scenario_files
from sentinel.core.summary import summarize
from sentinel.outputs.plots import Series, scatter_svg
from sentinel.outputs.results import load_results
from sentinel.run.options import concurrency_value
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner

STRATEGIES = ("sleep", "wait_for")


def run_both(speed: float, envs: list[str] | None = None, concurrency: int | None = None) -> dict[str, list[Result]]:
    """Each strategy as one run; concurrency None: as many sessions at once as the machine holds
    on time (the CLI's --concurrency auto), 0: all at once."""
    config = load_config()
    files = [p for env in envs for p in scenario_files(config.scenarios_dir, env)] if envs else \
        scenario_files(config.scenarios_dir)
    scenarios = tuple(load_scenario(p) for p in files)
    stamp = f"{datetime.now():%Y%m%d-%H%M%S}"
    results = {}
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {checkout()}", flush=True)
    for strategy in STRATEGIES:
        plan = RunPlan(name=f"strategies-{strategy}-{stamp}", agent=strategy, command=BUILTIN_AGENTS[strategy],
                       speed=speed, scenarios=scenarios, concurrency=concurrency or 0, admission=concurrency is None)
        print(f"running {strategy} on {len(scenarios)} scenarios at speed {speed:g} …", flush=True)
        report = asyncio.run(Runner(config, plan).run())
        print(f"  {report.run_dir}: {report.wall_s:.0f} s", flush=True)
        results[strategy] = report.results
    return results


def checkout() -> str:
    """The commit this checkout is on (with "+changes" when it has uncommitted ones), for the record."""
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], capture_output=True, text=True, cwd=Path(__file__).parent)
        return done.stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    return commit + ("+changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def tokens(result: Result) -> int:
    return result.prompt_tokens + result.completion_tokens


def watches_new_items(scenario_id: str) -> bool:
    """Does the scenario's solution open every new link (open_new)? Those tasks pay for reading
    each new item whatever the waiting strategy."""
    config = load_config()
    env, short = scenario_id.split("-", 1)
    path = config.scenarios_dir / env / f"{short}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
    return any(isinstance(step, dict) and "open_new" in step for step in (data or {}).get("solution") or [])


def fit(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Least-squares slope and intercept."""
    if len(points) < 2:
        return 0.0, points[0][1] if points else 0.0
    slope, intercept = statistics.linear_regression([p[0] for p in points], [p[1] for p in points])
    return slope, intercept


def print_tables(results: dict[str, list[Result]]) -> None:
    by_id = {s: {r.scenario_id: r for r in results[s]} for s in STRATEGIES}
    ids = sorted(set(by_id["sleep"]) & set(by_id["wait_for"]),
                 key=lambda i: (by_id["sleep"][i].condition_at is None, by_id["sleep"][i].condition_at or 0, i))
    print(f"\n{'scenario':40} {'condition_at':>12} {'sleep tok':>10} {'wait_for tok':>12} {'ratio':>6}  pass s/w")
    for i in ids:
        s, w = by_id["sleep"][i], by_id["wait_for"][i]
        at = "no-op" if s.condition_at is None else f"{s.condition_at:g}"
        ratio = tokens(s) / tokens(w) if tokens(w) else float("inf")
        mark = "*" if watches_new_items(i) else " "
        print(f"{i:39}{mark} {at:>12} {tokens(s):>10} {tokens(w):>12} {ratio:>6.1f}  "
              f"{'P' if s.success else 'F'}/{'P' if w.success else 'F'}")
    print("(* the task opens every new item: both strategies pay for reading them)")
    print(f"\n{'strategy':10} {'success':>9} {'median tokens':>14} {'median cost':>12} {'total cost':>11} "
          f"{'reaction p50':>13}")
    medians = {}
    for strategy in STRATEGIES:
        summary = summarize(results[strategy])
        medians[strategy] = statistics.median(tokens(r) for r in results[strategy])
        print(f"{strategy:10} {summary.overall.passed:>4}/{summary.overall.total:<4} {medians[strategy]:>14,.0f} "
              f"{_usd(summary.cost_median):>12} {_usd(summary.cost_total):>11} {_s(summary.reaction_p50):>13}")
    print(f"median tokens per task, sleep / wait_for: {medians['sleep'] / medians['wait_for']:.1f}x")
    print_environments(results)
    print("\ntokens against condition_at (normal tasks; least squares):")
    for label, keep in (("all normal tasks", lambda i: True),
                        ("tasks watching one page", lambda i: not watches_new_items(i))):
        for strategy in STRATEGIES:
            points = [(r.condition_at, tokens(r)) for r in results[strategy]
                      if r.condition_at is not None and keep(r.scenario_id)]
            slope, intercept = fit(points)
            print(f"  {label:24} {strategy:9} {slope:8.1f} tokens per sim s   (intercept {intercept:,.0f}, "
                  f"{len(points)} tasks)")


def print_environments(results: dict[str, list[Result]]) -> None:
    """Per environment: each strategy's passes and median tokens, and the ratio of the medians."""
    envs = sorted({r.environment for rs in results.values() for r in rs})
    print(f"\n{'environment':14} {'sleep passed':>12} {'median tok':>11} {'wait_for passed':>15} {'median tok':>11} "
          f"{'ratio':>6}")
    for env in envs:
        row = {s: [r for r in results[s] if r.environment == env] for s in STRATEGIES}
        if not all(row.values()):
            continue
        medians = {s: statistics.median(tokens(r) for r in row[s]) for s in STRATEGIES}
        passed = {s: f"{sum(r.success for r in row[s])}/{len(row[s])}" for s in STRATEGIES}
        ratio = medians["sleep"] / medians["wait_for"] if medians["wait_for"] else float("inf")
        print(f"{env:14} {passed['sleep']:>12} {medians['sleep']:>11,.0f} {passed['wait_for']:>15} "
              f"{medians['wait_for']:>11,.0f} {ratio:>6.1f}")


def _usd(value: float | None) -> str:
    return "—" if value is None else f"${value:.4f}"


def _s(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f} s"


SERIES_COLORS = {("sleep", False): "#0072B2", ("wait_for", False): "#E69F00",
                 ("sleep", True): "#56B4E9", ("wait_for", True): "#D55E00"}


def draw(results: dict[str, list[Result]], path: Path) -> None:
    """Tokens against condition_at, one series per strategy and kind of task."""
    series = []
    for opens_items in (False, True):
        for strategy in STRATEGIES:
            points = [(r.condition_at, tokens(r), f"{strategy} · {r.scenario_id}: {tokens(r):,}")
                      for r in results[strategy]
                      if r.condition_at is not None and watches_new_items(r.scenario_id) == opens_items]
            name = f"{strategy} · opens new items" if opens_items else f"{strategy} · one page"
            series.append(Series(name, points=points, color=SERIES_COLORS[strategy, opens_items]))
    svg = scatter_svg(series, x_label="condition_at (sim s)", y_label="tokens per task (estimated)",
                      title="Tokens per task against condition time: sleep vs wait_for (rule-based)", width=800)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(svg, encoding="utf-8")
    print(f"\nplot: {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="sleep vs wait_for with the rule-based judge")
    parser.add_argument("--speed", type=float, default=10.0)
    parser.add_argument("--concurrency", type=concurrency_value, default=None, metavar="N|auto",
                        help="sessions at once: N, 0 for all, or auto (the default), as `sentinel run`")
    parser.add_argument("--env", action="append", help="only this environment's scenarios (repeatable)")
    parser.add_argument("--runs", nargs=2, type=Path, metavar=("SLEEP_RUN", "WAIT_FOR_RUN"),
                        help="read two finished runs instead of running")
    parser.add_argument("--plot", type=Path, default=Path("results/strategies.svg"))
    args = parser.parse_args(argv)
    if args.runs:
        results = {strategy: load_results(run) for strategy, run in zip(STRATEGIES, args.runs, strict=True)}
    else:
        results = run_both(args.speed, args.env, args.concurrency)
    print_tables(results)
    draw(results, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
