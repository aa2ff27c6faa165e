"""A run in a child process (what `sentinel tui` drives): the runner's messages, its report,
its errors and its output come back; a closed stdin stops it as Ctrl-C would."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import subprocess
import sys

import pytest
from helpers.runs import make_config, processes_working_in
from helpers.runs import plan as make_plan

from sentinel.core.bus import RunFinished, RunStarted, SessionGraded, SessionStarted
from sentinel.core.errors import SentinelError
from sentinel.outputs.results import finished_result
from sentinel.run.runner_process import RunnerProcess, read_frame, write_frame


def test_frames_carry_values_in_order_and_a_cut_frame_ends_the_stream():
    stream = io.BytesIO()
    write_frame(stream, ("message", {"a": 1}))
    write_frame(stream, ("report", [1, 2, 3]))
    whole = stream.getvalue()
    stream = io.BytesIO(whole)
    assert read_frame(stream) == ("message", {"a": 1})
    assert read_frame(stream) == ("report", [1, 2, 3])
    with pytest.raises(EOFError):
        read_frame(stream)
    cut = io.BytesIO(whole[:-3])  # the writer died halfway through its second frame
    assert read_frame(cut) == ("message", {"a": 1})
    with pytest.raises(EOFError):
        read_frame(cut)


@pytest.mark.slow
async def test_a_run_in_a_child_process_publishes_its_messages_and_returns_its_report(tmp_path):
    config = make_config(tmp_path)
    runner = RunnerProcess(config, make_plan("oracle", "child"))
    seen = []
    runner.bus.subscribe(seen.append)
    report = await runner.run()
    assert sorted(r.scenario_id.split("-", 1)[1] for r in report.results) == ["rise", "rise_buy", "rise_noop"]
    assert all(r.success for r in report.results) and report.summary is not None
    assert report.run_dir == config.results_dir / "child"
    assert finished_result(report.run_dir / "microhood" / "rise").success
    kinds = [type(m) for m in seen]
    assert kinds[0] is RunStarted
    assert kinds[-1] is RunFinished
    assert kinds.count(SessionGraded) == 3
    assert seen[0].wall <= seen[-1].wall and not runner.stopping


@pytest.mark.slow
async def test_an_error_in_the_child_is_raised_with_its_reason(tmp_path):
    config = make_config(tmp_path)
    (config.results_dir / "taken").mkdir(parents=True)
    (config.results_dir / "taken" / "run.json").write_text("{}")
    runner = RunnerProcess(config, make_plan("oracle", "taken"))
    with pytest.raises(SentinelError, match="pass --resume"):
        await runner.run()


@pytest.mark.slow
async def test_a_stop_asked_before_the_child_starts_reaches_it(tmp_path):
    config = make_config(tmp_path)
    runner = RunnerProcess(config, make_plan("silent", "early"))
    runner.stop()
    report = await runner.run()
    assert runner.stopping and report.results == []  # no session began
    assert not processes_working_in(tmp_path)


@pytest.mark.slow
def test_when_the_screens_process_goes_away_the_child_stops_and_keeps_its_results(tmp_path):
    """The screen's end of stdin closes (its process died): the child stops every agent, writes
    what finished and exits by itself, leaving no agent behind."""
    config = make_config(tmp_path)
    plan = make_plan("oracle", "orphan")
    read_fd, write_fd = os.pipe()
    child = subprocess.Popen([sys.executable, "-m", "sentinel.run.runner_process", str(write_fd)],
                             stdin=subprocess.PIPE, stderr=subprocess.PIPE, pass_fds=(write_fd,))
    os.close(write_fd)
    assert child.stdin is not None
    write_frame(child.stdin, (config, plan))
    with os.fdopen(read_fd, "rb") as frames:
        while True:  # wait for the first graded session: the quick one has finished
            kind, value = read_frame(frames)
            if isinstance(value, SessionGraded):
                first = value.key
                break
        child.stdin.close()
        while kind != "report":
            kind, value = read_frame(frames)
    assert child.wait(timeout=20) == 0
    assert any(r.success for r in value.results)
    assert finished_result(config.results_dir / "orphan" / first).success
    assert finished_result(config.results_dir / "orphan" / "microhood" / "rise_noop") is None  # stopped
    assert not processes_working_in(tmp_path)



@pytest.mark.slow
async def test_a_child_killed_mid_run_ends_the_run_with_an_error_not_a_hang(tmp_path):
    config = make_config(tmp_path)
    runner = RunnerProcess(config, make_plan("silent", "killed"))  # sessions last to their deadline

    def kill_once_started(message) -> None:
        if isinstance(message, SessionStarted) and runner._process is not None:
            os.kill(runner._process.pid, signal.SIGKILL)
    runner.bus.subscribe(kill_once_started)
    with pytest.raises(SentinelError, match=r"exit code -9\) without a report"):
        await runner.run()
    for _ in range(100):  # the agents die with their runner (sentinel/session/reaper.py)
        if not processes_working_in(tmp_path):
            break
        await asyncio.sleep(0.05)
    assert not processes_working_in(tmp_path)
