"""The strategy agents: `sleep` and `wait_for`, with a rule-based or an LLM judge and planner.

    python -m sentinel.agents.strategy sleep|wait_for TASK_URL [--scenario FILE] [--model NAME]
                                       [--browser text|chromium]

Both read the task page, then loop: the planner picks tool calls (open, submit, report and the
strategy's way of waiting), the agent runs them and adds their results to the conversation.

- sleep: sleep(seconds) pauses and shows the planner the whole current page again.
- wait_for: wait_for(condition, timeout_s) snapshots the page's text, reloads it about once a
  second (never faster than `--reload-s`), diffs each reload against the snapshot and asks the
  judge only when the diff is not empty, passing only the changed lines. The planner wakes
  when the judge says the condition holds, or at the timeout.

Without a model (no --model, no SENTINEL_MODEL) the judge and planner are rule-based: they read
the scenario's `solution` block and nothing else of it, and count estimated tokens (model
"rule-based"). With a model they talk to an OpenAI-compatible endpoint (sentinel/agents/llm.py)
and never open the scenario file. Either way costs.json is rewritten after every model call.

With `--browser chromium` (the browser-sleep and browser-wait_for agents) the same tools act on
a real headless Chromium (sentinel/agents/chromium.py): open clicks links, submit types into
fields and presses the submit button, re-reading a page reads the live page instead of
reloading it, and after each decision the planner also gets a screenshot of the window (only
the latest is kept in the conversation).

Times are wall seconds: the agent does not know the run's speed factor, like any agent. The
conversation keeps its history; when it grows past --context-tokens, the oldest page readings
are replaced by a one-line stub, as browsing harnesses do to stay within a context window.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sentinel.agents.browse import BrowseError, Browser, Line, Page, PageDriver, Screenshot
from sentinel.agents.judges import Changes, Judge, LLMJudge, RuleJudge, diff_lines
from sentinel.agents.llm import ChatClient, Endpoint, LLMError, ToolCall
from sentinel.agents.planners import STRATEGIES, LLMPlanner, Planner, RulePlanner, system_prompt, tools_for
from sentinel.agents.usage import Meter, estimate_prompt_tokens

RULE_BASED = "rule-based"
DEFAULT_SLEEP_S = 2.0  # the rule-based planner's choice of pause
DEFAULT_RELOAD_S = 1.0
MIN_RELOAD_S = 0.1  # wait_for never reloads faster than this, whatever it is asked
DEFAULT_WAIT_TIMEOUT_S = 300.0
DEFAULT_CONTEXT_TOKENS = 16_000
DEFAULT_TIME_LIMIT_S = 3600.0
MAX_PAGE_CHARS = 20_000
MAX_FAILURES = 5  # model calls failing in a row (after the client's own retries) end the agent
MAX_IDLE_REPLIES = 3  # answers without a tool call in a row end the agent
NUDGE = "Please go on by calling one of the tools; the task is not over until you report or time runs out."
DROPPED_PAGE = "[page text dropped to keep the conversation short; open the page again to see it]"
DROPPED_SCREENSHOT = "[an older screenshot, dropped: only the latest is kept]"
BROWSERS = ("text", "chromium")


def say(message: str) -> None:
    print(f"[strategy] {message}", flush=True)


@dataclass(frozen=True)
class WaitOutcome:
    holds: bool
    changes: Changes
    reason: str


class Clock:
    """The agent's time budget: SENTINEL_TIME_LIMIT_S wall seconds from opening the task."""

    def __init__(self, limit_s: float):
        margin = min(2.0, limit_s * 0.1)  # exit cleanly before the runner's deadline
        self.deadline = time.monotonic() + max(0.0, limit_s - margin)

    def left(self) -> float:
        return max(0.0, self.deadline - time.monotonic())


class Tools:
    """Runs the planner's tool calls against the site; holds the page the agent is on."""

    def __init__(self, browser: PageDriver, judge: Judge | None, clock: Clock, contact_url: str,
                 reload_s: float = DEFAULT_RELOAD_S):
        self.browser = browser
        self.judge = judge
        self.clock = clock
        self.contact_url = contact_url
        self.reload_s = max(MIN_RELOAD_S, reload_s)
        self.page: Page | None = None
        self.lines: list[Line] = []
        self.waited: WaitOutcome | None = None
        self.reported = False
        self._last_reload = 0.0

    def show(self, page: Page) -> str:
        self.page, self.lines = page, self.browser.render(page)
        text = "\n".join(line.shown for line in self.lines)
        if len(text) > MAX_PAGE_CHARS:
            text = text[:MAX_PAGE_CHARS] + "\n… (page cut)"
        return f"{page.path} (status {page.status}):\n{text}"

    def run(self, call: ToolCall) -> str:
        if call.error:
            return f"error: {call.error}"
        handler = getattr(self, f"tool_{call.name}", None)
        if handler is None:
            return f"error: there is no tool {call.name!r}"
        try:
            return handler(**call.arguments)
        except (TypeError, AttributeError) as exc:
            return f"error: bad arguments for {call.name}: {exc}"
        except (BrowseError, ValueError) as exc:
            return f"error: {exc}"

    def tool_open(self, target: Any) -> str:
        target = str(target).strip().strip("[]")
        if target.isdigit():
            return self.show(self.browser.follow(int(target)))
        return self.show(self.browser.get(self.browser.site_url(target)))

    def tool_submit(self, form: Any, fields: dict[str, Any] | None = None) -> str:
        assert self.page is not None
        chosen = self.browser.form(self.page, str(form))
        values = {str(k): "" if v is None else str(v) for k, v in (fields or {}).items()}
        return "Submitted. Now on " + self.show(self.browser.submit(chosen, values))

    def tool_sleep(self, seconds: Any) -> str:
        pause = min(max(0.0, float(seconds)), self.clock.left())
        time.sleep(pause)
        assert self.page is not None
        return f"Slept {pause:.1f} s. Now on " + self.show(self.browser.get(self.page.url, conditional=True))

    def tool_wait_for(self, condition: str, timeout_s: Any = DEFAULT_WAIT_TIMEOUT_S) -> str:
        assert self.page is not None and self.judge is not None
        started = time.monotonic()
        end = started + min(max(1.0, float(timeout_s)), self.clock.left())
        url, snapshot = self.page.url, self.lines
        while self._pace(end):
            self.page = self.browser.get(url, conditional=True)
            self.lines = self.browser.render(self.page)
            changes = diff_lines(snapshot, self.lines)
            if changes.empty:
                continue
            try:
                verdict = self.judge.check(condition, changes, self.page.path)
            except LLMError as exc:
                say(f"judge failed: {exc}; still watching")
                continue  # the snapshot stays, so the next check sees these changes too
            snapshot = self.lines
            if verdict.holds:
                self.waited = WaitOutcome(True, changes, verdict.reason)
                return (f"After {time.monotonic() - started:.0f} s the condition appears to hold "
                        f"({verdict.reason}). What changed on {self.page.path}:\n{changes.describe()}")
        self.waited = WaitOutcome(False, Changes(), "timeout")
        return f"Timed out after {time.monotonic() - started:.0f} s: the condition was not seen on {self.page.path}."

    def _pace(self, end: float) -> bool:
        """Sleep until the next reload is due; False once `end` has passed."""
        due = max(time.monotonic(), self._last_reload + self.reload_s)
        if due >= end:
            time.sleep(max(0.0, end - time.monotonic()))
            return False
        time.sleep(max(0.0, due - time.monotonic()))
        self._last_reload = time.monotonic()
        return True

    def tool_report(self, message: str = "") -> str:
        page = self.browser.get(self.contact_url)
        form = page.form_matching(re.compile(r"/contact$"))
        if form is not None:
            self.browser.submit(form, {"message": str(message)})
        self.reported = True
        return "Reported."


class Conversation:
    """The chat history sent to the planner, kept under a token budget."""

    def __init__(self, system: str, task: str, first_page: str, budget_tokens: int):
        self.messages: list[dict[str, Any]] = [{"role": "system", "content": system},
                                               {"role": "user", "content": task},
                                               {"role": "user", "content": f"You are on {first_page}"}]
        self.budget = budget_tokens
        self._pages: list[int] = [2]  # indexes of messages that carry a page reading, oldest first
        self._screenshot: int | None = None  # index of the message with the latest screenshot

    def add_screenshot(self, shot: Screenshot, where: str) -> None:
        """Show the planner the browser window now; older screenshots become a stub."""
        if self._screenshot is not None:
            self.messages[self._screenshot] = {"role": "user", "content": DROPPED_SCREENSHOT}
        content = [{"type": "text", "text": f"Screenshot of the browser window, on {where}:"},
                   {"type": "image_url", "image_url": {"url": shot.data_url(), "detail": "high"}}]
        self.messages.append({"role": "user", "content": content})
        self._screenshot = len(self.messages) - 1
        self._trim()

    def add(self, message: dict[str, Any], page: bool = False) -> None:
        self.messages.append(message)
        if page:
            self._pages.append(len(self.messages) - 1)
        self._trim()

    def _trim(self) -> None:
        while len(self._pages) > 1 and estimate_prompt_tokens(self.messages) > self.budget:
            index = self._pages.pop(0)
            head = self.messages[index]["content"].split("\n", 1)[0]
            self.messages[index] = {**self.messages[index], "content": f"{head}\n{DROPPED_PAGE}"}


@dataclass
class Settings:
    strategy: str
    task_url: str
    prompt: str
    contact_url: str
    time_limit_s: float
    model: str | None = None
    scenario: Path | None = None
    sleep_s: float = DEFAULT_SLEEP_S
    reload_s: float = DEFAULT_RELOAD_S
    context_tokens: int = DEFAULT_CONTEXT_TOKENS
    max_turns: int = 2000
    costs_path: Path | None = None
    browser: str = "text"  # or "chromium": a real headless browser, with screenshots
    mcp_url: str | None = None  # --via mcp: act only through the session's MCP tools (mcp_driver.py)


def open_driver(settings: Settings) -> PageDriver:
    if settings.mcp_url:
        from sentinel.agents.mcp_driver import McpDriver

        return McpDriver(settings.mcp_url, settings.task_url)
    if settings.browser == "chromium":
        from sentinel.agents.chromium import ChromiumBrowser

        return ChromiumBrowser(settings.task_url, log=say)
    return Browser(settings.task_url)


def build(settings: Settings, browser: PageDriver, clock: Clock) -> tuple[Planner, Tools, Meter]:
    """The planner, the tools (with their judge) and the meter for these settings."""
    rule_based = settings.model is None
    meter = Meter(model=RULE_BASED if rule_based else settings.model, estimated=rule_based,
                  path=settings.costs_path)
    if rule_based:
        judge = RuleJudge(meter)
        tools = Tools(browser, judge, clock, settings.contact_url, settings.reload_s)
        planner: Planner = RulePlanner(load_solution(settings.scenario), settings.strategy, tools, judge, meter,
                                       settings.sleep_s, wait_timeout_s=DEFAULT_WAIT_TIMEOUT_S)
    else:
        client = ChatClient(settings.model, Endpoint.from_env(), log=say)
        tools = Tools(browser, LLMJudge(client, meter, clock.deadline), clock, settings.contact_url,
                      settings.reload_s)
        planner = LLMPlanner(client, meter)
    return planner, tools, meter


def load_solution(path: Path | None):
    import yaml

    from sentinel.core.solution import parse_solution

    if path is None:
        raise SystemExit("the rule-based planner needs --scenario (or pass --model to use an LLM)")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    steps, problems = parse_solution(data.get("solution") if isinstance(data, dict) else None)
    if problems:
        raise SystemExit("bad solution: " + "; ".join(f"{where}: {reason}" for where, reason in problems))
    return steps


def run(settings: Settings) -> int:
    """Run one session; return the exit code. costs.json is kept up to date throughout."""
    browser = open_driver(settings)
    try:
        return converse(settings, browser)
    finally:
        browser.close()


def show_screen(browser: PageDriver, tools: Tools, conversation: Conversation, meter: Meter) -> None:
    """With a real browser: add a screenshot of the window, as it is now, to the conversation."""
    shot = browser.screenshot()
    if shot is not None and tools.page is not None:
        conversation.add_screenshot(shot, tools.page.path)
        meter.screenshots += 1


def converse(settings: Settings, browser: PageDriver) -> int:
    """The agent loop: the planner decides, the tools act, until the report or the time limit."""
    first = browser.get(settings.task_url)  # opening the task URL starts the session clock
    clock = Clock(settings.time_limit_s)
    planner, tools, meter = build(settings, browser, clock)
    meter.save()
    screenshots = settings.browser == "chromium"
    conversation = Conversation(system_prompt(settings.strategy, screenshots), settings.prompt,
                                tools.show(first), settings.context_tokens)
    show_screen(browser, tools, conversation, meter)
    tool_specs = tools_for(settings.strategy)
    say(f"{settings.strategy} agent, model {meter.model}, {settings.browser} browser, started on {first.path}")
    failures = idle = 0
    for _ in range(settings.max_turns):
        if tools.reported or clock.left() <= 0:
            break
        try:
            reply = planner.decide(conversation.messages, tool_specs, clock.deadline)
        except LLMError as exc:
            meter.add_error()
            failures += 1
            say(f"model call failed ({failures} in a row): {exc}")
            if failures >= MAX_FAILURES:
                say("giving up: the model endpoint keeps failing")
                return 1
            time.sleep(min(float(failures), clock.left()))  # the client already retried with pauses
            continue
        failures = 0
        if not reply.tool_calls:
            if planner.finished or idle >= MAX_IDLE_REPLIES:
                break
            idle += 1
            conversation.add(reply.message)
            conversation.add({"role": "user", "content": NUDGE})
            continue
        idle = 0
        conversation.add(reply.message)
        for call in reply.tool_calls:
            meter.add_tool_call()
            result = tools.run(call)
            say(f"{call.name}({json.dumps(call.arguments)[:120]}) → {result.splitlines()[0][:120]}")
            conversation.add({"role": "tool", "tool_call_id": call.id, "content": result},
                             page=call.name in ("open", "submit", "sleep"))
            if tools.reported:
                break
        if not tools.reported:
            show_screen(browser, tools, conversation, meter)
    meter.save()
    say(f"done: {'reported' if tools.reported else 'no report'}; {meter.prompt_tokens} prompt + "
        f"{meter.completion_tokens} completion tokens, {meter.tool_calls} tool calls")
    return 0


def parse_args(argv: list[str] | None) -> Settings:
    parser = argparse.ArgumentParser(prog="sentinel.agents.strategy", description=__doc__.split("\n\n")[0])
    parser.add_argument("strategy", choices=STRATEGIES)
    parser.add_argument("task_url")
    parser.add_argument("--scenario", type=Path, help="the scenario file (rule-based only: its solution block)")
    parser.add_argument("--model", default=os.environ.get("SENTINEL_MODEL") or None,
                        help="chat model to use (default: $SENTINEL_MODEL; none: rule-based)")
    parser.add_argument("--prompt", default=os.environ.get("SENTINEL_TASK_PROMPT", ""))
    parser.add_argument("--sleep-s", type=float, default=DEFAULT_SLEEP_S, help="rule-based sleep: the pause it picks")
    parser.add_argument("--reload-s", type=float, default=DEFAULT_RELOAD_S, help="wait_for: seconds between reloads")
    parser.add_argument("--context-tokens", type=int, default=DEFAULT_CONTEXT_TOKENS)
    parser.add_argument("--max-turns", type=int, default=2000)
    parser.add_argument("--browser", choices=BROWSERS, default="text",
                        help="text: the HTTP text browser; chromium: a real headless Chromium, with screenshots")
    parser.add_argument("--via", choices=("http", "mcp"), default="http",
                        help="mcp: act only through the session's MCP tools ($SENTINEL_MCP_URL)")
    args = parser.parse_args(argv)
    if args.via == "mcp" and not os.environ.get("SENTINEL_MCP_URL"):
        parser.error("--via mcp needs SENTINEL_MCP_URL (a session sets it)")
    limit = float(os.environ.get("SENTINEL_TIME_LIMIT_S") or DEFAULT_TIME_LIMIT_S)
    costs = os.environ.get("SENTINEL_COSTS_FILE")
    return Settings(strategy=args.strategy, task_url=args.task_url, prompt=args.prompt,
                    contact_url=os.environ.get("SENTINEL_CONTACT_URL") or "/contact", time_limit_s=limit,
                    model=None if args.model in (None, RULE_BASED) else args.model, scenario=args.scenario,
                    sleep_s=args.sleep_s, reload_s=args.reload_s, context_tokens=args.context_tokens,
                    max_turns=args.max_turns, browser=args.browser,
                    mcp_url=os.environ.get("SENTINEL_MCP_URL") if args.via == "mcp" else None,
                    costs_path=Path(costs) if costs else Path("costs.json"))


def main(argv: list[str] | None = None) -> int:
    settings = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # costs.json is already current
    try:
        return run(settings)
    except (OSError, RuntimeError, ValueError, LLMError) as exc:
        say(f"gave up: {exc}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
