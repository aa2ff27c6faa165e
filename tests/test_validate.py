"""`sentinel validate`: each rule of docs/scenarios.md#validation gives one line naming file, field and reason."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sentinel.checks.suite_rules import suite_problems, suite_split
from sentinel.checks.validate import validate_all
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.scenario import load_scenario

RISE = (REPO_ROOT / "tests/data/scenarios/microhood/rise.yaml").read_text()
PRELOAD = '  - {at: 0, type: preload, stocks: "*", price_waypoints: {CHPX: [[10, 500]]}}\n'
TARGET = '  - {at: 60, type: price_waypoint, symbol: CHPX, price: 540, ramp_s: 0, _note: "CHPX jumps from $500 to $540, past $520"}\n'
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
    data += sorted((REPO_ROOT / "tests/data/env_scenarios").glob("*/*.yaml"))  # kept for environment tests
    assert (await validate_all(config, data))[1] == []


@pytest.mark.parametrize("old, new, expected", [
    (TARGET, TARGET.replace("price_waypoint", "price_jump"), "events[1].type: unknown event type 'price_jump'"),
    (TARGET, TARGET.replace("CHPX", "ZZZZ"), "events[1].symbol: 'ZZZZ' is not in the stocks catalog"),
    (TARGET, TARGET.replace("ramp_s: 0,", "ramp_s: 0, colour: red,"), "events[1].colour: unknown field for price_waypoint"),
    (TARGET, TARGET + "  - {at: 30, type: new_news, news_id: nw001}\n", "events[2].at: 30 comes before the previous event's 60: out of order"),
    (PRELOAD, PRELOAD + "  - {at: 0, type: new_news, news_id: nw001}\n",
     "events[1].at: new_news belongs on the timeline (at > 0); the preload fills time 0"),
    (TARGET, TARGET + "  - {at: 800, type: price_waypoint, symbol: CHPX, price: 9, ramp_s: 0}\n", "events[2].at: 800 is outside the timeline [0, 720]"),
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


@pytest.mark.slow
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
    assert done.returncode == 1
    assert "not valid YAML" in done.stdout
    assert "Traceback" not in done.stderr


def test_microhood_checks_take_the_timeline_end_from_the_timing_they_are_given():
    from dataclasses import replace

    from sentinel.core.catalog import Catalog
    from sentinel.core.scenario import load_scenario
    from sentinel.envs.microhood.checks import check_scenario

    config = load_config()
    scenario = load_scenario(REPO_ROOT / "scenarios/verified/microhood/price_target.yaml")
    catalog = Catalog(config.catalogs_dir, "microhood")
    assert check_scenario(scenario, catalog, config.timing) == []
    short = replace(config.timing, event_timeline_end=400.0)
    problems = check_scenario(scenario, catalog, short)
    assert ("events[0].price_waypoints.CHPR", "time 650 is outside [0, 400]") in problems


# --- the validity rules of docs/environments.md#validity-rules, one scenario that breaks each -----------------

COND = "condition_sql: SELECT price >= 520 FROM current_prices WHERE symbol = 'CHPX'\n"
NOOP = {"condition_at: 60": "condition_at: null", "activity: passive": "activity: noop", SQL: "",
        "at_least: 520}": "at_least: 900}"}


def variant(tmp_path: Path, name: str, changes: dict[str, str]) -> Path:
    text = RISE.replace("microhood-rise", f"microhood-{name}")
    for old, new in changes.items():
        assert old in text, old
        text = text.replace(old, new)
    folder = tmp_path / "microhood"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("changes, expected", [
    ({COND: ""}, "condition_sql: missing: every scenario states its condition"),
    ({COND: COND.replace(">= 520", ">= 400")}, "condition_sql: already true at sim 0 s, before condition_at 60"),
    ({COND: COND.replace(">= 520", ">= 600")}, "condition_sql: still false at condition_at 60 s"),
    ({**NOOP, COND: COND + "near_miss_sql: SELECT 1\n"}, "condition_sql: true at sim 60 s, but a no-op's condition never holds"),
    ({**NOOP, COND: COND.replace(">= 520", ">= 900")}, "near_miss_sql: missing: a no-op needs a near miss"),
    ({**NOOP, COND: COND.replace(">= 520", ">= 900") + "near_miss_sql: SELECT price >= 899 FROM current_prices WHERE symbol = 'CHPX'\n"},
     "near_miss_sql: never true during the timeline"),
    ({"condition_at: 60": "condition_at: 60\ncondition_until: 120"},
     "condition_until: condition_sql still true at sim 120 s, at or after condition_until 120"),
    ({', _note: "CHPX jumps from $500 to $540, past $520"': ""},
     "events[1]._note: missing: this event turns condition_sql true (at sim 60 s)"),
])
async def test_each_validity_rule_is_named(tmp_path, changes, expected):
    found = await problems_of(variant(tmp_path, "breaks", changes))
    assert any(line.startswith(expected) for line in found), found


async def test_a_condition_that_passes_and_a_real_near_miss_are_accepted(tmp_path):
    fall = "  - {at: 150, type: price_waypoint, symbol: CHPX, price: 505, ramp_s: 0, _note: \"CHPX falls back under $520\"}\n"
    passing = variant(tmp_path, "passing", {"condition_at: 60": "condition_at: 60\ncondition_until: 150", TARGET: TARGET + fall})
    noop = variant(tmp_path, "near", {**NOOP, COND: COND.replace(">= 520", ">= 541")
                                      + "near_miss_sql: SELECT price >= 540 FROM current_prices WHERE symbol = 'CHPX'\n"})
    assert await problems_of(passing) == [] and await problems_of(noop) == []


@pytest.mark.parametrize("changes, field, reason", [
    ({"condition_at: 60": "condition_at: 60\ncondition_until: 40"}, "condition_until", "40 must come after condition_at 60"),
    ({**NOOP, COND: COND + "condition_until: 100\n"}, "condition_until", "a no-op has no condition to pass"),
    ({COND: COND + "near_miss_sql: SELECT 1\n"}, "near_miss_sql", "only a no-op task has a near miss"),
    ({"ramp_s: 0, _note": "ramp_s: 0, _role: target, _note"}, "events[1]._role", "unknown authoring field"),
])
async def test_the_new_fields_are_checked_while_loading(tmp_path, changes, field, reason):
    found = await problems_of(variant(tmp_path, "shape", changes))
    assert any(line.startswith(f"{field}: {reason}") for line in found), found


# --- suite rules: checked on loaded scenarios (no replay needed), and by validate on a folder ----

def suite(tmp_path: Path, times: list[float | None], until: dict[int, float] | None = None,
          activity: str = "passive", env: str = "microhood") -> list:
    """Scenarios of one environment with these condition_at values (None: a no-op)."""
    out = []
    for n, at in enumerate(times):
        changes = {} if at is not None else dict(NOOP)
        if at is not None:
            changes["condition_at: 60"] = f"condition_at: {at:g}" + (f"\ncondition_until: {until[n]:g}" if until and n in until else "")
            changes["activity: passive"] = f"activity: {activity}"
        path = variant(tmp_path, f"s{n}", changes)
        text = path.read_text().replace("microhood", env)
        target = tmp_path / env / path.name
        target.parent.mkdir(exist_ok=True)
        target.write_text(text)
        out.append(load_scenario(target))
    return out


SPREAD = [15, 100, 170, 240, 310, 380, 490, 560]


def rules_broken(scenarios) -> list[str]:
    return [f"{p.field}: {p.reason}" for p in suite_problems(scenarios)]


def test_a_well_spread_environment_passes_the_suite_rules(tmp_path):
    assert rules_broken(suite(tmp_path, SPREAD + [None])) == []
    assert suite_split(suite(tmp_path, SPREAD + [None])) == [
        "microhood: 8 passive / 0 active / 1 noop; normal tasks 8 absolute / 0 relative"]


@pytest.mark.parametrize("times, expected", [
    ([200, 250, 320, 370, 420, 490, 560, 590], "condition_at: 0 of 8 normal tasks have condition_at under 120 s"),
    ([15, 100, 170, 240, 310, 380, 420, 470], "condition_at: 0 of 8 normal tasks have condition_at over 480 s"),
    ([15, 100, 170, 200, 220, 380, 490, 560], "condition_at: 3 of 8 normal tasks fall in the 60 s window [170, 230] s"),
])
def test_each_spread_rule_is_named(tmp_path, times, expected):
    found = rules_broken(suite(tmp_path, times))
    assert any(line.startswith(expected) for line in found), found


def test_every_environment_needs_an_early_and_a_late_target(tmp_path):
    mail = suite(tmp_path, [15, 100, 170, 240], env="micromail")
    hood = suite(tmp_path, [310, 380, 490, 560], env="microhood")
    found = rules_broken(mail + hood)
    assert "condition_at: no micromail task has condition_at over 480 s (validity rules: spread target times)" in found
    assert "condition_at: no microhood task has condition_at under 120 s (validity rules: spread target times)" in found


def test_active_tasks_need_conditions_that_pass(tmp_path):
    none_pass = suite(tmp_path, SPREAD, activity="active")
    found = rules_broken(none_pass)
    assert any(line.startswith("condition_until: no active microhood task has a condition that passes") for line in found)
    assert any(line.startswith("condition_until: 0 of 8 active tasks have a condition that passes") for line in found)
    one_passes = suite(tmp_path, SPREAD, until={0: 90}, activity="active")
    assert any(line.startswith("condition_until: 1 of 8 active tasks") for line in rules_broken(one_passes))
    assert rules_broken(suite(tmp_path, SPREAD, until={0: 90, 3: 300}, activity="active")) == []


async def test_validate_runs_the_suite_rules_on_a_folder_but_not_on_single_files(tmp_path):
    scenarios = suite(tmp_path, [200, 330])
    folder = tmp_path / "microhood"
    split: list[str] = []
    _, problems = await validate_all(load_config(), [folder], summary=split)
    assert any(p.field == "condition_at" and "under 120 s" in p.reason and p.file == str(folder) for p in problems)
    assert split == ["microhood: 2 passive / 0 active / 0 noop; normal tasks 2 absolute / 0 relative"]
    _, alone = await validate_all(load_config(), [s.path for s in scenarios])
    assert alone and not any(p.file == str(folder) or "120 s" in p.reason for p in alone)
