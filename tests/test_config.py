"""Configuration: defaults, user files merged on top, eval_config.yaml, clear errors."""

import pytest

from sentinel.config import load_config
from sentinel.errors import SentinelError


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
