"""Faults survived: a disk that fills mid-run gives clear infrastructure errors and an exit code,
loses no finished result, leaves no .tmp file, and a resume afterwards completes the run."""

from __future__ import annotations

import json
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.runs import TEST_SCENARIOS, write_test_config
from helpers.worlds import MICROTODO, whole_catalog


def sentinel_run(config: Path, *args: str, file_size_cap: int | None = None) -> subprocess.CompletedProcess:
    def cap_files() -> None:  # files larger than the cap cannot be written: a full disk, for this process
        if file_size_cap is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_cap, file_size_cap))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    return subprocess.run([sys.executable, "-m", "sentinel.cli", "run", "--ci", "--config", str(config),
                           "--agent", "eager", "--speed", "200", "--run", "full", *args],
                          capture_output=True, text=True, timeout=300, preexec_fn=cap_files)


@pytest.mark.slow
def test_a_full_disk_is_an_infrastructure_error_and_resume_finishes(tmp_path):
    config = write_test_config(tmp_path)
    full = sentinel_run(config, file_size_cap=30_000)
    assert full.returncode == 1 and "Traceback" not in full.stderr
    run_dir = tmp_path / "results" / "full"
    results = [json.loads(p.read_text()) for p in run_dir.glob("*/*/result.json")]
    assert results and all(r["infra_error"] for r in results)
    assert any("disk" in r["infra_error"] or "too large" in r["infra_error"] for r in results), results[0]
    assert not list(run_dir.rglob("*.tmp"))
    again = sentinel_run(config, "--resume")
    assert again.returncode == 0, again.stderr[-2000:]
    results = [json.loads(p.read_text()) for p in run_dir.glob("*/*/result.json")]
    assert results and not any(r["infra_error"] for r in results)


@pytest.mark.slow
async def test_sessions_at_once_never_see_each_others_data(tmp_path):
    """Agents posting to every form as fast as they can, several sessions at once: no session's
    database holds another's mark, and no page of one shows another's."""
    import sqlite3
    from dataclasses import replace

    from sentinel.core.config import REPO_ROOT, load_config
    from sentinel.core.scenario import load_scenario, scenario_files
    from sentinel.run.plan import RunPlan
    from sentinel.run.runner import Runner

    config = load_config()
    config = replace(config, results_dir=tmp_path / "results", scenarios_dir=TEST_SCENARIOS,
                     timing=replace(config.timing, reaction_window_s=1.0, startup_timeout_s=10, term_grace_s=1))
    mail = load_scenario(REPO_ROOT / "scenarios" / "verified" / "micromail" / "sender_arrives.yaml")  # composer
    scenarios = (*[load_scenario(p) for p in scenario_files(TEST_SCENARIOS)][:2], mail)
    command = [sys.executable, str(Path(__file__).parent / "agents" / "spammer.py"), "__TASK_URL__", "3"]
    report = await Runner(config, RunPlan(name="spam", agent="custom", command=command, speed=100.0,
                                          scenarios=scenarios, trials=3)).run()
    assert len(report.results) == 3 * len(scenarios) and not any(r.infra_error for r in report.results)
    stored = 0
    for folder in (tmp_path / "results" / "spam").glob("*/*"):
        log = (folder / "agent.log").read_text()
        own = log.split("SPAMMED ")[1].split(" as ")[1].strip()
        assert int(log.split("SPAMMED ")[1].split()[0]) > 0 and "LEAK" not in log, log[-500:]
        with sqlite3.connect(folder / "state.db") as db:
            tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            for table in tables:
                for row in db.execute(f"SELECT * FROM {table}"):
                    for value in row:
                        if isinstance(value, str) and "mark-" in value.lower():
                            assert own.lower() in value.lower(), (folder.name, table, value[:80])
                            stored += 1
    assert stored > 0  # the agents' marks really reached the databases (mail sent, drafts saved)


async def test_a_catalog_record_without_a_field_is_one_clear_error(env_session, tmp_path, monkeypatch):
    import dataclasses

    from sentinel.core.errors import SentinelError
    from sentinel.core.scenario import Event

    monkeypatch.setenv("SENTINEL_ENVIRONMENTS", "microtodo")
    (tmp_path / "tasks.jsonl").write_text('{"id": "td001", "notes": "no title"}\n')
    broken = dataclasses.replace(MICROTODO, catalog_dir=tmp_path)
    scenario = dataclasses.replace(whole_catalog(MICROTODO), events=(Event(0, "preload", {"tasks": "*"}, 0),))
    with pytest.raises(SentinelError, match=r"events\[0\] \(preload\) could not be applied: KeyError: 'title'"):
        await env_session(scenario, environment=broken)


@pytest.mark.slow
def test_a_results_folder_that_cannot_be_written_is_one_line(tmp_path):
    """A results folder the system refuses (here: under a file; a read-only disk answers alike)."""
    (tmp_path / "not_a_folder").write_text("x")
    config = tmp_path / "bad.toml"
    config.write_text(f'[run]\nresults_dir = "{tmp_path / "not_a_folder" / "results"}"\n')
    done = sentinel_run(config)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("sentinel: results folder ")
    assert "cannot write there" in done.stderr
