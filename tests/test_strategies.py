"""The sleep and wait_for agents with the rule-based judge and planner: the diff, the judge,
the conversation budget, and real runs on the test scenarios at high speed."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import replace

import pytest
from helpers.runs import SPEED, TEST_SCENARIOS, make_config

from sentinel.agents import BUILTIN_AGENTS
from sentinel.agents.browse import Line
from sentinel.agents.judges import RuleJudge, Watch, diff_lines, read_verdict
from sentinel.agents.llm import ToolCall
from sentinel.agents.planners import describe_condition, tools_for
from sentinel.agents.strategy import DROPPED_PAGE, Conversation
from sentinel.agents.usage import Meter, estimate_prompt_tokens
from sentinel.core.scenario import load_scenario, scenario_files
from sentinel.core.solution import parse_solution
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner

FAST = ["--sleep-s", "0.5", "--reload-s", "0.2"]  # the test scenarios last a few wall seconds


def lines(*shown: str) -> list[Line]:
    return [Line(s, re.sub(r"\[\d+\] ", "", s)) for s in shown]


def test_diff_keeps_only_changed_lines():
    old = lines("Inbox (4)", "Ann [3] Budget", "Bob [4] Lunch")
    new = lines("Inbox (5)", "Cy [5] Offer", "Ann [3] Budget", "Bob [4] Lunch")
    changes = diff_lines(old, new)
    assert [line.shown for line in changes.added] == ["Inbox (5)", "Cy [5] Offer"]
    assert changes.removed == ()  # "Inbox (4)" changed in place: only its new version counts
    assert changes.describe() == "+ Inbox (5)\n+ Cy [5] Offer"
    assert diff_lines(new, new).empty
    gone = diff_lines(new, lines("Inbox (4)", "Ann [3] Budget", "Bob [4] Lunch"))
    assert gone.describe() == "- Cy [5] Offer\n+ Inbox (4)"  # Cy's mail left nothing in its place


def test_the_passing_of_time_alone_is_no_change():
    old = lines("Ann [3] Budget · just now", "Bob [4] Lunch · 59 min ago", "Cy [5] Offer · 2 days ago")
    later = lines("Ann [3] Budget · 1 min ago", "Bob [4] Lunch · 1 h ago", "Cy [5] Offer · 3 days ago")
    assert diff_lines(old, later).empty
    edited = diff_lines(old, lines("Ann [3] Budget · 1 min ago", "Bob [4] Dinner · 1 h ago",
                                   "Cy [5] Offer · 3 days ago"))
    assert [line.shown for line in edited.added] == ["Bob [4] Dinner · 1 h ago"]


def watch_step(yaml_until: dict, **extra):
    steps, problems = parse_solution([{"watch": "/p", "until": yaml_until, **extra}, {"report": "done"}])
    assert not problems
    return steps[0]


def test_rule_judge_reads_the_predicate_on_the_changed_lines_and_counts_estimated_tokens():
    meter = Meter("rule-based", estimated=True)
    judge = RuleJudge(meter)
    judge.watch = Watch(watch_step({"number": r"Price \$([\d,.]+)", "at_most": "first * 0.90"}), first=84.0)
    before = lines("Price $80.00", "Volume 10")
    dipped = diff_lines(before, lines("Price $75.50", "Volume 10"))
    assert not judge.check("c", diff_lines(before, lines("Price $76.00", "Volume 10")), "/p").holds
    assert judge.check("c", dipped, "/p").holds
    assert not judge.check("c", diff_lines(before, lines("Price $80.00", "Volume 75.00")), "/p").holds
    assert meter.calls == {"judge": 3}
    assert meter.prompt_tokens > 3 * 50
    assert meter.completion_tokens > 0
    assert describe_condition(judge.watch) == r"the number in /Price \$([\d,.]+)/ is at most 75.6"


def test_rule_judge_with_open_new_wakes_on_links_not_seen_before():
    judge = RuleJudge(Meter("rule-based"))
    step = watch_step({"text": "deadline"}, open_new="^/message/")
    judge.watch = Watch(step, seen={"http://s/message/1"})
    old = [Line("Ann [1] Budget", "Ann Budget", ("http://s/message/1",))]
    moved = [Line("Inbox (2)", "Inbox (2)")] + old
    arrived = [Line("Cy [2] Offer", "Cy Offer", ("http://s/message/2",)), Line("[3] Help", "Help", ("http://s/help",))]
    assert not judge.check("c", diff_lines(old, moved), "/inbox").holds
    assert judge.check("c", diff_lines(old, arrived + old), "/inbox").holds
    assert judge.watch.fresh_links(["http://s/message/2", "http://s/help"]) == ["http://s/message/2"]


def test_judge_answers_are_read_leniently():
    assert read_verdict('{"holds": true, "reason": "price 76"}').holds
    fenced = '```json\n{"holds": false, "reason": "no"}\n```'
    assert read_verdict(fenced) == read_verdict('{"holds": false, "reason": "no"}')
    assert read_verdict("holds: TRUE because").holds
    assert read_verdict("Yes.").holds and not read_verdict("No, not yet").holds
    assert not read_verdict("I cannot tell").holds


def test_conversation_drops_the_oldest_page_readings_past_its_budget():
    page = "x" * 4000
    conversation = Conversation("system", "task", f"/inbox (status 200):\n{page}", budget_tokens=2500)
    for i in range(5):
        conversation.add({"role": "assistant", "content": f"call {i}"})
        conversation.add({"role": "tool", "tool_call_id": str(i), "content": f"/inbox {i}:\n{page}"}, page=True)
    assert estimate_prompt_tokens(conversation.messages) <= 2500
    contents = [m["content"] for m in conversation.messages]
    assert contents[-1].endswith(page)  # the latest reading is always whole
    assert contents[2] == f"You are on /inbox (status 200):\n{DROPPED_PAGE}"
    assert contents[:2] == ["system", "task"] and contents.count(f"/inbox 0:\n{DROPPED_PAGE}") == 1


def test_conversation_starts_again_from_the_task_and_the_wait_for_call():
    conversation = Conversation("system", "task", "/inbox (status 200):\n" + "x" * 4000, budget_tokens=16_000)
    conversation.add({"role": "assistant", "content": None, "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "open", "arguments": '{"target": "3"}'}}]})
    conversation.add({"role": "tool", "tool_call_id": "a", "content": "/message/3:\n" + "y" * 4000}, page=True)
    calls = [{"id": i, "type": "function", "function": {"name": name, "arguments": "{}"}}
             for i, name in (("b", "open"), ("c", "wait_for"), ("d", "report"))]
    reply = {"role": "assistant", "content": "watching again", "tool_calls": calls}
    conversation.restart_from_wait(reply, ToolCall("c", "wait_for", {}), "After 3 s the condition appears to hold")
    assert conversation.messages == [
        {"role": "system", "content": "system"}, {"role": "user", "content": "task"},
        {"role": "assistant", "content": "watching again", "tool_calls": [calls[1]]},
        {"role": "tool", "tool_call_id": "c", "content": "After 3 s the condition appears to hold"}]
    conversation.add({"role": "tool", "tool_call_id": "e", "content": "/inbox:\n" + "z" * 80_000}, page=True)
    assert conversation.messages[-1]["content"].endswith("z")  # the latest reading stays whole


def test_a_wait_for_conversation_keeps_only_the_latest_page_whole():
    conversation = Conversation("system", "task", "/inbox (status 200):\n" + "x" * 400, budget_tokens=16_000,
                                latest_page_only=True)
    for i in range(3):
        conversation.add({"role": "tool", "tool_call_id": str(i), "content": f"/message/{i}:\nbody {i}"}, page=True)
    assert [m["content"] for m in conversation.messages[2:]] == [
        f"You are on /inbox (status 200):\n{DROPPED_PAGE}", f"/message/0:\n{DROPPED_PAGE}",
        f"/message/1:\n{DROPPED_PAGE}", "/message/2:\nbody 2"]


def test_rule_planner_estimate_includes_the_tool_schemas():
    messages = [{"role": "user", "content": "x" * 400}]
    assert estimate_prompt_tokens(messages, tools_for("wait_for")) > estimate_prompt_tokens(messages) + 100


def strategy_plan(strategy: str, name: str) -> RunPlan:
    scenarios = tuple(load_scenario(p) for p in scenario_files(TEST_SCENARIOS, "microhood"))
    return RunPlan(name=name, agent=strategy, command=BUILTIN_AGENTS[strategy] + FAST, speed=SPEED,
                   scenarios=scenarios)


@pytest.mark.slow
async def test_both_strategies_pass_the_test_scenarios_and_wait_for_costs_less(tmp_path):
    config = make_config(tmp_path)
    config = replace(config, timing=replace(config.timing, reaction_window_s=3.0))
    sleep, wait_for = await asyncio.gather(Runner(config, strategy_plan("sleep", "s")).run(),
                                           Runner(config, strategy_plan("wait_for", "w")).run())
    for report in (sleep, wait_for):
        by_id = {r.scenario_id: r for r in report.results}
        assert all(r.success for r in report.results), [r.detail for r in report.results]
        assert all(r.model == "rule-based (estimated)" and r.cost_usd is not None for r in report.results)
        assert by_id["microhood-rise_buy"].tool_calls >= 4  # wait, open, two submits, report
    tokens = {(r.agent, r.scenario_id): r.prompt_tokens + r.completion_tokens
              for r in sleep.results + wait_for.results}
    # The no-op is watched for the whole session: sleep re-reads the page each wake, wait_for
    # wakes nobody while the page does not change.
    assert tokens["wait_for", "microhood-rise_noop"] * 2 < tokens["sleep", "microhood-rise_noop"]
    costs = json.loads((config.results_dir / "w" / "microhood" / "rise_noop" / "agent" / "costs.json").read_text())
    assert costs["model"] == "rule-based" and costs["estimated"] is True
    assert costs["model_calls"]["planner"] <= 2  # read the page, wait_for until time runs out
    log = (config.results_dir / "s" / "microhood" / "rise_buy" / "agent.log").read_text()
    assert "submit(" in log and "report(" in log  # (on a slow machine its first look may already see the rise)
    noop_log = (config.results_dir / "s" / "microhood" / "rise_noop" / "agent.log").read_text()
    assert "sleep(" in noop_log  # with nothing to see, the sleep strategy sleeps
