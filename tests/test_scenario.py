"""Loading scenario files: every shape problem is one Problem naming file, field and reason."""

from pathlib import Path

import pytest

from sentinel.core.scenario import SELF_SQL, ScenarioError, load_scenario

GOOD = """
id: micromail-demo
environment: micromail
prompt: Tell me when mail from Dana arrives.
condition_at: 120
taxonomy: {activity: passive, criteria: absolute}
events:
  - {at: 0, type: preload, emails: "*"}
  - {at: 120, type: new_email, email_id: em0001}
eval_sql: SELECT COUNT(*) FROM emails WHERE sender_id = SELF
solution:
  - watch: /micromail/folder/inbox
    until: {text: Dana}
  - report: Dana wrote.
"""


def write(tmp_path: Path, text: str, env="micromail", name="demo.yaml") -> Path:
    folder = tmp_path / env
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    return [f"{p.field}: {p.reason}" for p in info.value.problems]


def test_good_scenario_loads_into_frozen_dataclasses(tmp_path):
    s = load_scenario(write(tmp_path, GOOD))
    assert s.id == "micromail-demo"
    assert s.short_id == "demo"
    assert s.condition_at == 120.0
    assert s.start_page == "/micromail/"
    assert [e.type for e in s.preload] == ["preload"] and [e.at for e in s.timeline] == [120.0]
    assert s.timeline[0].fields == {"email_id": "em0001"}
    assert SELF_SQL in s.grading_sql()
    assert s.solution[0].verb == "watch" and s.solution[1].target == "Dana wrote."
    with pytest.raises(AttributeError):
        s.id = "other"


def test_every_problem_is_reported_at_once(tmp_path):
    text = GOOD.replace("condition_at: 120", "condition_at: soon").replace(
        "activity: passive", "activity: sleepy").replace("prompt:", "colour: blue\nprompt:")
    found = problems(write(tmp_path, text))
    assert "colour: unknown key" in found
    assert any(f.startswith("condition_at: expected a number") for f in found)
    assert any(f.startswith("taxonomy.activity: expected one of") for f in found)


def test_yaml_syntax_error_names_the_line(tmp_path):
    found = problems(write(tmp_path, "id: [unclosed\nprompt: x\n"))
    assert len(found) == 1
    assert found[0].startswith("line ")
    assert "not valid YAML" in found[0]


def test_noop_must_have_null_condition_and_normal_must_have_sql(tmp_path):
    found = problems(write(tmp_path, GOOD.replace("activity: passive", "activity: noop")))
    assert any("must be null exactly when" in f for f in found)
    found = problems(write(tmp_path, GOOD.replace("eval_sql: SELECT COUNT(*) FROM emails WHERE sender_id = SELF", "")))
    assert any(f.startswith("eval_sql: missing") for f in found)


def test_folder_and_id_prefix_must_match_environment(tmp_path):
    found = problems(write(tmp_path, GOOD, env="microhood"))
    assert any("lies in scenarios/microhood" in f for f in found)
    found = problems(write(tmp_path, GOOD.replace("id: micromail-demo", "id: demo")))
    assert "id: must start with 'micromail-'" in found


def test_bad_events_and_solution_steps(tmp_path):
    text = GOOD.replace("{at: 120, type: new_email, email_id: em0001}", "{at: later, type: new_email}").replace(
        "until: {text: Dana}", "until: {number: 'no group', at_least: 3}")
    found = problems(write(tmp_path, text))
    assert any(f.startswith("events[1].at: expected sim seconds") for f in found)
    assert any("solution[0].until.number: the regex needs one group" in f for f in found)


def test_not_a_mapping(tmp_path):
    assert problems(write(tmp_path, "- just\n- a list\n")) == ["-: expected a mapping of scenario fields"]

