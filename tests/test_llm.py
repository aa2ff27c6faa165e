"""The LLM path end to end against a fake OpenAI-compatible server started by the test: tool
calls, usage accounting, endpoint errors, slow answers and timeouts, and sessions that keep
their result when the endpoint fails."""

from __future__ import annotations

import asyncio
import json

import pytest
from helpers.fake_openai import FakeOpenAI, Reply, error, tool
from helpers.llm import BUY_SCRIPT, llm_config, llm_plan, price_judge
from helpers.runs import make_config

from sentinel.agents.llm import ChatClient, Endpoint, LLMError, parse_completion
from sentinel.agents.strategy import DROPPED_PAGE
from sentinel.run.runner import Runner

MESSAGES = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]


def client_for(base_url: str, pauses: list[float] | None = None, **endpoint) -> ChatClient:
    return ChatClient("fake-model", Endpoint(base_url=base_url, api_key="sk-test", **endpoint),
                      sleep=(pauses.append if pauses is not None else lambda s: None), log=lambda line: None)


async def test_tool_calls_usage_and_the_key_reach_the_client(fake_server):
    fake = FakeOpenAI([tool("open", target="12", prompt_tokens=321, completion_tokens=17),
                       Reply(content="thinking", usage=False),
                       Reply(tool_calls=(("submit", {"form": "2"}),))])
    client = client_for(await fake_server(fake))
    tools = [{"type": "function", "function": {"name": "open", "parameters": {}}}]
    first = await asyncio.to_thread(client.complete, MESSAGES, tools)
    assert [(c.name, c.arguments) for c in first.tool_calls] == [("open", {"target": "12"})]
    assert (first.prompt_tokens, first.completion_tokens, first.usage_reported) == (321, 17, True)
    assert first.message["tool_calls"][0]["function"] == {"name": "open", "arguments": '{"target": "12"}'}
    assert fake.requests[0]["tools"] == tools and fake.requests[0]["authorization"] == "Bearer sk-test"
    unreported = await asyncio.to_thread(client.complete, MESSAGES, tools)
    assert not unreported.usage_reported
    assert unreported.prompt_tokens > 0
    assert unreported.content == "thinking"


async def test_server_errors_and_rate_limits_are_retried_then_reported(fake_server):
    fake = FakeOpenAI([error(500), error(429, retry_after=7), tool("sleep", seconds=5), error(400)])
    pauses: list[float] = []
    client = client_for(await fake_server(fake), pauses, retries=3)
    reply = await asyncio.to_thread(client.complete, MESSAGES, [{"type": "function", "function": {"name": "x"}}])
    assert reply.tool_calls[0].name == "sleep" and pauses == [1, 7]  # growing pauses; Retry-After obeyed
    with pytest.raises(LLMError, match="answered 400: fake error 400"):  # a client error is not retried
        await asyncio.to_thread(client.complete, MESSAGES, [{"type": "function", "function": {"name": "x"}}])
    assert len(fake.requests) == 4


async def test_a_planner_function_answers_each_tool_request_from_the_conversation(fake_server):
    fake = FakeOpenAI(lambda request: tool("open", target=str(len(request["messages"]))))
    client = client_for(await fake_server(fake))
    tools = [{"type": "function", "function": {"name": "open", "parameters": {}}}]
    first = await asyncio.to_thread(client.complete, MESSAGES, tools)
    longer = await asyncio.to_thread(client.complete, MESSAGES + [{"role": "user", "content": "more"}], tools)
    assert first.tool_calls[0].arguments == {"target": "2"}
    assert longer.tool_calls[0].arguments == {"target": "3"}


@pytest.mark.slow
async def test_slow_answers_are_waited_for_and_timeouts_retried(fake_server):
    fake = FakeOpenAI([Reply(content="slow", delay_s=0.3), Reply(content="lost", delay_s=2.0), Reply(content="ok")])
    client = client_for(await fake_server(fake), timeout_s=1.0, retries=1)
    tools = [{"type": "function", "function": {"name": "x"}}]
    assert (await asyncio.to_thread(client.complete, MESSAGES, tools)).content == "slow"
    assert (await asyncio.to_thread(client.complete, MESSAGES, tools)).content == "ok"
    await asyncio.sleep(1.2)
    assert fake.abandoned == 1  # the timed-out answer never reached the client
    endless = FakeOpenAI([], then=Reply(delay_s=2.0))
    client = client_for(await fake_server(endless), timeout_s=0.3, retries=1)
    with pytest.raises(LLMError, match="did not answer within 0.3 s"):
        await asyncio.to_thread(client.complete, MESSAGES, tools)


def test_arguments_that_are_not_json_become_a_tool_error():
    broken = {"choices": [{"message": {"tool_calls": [
        {"id": "a", "function": {"name": "open", "arguments": "{oops"}},
        {"id": "b", "function": {"name": "open", "arguments": {"target": "3"}}}]}}]}
    calls = parse_completion(broken, MESSAGES, None).tool_calls
    assert "not valid JSON" in calls[0].error and calls[0].arguments == {}
    assert calls[1].arguments == {"target": "3"} and calls[1].error is None  # an object instead of a string
    with pytest.raises(LLMError, match="no choices"):
        parse_completion({"error": "x"}, MESSAGES, None)


# --- whole sessions: the runner starts the wait_for / sleep agent with --model -------------------

def failing_once(judge):
    calls = []

    def answer(request) -> Reply:
        calls.append(request)
        return error(500) if len(calls) == 1 else judge(request)
    return answer


@pytest.mark.slow
async def test_an_llm_wait_for_agent_buys_and_reports_with_usage_from_the_api(tmp_path, fake_server, monkeypatch):
    # With no retries inside the client, the planner's 503 and the judge's 500 reach the agent,
    # which logs them, counts them and carries on.
    fake = FakeOpenAI([error(503)] + BUY_SCRIPT, judge=failing_once(price_judge))
    monkeypatch.setenv("OPENAI_BASE_URL", await fake_server(fake))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("SENTINEL_LLM_RETRIES", "0")
    config = llm_config(tmp_path)
    report = await Runner(config, llm_plan("wait_for", "rise_buy", "llm")).run()
    result = report.results[0]
    assert result.success, result.detail
    assert result.model == "fake-model" and result.tool_calls == 5
    assert (result.prompt_tokens, result.completion_tokens) == (fake.sent_prompt_tokens, fake.sent_completion_tokens)
    assert result.cost_usd is None  # "fake-model" has no price
    planner = [r for r in fake.requests if r.get("tools")]
    assert {t["function"]["name"] for t in planner[0]["tools"]} == {"open", "submit", "wait_for", "report"}
    assert planner[0]["messages"][1]["content"].startswith("When CHPX trades at $520 or more")
    assert "/microhood/" in planner[0]["messages"][2]["content"]  # the first page, as text
    # After wait_for the conversation starts again from the task and that call, with its notes.
    woken = planner[2]["messages"]  # (planner[0] was answered 503, planner[1] chose wait_for)
    assert [m["role"] for m in woken] == ["system", "user", "assistant", "tool"]
    assert woken[1] == planner[1]["messages"][1]  # the task
    assert "buy 2 shares" in woken[2]["tool_calls"][0]["function"]["arguments"]  # the notes
    ticket = [m for m in planner[3]["messages"] if m["role"] == "tool"]
    assert "condition appears to hold" in ticket[0]["content"]
    assert "[form" in ticket[1]["content"]  # the order ticket, forms numbered
    tool_results = [m for m in planner[-1]["messages"] if m["role"] == "tool"]
    assert tool_results[1]["content"].endswith(DROPPED_PAGE)  # a page left behind is a stub
    folder = config.results_dir / "llm" / "microhood" / "rise_buy"
    costs = json.loads((folder / "agent" / "costs.json").read_text())
    assert costs["model_errors"] == 2 and costs["estimated"] is False
    assert costs["model_calls"] == {"planner": 5, "judge": costs["model_calls"]["judge"]}
    log = (folder / "agent.log").read_text()
    assert "answered 503" in log and "judge failed" in log


@pytest.mark.slow
async def test_a_failing_endpoint_ends_the_agent_but_the_session_keeps_its_result(tmp_path, fake_server, monkeypatch):
    fake = FakeOpenAI([tool("sleep", seconds=0.2, prompt_tokens=500, completion_tokens=9)], then=error(500))
    monkeypatch.setenv("OPENAI_BASE_URL", await fake_server(fake))
    monkeypatch.setenv("SENTINEL_LLM_RETRIES", "0")
    config = make_config(tmp_path)
    report = await Runner(config, llm_plan("sleep", "rise", "down")).run()
    result = report.results[0]
    assert not result.success
    assert result.infra_error is None
    assert result.ended_by == "agent_exit"
    assert (result.prompt_tokens, result.completion_tokens, result.tool_calls) == (500, 9, 1)
    log = (config.results_dir / "down" / "microhood" / "rise" / "agent.log").read_text()
    assert "answered 500" in log
    costs = json.loads((config.results_dir / "down" / "microhood" / "rise" / "agent" / "costs.json").read_text())
    assert costs["model_errors"] >= 2
