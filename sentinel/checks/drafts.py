"""The edge of scenario generation: validating draws with `sentinel validate`'s own checks,
writing sets to disk, and per-trial variants for `sentinel run --variants`.

sentinel.core.kinds (pure) draws; this module injects the checks: each draw is written to a
temporary file, loaded with load_scenario and checked by validate_scenario (static checks,
the environment's own checks, the replay of the per-scenario validity rules). The set is checked
with suite_rules where they apply to one environment's generated set.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from sentinel.checks.suite_rules import suite_problems
from sentinel.checks.validate import validate_scenario
from sentinel.core.catalog import Catalog
from sentinel.core.config import Config
from sentinel.core.environment import Environment
from sentinel.core.errors import SentinelError
from sentinel.core.scenario import Scenario, ScenarioError, load_scenario
from sentinel.envs import get_environment
from sentinel.generation.draw import GeneratedScenario, Generation, draw_set, dump_yaml

SUITE_MIN_NORMAL = 5  # under five normal tasks no set can keep "at most 20% in any 60 s window"


def kinds_of(env: Environment) -> tuple[Any, ...]:
    if not env.kinds:
        raise SentinelError(f"{env.name}: no scenario kinds yet (add sentinel/envs/{env.name}/kinds.py "
                            "exporting KINDS; docs/scenarios.md#adding-kinds)")
    return env.kinds


async def generate_set(config: Config, env_name: str, seed: int, count: int, kind: str | None = None,
                       overrides: Mapping[str, float] | None = None) -> Generation:
    """Draw a validated set of `count` scenarios of one environment."""
    env = get_environment(env_name)
    kinds = kinds_of(env)
    catalog = Catalog.of(env, config.catalogs_dir)
    scratch = Path(tempfile.mkdtemp(prefix="sentinel-generate-"))
    folder = scratch / env.name
    folder.mkdir()
    loaded: dict[str, Scenario] = {}

    async def check(data: Mapping[str, Any]) -> list[str]:
        path = folder / f"{data['id']}.yaml"
        path.write_text(dump_yaml(data), encoding="utf-8")
        try:
            scenario = load_scenario(path)
        except ScenarioError as exc:
            return [str(p) for p in exc.problems]
        problems = [f"{p.field}: {p.reason}" for p in await validate_scenario(scenario, config)]
        if not problems:
            loaded[scenario.id] = scenario
        return problems

    async def set_check(made: Sequence[GeneratedScenario]) -> list[str]:
        members = [loaded[m.id] for m in made]
        if sum(not s.is_noop for s in members) < SUITE_MIN_NORMAL:
            return []
        found = suite_problems(members)
        if kind is not None:  # one kind alone cannot carry the share of conditions that pass
            found = [p for p in found if p.field != "condition_until"]
        return [f"{p.field}: {p.reason}" for p in found]

    try:
        return await draw_set(env.name, kinds, catalog, seed, count, kind=kind, overrides=overrides,
                              check=check, set_check=set_check)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def write_set(generation: Generation, out: Path, force: bool = False) -> list[Path]:
    """Write every scenario as out/<id>.yaml; an existing file is kept unless force."""
    if out.exists() and not out.is_dir():
        raise SentinelError(f"--out {out}: not a folder")
    targets = [out / g.filename for g in generation]
    clashes = [p for p in targets if p.exists()]
    if clashes and not force:
        raise SentinelError(f"--out {out}: {len(clashes)} file(s) exist already (e.g. {clashes[0].name}); "
                            "pass --force to overwrite them or choose another folder")
    out.mkdir(parents=True, exist_ok=True)
    for g, path in zip(generation, targets, strict=True):
        tmp = path.with_suffix(".yaml.tmp")
        tmp.write_text(g.dump(), encoding="utf-8")
        tmp.replace(path)
    return targets


async def trial_variants(config: Config, scenarios: Sequence[Scenario], seed: int, trials: int,
                         folder: Path) -> dict[str, tuple[Scenario, ...]]:
    """For every scenario whose short id is a kind of its environment: one variant per trial,
    drawn with `seed` (trial t gets the set's t-th scenario), written under `folder` (the oracle
    reads its file) and loaded with the kind scenario's id, so results group trials by kind;
    the variant's own id is kept in `generated.variant`."""
    out: dict[str, tuple[Scenario, ...]] = {}
    for scenario in scenarios:
        env = get_environment(scenario.environment)
        if scenario.short_id not in {k.name for k in env.kinds}:
            continue
        made = await generate_set(config, env.name, seed, trials, kind=scenario.short_id)
        files = write_set(made, folder / env.name, force=True)
        variants = []
        for g, path in zip(made, files, strict=True):
            loaded = load_scenario(path)
            variants.append(replace(loaded, id=scenario.id, generated={**(loaded.generated or {}), "variant": g.id}))
        out[scenario.id] = tuple(variants)
    return out
