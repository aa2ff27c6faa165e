"""Every grading rule of docs/protocol.md#grading, on real SQLite files opened read-only."""

import sqlite3
from pathlib import Path

import pytest
from helpers.results import make_result

from sentinel.core.config import Price
from sentinel.core.grading import Outcome, Result, Verdict, judge, on_time, read_costs, read_verdict, truthy
from sentinel.core.scenario import Scenario, Taxonomy


def scenario(condition_at=100.0, eval_sql="SELECT 1", activity="passive"):
    return Scenario(id="micromail-x", environment="micromail", prompt="p", condition_at=condition_at,
                    start_page="/micromail/", taxonomy=Taxonomy(activity, "absolute"), events=(),
                    eval_sql=eval_sql, solution=(), path=Path("x.yaml"))


def outcome(contact_sim, speed=10.0):
    wall = None if contact_sim is None else contact_sim / speed
    return Outcome(contact_sim=contact_sim, contact_wall_s=wall, speed=speed, completion_s=wall or 60.0)


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "state.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (v INTEGER)")
    conn.execute("INSERT INTO t VALUES (3)")
    conn.commit()
    conn.close()
    return path


def test_sql_truthiness():
    assert not truthy(None)
    assert not truthy(0)
    assert not truthy("")
    assert not truthy(0.0)
    assert truthy(1)
    assert truthy("no")
    assert truthy(-1)


def test_contact_just_before_condition_fails_with_early_by():
    ok, detail, reaction, early = judge(scenario(), Verdict(1), outcome(99.999))
    assert not ok
    assert reaction is None
    assert early == pytest.approx(0.0001, abs=1e-4)
    assert "before the condition" in detail


def test_contact_exactly_at_condition_passes_with_zero_reaction():
    ok, _, reaction, early = judge(scenario(), Verdict(1), outcome(100.0))
    assert ok
    assert reaction == pytest.approx(0.0)
    assert early is None


def test_contact_after_condition_passes_with_reaction_in_wall_seconds():
    ok, _, reaction, _ = judge(scenario(), Verdict(1), outcome(130.0, speed=10))
    assert ok and reaction == pytest.approx(3.0)


def test_millisecond_precision_counts():
    """0.9 s after a fractional condition_at passes (the original truncated to seconds)."""
    ok, _, _, _ = judge(scenario(condition_at=41.5), Verdict(1), outcome(42.4, speed=1))
    assert ok


def test_contact_in_time_but_false_verdict_fails():
    ok, detail, _, _ = judge(scenario(), Verdict(0), outcome(120.0))
    assert not ok and "fails the check" in detail


def test_no_contact_fails_a_normal_task():
    ok, detail, _, _ = judge(scenario(), Verdict(1), outcome(None))
    assert not ok and "never reported" in detail


def test_noop_without_contact_passes_and_with_contact_fails():
    noop = scenario(condition_at=None, eval_sql=None, activity="noop")
    assert judge(noop, Verdict(None), outcome(None))[0]
    assert not judge(noop, Verdict(None), outcome(300.0))[0]


def test_noop_refrain_check_must_hold():
    noop = scenario(condition_at=None, eval_sql="SELECT 0", activity="noop")
    assert not judge(noop, Verdict(0), outcome(None))[0]
    assert judge(noop, Verdict(1), outcome(None))[0]


def test_read_verdict_reads_first_column_of_first_row(db):
    assert read_verdict(db, "SELECT v >= 3, 'ignored' FROM t").value == 1
    assert read_verdict(db, "SELECT v FROM t WHERE v > 10").value is None


def test_sql_error_in_eval_sql_is_a_failed_verdict_not_a_crash(db):
    verdict = read_verdict(db, "SELECT nope FROM t")
    assert verdict.error
    assert "no such column" in verdict.error
    assert not verdict.truthy
    ok, detail, _, _ = judge(scenario(), verdict, outcome(150.0))
    assert not ok and "eval_sql failed" in detail


def test_verdict_connection_is_read_only(db):
    verdict = read_verdict(db, "INSERT INTO t VALUES (4) RETURNING v")
    assert verdict.error and "readonly" in verdict.error.replace(" ", "")
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 1


def test_costs_are_priced_from_the_table(tmp_path):
    path = tmp_path / "costs.json"
    path.write_text('{"prompt_tokens": 2000000, "completion_tokens": 100000, "tool_calls": 7, "model": "m"}')
    costs = read_costs(path, {"m": Price(prompt=2.5, completion=10.0)})
    assert costs.cost_usd == pytest.approx(6.0) and costs.tool_calls == 7
    assert read_costs(path, {}).cost_usd is None
    path.write_text("not json")
    assert read_costs(path, {}).error
    assert read_costs(tmp_path / "missing.json", {}).prompt_tokens == 0


def test_on_time_is_success_within_on_time_s_of_condition_at():
    normal = scenario(condition_at=100.0)
    assert on_time(normal, True, 160.0, 60) is True  # exactly at the bound
    assert on_time(normal, True, 160.001, 60) is False
    assert on_time(normal, True, 130.0, 20) is False
    assert on_time(normal, False, 101.0, 60) is False  # a failure is never on time
    assert on_time(normal, True, None, 60) is False


def test_a_noop_has_no_on_time_value():
    assert on_time(scenario(condition_at=None), True, None, 60) is None


def test_result_json_puts_on_time_beside_success(tmp_path):
    data = make_result(on_time=False).to_dict()
    keys = list(data)
    assert keys[keys.index("success") + 1] == "on_time" and data["on_time"] is False
    assert Result.from_dict(data).on_time is False
    old = {k: v for k, v in data.items() if k != "on_time"}  # a result.json written before on_time
    assert Result.from_dict(old).on_time is None
