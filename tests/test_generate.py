"""sentinel generate: deterministic, validated scenario sets drawn from an environment's kinds;
--scenarios-dir runs of a generated set; --variants give each trial its own variant."""

import asyncio
import json
import math
import re
import subprocess
import sys
from types import SimpleNamespace

import pytest

from sentinel import api
from sentinel.checks.drafts import generate_set
from sentinel.cli import main
from sentinel.core.config import load_config
from sentinel.core.errors import SentinelError
from sentinel.core.kinds import Kind, Knobs, check_kinds, parse_knobs
from sentinel.core.scenario import load_scenario
from sentinel.envs import environments

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def envs_with_kinds():
    return sorted(name for name, env in environments().items() if env.kinds)


def test_generate_is_pure_core():
    code = "import sys, sentinel.core.kinds, sentinel.generation.kit; print(' '.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert not {m.split(".")[0] for m in loaded} & {"aiohttp", "textual", "aiosqlite", "jinja2"}


def test_same_seed_same_bytes_and_the_files_validate(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    assert main(["generate", "--env", "micromail", "--seed", "7", "--count", "3", "--out", str(first)]) == 0
    assert main(["generate", "--env", "micromail", "--seed", "7", "--count", "3", "--out", str(second)]) == 0
    names = sorted(p.name for p in first.iterdir())
    assert names == sorted(p.name for p in second.iterdir()) and len(names) == 3
    assert all((first / n).read_bytes() == (second / n).read_bytes() for n in names)
    checked = api.validate([first / n for n in names])
    assert checked.ok, checked.problems
    scenario = load_scenario(first / names[0])
    assert scenario.generated["seed"] == 7 and scenario.generated["kind"] == "attachment_name"
    assert scenario.id == "micromail-attachment_name-s7-000"


def test_another_seed_draws_other_scenarios(tmp_path):
    api.generate("micromail", 1, 1, tmp_path / "one", kind="sender_arrives")
    api.generate("micromail", 2, 1, tmp_path / "two", kind="sender_arrives")
    one = (tmp_path / "one" / "micromail-sender_arrives-s1-000.yaml").read_text()
    two = (tmp_path / "two" / "micromail-sender_arrives-s2-000.yaml").read_text()
    assert one.split("events:")[1] != two.split("events:")[1]


@pytest.mark.parametrize("env", envs_with_kinds())
def test_every_kind_generates_a_scenario_that_validates(env):
    config = load_config(None)
    kinds = environments()[env].kinds
    for kind in kinds:  # generate_set runs validate's checks (replay included) on every draw it keeps
        made = asyncio.run(generate_set(config, env, 3, 1, kind=kind.name))
        assert made.acceptance[kind.name][0] == 1
        data = made[0].data
        assert data["taxonomy"]["activity"] == kind.activity
        assert (data["condition_at"] is None) == kind.is_noop
        assert data["solution"] and data["condition_sql"]
        for field in ("description", "prompt", *(f"taxonomy.{k}" for k in data["taxonomy"])):
            text = data["taxonomy"][field[9:]] if field.startswith("taxonomy.") else data[field]
            assert not re.search(r"\{\w+[^}]*\}", text), f"{kind.name}: {field} not filled in: {text}"


def test_knobs_change_the_output():
    config = load_config(None)
    few = asyncio.run(generate_set(config, "micromail", 5, 1, kind="inbox_growth", overrides={"decoys": 1,
                                                                                              "density": 0.5}))
    many = asyncio.run(generate_set(config, "micromail", 5, 1, kind="inbox_growth", overrides={"decoys": 6,
                                                                                               "density": 3}))
    assert len(many[0].data["events"]) > len(few[0].data["events"]) + 10
    assert many[0].data["generated"]["knobs"]["decoys"] == 6
    notes = [e.get("_note", "") for e in many[0].data["events"]]
    assert sum("junk" in n for n in notes) == 6


@pytest.mark.parametrize("item, message", [
    ("loud=3", "NAME one of decoys"), ("decoys=x", "not a number"), ("decoys=2.5", "whole number"),
    ("near_miss=4", "between 0 and 1"), ("hold_s", "NAME=VALUE"),
])
def test_bad_knob_is_one_clear_line(item, message, capsys, tmp_path):
    with pytest.raises(SentinelError, match=message):
        parse_knobs([item])
    assert main(["generate", "--env", "micromail", "--seed", "1", "--count", "1", "--out", str(tmp_path),
                 "--knob", item]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("sentinel: --knob") and "\n" not in err


def test_bad_env_kind_and_out_are_clear(tmp_path, capsys):
    args = ["generate", "--seed", "1", "--count", "1", "--out", str(tmp_path / "x")]
    assert main([*args, "--env", "nowhere"]) == 2
    assert "unknown environment" in capsys.readouterr().err
    assert main([*args, "--env", "micromail", "--kind", "nope"]) == 2
    assert "--kind nope: unknown; kinds are attachment_name" in capsys.readouterr().err
    no_kinds = sorted(set(environments()) - set(envs_with_kinds()))
    if no_kinds:
        assert main([*args, "--env", no_kinds[0]]) == 2
        assert "no scenario kinds yet" in capsys.readouterr().err
    (tmp_path / "file").write_text("x")
    assert main([*args[:-1], str(tmp_path / "file"), "--env", "micromail"]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_existing_files_are_not_overwritten_without_force(tmp_path, capsys):
    out = tmp_path / "set"
    api.generate("micromail", 4, 1, out, kind="junk_growth")
    path = out / "micromail-junk_growth-s4-000.yaml"
    path.write_text("edited")
    with pytest.raises(SentinelError, match="exist already"):
        api.generate("micromail", 4, 1, out, kind="junk_growth")
    assert path.read_text() == "edited"
    api.generate("micromail", 4, 1, out, kind="junk_growth", force=True)
    assert path.read_text().startswith("id: micromail-junk_growth-s4-000")


def test_kinds_must_have_unique_names():
    kind = Kind("twice", "passive", "absolute", lambda rng, catalog, knobs: {}, Knobs())
    with pytest.raises(ValueError, match="two scenario kinds are named 'twice'"):
        check_kinds([kind, kind], "microx")


@pytest.mark.slow
def test_a_generated_set_runs_with_the_oracle(tmp_path):
    out = tmp_path / "set"
    api.generate("micromail", 11, 2, out, kind="sender_arrives", knobs=["latest=40"])
    outcome = api.run(agent="oracle", scenarios_dir=out, speed=200, run_name="gen-oracle",
                      config=_config(tmp_path))
    assert [r.success for r in outcome.results] == [True, True]
    assert {r.scenario_id for r in outcome.results} == {"micromail-sender_arrives-s11-000",
                                                        "micromail-sender_arrives-s11-001"}
    assert (outcome.run_dir / "micromail" / "sender_arrives-s11-000" / "result.json").exists()


def test_variants_differ_between_trials(tmp_path):
    config = _config(tmp_path)
    _, plan = api.prepare_run(agent="oracle", envs=["micromail"], tasks=["junk_growth"], trials=2, variants=True,
                              seed=3, speed=200, run_name="gen-variants", config=config)
    jobs = plan.jobs()
    assert [j.scenario.id for j in jobs] == ["micromail-junk_growth"] * 2
    timelines = [[(e.at, e.fields.get("email_id")) for e in j.scenario.timeline] for j in jobs]
    assert timelines[0] != timelines[1]
    assert [j.scenario.generated["variant"] for j in jobs] == ["micromail-junk_growth-s3-000",
                                                               "micromail-junk_growth-s3-001"]
    with pytest.raises(SentinelError, match="--variants needs --seed"):
        api.prepare_run(agent="oracle", envs=["micromail"], trials=2, variants=True, config=config)


def _config(tmp_path):
    from dataclasses import replace
    return replace(load_config(None), results_dir=tmp_path / "results")


@pytest.mark.slow
def test_result_names_the_variant(tmp_path):
    """A finished variant trial's result.json says which variant ran (grade groups by the kind's id)."""
    config = _config(tmp_path)
    outcome = api.run(agent="oracle", envs=["micromail"], tasks=["sender_arrives"], trials=2, speed=200,
                      run_name="gen-var-run", config=config, variants=True, seed=5)
    assert all(r.success for r in outcome.results) and len(outcome.results) == 2
    stored = [json.loads((outcome.run_dir / "micromail" / f"sender_arrives.t{t}" / "result.json").read_text())
              for t in (1, 2)]
    assert [s["variant"] for s in stored] == ["micromail-sender_arrives-s5-000", "micromail-sender_arrives-s5-001"]
    assert {s["scenario_id"] for s in stored} == {"micromail-sender_arrives"}


@pytest.mark.parametrize("n", [2, 5, 8, 9, 10, 16, 33, 80])
def test_target_windows_keep_the_spread_rule_wherever_each_draw_lands(n):
    """Any whole-second time inside each window (its edges, rounded either way) keeps the suite's
    spread of target times."""
    from sentinel.checks.suite_rules import _window_problems
    from sentinel.generation.draw import _strata

    windows = _strata(n)
    assert len(windows) == n and all(a <= b for a, b in windows)
    edge = max(1, math.ceil(0.2 * n))
    lows = [math.floor(a) for a, _ in windows]
    highs = [math.ceil(b) for _, b in windows]
    closest = [[(highs if (i + k) % 2 else lows)[i] for i in range(n)] for k in (0, 1)]  # neighbours drawn together
    for times in [lows, highs, *closest]:
        assert sum(t < 120 for t in times) >= edge and sum(t > 480 for t in times) >= edge
        assert all(10 <= t <= 600 for t in times)
        if n >= 5:
            normal = [SimpleNamespace(condition_at=float(t), id=f"s{i}") for i, t in enumerate(times)]
            assert _window_problems(normal, "set") == [], times
