"""The original SentinelBench's formats: results.json per session and `grade --format sentinelbench`,
from hand-made results and from real runs of a real agent written for the original."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from helpers.results import make_result, write_run
from helpers.runs import TEST_SCENARIOS

from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.scenario import load_scenario, scenario_files
from sentinel.outputs.results import finished_sessions
from sentinel.outputs.sentinelbench import RESULTS_FIELDS, grade_report, results_record
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner

AGENT = REPO_ROOT / "tests" / "agents" / "usage_logger.py"
# The sample eval_config.yaml the original SentinelBench ships, as written.
ORIGINAL_SAMPLE = (REPO_ROOT / "tests" / "data" / "sentinelbench" / "eval_config.yaml").read_text()
SPEED = 200.0  # rise: condition_at 60 sim s = 0.3 wall s


def test_results_record_has_the_originals_fields_in_wall_seconds():
    result = make_result(speed=4.0, condition_at=60.0, contact_at=62.0016, completion_s=15.6,
                         contact_message="CHPX is above $520")
    record = results_record(result)
    assert tuple(record) == RESULTS_FIELDS
    assert record == {"success": True, "detail": result.detail, "evaluation_time": 15.5,
                      "condition_at": 15.0, "contact_get_time": 15.5, "contact_post_time": 15.5,
                      "contact_message": "CHPX is above $520"}


def test_results_record_of_silence_a_noop_a_get_only_report_and_an_infra_error():
    silent = results_record(make_result(success=False, completion_s=5.25, speed=2.0))
    assert silent["contact_get_time"] is None and silent["contact_post_time"] is None
    assert silent["evaluation_time"] == 5.25 and silent["condition_at"] == 30.0
    noop = results_record(make_result(scenario_id="microhood-rise_noop", condition_at=None, contact_at=None,
                                      contact_message=None, detail="correctly never reported"))
    assert noop["condition_at"] is None and noop["success"] is True
    get_only = results_record(make_result(success=False, contact_message=None, contact_at=61.0, speed=1.0))
    assert get_only["contact_get_time"] == 61.0 and get_only["contact_post_time"] is None
    crashed = results_record(make_result(success=False, contact_at=None, infra_error="harness crashed: boom",
                                         detail="infrastructure error: harness crashed: boom", completion_s=0.0))
    assert crashed["success"] is False and crashed["detail"].startswith("infrastructure error")


def test_a_success_never_shows_a_negative_reaction_after_rounding():
    # contact a hair after condition_at, at a speed whose division is inexact: their grade raises
    # on a negative reaction time of a success, so rounding must keep the order
    for contact in (60.0, 60.00005, 60.0004):
        record = results_record(make_result(condition_at=60.0, contact_at=contact, speed=3.0))
        assert record["contact_get_time"] - record["condition_at"] >= 0


def grade_lines(run_dir: Path) -> tuple[list[str], list[str]]:
    text = grade_report(finished_sessions(run_dir))
    table, summary = text.rstrip("\n").split("\n\n")
    return table.splitlines(), summary.splitlines()


def test_grade_report_prints_the_original_table_and_summary(tmp_path):
    results = [
        make_result("microhood-rise", condition_at=60.0, contact_at=62.0, speed=1.0, completion_s=62.0),
        make_result("microhood-rise_buy", condition_at=100.0, contact_at=106.0, speed=1.0, completion_s=106.0),
        make_result("microhood-rise_noop", success=False, condition_at=None, contact_at=12.0, speed=1.0),
        make_result("micromail-junk", success=False, contact_at=None, contact_message=None,
                    infra_error="harness crashed", detail="infrastructure error: harness crashed"),
    ]
    results = [replace(r, prompt_tokens=p, completion_tokens=c, tool_calls=t)
               for r, (p, c, t) in zip(results, [(1000, 100, 4), (3000, 300, 8), (2000, 0, 1), (0, 0, 0)], strict=True)]
    run_dir = write_run(tmp_path / "r", results)
    for folder in ("rise", "rise_buy", "rise_noop"):  # the crashed session left no costs.json
        (run_dir / "microhood" / folder / "costs.json").write_text("{}")  # a run written before agent/ existed
    table, summary = grade_lines(run_dir)
    assert [c.strip() for c in table[0].split("|")] == ["name", "evaluation_time", "success", "stop_time",
                                                        "condition_at", "reaction_time", "prompt_tokens",
                                                        "completion_tokens", "tool_calls"]
    assert set(table[1]) <= {"-", "+"}
    rows = {line.split("|")[0].strip(): [c.strip() for c in line.split("|")] for line in table[2:]}
    assert rows["microhood-rise"] == ["microhood-rise", "62.0", "True", "62.0", "60.0", "2.0", "1000", "100", "4"]
    assert rows["microhood-rise_noop"][2:6] == ["False", "12.0", "", ""]
    assert rows["micromail-junk"][6:] == ["", "", ""]  # no costs.json: blank, left out of the averages
    assert summary == [
        "Total Tasks: 4",
        "Task Success Rate: 50.0% (2/4)",
        "Average Reaction Time: 4.0s",
        "Median Reaction Time: 4.0s",
        "Average Prompt Tokens: 2000.0",
        "Median Prompt Tokens: 2000.0",
        "Average Completion Tokens: 133.3",
        "Median Completion Tokens: 100.0",
        "Average Tool Calls: 4.3",
        "Median Tool Calls: 4.0",
        "Infrastructure Errors: 1 (counted above as failures; the original leaves them out)",
    ]


def test_grade_report_with_nothing_measured_and_repeated_trials(tmp_path):
    results = [make_result("microhood-rise", success=False, contact_at=None, trial=t) for t in (1, 2)]
    table, summary = grade_lines(write_run(tmp_path / "r", results, trials=2))
    assert [line.split("|")[0].strip() for line in table[2:]] == ["microhood-rise.t1", "microhood-rise.t2"]
    assert "Average Reaction Time: N/A" in summary and "Median Tool Calls: N/A" in summary
    assert "Task Success Rate: 0.0% (0/2)" in summary


def test_the_format_module_stays_out_of_the_web_and_display_stacks():
    code = "import sys, sentinel.outputs.sentinelbench; print(' '.join(sys.modules))"
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
                 .stdout.split())
    assert not loaded & {"aiohttp", "textual", "jinja2", "aiosqlite", "rich"}


# --- real runs -------------------------------------------------------------------------------

@pytest.mark.slow
async def test_a_run_writes_results_json_and_counts_the_tokens_of_usage_logs(tmp_path):
    config = load_config()
    config = replace(config, results_dir=tmp_path / "results", scenarios_dir=TEST_SCENARIOS,
                     timing=replace(config.timing, reaction_window_s=2.0, startup_timeout_s=10, term_grace_s=1))
    scenarios = tuple(load_scenario(p) for p in scenario_files(TEST_SCENARIOS, "microhood")
                      if p.stem in ("rise", "rise_noop"))
    command = [sys.executable, str(AGENT), "__TASK_URL__", "__TASK_PROMPT__", "1.0"]
    report = await Runner(config, RunPlan(name="logs", agent="custom", command=command, speed=SPEED,
                                          scenarios=scenarios)).run()
    by_id = {r.scenario_id: r for r in report.results}
    rise, noop = by_id["microhood-rise"], by_id["microhood-rise_noop"]
    assert rise.success and not noop.success, rise.detail
    for result in (rise, noop):  # counted from usage.jsonl and all_messages.json, no costs.json written
        assert (result.prompt_tokens, result.completion_tokens, result.tool_calls) == (3000, 220, 3)
        assert result.model == "gpt-test"
    folder = config.results_dir / "logs" / "microhood" / "rise"
    costs = json.loads((folder / "agent" / "costs.json").read_text())
    assert (costs["total_tokens"], costs["reasoning_tokens"], costs["llm_calls"], costs["unreadable_lines"]) == \
        (3220, 80, 3, 1)
    record = json.loads((folder / "results.json").read_text())
    assert tuple(record) == RESULTS_FIELDS
    assert record["success"] is True and record["condition_at"] == pytest.approx(60 / SPEED)
    assert record["contact_get_time"] == pytest.approx(rise.contact_at / SPEED, abs=0.001)
    assert record["contact_get_time"] >= 1.0 > record["condition_at"]  # wall seconds: the agent waited 1 s
    assert record["contact_post_time"] == record["contact_get_time"] == record["evaluation_time"]
    assert record["contact_message"] == "condition met" and record["detail"] == rise.detail
    noop_record = json.loads((folder.parent / "rise_noop" / "results.json").read_text())
    assert noop_record["condition_at"] is None and noop_record["success"] is False


def sentinel_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sentinel.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=180)


@pytest.mark.slow
def test_their_eval_config_runs_unchanged_and_grades_their_way(tmp_path):
    (tmp_path / "usage_logger.py").write_text(AGENT.read_text())
    their_command = '["your-agent-command", "--url", "__TASK_URL__", "--prompt", "__TASK_PROMPT__"]'
    ours = f'["{sys.executable}", "__BASE_DIR__/usage_logger.py", "__TASK_URL__", "__TASK_PROMPT__"]'
    assert their_command in ORIGINAL_SAMPLE
    (tmp_path / "eval_config.yaml").write_text(ORIGINAL_SAMPLE.replace(their_command, ours))
    done = sentinel_cli("run", "--ci", "--config", "eval_config.yaml", "--task", "micromail-junk_growth",
                        "--run", "theirs", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    notices = [line for line in done.stderr.splitlines() if "ignored" in line]
    assert notices == ["sentinel: eval_config.yaml: server_url, frontend_url ignored: every session serves its "
                       "own site on its own port, so there is no server or frontend to point at"]
    folder = tmp_path / "results" / "theirs" / "micromail" / "junk_growth"
    record = json.loads((folder / "results.json").read_text())
    assert tuple(record) == RESULTS_FIELDS and record["contact_message"] == "condition met"
    graded = sentinel_cli("grade", "theirs", "--format", "sentinelbench", cwd=tmp_path)
    assert graded.returncode == 0, graded.stderr
    lines = graded.stdout.splitlines()
    assert lines[0].split("|")[0].strip() == "name"
    row = [c.strip() for c in lines[2].split("|")]
    assert row[0] == "micromail-junk_growth" and row[6:] == ["3000", "220", "3"]
    assert "Total Tasks: 1" in lines and "Average Prompt Tokens: 3000.0" in lines
    assert "Median Completion Tokens: 220.0" in lines
