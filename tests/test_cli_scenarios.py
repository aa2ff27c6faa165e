"""`sentinel list` in its three formats: the table for a person, ids and JSON for scripts."""

from __future__ import annotations

import json

import pytest

from sentinel.cli import main
from sentinel.core.config import REPO_ROOT

SCENARIOS = REPO_ROOT / "tests" / "data" / "scenarios"
IDS = ["microhood-rise", "microhood-rise_buy", "microhood-rise_noop"]


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "sentinel.toml"
    path.write_text(f'[run]\nscenarios_dir = "{SCENARIOS}"\nresults_dir = "{tmp_path / "results"}"\n')
    return path


def listed(capsys, config, *options: str) -> str:
    assert main(["list", "--config", str(config), *options]) == 0
    return capsys.readouterr().out


def test_ids_are_one_scenario_id_a_line(capsys, config):
    assert sorted(listed(capsys, config, "--format", "ids").splitlines()) == IDS


def test_json_gives_the_tables_fields_and_the_file(capsys, config):
    entries = {entry["id"]: entry for entry in json.loads(listed(capsys, config, "--format", "json"))}
    assert sorted(entries) == IDS
    noop = entries["microhood-rise_noop"]
    assert set(noop) == {"id", "activity", "criteria", "condition_at", "events", "path"}
    assert noop["condition_at"] is None
    assert noop["path"] == str(SCENARIOS / "microhood" / "rise_noop.yaml")
    assert isinstance(entries["microhood-rise"]["condition_at"], float)
    assert all(isinstance(entry["events"], int) for entry in entries.values())


def test_the_table_stays_the_default(capsys, config):
    table = listed(capsys, config)
    assert table == listed(capsys, config, "--format", "table")
    assert "Scenarios" in table
    assert "no-op" in table
    for scenario_id in IDS:
        assert scenario_id in table


def test_json_and_the_table_say_the_same(capsys, config):
    entries = json.loads(listed(capsys, config, "--format", "json"))
    table = listed(capsys, config)
    for entry in entries:
        row = next(line for line in table.splitlines() if f" {entry['id']} " in line)
        assert entry["activity"] in row
        assert f" {entry['events']} " in row


def test_an_unreadable_file_is_counted_on_stderr_and_left_out_of_ids(tmp_path, capsys):
    folder = tmp_path / "scenarios" / "microhood"
    folder.mkdir(parents=True)
    (folder / "rise.yaml").write_text((SCENARIOS / "microhood" / "rise.yaml").read_text())
    (folder / "broken.yaml").write_text("id: [\n")
    config = tmp_path / "sentinel.toml"
    config.write_text(f'[run]\nscenarios_dir = "{tmp_path / "scenarios"}"\n')
    assert main(["list", "--config", str(config), "--format", "ids"]) == 0
    out, err = capsys.readouterr()
    assert out == "microhood-rise\n"
    assert "1 scenario file(s) could not be loaded" in err
