"""The runner end to end: real sessions, real agent subprocesses, real results on disk."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from helpers.runs import SPEED, TEST_SCENARIOS, make_config, plan, processes_working_in, write_test_config

from sentinel.agents import BUILTIN_AGENTS
from sentinel.core.bus import Bus, SessionGraded, SessionReady, SessionSkipped, SessionStarted
from sentinel.core.errors import SentinelError
from sentinel.outputs.results import load_results
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner


def recorder(bus: Bus) -> list:
    seen = []
    bus.subscribe(lambda m: seen.append(type(m)))
    return seen


@pytest.mark.slow
async def test_oracle_run_writes_every_result_file(tmp_path):
    config = make_config(tmp_path)
    report = await Runner(config, plan("oracle")).run()
    by_id = {r.scenario_id: r for r in report.results}
    assert set(by_id) == {"microhood-rise", "microhood-rise_buy", "microhood-rise_noop"}
    assert all(r.success for r in report.results), [r.detail for r in report.results]
    rise = by_id["microhood-rise"]
    assert rise.ended_by == "agent_exit"
    assert rise.contact_at >= 60
    assert rise.reaction_s >= 0
    assert rise.requests > 2
    assert rise.bytes_sent > 0
    assert rise.contact_message
    assert by_id["microhood-rise_noop"].ended_by == "deadline"
    folder = config.results_dir / "r" / "microhood" / "rise_buy"
    for name in ("result.json", "agent.log", "events.jsonl", "requests.jsonl", "state.db"):
        assert (folder / name).exists(), name
    fired = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    assert fired[0]["type"] == "price_waypoint" and fired[0]["scheduled_wall_s"] == pytest.approx(60 / SPEED)
    logged = [json.loads(line) for line in (folder / "requests.jsonl").read_text().splitlines()]
    assert logged[0]["path"] == "/start" and any(r["path"].endswith("/order/confirm") for r in logged)
    summary = json.loads((config.results_dir / "r" / "summary.json").read_text())
    assert summary["overall"]["passed"] == 3 and summary["infra_errors"] == 0
    run = json.loads((config.results_dir / "r" / "run.json").read_text())
    assert run["agent"] == "oracle"
    assert run["speed"] == SPEED
    assert len(run["scenarios"]) == 3


@pytest.mark.slow
async def test_eager_fails_normal_tasks_and_silent_passes_only_the_noop(tmp_path):
    config = make_config(tmp_path)
    eager = {r.scenario_id: r.success for r in (await Runner(config, plan("eager", "e")).run()).results}
    assert eager == {"microhood-rise": False, "microhood-rise_buy": False, "microhood-rise_noop": False}
    silent = {r.scenario_id: r.success for r in (await Runner(config, plan("silent", "s")).run()).results}
    assert silent == {"microhood-rise": False, "microhood-rise_buy": False, "microhood-rise_noop": True}


@pytest.mark.slow
async def test_resume_of_a_finished_run_starts_nothing(tmp_path):
    config = make_config(tmp_path)
    await Runner(config, plan("eager")).run()
    stamps = {p: p.stat().st_mtime_ns for p in (config.results_dir / "r").glob("*/*/result.json")}
    bus = Bus()
    seen = recorder(bus)
    report = await Runner(config, plan("eager", resume=True), bus).run()
    assert seen.count(SessionSkipped) == 3
    assert SessionStarted not in seen
    assert SessionGraded not in seen
    assert report.skipped == 3 and len(report.results) == 3
    assert stamps == {p: p.stat().st_mtime_ns for p in stamps}


@pytest.mark.slow
async def test_resume_reruns_sessions_with_an_infrastructure_error(tmp_path):
    config = make_config(tmp_path)
    await Runner(config, plan("eager")).run()
    broken = config.results_dir / "r" / "microhood" / "rise" / "result.json"
    data = json.loads(broken.read_text())
    broken.write_text(json.dumps({**data, "infra_error": "simulated crash"}))
    (config.results_dir / "r" / "microhood" / "rise_buy" / "result.json").unlink()
    bus = Bus()
    seen = recorder(bus)
    await Runner(config, plan("eager", resume=True), bus).run()
    assert seen.count(SessionSkipped) == 1 and seen.count(SessionGraded) == 2
    assert json.loads(broken.read_text())["infra_error"] is None


@pytest.mark.slow
async def test_a_run_name_is_not_reused_without_resume(tmp_path):
    config = make_config(tmp_path)
    await Runner(config, plan("eager")).run()
    with pytest.raises(SentinelError, match="pass --resume"):
        await Runner(config, plan("eager")).run()
    with pytest.raises(SentinelError, match="same --agent"):
        await Runner(config, plan("silent", resume=True)).run()


@pytest.mark.slow
async def test_agent_that_exits_at_once_is_graded_not_an_error(tmp_path):
    config = make_config(tmp_path)
    report = await Runner(config, plan("eager", command=["false"])).run()
    rise = next(r for r in report.results if r.scenario_id == "microhood-rise")
    assert rise.ended_by == "agent_exit"
    assert rise.exit_code == 1
    assert not rise.success
    assert rise.infra_error is None


async def test_missing_agent_program_is_an_infrastructure_error_per_session(tmp_path):
    config = make_config(tmp_path)
    report = await Runner(config, plan("eager", command=["/no/such/agent"])).run()
    assert all(r.is_infra_error and "/no/such/agent" in r.infra_error for r in report.results)
    assert report.summary.infra_errors == 3 and report.summary.overall.total == 3


def sentinel_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sentinel.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.slow
def test_run_killed_with_sigkill_halfway_resumes_to_all_results(tmp_path):
    config = write_test_config(tmp_path)
    args = ["run", "--ci", "--agent", "silent", "--speed", "200", "--concurrency", "1",
            "--run", "k", "--config", str(config)]
    proc = subprocess.Popen([sys.executable, "-m", "sentinel.cli", *args], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    run_dir = tmp_path / "results" / "k"
    deadline = time.monotonic() + 60
    while not list(run_dir.glob("*/*/result.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # the second session is under way
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = {p: p.read_bytes() for p in run_dir.glob("*/*/result.json")}
    assert 1 <= len(done_before) < 3
    time.sleep(0.3)
    assert processes_working_in(tmp_path) == [], "an agent outlived the killed runner"
    resumed = sentinel_cli(*args, "--resume", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    results = load_results(run_dir)
    assert len(results) == 3 and not any(r.is_infra_error for r in results)
    for path, data in done_before.items():
        assert path.read_bytes() == data  # finished results were kept as they were
    assert not list(run_dir.rglob("*.tmp"))
    for path in run_dir.rglob("*.json"):
        json.loads(path.read_text())


@pytest.mark.slow
def test_cli_bad_input_gets_one_clear_line(tmp_path):
    config = write_test_config(tmp_path)
    cases = [
        (["run", "--cmd", "no-such-agent-xyz __TASK_URL__", "--config", str(config)], "no-such-agent-xyz"),
        (["run", "--agent", "psychic", "--config", str(config)], "unknown; built-in agents are"),
        (["run", "--agent", "eager", "--speed", "0", "--config", str(config)], "speed must be > 0"),
        (["run", "--agent", "eager", "--task", "nope", "--config", str(config)], "no scenario nope"),
        (["run", "--agent", "eager", "--env", "mars", "--config", str(config)], "no scenarios folder"),
        (["grade", "missing-run", "--config", str(config)], "no such run"),
        (["run", "--agent", "eager", "--config", str(tmp_path / "nope.toml")], "config file not found"),
    ]
    for args, message in cases:
        done = sentinel_cli(*args, cwd=tmp_path)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr, (args, done.stderr)


@pytest.mark.slow
def test_cli_run_then_grade(tmp_path):
    config = write_test_config(tmp_path)
    done = sentinel_cli("run", "--ci", "--agent", "oracle", "--speed", "200", "--run", "g",
                        "--task", "rise,rise_buy", "--config", str(config), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS  microhood-rise " in done.stdout and "passed: 2/2" in done.stdout
    graded = sentinel_cli("grade", "g", "--config", str(config), cwd=tmp_path)
    assert graded.returncode == 0
    assert "microhood-rise_buy" in graded.stdout
    assert "100%" in graded.stdout


@pytest.mark.slow
def test_ctrl_c_stops_agents_cleanly_and_resume_continues(tmp_path):
    config = write_test_config(tmp_path)
    args = ["run", "--ci", "--agent", "silent", "--speed", "200", "--run", "c", "--config", str(config),
            "--concurrency", "0"]  # all three at once, whatever the machine is doing
    proc = subprocess.Popen([sys.executable, "-m", "sentinel.cli", *args], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    run_dir = tmp_path / "results" / "c"
    deadline = time.monotonic() + 30
    while len(list(run_dir.glob("*/*/"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, out + err
    assert "continue with --resume" in err and "Traceback" not in err
    assert processes_working_in(tmp_path) == []
    stopped = load_results(run_dir)
    assert stopped and all(r.ended_by == "stopped" and r.is_infra_error for r in stopped)
    resumed = sentinel_cli(*args, "--resume", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert [r.success for r in load_results(run_dir)] == [False, False, True]


@pytest.mark.slow
async def test_trials_run_each_scenario_k_times_as_separate_sessions(tmp_path):
    config = make_config(tmp_path)
    report = await Runner(config, replace(plan("eager"), trials=2)).run()
    assert [(r.scenario_id, r.trial) for r in report.results] == [
        ("microhood-rise", 1), ("microhood-rise", 2), ("microhood-rise_buy", 1), ("microhood-rise_buy", 2),
        ("microhood-rise_noop", 1), ("microhood-rise_noop", 2)]
    folders = sorted(p.parent.name for p in (config.results_dir / "r").glob("*/*/result.json"))
    assert folders == ["rise.t1", "rise.t2", "rise_buy.t1", "rise_buy.t2", "rise_noop.t1", "rise_noop.t2"]
    with pytest.raises(SentinelError, match="--trials"):
        await Runner(config, replace(plan("eager", resume=True), trials=3)).run()


@pytest.mark.slow
async def test_a_person_plays_through_http_and_the_report_with_its_message_ends_the_session(tmp_path):
    import asyncio

    import aiohttp

    config = make_config(tmp_path)
    rise = next(s for s in plan("eager").scenarios if s.id == "microhood-rise")
    bus = Bus()
    ready = asyncio.Queue()
    bus.subscribe(lambda m: ready.put_nowait(m) if isinstance(m, SessionReady) else None)
    runner = Runner(config, RunPlan(name="p", agent="human", command=None, speed=SPEED, scenarios=(rise,)), bus)
    running = asyncio.create_task(runner.run())
    message = await asyncio.wait_for(ready.get(), 10)
    assert message.task_url.endswith("/start") and "visiting" in message.prompt
    async with aiohttp.ClientSession() as browser:
        async with browser.get(message.task_url) as page:
            assert "MicroHood" in await page.text()
        await asyncio.sleep(70 / SPEED)  # the person waits until CHPX has crossed
        async with browser.get(message.url + "/contact") as page:
            assert page.status == 200
        async with browser.post(message.url + "/contact", data={"message": "it crossed"}) as page:
            assert page.status == 200
    report = await asyncio.wait_for(running, 10)
    result = report.results[0]
    assert result.agent == "human"
    assert result.ended_by == "contact"
    assert result.success
    assert result.contact_message == "it crossed"
    assert (config.results_dir / "p" / "microhood" / "rise" / "result.json").exists()


def start_times(run_dir: Path) -> dict[str, float]:
    """Epoch time at which each session's first /start was answered (its clock started)."""
    times = {}
    for log in run_dir.glob("*/*/requests.jsonl"):
        starts = [json.loads(line) for line in log.read_text().splitlines() if '"/start"' in line]
        if starts:
            times[log.parent.name] = starts[0]["wall"]
    return times


@pytest.mark.slow
async def test_first_wave_clocks_start_together_after_every_agent_booted(tmp_path):
    config = make_config(tmp_path)
    slow_boot = (f'case "$SENTINEL_TASK_PROMPT" in "Tell me when CHPX trades at \\$520"*) sleep 1;; esac; '
                 f"{sys.executable} -m sentinel.agents.eager __TASK_URL__")
    runner = Runner(config, plan("eager", command=slow_boot))
    runner.start_spacing_s = (0.0, 0.0)  # the line only, not its pace (tests/test_plan.py)
    await runner.run()
    times = start_times(config.results_dir / "r")
    assert set(times) == {"rise", "rise_buy", "rise_noop"}
    assert max(times.values()) - min(times.values()) < 0.3  # the fast agents waited for the slow one


@pytest.mark.slow
async def test_start_line_waits_no_longer_than_its_limit(tmp_path):
    config = make_config(tmp_path)
    never_starts = (f'case "$SENTINEL_TASK_PROMPT" in "Tell me when CHPX trades at \\$520"*) sleep 30;; esac; '
                    f"{sys.executable} -m sentinel.agents.eager __TASK_URL__")
    runner = Runner(replace(config, timing=replace(config.timing, startup_timeout_s=3)),
                    plan("eager", command=never_starts))
    runner.start_line_max_s = 0.5
    report = await runner.run()
    ended = {r.scenario_id: r.ended_by for r in report.results}
    assert ended == {"microhood-rise": "startup_timeout", "microhood-rise_buy": "agent_exit",
                     "microhood-rise_noop": "agent_exit"}
    times = start_times(config.results_dir / "r")
    assert set(times) == {"rise_buy", "rise_noop"}


@pytest.mark.slow
async def test_the_agent_works_in_a_temporary_folder_outside_the_repository(tmp_path):
    config = make_config(tmp_path)
    script = ("pwd; echo __BASE_DIR__; printf '%s\\n' \"$SENTINEL_COSTS_FILE\"; "
              "printf '{\"prompt_tokens\": 7, \"model\": \"m\"}' > costs.json; mkdir notes; echo kept > notes/a.txt")
    scenarios = plan("eager").scenarios[:1]
    await Runner(config, RunPlan(name="w", agent="custom", command=script, speed=SPEED, scenarios=scenarios)).run()
    folder = config.results_dir / "w" / "microhood" / "rise"
    cwd, base_dir, costs_file = (folder / "agent.log").read_text().splitlines()[:3]
    work = Path(cwd)
    assert work.is_absolute()
    assert work.name.startswith("sentinel-")
    assert base_dir == cwd
    assert Path(costs_file) == work / "costs.json"
    repo = Path(__file__).resolve().parent.parent
    assert not work.is_relative_to(repo) and not work.is_relative_to(config.results_dir)
    assert not work.exists()  # removed at the end, after its contents were kept
    assert (folder / "agent" / "notes" / "a.txt").read_text() == "kept\n"
    result = load_results(config.results_dir / "w")[0]
    assert result.prompt_tokens == 7 and result.model == "m"  # costs.json read from what was kept


def test_a_custom_command_cannot_ask_for_the_scenario_file(tmp_path):
    scenarios = plan("eager").scenarios
    with pytest.raises(SentinelError, match="__SCENARIO_FILE__ is given to built-in agents only"):
        RunPlan(name="x", agent="custom", command="my-agent __SCENARIO_FILE__", speed=SPEED, scenarios=scenarios)
    with pytest.raises(SentinelError, match="built-in agents only"):  # a built-in name does not lend its rights
        RunPlan(name="x", agent="oracle", command=["cat", "__SCENARIO_FILE__"], speed=SPEED, scenarios=scenarios)
    assert RunPlan(name="x", agent="oracle", command=BUILTIN_AGENTS["oracle"], speed=SPEED,
                   scenarios=scenarios).gets_scenario_file


@pytest.mark.slow
async def test_nothing_in_a_custom_agents_environment_names_the_scenario(tmp_path):
    config = make_config(tmp_path)
    scenarios = plan("eager").scenarios[:1]
    await Runner(config, RunPlan(name="e", agent="custom", command="env; echo args:__BASE_DIR__", speed=SPEED,
                                 scenarios=scenarios)).run()
    log = (config.results_dir / "e" / "microhood" / "rise" / "agent.log").read_text()
    assert "SENTINEL_SPEED=200" in log and "args:/" in log
    assert "rise.yaml" not in log and str(TEST_SCENARIOS) not in log


@pytest.mark.slow
def test_cmd_pwd_prints_a_folder_outside_the_repository(tmp_path):
    config = write_test_config(tmp_path)
    done = subprocess.run([sys.executable, "-m", "sentinel.cli", "run", "--config", str(config), "--cmd", "pwd",
                           "--speed", "200", "--task", "rise", "--run", "p", "--ci"],
                          cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    printed = Path((tmp_path / "results" / "p" / "microhood" / "rise" / "agent.log").read_text().strip())
    assert printed.is_absolute() and not printed.is_relative_to(Path(__file__).resolve().parent.parent)
    refused = subprocess.run([sys.executable, "-m", "sentinel.cli", "run", "--config", str(config),
                              "--cmd", "cat __SCENARIO_FILE__", "--task", "rise"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "built-in agents only" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_compile_templates_compiles_the_run_s_environments_and_the_shared_ones_only():
    from sentinel.envs import template_dirs
    from sentinel.run.runner import compile_templates
    from sentinel.web.templates import make_templates

    templates = make_templates(template_dirs())
    compile_templates(templates, {"micromail"})
    compiled = {key[1] for key in templates.cache}
    assert "micromail/folder.html" in compiled
    assert "base.html" in compiled
    assert "common/macros.html" in compiled
    assert not any(name.startswith("microhood/") for name in compiled)
