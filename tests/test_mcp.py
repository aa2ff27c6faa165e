"""The per-session MCP server (sentinel/mcp/): its tools through the official MCP SDK client, over a
real session's site; malformed calls; the record of calls; and real runs in which outside agents on
the SDK client (over streamable HTTP and over `sentinel mcp`'s stdio) and the mcp-* built-in agents
complete passive and active tasks and stay silent on a no-op."""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from helpers.runs import make_config
from mcp import Client

from sentinel.agents import BUILTIN_AGENTS
from sentinel.core.scenario import load_scenario
from sentinel.mcp.calls import CALLS_FILE, read_calls
from sentinel.mcp.server import McpHost
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner

REPO = Path(__file__).resolve().parents[1]
WATCHER = REPO / "tests" / "agents" / "mcp_watch.py"
INBOX = "/micromail/folder/inbox"


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


@pytest.mark.slow
async def test_tools_read_click_wait_and_report_through_the_sdk_client(env_session, tmp_path):
    live = await env_session("scenarios/verified/micromail/sender_arrives.yaml")
    host = McpHost(str(live.client.make_url("")).rstrip("/"), live.clock, tmp_path)
    url = await host.start()
    try:
        async with Client(url, read_timeout_seconds=120) as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            assert tools == {"read_page", "click", "submit", "sleep", "wait_for_change", "report"}
            inbox = await client.call_tool("read_page", {"path": INBOX})
            assert not inbox.is_error and text_of(inbox).startswith(f"{INBOX} (status 200):")
            data = inbox.structured_content
            assert data["path"] == INBOX
            assert data["links"]
            assert "Priya Shah" not in data["text"]
            first = data["links"][0]
            assert f"[{first['ref']}]" in text_of(inbox)

            waiting = asyncio.create_task(client.call_tool("wait_for_change", {"path": INBOX, "timeout_s": 600}))
            await asyncio.sleep(0.3)
            assert not waiting.done()  # nothing changed yet: the site holds the request
            await live.advance_to(50)  # the two decoys and the awaited sender arrive
            changed = await asyncio.wait_for(waiting, 60)
            assert changed.structured_content["changed"] is True
            added = "\n".join(changed.structured_content["added"])
            assert "Priya Shah" in added  # and only what changed:
            assert len(changed.structured_content["added"]) < len(data["lines"]) / 2
            assert text_of(changed).splitlines()[0].startswith(f"{INBOX} changed after")

            opened = await client.call_tool("click", {"ref": first["ref"]})
            assert not opened.is_error and opened.structured_content["status"] == 200  # (/micromail/ redirects)
            sleeping = asyncio.create_task(client.call_tool("sleep", {"seconds": 0.5}))
            await asyncio.sleep(0.3)
            assert not sleeping.done()  # a sleep lasts sim time: this clock is paused (step mode)
            await live.advance_to(live.clock.now() + 0.5)
            slept = await asyncio.wait_for(sleeping, 60)
            assert text_of(slept) == "Slept 0.5 sim s."
            reported = await client.call_tool("report", {"message": "Priya Shah wrote."})
            assert text_of(reported) == "Reported."
        assert live.session.contact_record is not None and live.session.contact_record.message == "Priya Shah wrote."
    finally:
        await host.stop()
    records = [json.loads(line) for line in (tmp_path / CALLS_FILE).read_text().splitlines()]
    assert [r["tool"] for r in records] == ["read_page", "wait_for_change", "click", "sleep", "report"]
    assert records[1]["sim"] == 50 and records[1]["arguments"] == {"path": INBOX, "timeout_s": 600}
    assert read_calls(tmp_path) == {"read_page": 1, "wait_for_change": 1, "click": 1, "sleep": 1, "report": 1}


async def test_malformed_calls_get_one_line_tool_errors_and_are_recorded(env_session, tmp_path):
    live = await env_session("scenarios/verified/micromail/sender_arrives.yaml")
    host = McpHost(str(live.client.make_url("")).rstrip("/"), live.clock, tmp_path)
    url = await host.start()
    bad_calls = [
        ("submit", {"form": 1}, "read a page first"),
        ("click", {"ref": 999}, "no link [999]"),
        ("read_page", {"path": "http://example.com/x"}, "only pages of this site"),
        ("read_page", {}, "path"),
        ("sleep", {"seconds": "a while"}, "seconds"),
        ("sleep", {"seconds": -3}, "≥ 0"),
        ("wait_for_change", {"path": INBOX, "timeout_s": [1]}, "timeout_s"),
        ("teleport", {"to": "/"}, "Unknown tool"),
    ]
    try:
        async with Client(url, read_timeout_seconds=60) as client:
            for name, arguments, expected in bad_calls:
                result = await client.call_tool(name, arguments)
                message = text_of(result)
                assert result.is_error, (name, arguments)
                assert expected in message, message
                assert "\n" not in message, message
                assert "Traceback" not in message, message
            await client.call_tool("read_page", {"path": INBOX})
            wrong_form = await client.call_tool("submit", {"form": 42})
            assert wrong_form.is_error and "no form 42" in text_of(wrong_form)
            assert not (await client.call_tool("read_page", {"path": INBOX})).is_error  # the server lives on
    finally:
        await host.stop()
    records = [json.loads(line) for line in (tmp_path / CALLS_FILE).read_text().splitlines()]
    assert len(records) == len(bad_calls) + 3
    assert [r["error"] for r in records] == [True] * len(bad_calls) + [False, True, False]


def run_plan(name: str, command, scenarios: list[str], speed: float, agent: str = "custom") -> RunPlan:
    loaded = tuple(load_scenario(REPO / "scenarios" / "verified" / s) for s in scenarios)
    return RunPlan(name=name, agent=agent, command=command, speed=speed, concurrency=len(loaded),
                   scenarios=loaded)


def watcher(sender: str, *extra: str) -> list[str]:
    return [sys.executable, str(WATCHER), INBOX, sender, f"{sender}'s email has arrived.", *extra]


@pytest.mark.slow
async def test_outside_sdk_agents_over_http_and_stdio_pass_and_stay_silent_on_a_no_op(tmp_path):
    config = make_config(tmp_path)
    config = replace(config, timing=replace(config.timing, startup_timeout_s=60))
    plans = [run_plan(f"{task}-{via or 'http'}", watcher(sender, *([via] if via else [])),
                      [f"micromail/{task}.yaml"], 25)
             for task, sender in (("sender_arrives", "Priya Shah"), ("sender_noop", "Marta Quinlan"))
             for via in (None, "--stdio")]
    reports = await asyncio.gather(*(Runner(config, plan).run() for plan in plans))
    arrived = [result for report in reports[:2] for result in report.results]
    silent = [result for report in reports[2:] for result in report.results]
    for result in arrived:
        assert result.success, result
        assert result.on_time, result
        assert result.requests <= 15, result
        assert result.mcp_calls["report"] == 1 and result.mcp_calls["wait_for_change"] >= 1
        assert result.tool_calls == sum(result.mcp_calls.values())
    for result in silent:  # it waited, change after change, until the session's deadline
        assert result.success, result
        assert result.contact_at is None, result
        assert "report" not in result.mcp_calls, result
        assert result.mcp_calls["wait_for_change"] >= 1


@pytest.mark.slow
async def test_mcp_built_in_agents_complete_passive_and_active_tasks(tmp_path):
    config = make_config(tmp_path)
    config = replace(config, timing=replace(config.timing, startup_timeout_s=60))
    tasks = ["micromail/sender_arrives.yaml", "micromail/attachment_name.yaml",
             "microhood/news_more.yaml", "microhood/buy_at_threshold.yaml"]
    sleeper = run_plan("sl", BUILTIN_AGENTS["mcp-sleep"], tasks[:1], 25, "mcp-sleep")
    report, slept = await asyncio.gather(
        Runner(config, run_plan("wf", BUILTIN_AGENTS["mcp-wait_for"], tasks, 25, "mcp-wait_for")).run(),
        Runner(config, sleeper).run())
    for result in report.results + slept.results:
        assert result.success and result.on_time, result
        assert result.mcp_calls.get("read_page", 0) >= 1 and result.contact_message, result
    active = [r for r in report.results if r.activity == "active"]
    assert active and all(r.mcp_calls.get("submit", 0) >= 1 for r in active)
    (sleeping,) = slept.results  # its pauses are the server's sleep tool, on the session's clock
    assert sleeping.mcp_calls.get("sleep", 0) >= 1 and "wait_for_change" not in sleeping.mcp_calls, sleeping
