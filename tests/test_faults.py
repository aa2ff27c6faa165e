"""Faults survived: a disk that fills mid-run gives clear infrastructure errors and an exit code,
loses no finished result, leaves no .tmp file, and a resume afterwards completes the run."""

from __future__ import annotations

import json
import resource
import signal
import subprocess
import sys
from pathlib import Path

from made_results import write_test_config


def sentinel_run(config: Path, *args: str, file_size_cap: int | None = None) -> subprocess.CompletedProcess:
    def cap_files() -> None:  # files larger than the cap cannot be written: a full disk, for this process
        if file_size_cap is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_cap, file_size_cap))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    return subprocess.run([sys.executable, "-m", "sentinel.cli", "run", "--ci", "--config", str(config),
                           "--agent", "eager", "--speed", "200", "--run", "full", *args],
                          capture_output=True, text=True, timeout=300, preexec_fn=cap_files)


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
