"""Every kind's generated scenario files stay byte for byte what they were when the hashes in
tests/data/generated_golden.json were taken (on 9af8c63, before the kit was reshaped): one file
per kind with seeds 1, 2 and 3, and each environment's whole set (one draw per kind) per seed.

A change that means to alter generated files regenerates the hashes with
`python tests/test_generated_golden.py > tests/data/generated_golden.json` and says why."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from pathlib import Path

import pytest

from sentinel.checks.drafts import generate_set
from sentinel.core.config import load_config
from sentinel.envs import environments, get_environment

GOLDEN = Path(__file__).parent / "data" / "generated_golden.json"
SEEDS = (1, 2, 3)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


async def hashes_of(env_name: str) -> dict[str, str]:
    """The hash of every golden file of one environment, keyed env/kind/seed and env/set/seed/index."""
    config = load_config()
    env = get_environment(env_name)
    found: dict[str, str] = {}
    for seed in SEEDS:
        for kind in env.kinds:
            for made in await generate_set(config, env_name, seed, 1, kind.name):
                found[f"{env_name}/{kind.name}/{seed}"] = digest(made.dump())
        for made in await generate_set(config, env_name, seed, len(env.kinds)):
            found[f"{env_name}/set/{seed}/{made.index}"] = digest(made.dump())
    return found


@pytest.mark.slow
@pytest.mark.parametrize("env_name", sorted(environments()))
async def test_generated_files_match_the_golden_hashes(env_name):
    golden = {k: v for k, v in json.loads(GOLDEN.read_text()).items() if k.startswith(f"{env_name}/")}
    found = await hashes_of(env_name)
    changed = sorted(k for k in golden.keys() | found.keys() if golden.get(k) != found.get(k))
    assert changed == [], f"generated files differ from the golden hashes: {changed}"


if __name__ == "__main__":
    every: dict[str, str] = {}
    for name in sorted(environments()):
        every.update(asyncio.run(hashes_of(name)))
    json.dump(every, sys.stdout, indent=1, sort_keys=True)
    print()
