"""The metering proxy: it forwards to the real endpoint (here the fake server), records the
usage it sees itself, and the runner grades cost from its record when --meter is on."""

from __future__ import annotations

import json

import aiohttp
import pytest
from aiohttp import web
from helpers.fake_openai import FakeOpenAI, Reply, error, tool
from helpers.llm import BUY_SCRIPT, llm_config, llm_plan, price_judge

from sentinel.run.runner import Runner
from sentinel.session.proxy import METERED_FILE, MeteringProxy

BODY = {"model": "fake-model", "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "open"}}]}


async def post(url: str, body: dict, headers: dict | None = None) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as client:
        async with client.post(f"{url}/chat/completions", json=body, headers=headers or {}) as response:
            return response.status, await response.json()


async def test_the_proxy_forwards_and_records_what_the_endpoint_sent(tmp_path, fake_server):
    fake = FakeOpenAI([tool("open", target="3", prompt_tokens=120, completion_tokens=7),
                       Reply(content="no usage", usage=False), error(429),
                       Reply(tool_calls=(("open", {"target": "4"}), ("sleep", {"seconds": 2})), prompt_tokens=80)])
    proxy = MeteringProxy(await fake_server(fake), tmp_path / METERED_FILE, api_key="sk-runner")
    url = await proxy.start()
    try:
        status, answer = await post(url, BODY, {"Authorization": "Bearer sk-agent"})
        assert status == 200 and answer["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "open"
        assert (await post(url, BODY))[0] == 200
        status, answer = await post(url, BODY)
        assert status == 429 and answer["error"]["message"] == "fake error 429"  # passed on as it came
        await post(url, BODY)
    finally:
        await proxy.stop()
    assert [r["authorization"] for r in fake.requests] == ["Bearer sk-agent"] + ["Bearer sk-runner"] * 3
    recorded = json.loads((tmp_path / METERED_FILE).read_text())
    assert (recorded["prompt_tokens"], recorded["completion_tokens"]) == (fake.sent_prompt_tokens,
                                                                          fake.sent_completion_tokens) == (200, 17)
    assert recorded == {**recorded, "tool_calls": 3, "model": "fake-model", "requests": 4, "errors": 1,
                        "unmetered": 1, "metered": True}


async def test_streamed_answers_are_metered_from_their_usage_chunk(tmp_path, aiohttp_server):
    async def stream(request):
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        chunks = [{"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "open"}}]}}]},
                  {"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}}]},
                  {"choices": [], "usage": {"prompt_tokens": 55, "completion_tokens": 6}}]
        for chunk in chunks:
            await response.write(f"data: {json.dumps(chunk)}\n\n".encode())
        await response.write(b"data: [DONE]\n\n")
        return response

    app = web.Application()
    app.router.add_post("/v1/chat/completions", stream)
    server = await aiohttp_server(app)
    proxy = MeteringProxy(str(server.make_url("/v1")), tmp_path / METERED_FILE)
    url = await proxy.start()
    try:
        async with aiohttp.ClientSession() as client:
            async with client.post(f"{url}/chat/completions", json={**BODY, "stream": True}) as response:
                text = await response.text()
    finally:
        await proxy.stop()
    assert text.endswith("data: [DONE]\n\n") and text.count("data:") == 4
    recorded = json.loads((tmp_path / METERED_FILE).read_text())
    assert (recorded["prompt_tokens"], recorded["completion_tokens"], recorded["tool_calls"]) == (55, 6, 1)


async def test_an_unreachable_endpoint_is_a_clear_error_for_the_agent(tmp_path):
    proxy = MeteringProxy("http://127.0.0.1:9/v1", tmp_path / METERED_FILE)
    url = await proxy.start()
    try:
        status, answer = await post(url, BODY)
    finally:
        await proxy.stop()
    assert status == 502 and "metering proxy: the endpoint http://127.0.0.1:9/v1 failed" in answer["error"]["message"]
    assert json.loads((tmp_path / METERED_FILE).read_text())["errors"] == 1


@pytest.mark.slow
async def test_a_metered_run_grades_the_usage_the_endpoint_sent_not_the_agents_word(tmp_path, fake_server,
                                                                                     monkeypatch):
    # The first answer comes after the agent's timeout: the agent never sees it (and retries),
    # but the endpoint sent it to the proxy, so it is metered and billed.
    slow = Reply(tool_calls=(("wait_for", {"condition": "x", "timeout_s": 5}),), prompt_tokens=777, delay_s=1.0)
    fake = FakeOpenAI([slow] + BUY_SCRIPT, judge=price_judge)
    monkeypatch.setenv("OPENAI_BASE_URL", await fake_server(fake))
    monkeypatch.setenv("SENTINEL_LLM_TIMEOUT_S", "0.5")
    config = llm_config(tmp_path)
    result = (await Runner(config, llm_plan("wait_for", "rise_buy", "metered", meter=True)).run()).results[0]
    assert result.success, result.detail
    assert result.model == "fake-model (metered)"
    assert (result.prompt_tokens, result.completion_tokens) == (fake.sent_prompt_tokens, fake.sent_completion_tokens)
    folder = config.results_dir / "metered" / "microhood" / "rise_buy"
    agent_says = json.loads((folder / "agent" / "costs.json").read_text())
    assert agent_says["prompt_tokens"] == result.prompt_tokens - 777 and fake.abandoned == 0
    assert json.loads((folder / METERED_FILE).read_text())["requests"] == len(fake.requests)
    run = json.loads((config.results_dir / "metered" / "run.json").read_text())
    assert run["model"] == "fake-model" and run["meter"] is True
