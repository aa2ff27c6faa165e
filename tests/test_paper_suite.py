"""The paper suite (docs/paper-suite.md): the original's ids, split and times, its rules, and the
suite stamp every result carries."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from helpers.results import make_result, write_run

from sentinel import api
from sentinel.checks.paper_rules import paper_problems, read_inventory
from sentinel.checks.validate import validate_all
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.errors import SentinelError
from sentinel.core.scenario import CONTACT_SENTENCE, ScenarioError, full_prompt, load_scenario, scenario_files
from sentinel.core.suites import suite_digest, suite_dir, suite_name, suite_of

PAPER = REPO_ROOT / "scenarios" / "paper"
INVENTORY = read_inventory(PAPER / "INVENTORY.tsv")
SENDER = PAPER / "micromail" / "sender-absolute-passive.yaml"
ENVS = sorted(p.name for p in PAPER.iterdir() if p.is_dir())
ALL_TEN = len(ENVS) == 10


def paper_scenarios():
    return [load_scenario(p) for p in scenario_files(PAPER)]


def test_the_inventory_holds_the_papers_numbers():
    tasks = list(INVENTORY.values())
    assert len(tasks) == 100
    assert Counter(t.activity for t in tasks) == {"passive": 38, "active": 42, "noop": 20}
    assert Counter(t.criteria for t in tasks if t.activity != "noop") == {"absolute": 41, "relative": 39}
    assert sum(t.events for t in tasks) == 709
    assert all((t.condition_at is None) == (t.activity == "noop") for t in tasks)


def test_each_paper_scenario_is_its_original_task():
    scenarios = paper_scenarios()
    assert len(scenarios) == 10 * len(ENVS)
    for s in scenarios:
        task = INVENTORY[s.id]
        assert s.path.name == s.id.split("-", 1)[1] + ".yaml"
        assert (s.taxonomy.activity, s.taxonomy.criteria, len(s.events)) == (task.activity, task.criteria, task.events)
        if task.condition_at is None:
            assert s.condition_at is None
            assert s.eval_sql is None
            assert s.near_miss_sql is None
        else:
            assert s.condition_at is not None and abs(s.condition_at - task.condition_at) <= 0.01
        assert s.is_paper and s.condition_until is None


@pytest.mark.skipif(not ALL_TEN, reason=f"the paper suite holds {len(ENVS)} of the ten environments so far")
def test_list_suite_paper_gives_exactly_the_hundred_ids():
    listing = api.list_scenarios(suite="paper")
    assert sorted(s.id for s in listing.scenarios) == sorted(INVENTORY) and not listing.unreadable


def test_the_paper_rules_catch_a_changed_time_count_or_id(tmp_path):
    root = tmp_path / "paper"
    (root / "micromail").mkdir(parents=True)
    shutil.copy(PAPER / "INVENTORY.tsv", root)
    text = SENDER.read_text()
    moved = root / "micromail" / "sender-absolute-passive.yaml"
    moved.write_text(text.replace("condition_at: 19.4", "condition_at: 19.5"))
    renamed = root / "micromail" / "sender-late.yaml"
    renamed.write_text(text.replace("micromail-sender-absolute-passive", "micromail-sender-late"))
    found = [f"{Path(p.file).name}: {p.field}" for p in
             paper_problems([load_scenario(moved), load_scenario(renamed)], whole_suite=True)]
    assert "sender-absolute-passive.yaml: condition_at" in found
    assert "sender-late.yaml: id" in found
    assert "INVENTORY.tsv: id" in found  # 99 tasks have no scenario here


def test_a_paper_task_has_no_passing_condition_and_its_own_prompt_sentence(tmp_path):
    folder = tmp_path / "micromail"
    folder.mkdir()
    until = folder / "until.yaml"
    until.write_text(SENDER.read_text().replace("condition_at: 19.4", "condition_at: 19.4\ncondition_until: 300"))
    with pytest.raises(ScenarioError, match="persists once true"):
        load_scenario(until)
    prompt = full_prompt(load_scenario(SENDER), "http://x/contact")
    assert "http://x/contact" in prompt and "before the condition holds" in prompt
    assert "never" not in prompt.lower()  # no hint that the condition may never come
    assert CONTACT_SENTENCE.split(".")[0] not in prompt


async def test_a_paper_noop_with_a_near_miss_is_refused(tmp_path):
    folder = tmp_path / "micromail"
    folder.mkdir()
    noop = folder / "sender-absolute-noop.yaml"
    noop.write_text((PAPER / "micromail" / "sender-absolute-noop.yaml").read_text()
                    + "near_miss_sql: SELECT 1\n")
    _, problems = await validate_all(load_config(), [noop])
    assert [p.field for p in problems] == ["near_miss_sql"]


def test_suite_names_and_digests():
    assert suite_name(suite_dir("paper")) == "paper" and suite_name(suite_dir("verified")) == "verified"
    assert suite_of([SENDER], suite_dir("verified")) == "paper"
    with pytest.raises(SentinelError, match="--suite nope"):
        suite_dir("nope")


def test_the_digest_changes_with_a_scenario_file(tmp_path):
    copy = tmp_path / "micromail" / SENDER.name
    copy.parent.mkdir()
    copy.write_text(SENDER.read_text())
    catalogs = load_config().catalogs_dir
    before = suite_digest([("micromail", copy)], catalogs)
    assert before == suite_digest([("micromail", copy)], catalogs)
    copy.write_text(SENDER.read_text().replace("Priya Shah's email has arrived.", "Priya wrote."))
    assert suite_digest([("micromail", copy)], catalogs) != before


def test_grade_refuses_results_of_different_suites_unless_allowed(tmp_path):
    run = write_run(tmp_path / "mixed", [
        make_result("microhood-a", suite="verified", suite_digest="aaaa"),
        make_result("microhood-b", suite="paper", suite_digest="bbbb")])
    with pytest.raises(SentinelError, match="--allow-mixed"):
        api.grade(run)
    assert len(api.grade(run, allow_mixed=True).results) == 2


def test_a_report_comparing_different_suites_says_so(tmp_path):
    one = write_run(tmp_path / "one", [make_result("microhood-a", suite="verified", suite_digest="aaaa")])
    two = write_run(tmp_path / "two", [make_result("microhood-a", suite="paper", suite_digest="bbbb")])
    for run, suite, digest in ((one, "verified", "aaaa"), (two, "paper", "bbbb")):
        info = (run / "run.json").read_text().replace('"trials"', f'"suite": "{suite}", "suite_digest": "{digest}", '
                                                                   '"trials"')
        (run / "run.json").write_text(info)
    html = api.report([one, two], out=tmp_path / "r.html").read_text()
    assert "(different suites)" in html and "paper (digest bbbb)" in html


@pytest.mark.slow
def test_a_paper_run_stamps_its_suite_on_every_result(tmp_path):
    config = load_config().with_overrides(results_dir=tmp_path / "results")
    outcome = api.run(agent="oracle", suite="paper", tasks=["micromail-sender-absolute-passive"], speed=50,
                      config=config, run_name="stamped")
    (result,) = outcome.results
    assert result.success
    assert result.suite == "paper"
    assert result.suite_digest
    info = (outcome.run_dir / "run.json").read_text()
    assert '"suite": "paper"' in info and result.suite_digest in info
    with pytest.raises(SentinelError, match="not both"):
        api.prepare_run(agent="oracle", suite="paper", scenarios_dir=str(PAPER), config=config)
