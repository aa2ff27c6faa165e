"""`sentinel sweep`: one agent at several speeds, a run per rung and a table of the rungs."""

from __future__ import annotations

import json

import pytest
from helpers.runs import write_test_config

from sentinel.cli import main


@pytest.mark.slow
def test_sweep_runs_each_speed_and_tabulates_the_rungs(tmp_path, capsys):
    config = write_test_config(tmp_path)
    code = main(["sweep", "--agent", "oracle", "--config", str(config), "--task", "rise", "--task", "rise_buy",
                 "--speeds", "200,100", "--run", "ladder", "--ci"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Speed sweep of oracle" in out and "2/2 (100%)" in out
    sweep = json.loads((tmp_path / "results" / "ladder" / "sweep.json").read_text())
    assert [r["speed"] for r in sweep["rungs"]] == [200, 100]
    assert [r["horizon_s"] for r in sweep["rungs"]] == [3, 6]
    assert all(r["passed"] == r["total"] == 2 and r["reaction_p50"] >= 0 for r in sweep["rungs"])
    assert sweep["scenarios"] == ["microhood-rise", "microhood-rise_buy"]
    for speed in ("200", "100"):
        run = json.loads((tmp_path / "results" / "ladder" / f"speed-{speed}" / "run.json").read_text())
        assert run["speed"] == float(speed) and run["agent"] == "oracle"
    assert main(["grade", str(tmp_path / "results" / "ladder" / "speed-100"), "--config", str(config)]) == 0


def test_sweep_input_errors_are_one_line(tmp_path, capsys):
    config = write_test_config(tmp_path)
    assert main(["sweep", "--agent", "oracle", "--config", str(config), "--speed", "2"]) == 2
    assert "--speeds (a list), not --speed" in capsys.readouterr().err
    assert main(["sweep", "--agent", "oracle", "--config", str(config), "--speeds", "2,fast"]) == 2
    assert "expected numbers separated by commas" in capsys.readouterr().err
    assert main(["sweep", "--agent", "oracle", "--config", str(config), "--speeds", "0,1"]) == 2
    assert "speed must be > 0" in capsys.readouterr().err
    assert main(["run", "--agent", "oracle", "--config", str(config), "--model", "gpt-4o"]) == 2
    assert "the oracle agent uses no model" in capsys.readouterr().err
