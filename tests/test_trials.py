"""pass@k and pass^k on constructed results with known answers, and how grade shows them."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from fractions import Fraction

import pytest
from helpers.results import make_result, write_run

from sentinel.cli.display import grade_tables
from sentinel.core.summary import summarize
from sentinel.core.trials import pass_at_k, pass_hat_k, pass_table, trial_counts
from sentinel.outputs.export import grade_csv, grade_json


def test_pass_at_k_is_the_unbiased_estimator():
    # n=5, c=2: pass@1 = 2/5; pass@2 = 1 - C(3,2)/C(5,2) = 1 - 3/10; pass@4 = 1 - 0/5 (any 4 include a pass)
    assert pass_at_k(5, 2, 1) == pytest.approx(0.4)
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7)
    assert pass_at_k(5, 2, 3) == pytest.approx(1 - 1 / 10)
    assert pass_at_k(5, 2, 4) == 1.0
    assert pass_at_k(3, 0, 2) == 0.0 and pass_at_k(3, 3, 1) == 1.0


def test_pass_hat_k_is_the_chance_that_all_k_pass():
    # n=5, c=3: pass^1 = 3/5; pass^2 = C(3,2)/C(5,2) = 3/10; pass^3 = 1/10; pass^4 = 0
    assert pass_hat_k(5, 3, 1) == pytest.approx(0.6)
    assert pass_hat_k(5, 3, 2) == pytest.approx(0.3)
    assert pass_hat_k(5, 3, 3) == pytest.approx(0.1)
    assert pass_hat_k(5, 3, 4) == 0.0
    assert pass_hat_k(4, 4, 4) == 1.0


@pytest.mark.parametrize("n, c, k", [(3, 4, 1), (3, 1, 0), (3, 1, 4), (0, 0, 1), (3, -1, 1)])
def test_impossible_counts_are_refused(n, c, k):
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)
    with pytest.raises(ValueError):
        pass_hat_k(n, c, k)


def three_scenarios() -> list:
    """A passes 3 of 3, B passes 1 of 3, C passes 0 of 3 (C's third trial is an infra error)."""
    outcomes = {"microhood-a": [True, True, True], "microhood-b": [False, True, False],
                "micromail-c": [False, False, False]}
    results = [make_result(sid, ok, trial=t + 1) for sid, oks in outcomes.items() for t, ok in enumerate(oks)]
    results[-1] = make_result("micromail-c", False, trial=3, infra_error="agent crashed at start")
    return results


def test_pass_table_averages_over_scenarios():
    table = pass_table(three_scenarios())
    assert [p.k for p in table] == [1, 2, 3] and all(p.scenarios == 3 for p in table)
    expected_at = [Fraction(4, 9), Fraction(5, 9), Fraction(2, 3)]  # A: 1,1,1  B: 1/3, 2/3, 1  C: 0
    expected_hat = [Fraction(4, 9), Fraction(1, 3), Fraction(1, 3)]  # A: 1,1,1  B: 1/3, 0, 0  C: 0
    for row, at, hat in zip(table, expected_at, expected_hat, strict=True):
        assert row.pass_at == pytest.approx(float(at)) and row.pass_hat == pytest.approx(float(hat))
    assert trial_counts(three_scenarios()) == {"microhood-a": (3, 3), "microhood-b": (3, 1), "micromail-c": (3, 0)}


def test_pass_at_1_equals_the_success_rate_and_uneven_trials_leave_scenarios_out():
    results = three_scenarios()
    summary = summarize(results)
    assert summary.trials == 3
    assert summary.pass_k[0].pass_at == pytest.approx(summary.overall.rate)
    uneven = results + [make_result("microhood-d", True, trial=1)]  # one trial only: counts for k=1 only
    table = pass_table(uneven)
    assert [p.scenarios for p in table] == [4, 3, 3]
    assert table[0].pass_at == pytest.approx((1 + 1 / 3 + 0 + 1) / 4)
    assert table[1].pass_at == pytest.approx(5 / 9)


def test_a_single_trial_run_has_trials_1():
    summary = summarize([make_result("microhood-a", True), make_result("microhood-b", False)])
    assert summary.trials == 1 and [p.k for p in summary.pass_k] == [1]
    assert summary.to_dict()["pass_k"] == [{"k": 1, "pass_at": 0.5, "pass_hat": 0.5, "scenarios": 2}]
    assert "Repeated trials" not in [t.title for t in grade_tables([], summary, "x")]


def test_grade_formats_carry_pass_k():
    results = three_scenarios()
    summary = summarize(results)
    assert "Repeated trials" in [t.title for t in grade_tables(results, summary, "x")]
    data = json.loads(grade_json("r", results, summary))
    assert data["run"] == "r" and len(data["sessions"]) == 9
    assert [p["pass_hat"] for p in data["summary"]["pass_k"]] == [0.4444, 0.3333, 0.3333]
    rows = list(csv.DictReader(io.StringIO(grade_csv("r", results, summary))))
    b = [row for row in rows if row["scenario_id"] == "microhood-b"]
    assert [row["trial"] for row in b] == ["1", "2", "3"] and b[0]["scenario_passes"] == "1"
    assert float(b[0]["pass@2"]) == pytest.approx(2 / 3) and float(b[0]["pass^2"]) == 0.0
    # the run's figures are the means of the per-scenario columns
    firsts = {row["scenario_id"]: row for row in rows}
    assert sum(float(r["pass@2"]) for r in firsts.values()) / 3 == pytest.approx(5 / 9)


def grade(run_dir, fmt: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sentinel.cli", "grade", str(run_dir), "--format", fmt],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.slow
def test_sentinel_grade_in_each_format(tmp_path):
    run_dir = write_run(tmp_path / "trio", three_scenarios(), trials=3)
    table = grade(run_dir, "table")
    assert table.returncode == 0, table.stderr
    assert "Repeated trials" in table.stdout
    assert "55.6%" in table.stdout
    assert "33.3%" in table.stdout
    as_json = grade(run_dir, "json")
    data = json.loads(as_json.stdout)
    assert data["summary"]["overall"] == {"name": "all", "total": 9, "passed": 4, "infra_errors": 1,
                                          "rate": 0.4444, "stderr": 0.1656, "on_time": 4, "normal": 9,
                                          "on_time_rate": 0.4444}
    assert [p["pass_at"] for p in data["summary"]["pass_k"]] == [0.4444, 0.5556, 0.6667]
    as_csv = grade(run_dir, "csv")
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert len(rows) == 9 and {r["outcome"] for r in rows} == {"pass", "fail", "error"}
    assert rows[0]["run"] == "trio" and "pass^3" in rows[0]
    bad = grade(run_dir, "xml")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
