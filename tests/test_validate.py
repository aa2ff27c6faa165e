"""`sentinel validate`: each rule of DESIGN §5 gives one line naming file, field and reason."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sentinel.config import REPO_ROOT, load_config
from sentinel.validate import validate_all

RISE = (REPO_ROOT / "tests/data/scenarios/microhood/rise.yaml").read_text()
PRELOAD = '  - {at: 0, type: preload, stocks: "*", price_waypoints: {CHPX: [[10, 500]]}}\n'
TARGET = "  - {at: 60, type: price_waypoint, symbol: CHPX, price: 540, ramp_s: 0}\n"
SQL = "eval_sql: SELECT price >= 520 FROM current_prices WHERE symbol = 'CHPX'\n"


def broken(tmp_path: Path, old: str, new: str, name: str = "broken") -> Path:
    assert old in RISE, old
    folder = tmp_path / "microhood"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(RISE.replace(old, new).replace("microhood-rise", f"microhood-{name}"))
    return path


async def problems_of(path: Path) -> list[str]:
    _, problems = await validate_all(load_config(), [path])
    assert all(p.file == str(path) for p in problems)
    return [f"{p.field}: {p.reason}" for p in problems]


async def test_the_repository_scenarios_and_test_data_are_valid():
    config = load_config()
    checked, problems = await validate_all(config)
    assert checked >= 20 and [str(p) for p in problems] == []
    data = sorted((REPO_ROOT / "tests/data/scenarios").glob("*/*.yaml"))
    assert (await validate_all(config, data))[1] == []


@pytest.mark.parametrize("old, new, expected", [
    (TARGET, TARGET.replace("price_waypoint", "price_jump"), "events[1].type: unknown event type 'price_jump'"),
    (TARGET, TARGET.replace("CHPX", "ZZZZ"), "events[1].symbol: 'ZZZZ' is not in the stocks catalog"),
    (TARGET, TARGET.replace("ramp_s: 0", "ramp_s: 0, colour: red"),
     "events[1].colour: unknown field for price_waypoint"),
    (TARGET, TARGET + "  - {at: 30, type: new_news, news_id: nw001}\n",
     "events[2].at: 30 comes before the previous event's 60: out of order"),
    (TARGET, TARGET + "  - {at: 800, type: price_waypoint, symbol: CHPX, price: 9, ramp_s: 0}\n",
     "events[2].at: 800 is outside the timeline [0, 720]"),
    ("condition_at: 60", "condition_at: 700", "condition_at: 700 is outside [10, 600]"),
    ("condition_at: 60", "condition_at: 5", "condition_at: 5 is outside [10, 600]"),
    (PRELOAD, "", "events[0]: the first event must be the preload at 0"),
    (SQL, "eval_sql: SELECT 1; SELECT 2\n", "eval_sql: must be exactly one statement"),
    (SQL, "eval_sql: DELETE FROM orders\n", "eval_sql: must be one read-only SELECT"),
    (SQL, "eval_sql: SELECT nonsense FROM current_prices\n", "eval_sql: does not compile against the microhood schema"),
    (SQL, "eval_sql: SELECT COUNT(*) >= 0 FROM stocks\n",
     "eval_sql: already true at sim 59.999 s, just before condition_at"),
    (SQL, "eval_sql: SELECT price >= 600 FROM current_prices WHERE symbol = 'CHPX'\n",
     "eval_sql: still false at condition_at 60 s"),
])
async def test_each_broken_rule_is_named(tmp_path, old, new, expected):
    found = await problems_of(broken(tmp_path, old, new))
    assert any(line.startswith(expected) for line in found), found


async def test_catalog_ids_in_the_preload_are_checked(tmp_path):
    path = broken(tmp_path, PRELOAD, PRELOAD.replace('stocks: "*"', "stocks: [CHPX, NOPE]"))
    assert any("'NOPE' is not in the stocks catalog" in line for line in await problems_of(path))


def test_cli_prints_one_line_per_problem_and_exits_1(tmp_path):
    bad = broken(tmp_path, "condition_at: 60", "condition_at: 700")
    worse = broken(tmp_path, TARGET, TARGET.replace("price_waypoint", "teleport").replace("CHPX", "ZZZZ"), "worse")
    done = subprocess.run([sys.executable, "-m", "sentinel.cli", "validate", str(bad), str(worse)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    lines = done.stdout.strip().splitlines()
    assert f"{bad}: condition_at: 700 is outside [10, 600]" in lines
    assert any(line.startswith(f"{worse}: events[1].type: unknown event type 'teleport'") for line in lines)
    assert all(line.startswith((str(bad), str(worse))) for line in lines)
    assert "2 scenario file(s) checked" in done.stderr
    garbage = tmp_path / "microhood" / "garbage.yaml"
    garbage.write_text("id: [\n")
    done = subprocess.run([sys.executable, "-m", "sentinel.cli", "validate", str(garbage)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "not valid YAML" in done.stdout and "Traceback" not in done.stderr


def test_microhood_checks_take_the_timeline_end_from_the_timing_they_are_given():
    from dataclasses import replace

    from sentinel.catalog import Catalog
    from sentinel.envs.microhood.checks import check_scenario
    from sentinel.scenario import load_scenario

    config = load_config()
    scenario = load_scenario(REPO_ROOT / "scenarios/microhood/price_target.yaml")
    catalog = Catalog(config.catalogs_dir, "microhood")
    assert check_scenario(scenario, catalog, config.timing) == []
    short = replace(config.timing, event_timeline_end=400.0)
    problems = check_scenario(scenario, catalog, short)
    assert ("events[0].price_waypoints.CHPR", "time 650 is outside [0, 400]") in problems
