"""A run's folder, results/<run>/, as a run opens it (the files are listed in results.py).

A new run never takes the name of one that exists (its results would mix with the other's), the
folder must be writable before any session starts, and a resumed run must be the run it
continues: the same agent, speed, trials, variants, suite, model and model-time policy, since the results it keeps
and the ones it adds are summarized together. run.json says what a run was made with.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sentinel.core.errors import SentinelError
from sentinel.core.files import read_json, remove_temporaries

RUN_FILE = "run.json"


@dataclass(frozen=True)
class RunIdentity:
    """What a resumed run must share with the run it continues (as run.json records it)."""
    agent: str
    speed: float
    trials: int
    variant_seed: int | None
    model: str | None
    suite: str | None
    suite_digest: str
    model_time: str = "wall"  # the policy's text, as run.json records it
    clock: str = "wall"


def refuse_existing_run(run_dir: Path, resume: bool) -> None:
    """A run that does not resume may not take the name of a run that exists."""
    if (run_dir / RUN_FILE).exists() and not resume:
        raise SentinelError(f"{run_dir}: a run with this name exists; pass --resume to continue it "
                            f"or choose another --run name")


def open_run_folder(run_dir: Path, identity: RunIdentity, resume: bool) -> dict[str, Any] | None:
    """Make run_dir ready for a run (created, writable, no half-written files left) and check
    that it may hold this one; returns the run.json of the run it continues, if any."""
    refuse_existing_run(run_dir, resume)
    _check_writable(run_dir)
    remove_temporaries(run_dir)
    run_json = run_dir / RUN_FILE
    previous = read_json(run_json) if run_json.exists() else None
    if previous:
        check_same_run(run_dir, previous, identity)
    return previous


def check_same_run(run_dir: Path, previous: dict[str, Any], identity: RunIdentity) -> None:
    """Raise SentinelError when a resumed run differs from the run.json it continues."""
    before = (previous.get("agent"), previous.get("speed"), previous.get("trials", 1), previous.get("variant_seed"))
    if before != (identity.agent, identity.speed, identity.trials, identity.variant_seed):
        raise SentinelError(f"{run_dir}: was run with agent {previous.get('agent')!r} at speed "
                            f"{previous.get('speed')} with {previous.get('trials', 1)} trial(s); resume it "
                            f"with the same --agent, --speed, --trials (and --variants --seed)")
    if previous.get("suite_digest") not in (None, identity.suite_digest):
        raise SentinelError(f"{run_dir}: was run with suite {previous.get('suite')!r} digest "
                            f"{previous.get('suite_digest')}, but its scenario files or catalogs have changed "
                            f"since (now {identity.suite_digest}); start a new --run")
    if previous.get("model") != identity.model:
        raise SentinelError(f"{run_dir}: was run with model {previous.get('model')!r}; resume it with the "
                            f"same --model")
    before_policy = previous.get("model_time") or "wall"  # a run.json from before the option: wall
    if before_policy != identity.model_time:
        raise SentinelError(f"{run_dir}: was run with --model-time {before_policy}; resume it with the same "
                            f"--model-time (now {identity.model_time})")
    before_clock = previous.get("clock") or "wall"
    if before_clock != identity.clock:
        raise SentinelError(f"{run_dir}: was run with --clock {before_clock}; resume it with the same --clock "
                            f"(now {identity.clock})")


def _check_writable(run_dir: Path) -> None:
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        probe = run_dir / ".writable.tmp"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise SentinelError(f"results folder {run_dir}: cannot write there "
                            f"({exc.strerror or exc}); choose another with [run] results_dir") from None
