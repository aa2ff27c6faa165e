"""What a slow model costs under each model-time policy: latency × speed × policy, in one table.

The built-in `wait_for` agent runs with `--model` against the tests' fake OpenAI-compatible
server (tests/helpers/fake_openai.py), made slow: every answer, the planner's and the judge's,
takes LATENCY wall seconds. The fake answers with the decisions the rule-based planner and judge
make for these scenarios (open the watched page, wait_for its condition, report once it holds),
read from the conversation the agent sends, so the agent really passes its tasks and only the
time its "model" takes differs. Six verified scenarios whose solution is "watch one page, then
report" (one per environment of that shape), at each speed, under each policy:

    python benchmarks/model_time.py                      # the full grid: 3 latencies × 3 speeds × 3 policies
    python benchmarks/model_time.py --quick              # latency 1 and 3, speed 10, all three policies
    python benchmarks/model_time.py --latency 3 --speed 50 --policy wall,fixed:2 [--virtual]

Prints one row per cell: sessions passed, normal tasks on time, reaction p50 (sim s after the
condition), model calls (counted by the policies that pause the clock), and the run's
wall time. `--virtual` adds a row per latency on the
virtual clock (with fixed:2). Run folders are removed (`--keep` keeps them under results/).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from helpers.fake_openai import FakeOpenAI, Reply, tool  # noqa: E402

from sentinel.agents.planners import describe_predicate  # noqa: E402
from sentinel.core.scenario import Scenario, load_scenario  # noqa: E402
from sentinel.core.solution import Predicate  # noqa: E402

SCENARIOS = ("micromail/sender_arrives", "microtube/comment_keyword", "microscholar/papers_more",
             "microhood/price_target", "microlendar/tasks_threshold", "microdin/posts_more")
LATENCIES = (0.1, 1.0, 3.0)
SPEEDS = (1.0, 10.0, 50.0)
POLICIES = ("wall", "measured", "fixed:2")
PAGE_HEADER = re.compile(r"^(?:You are on |Submitted\. Now on |Slept [\d.]+ s\. Now on )?(/\S*) \(status \d+\):\n",
                         re.MULTILINE)


@dataclass(frozen=True)
class Watch:
    """What one scenario's solution does: watch `page` until `until` holds, then report `message`."""
    scenario: Scenario
    page: str
    until: Predicate
    message: str


def watches() -> list[Watch]:
    found = []
    for name in SCENARIOS:
        scenario = load_scenario(ROOT / "scenarios" / "verified" / f"{name}.yaml")
        watch, report = scenario.solution
        assert watch.verb == "watch" and watch.until is not None and watch.open_new is None, name
        assert report.verb == "report", name
        found.append(Watch(scenario, watch.target, watch.until, report.target))
    return found


class RuleModel:
    """The planner's and judge's answers, decided from the request as the rule-based agent would.

    The planner: once a wait_for has said the condition holds, report; if the watched page is not
    the one last shown, open it; otherwise wait_for the condition, with the limit read from the
    page for a "first + n" condition. The judge: does the condition hold on the added lines?"""

    def __init__(self, watched: list[Watch], latency_s: float):
        self.watched = watched
        self.latency_s = latency_s
        self.conditions: dict[str, tuple[Predicate, float | None]] = {}  # the wait_for condition → its test

    def plan(self, body: dict[str, Any]) -> Reply:
        messages = body["messages"]
        task = messages[1]["content"] if len(messages) > 1 else ""
        watch = next((w for w in self.watched if w.scenario.prompt in task), None)
        if watch is None:
            return self._slow(Reply(content="I do not know this task."))
        texts = [m.get("content") or "" for m in messages[2:] if m["role"] in ("user", "tool")]
        if texts and "the condition appears to hold" in texts[-1]:
            return self._slow(tool("report", message=watch.message))
        shown = [(match.group(1), text[match.end():]) for text in texts for match in [PAGE_HEADER.match(text)] if match]
        if not shown or shown[-1][0].rstrip("/") != watch.page.rstrip("/"):
            return self._slow(tool("open", target=watch.page))
        first = watch.until.read_number(shown[-1][1]) if watch.until.number is not None else None
        condition = describe_predicate(watch.until, first)
        self.conditions[condition] = (watch.until, first)
        return self._slow(tool("wait_for", condition=condition, timeout_s=600, page=watch.page))

    def judge(self, body: dict[str, Any]) -> Reply:
        text = next((m.get("content") or "" for m in reversed(body["messages"]) if m["role"] == "user"), "")
        condition = text.split("\n", 1)[0].removeprefix("Condition: ").strip()
        until, first = self.conditions.get(condition, (None, None))
        added = "\n".join(line[2:] for line in text.splitlines() if line.startswith("+ "))
        holds = until is not None and until.holds(added, first)
        return self._slow(Reply(content=json.dumps({"holds": holds, "reason": "rule-based judge"}),
                                prompt_tokens=40, completion_tokens=8))

    def _slow(self, reply: Reply) -> Reply:
        from dataclasses import replace

        return replace(reply, delay_s=self.latency_s)


class FakeServer:
    """The fake endpoint on its own event loop in a thread, so that runs can block the main one."""

    def __init__(self, model: RuleModel):
        self.fake = FakeOpenAI(model.plan, judge=model.judge)
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.url = asyncio.run_coroutine_threadsafe(self.fake.start(), self.loop).result(timeout=10)

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.fake.stop(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)


def run_cell(url: str, name: str, speed: float, policy: str, clock: str, keep: bool) -> dict[str, Any]:
    """One `sentinel run` of the six scenarios with the model agent; the cell's figures."""
    tasks = ",".join(name.split("/")[0] + "-" + name.split("/")[1] for name in SCENARIOS)
    command = [sys.executable, "-m", "sentinel.cli", "run", "--ci", "--run", name, "--agent", "wait_for",
               "--model", "fake-model", "--task", tasks, "--model-time", policy, "--clock", clock]
    command += ["--speed", f"{speed:g}"] if clock == "wall" else []  # the virtual clock has no speed
    env = {**os.environ, "OPENAI_BASE_URL": url, "OPENAI_API_KEY": "benchmark"}
    began = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    wall = time.monotonic() - began
    run_dir = ROOT / "results" / name
    found = [json.loads(p.read_text()) for p in run_dir.glob("*/*/result.json")]
    if not found:
        raise SystemExit(f"{name}: the run failed:\n{done.stderr[-2000:]}")
    if not keep:
        shutil.rmtree(run_dir, ignore_errors=True)
    normal = [r for r in found if r.get("condition_at") is not None]
    reactions = [r["reaction_sim_s"] for r in normal if r.get("reaction_sim_s") is not None]
    return {"sessions": len(found), "passed": sum(bool(r["success"]) for r in found),
            "on_time": sum(bool(r.get("on_time")) for r in normal), "normal": len(normal),
            "reaction_p50": statistics.median(reactions) if reactions else None,
            "calls": None if all(r.get("model_calls") is None for r in found) else
            sum(r.get("model_calls") or 0 for r in found), "wall": wall}


def choose(text: str | None, default: tuple, kind=float) -> tuple:
    return default if not text else tuple(kind(part) for part in text.split(",") if part)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", help="wall seconds per model answer, comma-separated (default 0.1,1,3)")
    parser.add_argument("--speed", help="speed factors, comma-separated (default 1,10,50)")
    parser.add_argument("--policy", help="model-time policies, comma-separated (default wall,measured,fixed:2)")
    parser.add_argument("--quick", action="store_true", help="latency 1 and 3 at speed 10 only")
    parser.add_argument("--virtual", action="store_true", help="also a virtual-clock row (fixed:2) per latency")
    parser.add_argument("--keep", action="store_true", help="keep the run folders under results/")
    args = parser.parse_args()
    latencies = (1.0, 3.0) if args.quick and not args.latency else choose(args.latency, LATENCIES)
    speeds = (10.0,) if args.quick and not args.speed else choose(args.speed, SPEEDS)
    policies = choose(args.policy, POLICIES, str)
    watched = watches()
    cells = [(latency, speed, policy, "wall") for latency in latencies for speed in speeds for policy in policies]
    cells += [(latency, 1.0, "fixed:2", "virtual") for latency in latencies] if args.virtual else []
    print(f"{len(SCENARIOS)} scenarios a cell: {', '.join(SCENARIOS)}", flush=True)
    print(f"{'latency s':>9} {'clock':>7} {'speed':>5} {'policy':>8} {'passed':>7} {'on time':>7} "
          f"{'reaction p50 sim s':>18} {'calls':>5} {'wall s':>7}", flush=True)
    failed = False
    for latency, speed, policy, clock in cells:
        model = RuleModel(watched, latency)
        server = FakeServer(model)
        try:
            name = f"mt-{os.getpid()}-{latency:g}-{speed:g}-{policy.replace(':', '')}-{clock}"
            row = run_cell(server.url, name, speed, policy, clock, args.keep)
        finally:
            server.close()
        p50 = "—" if row["reaction_p50"] is None else f"{row['reaction_p50']:.1f}"
        shown_speed = "—" if clock == "virtual" else f"{speed:g}"
        calls = "—" if row["calls"] is None or policy == "wall" else str(row["calls"])  # wall counts none
        print(f"{latency:>9g} {clock:>7} {shown_speed:>5} {policy:>8} {row['passed']:>3}/{row['sessions']:<3} "
              f"{row['on_time']:>3}/{row['normal']:<3} {p50:>18} {calls:>5} {row['wall']:>7.1f}", flush=True)
        failed |= row["sessions"] != len(SCENARIOS)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
