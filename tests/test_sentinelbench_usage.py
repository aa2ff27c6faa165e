"""costs.json derived from the usage logs an agent written for the original SentinelBench leaves."""

from __future__ import annotations

import json
import os
from pathlib import Path

from sentinel.agents.usage import derive_costs, usage_logs
from sentinel.core.config import Price
from sentinel.core.grading import read_costs


def call(prompt: int, completion: int, total: int | None = None, reasoning: int | None = None,
         model: str | None = "gpt-test") -> dict:
    usage: dict = {"prompt_tokens": prompt, "completion_tokens": completion}
    if total is not None:
        usage["total_tokens"] = total
    if reasoning is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning}
    return {"usage": usage, **({"model": model} if model else {})}


def write_logs(folder: Path, calls: list, messages: list | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "usage.jsonl").write_text("".join(json.dumps(c) + "\n" for c in calls))
    if messages is not None:
        (folder / "all_messages.json").write_text(json.dumps(messages))
    return folder


def assistant(calls: int, content: str | None = None) -> dict:
    return {"role": "assistant", "content": content,
            "tool_calls": [{"id": f"c{i}", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                           for i in range(calls)]}


def test_logs_in_a_uuid_run_folder_are_summed_into_costs_json(tmp_path):
    run = write_logs(tmp_path / "0b7e54f6-5d4c-4c4e-9a53-3f0d6b2f9f01",
                     [call(1000, 50, 1050, 10), call(2000, 70, 2070, 0), call(500, 5, 505)],
                     [{"role": "user", "content": "task"}, assistant(2), {"role": "tool", "content": "x"},
                      assistant(1), assistant(0, "done"), {"role": "tool", "tool_calls": [1, 2]}])
    record = derive_costs(tmp_path)
    written = json.loads((tmp_path / "costs.json").read_text())
    assert written == record
    assert (record["prompt_tokens"], record["completion_tokens"], record["total_tokens"],
            record["reasoning_tokens"], record["llm_calls"], record["tool_calls"]) == (3500, 125, 3625, 10, 3, 3)
    assert record["model"] == "gpt-test" and record["estimated"] is False
    assert record["derived_from"] == [f"{run.name}/usage.jsonl"]
    costs = read_costs(tmp_path / "costs.json", {"gpt-test": Price(prompt=1.0, completion=4.0)})
    assert (costs.prompt_tokens, costs.completion_tokens, costs.tool_calls) == (3500, 125, 3)
    assert costs.cost_usd == round(3500 / 1e6 * 1.0 + 125 / 1e6 * 4.0, 6)


def test_an_agent_that_wrote_its_own_costs_json_keeps_it(tmp_path):
    write_logs(tmp_path, [call(10, 1)])
    (tmp_path / "costs.json").write_text('{"prompt_tokens": 7}')
    assert derive_costs(tmp_path) is None
    assert json.loads((tmp_path / "costs.json").read_text()) == {"prompt_tokens": 7}


def test_no_logs_no_costs_json(tmp_path):
    (tmp_path / "agent.log").write_text("hello\n")
    (tmp_path / "deeper" / "still").mkdir(parents=True)
    (tmp_path / "deeper" / "still" / "usage.jsonl").write_text(json.dumps(call(5, 5)) + "\n")  # two levels down
    assert derive_costs(tmp_path) is None and not (tmp_path / "costs.json").exists()
    assert derive_costs(tmp_path / "missing") is None


def test_damaged_lines_are_counted_apart_and_odd_values_count_zero(tmp_path):
    (tmp_path / "usage.jsonl").write_text("\n".join([
        json.dumps(call(100, 10, 110)),
        "not json at all",
        json.dumps({"usage": {"prompt_tokens": "many", "completion_tokens": -4, "total_tokens": None}}),
        json.dumps({"usage": None}),  # a call whose response carried no usage: still a call
        json.dumps([1, 2, 3]),
        json.dumps({"usage": {"prompt_tokens": 1e400, "completion_tokens": True}}),
        "",
        '{"usage": {"prompt_tokens": 9',  # cut short by a kill
    ]))
    record = derive_costs(tmp_path)
    assert record["prompt_tokens"] == 100 and record["completion_tokens"] == 10
    assert record["llm_calls"] == 5
    assert record["unreadable_lines"] == 2
    assert record["tool_calls"] == 0


def test_responses_api_names_are_read_too(tmp_path):
    write_logs(tmp_path, [{"usage": {"input_tokens": 40, "output_tokens": 9, "total_tokens": 49,
                                     "output_tokens_details": {"reasoning_tokens": 4}}, "model": "m"}])
    record = derive_costs(tmp_path)
    assert (record["prompt_tokens"], record["completion_tokens"], record["reasoning_tokens"]) == (40, 9, 4)


def test_bad_messages_file_counts_no_tool_calls_and_says_why(tmp_path):
    write_logs(tmp_path, [call(1, 1)])
    (tmp_path / "all_messages.json").write_text("[{'role': 'assistant'")
    record = derive_costs(tmp_path)
    assert record["tool_calls"] == 0 and "not readable JSON" in record["notes"][0]


def test_two_run_folders_are_both_counted(tmp_path):
    write_logs(tmp_path / "a", [call(10, 1)], [assistant(2)])
    write_logs(tmp_path / "b", [call(20, 2)], {"messages": [assistant(1)]})
    record = derive_costs(tmp_path)
    assert record["prompt_tokens"] == 30
    assert record["tool_calls"] == 3
    assert record["llm_calls"] == 2
    assert record["derived_from"] == ["a/usage.jsonl", "b/usage.jsonl"]


def test_links_are_never_followed(tmp_path):
    outside = write_logs(tmp_path / "outside", [call(999, 9)])
    agent = tmp_path / "agent"
    agent.mkdir()
    (agent / "usage.jsonl").symlink_to(outside / "usage.jsonl")
    (agent / "run").symlink_to(outside, target_is_directory=True)
    assert usage_logs(agent) == [] and derive_costs(agent) is None
    (agent / "costs.json").symlink_to(tmp_path / "nowhere.json")  # a dangling link is the agent's costs.json
    write_logs(agent / "real", [call(1, 1)])
    assert derive_costs(agent) is None and not (tmp_path / "nowhere.json").exists()


def test_overlong_lines_nested_json_and_a_size_cap_are_survived(tmp_path, monkeypatch):
    import sentinel.agents.usage as usage

    monkeypatch.setattr(usage, "MAX_LINE_BYTES", 64)
    lines = [json.dumps(call(10, 1, model=None)), "[[[[]]]]", "x" * 500, json.dumps(call(20, 2, model=None))]
    (tmp_path / "usage.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "all_messages.json").write_text("[" * 100_000 + "]" * 100_000)  # deeper than json can go
    record = derive_costs(tmp_path)
    assert record["prompt_tokens"] == 30
    assert record["llm_calls"] == 3
    assert record["unreadable_lines"] == 1
    assert record["tool_calls"] == 0 and "not readable JSON" in record["notes"][0]
    (tmp_path / "costs.json").unlink()
    monkeypatch.setattr(usage, "MAX_USAGE_BYTES", 100)
    record = derive_costs(tmp_path)
    assert record["llm_calls"] == 2 and any("read only the first 100 bytes" in n for n in record["notes"])


def test_a_folder_the_agent_made_read_only_gives_no_costs_and_no_crash(tmp_path):
    write_logs(tmp_path / "agent", [call(1, 1)])
    (tmp_path / "agent").chmod(0o555)
    try:
        if not os.access(tmp_path / "agent", os.W_OK):  # root writes anywhere
            assert derive_costs(tmp_path / "agent") is None
    finally:
        (tmp_path / "agent").chmod(0o755)
