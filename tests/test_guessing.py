"""benchmarks/guessing.py tabulates finished runs: success, on time and no-ops per strategy, best blind time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers.results import make_result, write_run

from sentinel.core.files import write_json_atomic

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "guessing.py"


def run_of(folder: Path, agent: str, results) -> Path:
    write_run(folder, results)
    write_json_atomic(folder / "run.json", {"name": folder.name, "agent": agent, "speed": 50.0})
    return folder


def noop(success: bool):
    return make_result("micromail-n", success, condition_at=None, activity="noop", contact_at=None)


def test_the_table_from_finished_runs(tmp_path):
    late = dict(contact_at=300.0, on_time=False)
    runs = [run_of(tmp_path / "s", "silent", [make_result("microhood-a", False), noop(True)]),
            run_of(tmp_path / "b60", "blind:60", [make_result("microhood-a", True), make_result("microhood-b", False),
                                                  noop(False)]),
            run_of(tmp_path / "b300", "blind:300", [make_result("microhood-a", True, **late),
                                                    make_result("microhood-b", True, **late), noop(False)])]
    done = subprocess.run([sys.executable, str(SCRIPT), "--runs", *map(str, runs)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = {line.split()[0]: line for line in done.stdout.splitlines() if line.strip()}
    assert "0/1" in lines["silent"] and "1/1   100.0%" in lines["silent"]
    assert lines["blind:60"].split()[1:5] == ["1/2", "50.0%", "1/2", "50.0%"]
    assert lines["blind:300"].split()[1:5] == ["2/2", "100.0%", "0/2", "0.0%"]
    assert "best blind time: blind:60 — on time 1/2 (50.0%)" in done.stdout and "OVER the 15% limit" in done.stdout
    assert "most successes blind: blind:300" in done.stdout


def test_a_bad_ladder_is_one_line():
    done = subprocess.run([sys.executable, str(SCRIPT), "--ladder", "30:9000:30"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert "between 0 and 720" in done.stderr
    assert "Traceback" not in done.stderr
