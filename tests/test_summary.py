"""Aggregates: success and on-time rates by group, and the on-time curve over tau."""

from __future__ import annotations

import pytest
from helpers.results import make_result

from sentinel.core.summary import on_time_curve, passed_within, summarize


def noop(name: str, success: bool = True):
    return make_result(name, success, condition_at=None, activity="noop", contact_at=None)


def test_on_time_rate_counts_normal_tasks_only():
    results = [make_result("microhood-a", True, contact_at=70.0),  # 10 s after condition_at 60: on time
               make_result("microhood-b", True, contact_at=200.0, on_time=False),  # late, still a success
               make_result("micromail-c", False),
               noop("micromail-d"), noop("micromail-e", success=False)]
    summary = summarize(results)
    overall = summary.overall
    assert (overall.passed, overall.total, overall.on_time, overall.normal) == (3, 5, 1, 3)
    assert overall.on_time_rate == pytest.approx(1 / 3)
    by_activity = {g.name: g for g in summary.by_activity}
    assert by_activity["noop"].normal == 0 and by_activity["noop"].on_time_rate is None
    by_env = {g.name: g for g in summary.by_environment}
    assert (by_env["microhood"].on_time, by_env["microhood"].normal) == (1, 2)
    data = summary.to_dict()
    assert data["overall"]["on_time"] == 1 and data["overall"]["normal"] == 3
    assert data["overall"]["on_time_rate"] == pytest.approx(0.3333)
    assert next(g for g in data["by_activity"] if g["name"] == "noop")["on_time_rate"] is None


def test_passed_within_tau_of_condition_at():
    results = [make_result("microhood-a", True, condition_at=100.0, contact_at=100.5),
               make_result("microhood-b", True, condition_at=100.0, contact_at=160.0),
               make_result("microhood-c", True, condition_at=100.0, contact_at=400.0),
               make_result("microhood-d", False, condition_at=100.0, contact_at=101.0),  # wrong final state
               noop("microhood-e")]
    assert passed_within(results, 0) == 0
    assert passed_within(results, 1) == pytest.approx(0.25)
    assert passed_within(results, 60) == pytest.approx(0.5)
    assert passed_within(results, 600) == pytest.approx(0.75)
    assert passed_within([noop("microhood-e")], 60) is None
    curve = on_time_curve(results, range(0, 601, 100))
    assert [tau for tau, _ in curve] == [0, 100, 200, 300, 400, 500, 600]
    assert [share for _, share in curve] == pytest.approx([0, 0.5, 0.5, 0.75, 0.75, 0.75, 0.75])
    assert on_time_curve([noop("microhood-e")], [0, 60]) == []
