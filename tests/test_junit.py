"""JUnit XML: parsed back and checked; `sentinel run --ci` writes it and --fail-under sets the exit code."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers.results import make_result
from helpers.runs import write_test_config

from sentinel.outputs.junit import junit_xml


def test_one_case_per_session_with_failures_and_errors():
    results = [make_result("microhood-rise", True), make_result("microhood-dip", False),
               make_result("micromail-boss", False, infra_error="agent crashed", ended_by="harness_error",
                           detail="infrastructure error: agent crashed"),
               make_result("micromail-noop", True, contact_message="odd \x00 bytes <&>")]
    root = ET.fromstring(junit_xml(results, "nightly", {"agent": "scripted", "speed": 50}))
    assert root.tag == "testsuites" and root.get("name") == "sentinel run nightly"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "1", "1")
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"microhood", "micromail"}
    assert suites["micromail"].get("tests") == "2" and suites["micromail"].get("errors") == "1"
    assert {p.get("name"): p.get("value") for p in suites["microhood"].findall("properties/property")} == \
        {"agent": "scripted", "speed": "50", "on_time": "1", "normal": "2", "on_time_rate": "0.5000"}
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert set(cases) == {"microhood-rise", "microhood-dip", "micromail-boss", "micromail-noop"}
    assert cases["microhood-rise"].find("failure") is None and cases["microhood-rise"].find("error") is None
    assert cases["microhood-dip"].find("failure").get("message") == "never reported"
    assert cases["micromail-boss"].find("error").get("type") == "infrastructure"
    assert cases["microhood-rise"].get("classname") == "sentinel.microhood"
    assert cases["microhood-rise"].get("time") == "2.000"
    assert "odd \ufffd bytes <&>" in cases["micromail-noop"].find("system-out").text


def test_on_time_is_a_property_of_normal_cases_only():
    results = [make_result("microhood-rise", True), make_result("microhood-late", True, on_time=False),
               make_result("microhood-noop", True, condition_at=None, activity="noop")]
    root = ET.fromstring(junit_xml(results, "r"))
    cases = {c.get("name"): c for c in root.iter("testcase")}
    def case_property(name):
        return [p.get("value") for p in cases[name].findall("properties/property") if p.get("name") == "on_time"]
    assert case_property("microhood-rise") == ["true"] and case_property("microhood-late") == ["false"]
    assert case_property("microhood-noop") == []
    suite = {p.get("name"): p.get("value") for p in root.find("testsuite").findall("properties/property")}
    assert (suite["on_time"], suite["normal"], suite["on_time_rate"]) == ("1", "2", "0.5000")


def test_repeated_trials_are_named_apart():
    results = [make_result("microhood-rise", ok, trial=t) for t, ok in ((1, True), (2, False))]
    root = ET.fromstring(junit_xml(results, "r"))
    assert [c.get("name") for c in root.iter("testcase")] == ["microhood-rise [trial 1]", "microhood-rise [trial 2]"]


def sentinel_run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    config = write_test_config(tmp_path)
    return subprocess.run([sys.executable, "-m", "sentinel.cli", "run", "--config", str(config), *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_run_ci_writes_junit_and_fail_under_sets_the_exit_code(tmp_path):
    done = sentinel_run(tmp_path, "--ci", "--agent", "eager", "--speed", "200", "--task", "rise,rise_buy",
                        "--run", "j", "--fail-under", "50%")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "success rate 0.0% is under --fail-under 50.0%" in done.stderr
    junit = tmp_path / "results" / "j" / "junit.xml"
    assert f"junit: {junit}" in done.stdout
    root = ET.parse(junit).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "2", "0")
    assert sorted(c.get("name") for c in root.iter("testcase")) == ["microhood-rise", "microhood-rise_buy"]
    again = sentinel_run(tmp_path, "--ci", "--agent", "eager", "--speed", "200", "--task", "rise",
                         "--run", "j2", "--fail-under", "0")
    assert again.returncode == 0, again.stdout + again.stderr


@pytest.mark.slow
def test_bad_rates_and_trials_get_one_clear_line(tmp_path):
    for args, message in ((["--fail-under", "1.5"], "not between 0 and 1"),
                          (["--fail-under", "most"], "is not a rate"),
                          (["--trials", "0"], "--trials must be between 1 and 100")):
        done = sentinel_run(tmp_path, "--agent", "eager", "--speed", "200", *args)
        assert done.returncode == 2, done.stderr
        assert message in done.stderr, done.stderr
        assert "Traceback" not in done.stderr, done.stderr
