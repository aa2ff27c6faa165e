"""Run Sentinel from Python and get result objects back.

    from sentinel import api

    outcome = api.run(agent="oracle", envs=["microhood"], speed=50, run_name="hood-oracle")
    print(outcome.summary.overall.rate, outcome.summary.reaction_p50)
    for result in outcome.results:            # sentinel.grading.Result, frozen dataclasses
        print(result.scenario_id, result.success, result.reaction_s)
    api.report([outcome.run_dir])             # the HTML report; returns its path

`run` takes the same choices as `sentinel run` (and checks them the same way, raising
sentinel.errors.SentinelError with the same one-line messages). It starts its own event loop;
from code that already runs one (a notebook, an async app) await `run_async` instead.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from sentinel.bus import Bus
from sentinel.cli import find_run_dir, plan_from_args
from sentinel.config import load_config
from sentinel.errors import SentinelError
from sentinel.grading import Result
from sentinel.runner import Runner, load_results
from sentinel.summary import Summary, summarize


@dataclass(frozen=True)
class RunOutcome:
    """A finished (or loaded) run: its folder, every session's result, and the aggregates."""
    name: str
    run_dir: Path
    results: tuple[Result, ...]
    summary: Summary
    wall_s: float | None = None  # None for a run loaded from disk

    def by_scenario(self) -> dict[str, list[Result]]:
        """Results grouped by scenario id (several per scenario with repeated trials)."""
        grouped: dict[str, list[Result]] = {}
        for result in self.results:
            grouped.setdefault(result.scenario_id, []).append(result)
        return grouped


def _arguments(agent, cmd, envs, tasks, speed, trials, run_name, concurrency, resume, config) -> argparse.Namespace:
    return argparse.Namespace(agent=agent, cmd=cmd, env=list(envs) if envs else None,
                              task=list(tasks) if tasks else None, speed=speed, trials=trials, run_name=run_name,
                              concurrency=concurrency, resume=resume, config=Path(config) if config else None)


async def run_async(*, agent: str | None = None, cmd: str | list[str] | None = None,
                    envs: list[str] | None = None, tasks: list[str] | None = None, speed: float | None = None,
                    trials: int = 1, run_name: str | None = None, concurrency: int | None = None,
                    resume: bool = False, config: str | Path | None = None, bus: Bus | None = None) -> RunOutcome:
    """Run a selection of scenarios with an agent (a built-in name, or cmd: your command).
    envs / tasks select scenarios as --env / --task do (default: all); config is a
    sentinel.toml or eval_config.yaml path; bus receives the run's messages as they happen."""
    if agent and cmd:
        raise SentinelError("pass agent or cmd, not both")
    args = _arguments(agent, cmd, envs, tasks, speed, trials, run_name, concurrency, resume, config)
    loaded, plan = plan_from_args(args)
    report = await Runner(loaded, plan, bus).run()
    assert report.summary is not None
    return RunOutcome(plan.name, report.run_dir, tuple(report.results), report.summary, report.wall_s)


def run(**options) -> RunOutcome:
    """run_async in its own event loop (same keyword arguments)."""
    import asyncio

    return asyncio.run(run_async(**options))


def load(run_name: str | Path, config: str | Path | None = None) -> RunOutcome:
    """A run already on disk, by name (under the results folder) or path."""
    run_dir = find_run_dir(load_config(Path(config) if config else None), str(run_name))
    results = load_results(run_dir)
    return RunOutcome(run_dir.name, run_dir, tuple(results), summarize(results))


def report(run_dirs: list[str | Path], out: str | Path | None = None, config: str | Path | None = None) -> Path:
    """Write the HTML report of one run (or a comparison of several); return its path."""
    from sentinel.report import write_report

    loaded = load_config(Path(config) if config else None)
    dirs = [find_run_dir(loaded, str(d)) for d in run_dirs]
    return write_report(dirs, loaded, Path(out) if out else None)
