"""RunOptions: everything a run can be asked for, in one frozen object.

The CLI builds it from its options (`add_run_options` declares each option from the field's own
metadata, `from_args` reads them back), the API accepts it (`api.run(options)` or the same
fields as keywords), and the dashboard, play and sweep commands reuse it. A new option is one
field here: its flag, help and parsing come with it, so no list of options can drift from another.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from sentinel.agents import builtin_names
from sentinel.core.config import Config
from sentinel.core.scenario import Scenario
from sentinel.core.suites import SUITES


def option(flag: str, help: str, default: Any = None, **argparse_kwargs: Any) -> Any:
    """A RunOptions field with its command-line flag and help (argparse keywords pass through)."""
    return field(default=default, metadata={"flag": flag, "help": help, **argparse_kwargs})


AGENT_HELP = ("an agent command (a shell string with __TASK_URL__, __TASK_PROMPT__, __BASE_DIR__, "
              "__MCP_URL__ where given)")


def concurrency_value(text: str) -> int | None:
    """--concurrency: a whole number ≥ 0, or auto (None)."""
    if text.strip().lower() == "auto":
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N, 0 or auto, not {text!r}") from None


@dataclass(frozen=True)
class RunOptions:
    """A run's choices; None means "as the config says". `api.prepare_run` checks them all."""

    agent: str | None = option("--agent", f"a built-in agent: {builtin_names()}", group="who")
    cmd: str | list[str] | None = option("--cmd", AGENT_HELP, group="who")
    config: str | Path | Config | None = option("--config", "a sentinel.toml or eval_config.yaml", type=Path)
    speed: float | None = option("--speed", "sim seconds per wall second (default from config)", type=float)
    envs: tuple[str, ...] = option("--env", "only this environment (repeatable, or comma separated)", (),
                                   action="append", metavar="ENV")
    tasks: tuple[str, ...] = option("--task", "only this scenario id or short id (repeatable)", (),
                                    action="append", metavar="TASK")
    concurrency: int | None = option(
        "--concurrency", "sessions at once: N, 0 for all, or auto (the default): as many as this machine "
        "holds on time, measured while the run lasts", type=concurrency_value, metavar="N|auto")
    run_name: str | None = option("--run", "run name: results go to results/<name>/")
    resume: bool = option("--resume", "continue a run: keep finished sessions", False, action="store_true")
    trials: int = option("--trials", "run each scenario K times, as separate sessions at once (pass@k, pass^k)",
                         1, type=int, metavar="K")
    scenarios_dir: str | Path | None = option(
        "--scenarios-dir", "run the scenarios of this folder (a generated set) instead of the bundled ones",
        type=Path, metavar="DIR")
    suite: str | None = option("--suite", "the bundled suite: verified (the default: re-authored so no timer "
                                          "passes) or paper (the SentinelBench paper's 100 tasks)",
                               choices=SUITES)
    variants: bool = option("--variants", "with --seed: each trial of a scenario that is a known kind runs its "
                                          "own generated variant", False, action="store_true")
    seed: int | None = option("--seed", "with --variants: the seed the trials' variants are drawn from", type=int)
    model: str | None = option("--model", "chat model for the sleep / wait_for agents (and SENTINEL_MODEL for "
                                          "--cmd); endpoint from OPENAI_BASE_URL, key from OPENAI_API_KEY")
    sandbox: bool = option("--sandbox", "run each agent under bubblewrap: the system read-only, its own folder, "
                                        "a private /tmp, the loopback network; no repository, scenarios or results",
                           False, action="store_true")
    agent_browser: bool = option("--agent-browser", "lend each agent a headless Chromium for the session, at "
                                                    "SENTINEL_CDP_URL / __CDP_URL__ (a DevTools address)",
                                 False, action="store_true")
    model_time: str | None = option(
        "--model-time", "what the session's clock does while the agent's model thinks: wall (runs on, the default "
                        "and the paper's), measured (pauses, then charges the call's wall duration), fixed:S (pauses, "
                        "then charges S sim s) or free (pauses, charges nothing); docs/model-time.md",
        metavar="wall|measured|fixed:S|free")
    clock: str | None = option(
        "--clock", "the sessions' clock: wall (sim time runs at --speed, the default) or virtual (sim time moves "
                   "only while the agent waits through its site or its model thinks: a run as fast as the agent; "
                   "model time fixed:2 unless --model-time says otherwise); docs/model-time.md#the-virtual-clock",
        choices=("wall", "virtual"))
    meter: bool = option("--meter", "measure model usage with a local proxy per session instead of trusting "
                                    "costs.json", False, action="store_true")
    backend: str | None = option("--backend", "where sessions run: local (this process, the default) or ray "
                                              "(a Ray cluster; pip install 'sentinel-bench[ray]')",
                                 choices=("local", "ray"))
    address: str | None = option("--address", "with --backend ray: the cluster's HOST:PORT or auto (default: "
                                              "sentinel.toml [ray] address, else a local Ray for the run)")
    session_cpus: float | None = option("--session-cpus", "with --backend ray: CPUs Ray reserves per session "
                                                          "(default: sentinel.toml [ray])", type=float, metavar="N")
    session_memory_mb: float | None = option(
        "--session-memory", "with --backend ray: memory Ray reserves per session (default: sentinel.toml [ray])",
        type=float, metavar="MB")

    # Scenarios given as objects (the API, `sentinel play` of one file): run these instead of a
    # selection by envs and tasks. Not a command-line option.
    scenarios: tuple[Scenario, ...] = ()
    # No agent process: a person plays at the task URL (`sentinel play`). Not a command-line option.
    person: bool = False

    def __post_init__(self) -> None:
        # lists from argparse or a caller become tuples, so the object stays frozen all the way down
        for name in ("envs", "tasks", "scenarios"):
            value = getattr(self, name)
            object.__setattr__(self, name, tuple(value or ()) if not isinstance(value, str) else (value,))

    def but(self, **changes: Any) -> RunOptions:
        """A copy with some fields changed (unknown names: a clear TypeError)."""
        return replace(self, **changes)


def option_fields() -> list[Any]:
    return [f for f in fields(RunOptions) if "flag" in f.metadata]


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Declare every RunOptions field as a command-line option of this parser."""
    groups: dict[str, Any] = {}
    for f in option_fields():
        meta: Mapping[str, Any] = f.metadata
        kwargs = {k: v for k, v in meta.items() if k not in ("flag", "group")}
        target: Any = parser
        if "group" in meta:
            if meta["group"] not in groups:
                groups[meta["group"]] = parser.add_mutually_exclusive_group()
            target = groups[meta["group"]]
        default = None if kwargs.get("action") == "append" else f.default  # argparse appends to a list
        target.add_argument(meta["flag"], dest=f.name, default=default, **kwargs)


def add_suite_option(parser: argparse.ArgumentParser) -> None:
    """--suite as `sentinel run` declares it (the RunOptions field's own flag, help and choices)."""
    meta = next(f.metadata for f in option_fields() if f.name == "suite")
    parser.add_argument(meta["flag"], dest="suite", help=meta["help"], choices=meta["choices"])


def from_args(args: argparse.Namespace) -> RunOptions:
    """The RunOptions of parsed command-line options (declared with add_run_options)."""
    return RunOptions(**{f.name: getattr(args, f.name) for f in option_fields()})
