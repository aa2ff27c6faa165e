"""A run's folder as a run opens it (sentinel/outputs/run_folder.py): a new run never takes an
existing name, and a resumed run must be the run it continues."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from sentinel.core.errors import SentinelError
from sentinel.core.files import write_json_atomic
from sentinel.outputs.run_folder import RUN_FILE, RunIdentity, open_run_folder, refuse_existing_run

IDENTITY = RunIdentity(agent="oracle", speed=50.0, trials=1, variant_seed=None, model=None, suite="verified",
                       suite_digest="abc123")


def earlier_run(folder, identity: RunIdentity = IDENTITY) -> None:
    write_json_atomic(folder / RUN_FILE, {"agent": identity.agent, "speed": identity.speed, "trials": identity.trials,
                                          "variant_seed": identity.variant_seed, "model": identity.model,
                                          "suite": identity.suite, "suite_digest": identity.suite_digest,
                                          "created": "2026-03-02T09:00:00+00:00"})


def test_a_new_folder_opens_and_has_no_earlier_run(tmp_path):
    folder = tmp_path / "results" / "r"
    assert open_run_folder(folder, IDENTITY, resume=False) is None
    assert folder.is_dir()


def test_a_new_run_may_not_take_an_existing_name(tmp_path):
    earlier_run(tmp_path)
    with pytest.raises(SentinelError, match="a run with this name exists; pass --resume"):
        refuse_existing_run(tmp_path, resume=False)
    with pytest.raises(SentinelError, match="a run with this name exists"):
        open_run_folder(tmp_path, IDENTITY, resume=False)
    refuse_existing_run(tmp_path, resume=True)


def test_a_resume_of_the_same_run_gets_its_run_json_and_loses_half_written_files(tmp_path):
    earlier_run(tmp_path)
    (tmp_path / ".result.json.x1.tmp").write_text("{")
    previous = open_run_folder(tmp_path, IDENTITY, resume=True)
    assert previous is not None
    assert previous["created"] == "2026-03-02T09:00:00+00:00"
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize(("change", "says"), [
    ({"agent": "eager"}, "was run with agent 'oracle' at speed 50.0 with 1 trial"),
    ({"speed": 10.0}, "resume it with the same --agent, --speed, --trials"),
    ({"trials": 3}, "with 1 trial"),
    ({"suite_digest": "def456"}, "digest abc123, but its scenario files or catalogs have changed since"),
    ({"model": "gpt-x"}, "was run with model None; resume it with the same --model"),
    ({"model_time": "fixed:2"}, "was run with --model-time wall; resume it with the same --model-time (now fixed:2)"),
])
def test_a_resume_that_is_not_the_same_run_says_what_differs(tmp_path, change, says):
    earlier_run(tmp_path)
    with pytest.raises(SentinelError, match=re.escape(says)):
        open_run_folder(tmp_path, replace(IDENTITY, **change), resume=True)
