"""The rule for the tests marked `browser` (tests/conftest.py): where Chromium or Playwright is
missing they skip with one line naming what to install, and fail instead under
SENTINEL_REQUIRE_BROWSER, which .ci/run sets."""

import os
from pathlib import Path

import pytest
from helpers.browser import REQUIRE_BROWSER, browser_verdict

CI_RUN = Path(__file__).resolve().parents[1] / ".ci" / "run"


def test_without_chromium_a_browser_test_skips_with_one_line_naming_the_package(monkeypatch, tmp_path):
    monkeypatch.setenv("SENTINEL_CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.delenv(REQUIRE_BROWSER, raising=False)
    outcome, line = browser_verdict()
    assert outcome == "skip"
    assert "apt-get install chromium" in line
    assert str(tmp_path / "no-chromium") in line
    assert "\n" not in line


@pytest.mark.parametrize("required", ["1", "yes"])
def test_where_the_browser_is_required_a_missing_chromium_fails(monkeypatch, tmp_path, required):
    monkeypatch.setenv("SENTINEL_CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.setenv(REQUIRE_BROWSER, required)
    outcome, line = browser_verdict()
    assert outcome == "fail"
    assert "apt-get install chromium" in line
    assert REQUIRE_BROWSER in line


def test_a_chromium_program_that_is_there_lets_browser_tests_run(monkeypatch, tmp_path):
    pytest.importorskip("playwright")
    program = tmp_path / "chromium"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("SENTINEL_CHROMIUM", str(program))
    monkeypatch.setenv(REQUIRE_BROWSER, "1")
    assert browser_verdict() is None


def test_ci_requires_the_browser_and_runs_the_readmes_test_command():
    lines = CI_RUN.read_text().splitlines()
    assert f"export {REQUIRE_BROWSER}=1" in lines
    assert lines.index(f"export {REQUIRE_BROWSER}=1") < lines.index(".venv/bin/python -m pytest -q")
    assert os.access(CI_RUN, os.X_OK)
