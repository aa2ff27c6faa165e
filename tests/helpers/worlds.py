"""Worlds to open sessions on: every environment (the built-in ones plus MicroTodo, the tiny one in
tests/microtodo/), the whole catalog of one, MicroTodo with a hostile catalog, and a dump of a
world's tables to compare before and after."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime

from microtodo import ENV as MICROTODO

from sentinel.core.config import load_config
from sentinel.core.environment import Environment
from sentinel.core.scenario import Event, Scenario
from sentinel.envs import EXTRA_VARIABLE, environments, get_environment
from sentinel.envs.catalog import catalog_scenario

WORLD_START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ENVIRONMENTS = [*environments().values(), MICROTODO]  # the `env` fixture's parameters (conftest.py)

# Text that must stay text wherever it is shown: a script, markup breaking out of an attribute,
# SQL, right-to-left marks, and a 20,000-character word.
PAYLOADS = [
    '<script>window.__pwned = "script"</script>',
    '"><img src=x onerror="window.__pwned=\'img\'">',
    "' OR 1=1; DROP TABLE personas; --",
    "\u202eevil right-to-left \u202c<b>bold?</b>",
    "W" * 20_000,
]


def whole_catalog(env: Environment | str) -> Scenario:
    """A scenario whose world holds the environment's whole catalog (as `sentinel serve` shows)."""
    return catalog_scenario(get_environment(env) if isinstance(env, str) else env, load_config())


async def dump(world) -> dict[str, list[tuple]]:
    """Every row of every table of a world, in insertion order."""
    tables = [r[0] for r in await world.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: [tuple(r) for r in await world.fetch_all(f"SELECT * FROM {t} ORDER BY rowid")] for t in tables}


async def hostile_microtodo(env_session, tmp_path, monkeypatch):
    """A live session of the tiny environment whose catalog's every text field is hostile:
    (the session, the catalog's task rows)."""
    monkeypatch.setenv(EXTRA_VARIABLE, "microtodo")
    catalog = tmp_path / "catalog"
    catalog.mkdir()
    rows = [{"id": f"td{n:03d}", "title": payload[:5000], "notes": payload, "age_minutes": n}
            for n, payload in enumerate(PAYLOADS, 1)]
    (catalog / "tasks.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    hostile = dataclasses.replace(MICROTODO, catalog_dir=catalog)
    scenario = dataclasses.replace(whole_catalog(MICROTODO), events=(Event(0, "preload", {"tasks": "*"}, 0),))
    live = await env_session(scenario, environment=hostile)
    return live, rows
