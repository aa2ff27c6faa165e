"""The commands tui, step and play: finding a scenario, one-line errors, and `sentinel tui`
end to end in a real pseudo-terminal."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
import time
from dataclasses import replace

import pytest
from helpers.runs import TEST_SCENARIOS, processes_working_in, write_test_config

from sentinel.cli import main
from sentinel.cli.screens import find_scenario
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.errors import SentinelError

RISE = TEST_SCENARIOS / "microhood" / "rise.yaml"


def test_a_scenario_is_found_by_short_id_full_id_or_file(tmp_path):
    config = replace(load_config(), scenarios_dir=TEST_SCENARIOS)
    assert find_scenario(config, "rise").id == "microhood-rise"
    assert find_scenario(config, "microhood-rise_buy").id == "microhood-rise_buy"
    assert find_scenario(config, str(RISE)).id == "microhood-rise"
    with pytest.raises(SentinelError, match="no such scenario"):
        find_scenario(config, "nosuch")
    with pytest.raises(SentinelError, match="no such scenario file"):
        find_scenario(config, str(tmp_path / "missing.yaml"))
    (tmp_path / "microhood").mkdir()
    (tmp_path / "micromail").mkdir()
    (tmp_path / "microhood" / "rise.yaml").write_text(RISE.read_text())
    (tmp_path / "micromail" / "rise.yaml").write_text(
        RISE.read_text().replace("microhood", "micromail"))
    (tmp_path / "micromail" / "broken.yaml").write_text("id: [")  # skipped, not fatal
    with pytest.raises(SentinelError, match="ambiguous.*microhood-rise, micromail-rise"):
        find_scenario(replace(config, scenarios_dir=tmp_path), "rise")


def test_bad_input_is_one_line_and_exit_code_2(tmp_path, capsys):
    config = write_test_config(tmp_path)
    assert main(["step", "nosuch", "--config", str(config)]) == 2
    assert capsys.readouterr().err.strip() == "sentinel: nosuch: no such scenario (see `sentinel list`)"
    assert main(["step", "rise", "--agent", "nobody", "--config", str(config)]) == 2
    assert "--agent nobody: unknown" in capsys.readouterr().err
    assert main(["play", "rise", "--startup-timeout", "0", "--config", str(config)]) == 2
    assert "--startup-timeout must be" in capsys.readouterr().err


def test_sentinel_run_never_loads_textual():
    code = ("import sys; from sentinel.cli import build_parser; build_parser(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.slow
def test_sentinel_tui_in_a_terminal_grades_every_session_and_quits_cleanly(tmp_path):
    config = write_test_config(tmp_path)
    args = [sys.executable, "-m", "sentinel.cli", "tui", "--agent", "oracle", "--speed", "200", "--run", "t",
            "--config", str(config)]
    screen, process = _in_terminal(args, tmp_path)
    run_dir = tmp_path / "results" / "t"
    deadline = time.monotonic() + 60
    while not (run_dir / "summary.json").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(0.5)  # a tick to draw the last grades
    os.write(process.master, b"q")
    assert process.wait(timeout=30) == 0
    output = screen.text()
    assert "passed 3" in output and "finished in" in output  # the dashboard's summary bar
    assert "passed: 3/3" in output  # the grade tables printed after the dashboard closed
    assert len(list(run_dir.glob("*/*/result.json"))) == 3


@pytest.mark.slow
def test_quitting_sentinel_tui_mid_run_exits_130_and_says_how_to_continue(tmp_path):
    config = write_test_config(tmp_path)
    args = [sys.executable, "-m", "sentinel.cli", "tui", "--agent", "silent", "--speed", "200", "--run", "s",
            "--config", str(config), "--concurrency", "0"]  # all three at once, whatever the machine is doing
    screen, process = _in_terminal(args, tmp_path)
    deadline = time.monotonic() + 30
    while "running 3" not in screen.so_far() and time.monotonic() < deadline:
        time.sleep(0.1)
    os.write(process.master, b"q")
    assert process.wait(timeout=30) == 130
    assert "continue with --resume" in screen.text()
    assert len(list((tmp_path / "results" / "s").glob("*/*/result.json"))) == 3  # each recorded as stopped
    assert not processes_working_in(tmp_path)


class _Screen:
    """Everything a process wrote to its terminal, read on a thread."""

    def __init__(self, master: int):
        self.chunks: list[bytes] = []
        self.thread = threading.Thread(target=self._read, args=(master,), daemon=True)
        self.thread.start()

    def _read(self, master: int) -> None:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            self.chunks.append(data)

    def so_far(self) -> str:
        return b"".join(list(self.chunks)).decode("utf-8", errors="replace")

    def text(self) -> str:
        """All of it, once the process has closed the terminal."""
        self.thread.join(timeout=5)
        return self.so_far()


def _in_terminal(args: list[str], cwd) -> tuple[_Screen, subprocess.Popen]:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(REPO_ROOT)}
    process = subprocess.Popen(args, cwd=cwd, stdin=slave, stdout=slave, stderr=slave, env=env,
                               start_new_session=True)
    os.close(slave)
    process.master = master  # type: ignore[attr-defined]
    return _Screen(master), process
