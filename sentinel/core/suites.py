"""The scenario suites Sentinel ships, and the stamp a run carries of the files it ran.

- `verified` (the default): scenarios/verified/<env>/, re-authored so that no timer passes them
  (docs/scenarios.md#validation);
- `paper`: scenarios/paper/<env>/, one scenario per task of the SentinelBench paper, keeping its
  ids, condition times and rules, to set our numbers beside the paper's (docs/paper-suite.md).

A run of another folder (`--scenarios-dir`) is named after that folder. `suite_digest` hashes the
scenario files and the catalogs of their environments, so two results can say whether they ran
the same thing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from sentinel.core.config import DEFAULT_SUITE
from sentinel.core.errors import SentinelError
from sentinel.core.paths import DATA

SUITES = (DEFAULT_SUITE, "paper")


def suite_dir(name: str, root: Path = DATA.scenarios) -> Path:
    """The folder of a bundled suite."""
    if name not in SUITES:
        raise SentinelError(f"--suite {name}: expected one of {', '.join(SUITES)}")
    return root / name


def suite_name(scenarios_dir: Path, root: Path = DATA.scenarios) -> str:
    """`verified` or `paper` for a bundled suite's folder, else the folder's own name."""
    folder = Path(scenarios_dir).resolve()
    for name in SUITES:
        if folder == (root / name).resolve():
            return name
    return folder.name


def suite_digest(scenarios: Iterable[tuple[str, Path]], catalogs_dir: Path) -> str:
    """A sha256 (first 16 hex digits) over the scenario files and their environments' catalog
    files, in a fixed order; scenarios are (environment, file) pairs."""
    pairs = list(scenarios)
    paths = sorted({Path(p).resolve() for _, p in pairs})
    envs = sorted({env for env, _ in pairs})
    catalog_files = sorted(f for env in envs if (catalogs_dir / env).is_dir()
                           for f in (catalogs_dir / env).rglob("*") if f.is_file())
    digest = hashlib.sha256()
    for label, files in (("scenario", paths), ("catalog", catalog_files)):
        for path in files:
            digest.update(f"{label}:{path.parent.name}/{path.name}\n".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def suite_of(scenario_paths: Iterable[Path], scenarios_dir: Path, root: Path = DATA.scenarios) -> str:
    """The suite a run's scenario files belong to: a bundled suite whose folder holds them all,
    else the scenarios folder's name (--scenarios-dir), else the folder that holds them."""
    paths = [Path(p).resolve() for p in scenario_paths]
    for folder in [*(root / name for name in SUITES), Path(scenarios_dir)]:
        if paths and all(p.is_relative_to(folder.resolve()) for p in paths):
            return suite_name(folder, root)
    parents = {p.parent for p in paths}
    return parents.pop().name if len(parents) == 1 else Path(scenarios_dir).name


def suite_label(suite: str | None, digest: str | None) -> str:
    """How a run's suite reads in a heading: "paper (digest 1a2b…)"; results from before suites
    were recorded read "unrecorded"."""
    if suite is None:
        return "unrecorded"
    return f"{suite} (digest {digest})" if digest else suite


def mixed_suites(stamps: Iterable[tuple[str | None, str | None]]) -> list[str]:
    """The distinct (suite, digest) labels of some results or runs, sorted; more than one means
    they did not run the same scenario files."""
    return sorted({suite_label(suite, digest) for suite, digest in stamps})
