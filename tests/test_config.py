"""Configuration: defaults, user files merged on top, eval_config.yaml, clear errors."""

import os

import pytest

from sentinel.core.config import REPO_ROOT, SESSIONS_PER_CORE, load_config, sessions_at_once
from sentinel.core.errors import SentinelError


def test_defaults_match_the_design():
    config = load_config()
    t = config.timing
    assert (t.min_condition_at, t.max_condition_at, t.event_timeline_end, t.reaction_window_s,
            t.startup_timeout_s, t.on_time_s) == (10, 600, 720, 30, 120, 60)
    assert config.deadline_wall_s(speed=1) == 630
    assert config.deadline_wall_s(speed=50) == pytest.approx(42)


def test_user_toml_overrides_key_by_key(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('[timing]\nreaction_window_s = 10\n[run]\nspeed = 4\n[agent]\ncmd = "my-agent __TASK_URL__"\n')
    config = load_config(path)
    assert config.timing.reaction_window_s == 10 and config.timing.max_condition_at == 600
    assert config.speed == 4 and config.agent_cmd == "my-agent __TASK_URL__"


def test_on_time_s_is_configurable(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("[timing]\non_time_s = 30\n")
    assert load_config(path).timing.on_time_s == 30


def test_eval_config_yaml_is_accepted(tmp_path):
    path = tmp_path / "eval_config.yaml"
    path.write_text("speed_factor: 2.0\nagent_subprocess: ['python', 'agent.py', '__TASK_URL__']\n")
    config = load_config(path)
    assert config.speed == 2.0 and config.agent_cmd == ["python", "agent.py", "__TASK_URL__"]


@pytest.mark.parametrize("text, message", [
    ("[run]\nspeed = 0\n", "run.speed"),
    ("[run]\nspeed = 5000\n", "at most 1000"),
    ("[timing]\nreaction_window = 3\n", "timing.reaction_window: unknown key"),
    ("[colours]\nx = 1\n", "unknown section(s) colours"),
    ("[run\n", "not valid TOML"),
    ("[timing]\nmax_condition_at = 'long'\n", "expected a number"),
    ("[prices.m]\nprompt = 1\n", "prices.m: expected prompt and completion"),
    ("[timing]\non_time_s = 0\n", "timing.on_time_s: must be greater than 0"),
    ("[timing]\non_time_s = 'a minute'\n", "timing.on_time_s: expected a number"),
])
def test_bad_config_gets_one_clear_message(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(SentinelError) as info:
        load_config(path)
    assert message in str(info.value) and str(path) in str(info.value)


def test_missing_config_file(tmp_path):
    with pytest.raises(SentinelError, match="config file not found"):
        load_config(tmp_path / "nope.toml")


# --- the original SentinelBench's eval_config.yaml -------------------------------------------

# The sample the original SentinelBench ships, as written.
ORIGINAL_SAMPLE = (REPO_ROOT / "tests" / "data" / "sentinelbench" / "eval_config.yaml").read_text()


def test_the_original_sample_loads_as_written_with_one_notice_about_the_urls(tmp_path):
    path = tmp_path / "eval_config.yaml"
    path.write_text(ORIGINAL_SAMPLE)
    config = load_config(path)
    assert config.speed == 1.0
    assert config.agent_cmd == ["your-agent-command", "--url", "__TASK_URL__", "--prompt", "__TASK_PROMPT__"]
    assert len(config.notices) == 1
    notice = config.notices[0]
    assert "server_url, frontend_url ignored" in notice
    assert "own site" in notice
    assert "\n" not in notice


def test_the_older_api_url_key_and_a_shell_string(tmp_path):
    path = tmp_path / "eval_config.yml"
    path.write_text("api_url: http://localhost:8000\nspeed_factor: '4'\n"
                    "agent_subprocess: my-agent --url __TASK_URL__ --prompt __TASK_PROMPT__\n")
    config = load_config(path)
    assert config.speed == 4.0  # the original calls float() on it, so a quoted number works
    assert config.agent_cmd == "my-agent --url __TASK_URL__ --prompt __TASK_PROMPT__"
    assert config.notices and "api_url ignored" in config.notices[0]


def test_no_url_keys_means_no_notice(tmp_path):
    path = tmp_path / "eval_config.yaml"
    path.write_text("speed_factor: 2\n")
    assert load_config(path).notices == ()
    assert load_config().notices == ()


def test_base_dir_is_the_folder_of_the_config_as_the_original_repo_root_was(tmp_path):
    folder = tmp_path / "my bench"
    folder.mkdir()
    listed = folder / "eval_config.yaml"
    listed.write_text('agent_subprocess: ["python", "__BASE_DIR__/agent.py", "__TASK_URL__"]\n')
    assert load_config(listed).agent_cmd == ["python", f"{folder}/agent.py", "__TASK_URL__"]
    shell = folder / "shell.yaml"
    shell.write_text("agent_subprocess: python __BASE_DIR__/agent.py __TASK_URL__\n")
    command = load_config(shell).agent_cmd
    assert command == f"python '{folder}'/agent.py __TASK_URL__"  # quoted for the shell, as the original does


def test_the_placeholders_left_are_the_runners_to_fill(tmp_path):
    from sentinel.session.harness import build_command

    path = tmp_path / "eval_config.yaml"
    path.write_text("agent_subprocess: agent --url __TASK_URL__ --prompt __TASK_PROMPT__\n")
    command = build_command(load_config(path).agent_cmd, {"__TASK_URL__": "http://127.0.0.1:9/start",
                                                          "__TASK_PROMPT__": "Tell me when it's $5."})
    assert command == "agent --url http://127.0.0.1:9/start --prompt 'Tell me when it'\"'\"'s $5.'"


@pytest.mark.parametrize("text, message", [
    ("speed_facter: 2\n", "unknown key(s) speed_facter; an eval_config.yaml knows speed_factor"),
    ("- speed_factor\n- 2\n", "expected a mapping of keys"),
    ("just a sentence\n", "expected a mapping of keys"),
    ("speed_factor: fast\n", "speed_factor: expected a number, got 'fast'"),
    ("speed_factor: 0\n", "speed_factor: must be greater than 0, got 0"),
    ("speed_factor: '-1'\n", "speed_factor: must be greater than 0"),
    ("speed_factor: 5000\n", "speed_factor: speed must be > 0 and at most 1000"),
    ("speed_factor: .nan\n", "speed_factor"),
    ("speed_factor: true\n", "speed_factor: expected a number"),
    ("agent_subprocess: []\n", "agent_subprocess: expected a command string or a list of strings"),
    ("agent_subprocess: '   '\n", "agent_subprocess: expected a command"),
    ("agent_subprocess: [python, 3]\n", "agent_subprocess: expected a command"),
    ("agent_subprocess: {cmd: x}\n", "agent_subprocess: expected a command"),
    ("speed_factor: [1\n", "not valid YAML"),
    ("\tspeed_factor: 1\n", "not valid YAML"),
    ("1: x\n", "unknown key(s) 1"),
])
def test_adversarial_eval_config_gets_one_clear_line(tmp_path, text, message):
    path = tmp_path / "eval_config.yaml"
    path.write_text(text)
    with pytest.raises(SentinelError) as info:
        load_config(path)
    text = str(info.value)
    assert message in text, text
    assert str(path) in text, text
    assert "\n" not in text, text


def test_an_empty_eval_config_is_the_defaults(tmp_path):
    path = tmp_path / "eval_config.yaml"
    path.write_text("# nothing yet\n")
    config = load_config(path)
    assert config.speed == 1.0
    assert config.agent_cmd is None
    assert config.notices == ()


def test_binary_unreadable_and_folder_configs_get_one_line(tmp_path):
    binary = tmp_path / "eval_config.yaml"
    binary.write_bytes(b"\xff\xfe\x00speed")
    with pytest.raises(SentinelError, match="not a text file"):
        load_config(binary)
    folder = tmp_path / "conf.yaml"
    folder.mkdir()
    with pytest.raises(SentinelError, match="is a folder"):
        load_config(folder)
    locked = tmp_path / "locked.yaml"
    locked.write_text("speed_factor: 1\n")
    locked.chmod(0)
    try:
        if not os.access(locked, os.R_OK):  # root reads anything
            with pytest.raises(SentinelError, match="cannot be read"):
                load_config(locked)
    finally:
        locked.chmod(0o644)


def test_the_ray_table_sets_what_each_session_reserves(tmp_path):
    defaults = load_config()
    assert (defaults.backend, defaults.ray.address, defaults.ray.num_cpus, defaults.ray.max_retries) == \
        ("local", None, 1.0, 3)
    path = tmp_path / "s.toml"
    path.write_text('[run]\nbackend = "ray"\n[ray]\naddress = "head:6379"\nnum_cpus = 0.5\nmemory_mb = 400\n')
    config = load_config(path)
    assert (config.backend, config.ray.address, config.ray.num_cpus, config.ray.memory_mb) == \
        ("ray", "head:6379", 0.5, 400)


@pytest.mark.parametrize("text, message", [
    ('[ray]\ncpus = 1\n', "ray.cpus: unknown key"),
    ('[ray]\nnum_cpus = 0\n', "ray.num_cpus: must be greater than 0"),
    ('[ray]\nmax_retries = -1\n', "ray.max_retries: expected a whole number"),
    ('[ray]\naddress = ""\n', "ray.address: expected"),
    ('[run]\nbackend = "slurm"\n', "run.backend: expected one of local, ray"),
])
def test_a_bad_ray_table_gets_one_clear_line(tmp_path, text, message):
    path = tmp_path / "s.toml"
    path.write_text(text)
    with pytest.raises(SentinelError, match=message):
        load_config(path)


def test_sessions_at_once_is_all_up_to_a_limit_per_core_unless_asked():
    assert SESSIONS_PER_CORE == 25
    assert sessions_at_once(None, 50, cores=2) == 0  # 50 fit in two cores' first wave: all at once
    assert sessions_at_once(None, 100, cores=2) == 50  # a first wave of 50, more while the machine is calm
    assert sessions_at_once(None, 200, cores=8) == 0
    assert sessions_at_once(0, 1000, cores=1) == 0  # asked for all at once
    assert sessions_at_once(7, 1000, cores=1) == 7


def test_concurrency_in_the_config_file(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("[run]\nconcurrency = 0\n")
    assert load_config(path).concurrency == 0
    assert load_config().concurrency is None  # absent: automatic
    path.write_text("[run]\nconcurrency = -2\n")
    with pytest.raises(SentinelError, match="run.concurrency"):
        load_config(path)


def test_a_run_larger_than_the_machine_carries_goes_in_waves_and_says_so(tmp_path):
    from sentinel import api
    _, plan = api.prepare_run(agent="silent", trials=3, speed=50)  # 300 sessions
    cores = len(os.sched_getaffinity(0))
    expected = 0 if 300 <= SESSIONS_PER_CORE * cores else SESSIONS_PER_CORE * cores
    assert plan.concurrency == expected
    _, plan = api.prepare_run(agent="silent", trials=3, speed=50, concurrency=0)
    assert plan.concurrency == 0
