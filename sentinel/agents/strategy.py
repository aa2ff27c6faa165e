"""The strategy agents: `sleep` and `wait_for`, with a rule-based or an LLM judge and planner.

    python -m sentinel.agents.strategy sleep|wait_for TASK_URL [--scenario FILE] [--model NAME]
                                       [--browser text|chromium]

Both read the task page, then loop: the planner picks tool calls (open, submit, report and the
strategy's way of waiting), the agent runs them and adds their results to the conversation.

- sleep: sleep(seconds) pauses and shows the planner the whole current page again.
- wait_for: wait_for(condition, timeout_s, page, notes) keeps the page's text as last read and
  waits on the site's change notification (the driver's wait_for_change: one long request the
  site answers when the page's bytes change); it diffs each changed copy against the snapshot
  and asks the judge only when the diff is not empty, passing only the changed lines (at most
  one check per `--check-s`). The planner wakes when the judge says the condition holds, or at
  the timeout, and then from a small saved context: the conversation is put away at every
  wait_for and starts again from the system prompt, the task, and that call (with the notes
  the planner wrote in it) and its result.

Without a model (no --model, no SENTINEL_MODEL) the judge and planner are rule-based: they read
the scenario's `solution` block and nothing else of it, and count estimated tokens (model
"rule-based"). With a model they talk to an OpenAI-compatible endpoint (sentinel/agents/llm.py)
and never open the scenario file. Either way costs.json is rewritten after every model call.

With `--browser chromium` (the browser-sleep and browser-wait_for agents) the same tools act on
a real headless Chromium (sentinel/agents/chromium.py): open clicks links, submit types into
fields and presses the submit button, re-reading a page reads the live page instead of
reloading it, and after each decision the planner also gets a screenshot of the window (only
the latest is kept in the conversation).

Times the planner sees are wall seconds, like any agent's; only the site's waits are asked in sim
seconds, converted with the SENTINEL_SPEED the runner passes. The sleep strategy's conversation
keeps its history; when it grows past --context-tokens, the oldest page readings are replaced
by a one-line stub, as browsing harnesses do to stay within a context window.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sentinel.agents.blind import speed_from_env
from sentinel.agents.browse import BrowseError, Browser, Line, Page, PageDriver, Screenshot
from sentinel.agents.decisions import DecisionCalls
from sentinel.agents.judges import Changes, Judge, LLMJudge, RuleJudge, diff_lines
from sentinel.agents.llm import ChatClient, Endpoint, LLMError, ToolCall
from sentinel.agents.pacing import WALL, Pacing
from sentinel.agents.planners import STRATEGIES, LLMPlanner, Planner, RulePlanner, system_prompt, tools_for
from sentinel.agents.trace import Turn
from sentinel.agents.usage import Meter, estimate_prompt_tokens

RULE_BASED = "rule-based"
DEFAULT_SLEEP_S = 2.0  # the rule-based planner's choice of pause
DEFAULT_CHECK_S = 2.0  # as often as the rule-based sleep looks: only a page that never stops changing waits for it
MIN_CHECK_S = 0.1  # wait_for never asks its judge more often than this, whatever it is asked
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
TOOL_ERROR = "error: "  # how a tool result that did nothing starts


def say(message: str) -> None:
    print(f"[strategy] {message}", flush=True)


@dataclass(frozen=True)
class WaitOutcome:
    holds: bool
    changes: Changes
    reason: str
    path: str = ""  # the page watched


class Clock:
    """The agent's time budget from opening the task, in its own seconds (agents/pacing.py): on the
    wall clock SENTINEL_TIME_LIMIT_S, on the virtual one SENTINEL_TIME_LIMIT_SIM_S sim seconds and,
    for its model calls' timeouts, SENTINEL_TIME_LIMIT_S wall seconds (`deadline`)."""

    def __init__(self, limit_s: float, pacing: Pacing = WALL, wall_limit_s: float | None = None):
        self.pacing = pacing
        self.end = pacing.now() + _less_margin(limit_s)  # exit cleanly before the runner's deadline
        self.deadline = time.monotonic() + _less_margin(limit_s if wall_limit_s is None else wall_limit_s)

    def left(self) -> float:
        own = self.end - self.pacing.now() if self.pacing.virtual else math.inf
        return max(0.0, min(own, self.deadline - time.monotonic()))

    def now(self) -> float:
        return self.pacing.now()

    def sleep(self, seconds: float) -> None:
        self.pacing.sleep(seconds)


def _less_margin(limit_s: float) -> float:
    return max(0.0, limit_s - min(2.0, limit_s * 0.1))


class Tools:
    """Runs the planner's tool calls against the site; holds the page the agent is on."""

    def __init__(self, browser: PageDriver, judge: Judge | None, clock: Clock, contact_url: str,
                 check_s: float = DEFAULT_CHECK_S, speed: float = 1.0):
        self.browser = browser
        self.speed = speed  # sim seconds per wall second: the site's waits are in sim seconds
        self.judge = judge
        self.clock = clock
        self.contact_url = contact_url
        self.check_s = max(MIN_CHECK_S, check_s)
        self.page: Page | None = None
        self.lines: list[Line] = []
        self.readings: dict[str, list[Line]] = {}  # each page's lines as last shown or checked
        self.waited: WaitOutcome | None = None
        self.reported = False
        self._last_check = -math.inf

    def show(self, page: Page) -> str:
        self.page, self.lines = page, self.browser.render(page)
        self.readings[page.url] = self.lines
        text = "\n".join(line.shown for line in self.lines)
        if len(text) > MAX_PAGE_CHARS:
            text = text[:MAX_PAGE_CHARS] + "\n… (page cut)"
        return f"{page.path} (status {page.status}):\n{text}"

    def reading(self, path: str) -> list[Line] | None:
        """The lines of a page of this site as last shown or checked, or None."""
        return self.readings.get(self.browser.site_url(path))

    def run(self, call: ToolCall) -> str:
        if call.error:
            return f"{TOOL_ERROR}{call.error}"
        handler = getattr(self, f"tool_{call.name}", None)
        if handler is None:
            return f"{TOOL_ERROR}there is no tool {call.name!r}"
        try:
            return handler(**call.arguments)
        except (TypeError, AttributeError) as exc:
            return f"{TOOL_ERROR}bad arguments for {call.name}: {exc}"
        except (BrowseError, ValueError) as exc:
            return f"{TOOL_ERROR}{exc}"

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
        self.browser.pause(pause, self.speed)
        assert self.page is not None
        return f"Slept {pause:.1f} s. Now on " + self.show(self.browser.get(self.page.url, conditional=True))

    def tool_wait_for(self, condition: str, timeout_s: Any = DEFAULT_WAIT_TIMEOUT_S, page: Any = None,
                      notes: Any = "") -> str:
        """Wait on the site's change notification for the watched page (the current one, or
        `page`), asking the judge about each change; `notes` are for the planner, not the tool."""
        assert self.page is not None and self.judge is not None
        url = self.page.url if not page else self.browser.site_url(str(page))
        if url not in self.readings:  # a page not read yet: watch it from now on
            self.show(self.browser.get(url))
        snapshot = self.readings[url]
        clock = self.clock
        started = clock.now()
        end = started + min(max(1.0, float(timeout_s)), clock.left())
        unjudged = False  # the page changed but the judge could not be asked: read it again, not wait
        while self._pace(end):
            self.page = self.browser.get(url, conditional=True) if unjudged else \
                self.browser.wait_for_change(url, (end - clock.now()) * self.speed)
            self.lines = self.browser.render(self.page)
            changes = diff_lines(snapshot, self.lines)
            if changes.empty:
                continue
            try:
                verdict = self.judge.check(condition, changes, self.page.path)
            except LLMError as exc:
                say(f"judge failed: {exc}; still watching")
                unjudged = True  # the snapshot stays, so the next check sees these changes too
                continue
            unjudged = False
            snapshot = self.readings[url] = self.lines
            if verdict.holds:
                self.waited = WaitOutcome(True, changes, verdict.reason, self.page.path)
                return (f"After {clock.now() - started:.0f} s the condition appears to hold "
                        f"({verdict.reason}). What changed on {self.page.path}:\n{changes.describe()}")
        self.waited = WaitOutcome(False, Changes(), "timeout")
        return f"Timed out after {clock.now() - started:.0f} s: the condition was not seen on {self.page.path}."

    def _pace(self, end: float) -> bool:
        """Sleep until the next check may start (at most one per check_s, so a page whose
        numbers follow time does not ask the judge without pause); False once `end` has passed."""
        clock = self.clock
        now = clock.now()
        due = max(now, self._last_check + self.check_s)
        if due >= end:
            clock.sleep(end - now)
            return False
        if due > now:
            clock.sleep(due - now)
            now = clock.now()
        self._last_check = now
        return True

    def tool_report(self, message: str = "") -> str:
        page = self.browser.get(self.contact_url)
        form = page.form_matching(re.compile(r"/contact$"))
        if form is not None:
            self.browser.submit(form, {"message": str(message)})
        self.reported = True
        return "Reported."


class Conversation:
    """The chat history sent to the planner, kept under a token budget; with latest_page_only
    (wait_for), a page reading becomes a one-line stub as soon as another page is read."""

    def __init__(self, system: str, task: str, first_page: str, budget_tokens: int, latest_page_only: bool = False):
        self.messages: list[dict[str, Any]] = [{"role": "system", "content": system},
                                               {"role": "user", "content": task},
                                               {"role": "user", "content": f"You are on {first_page}"}]
        self.budget = budget_tokens
        self.latest_page_only = latest_page_only
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

    def restart_from_wait(self, reply: dict[str, Any], call: ToolCall, result: str) -> None:
        """After a wait_for: put the conversation away and start again from the system prompt,
        the task, and this one call (with its notes) and its result. So every wake costs the
        same small context, however long the agent has been watching."""
        kept = {**reply, "tool_calls": [c for c in reply.get("tool_calls") or () if c["id"] == call.id]}
        self.messages = self.messages[:2] + [kept, {"role": "tool", "tool_call_id": call.id, "content": result}]
        self._pages, self._screenshot = [], None

    def _trim(self) -> None:
        while len(self._pages) > 1 and (self.latest_page_only or estimate_prompt_tokens(self.messages) > self.budget):
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
    check_s: float = DEFAULT_CHECK_S
    speed: float = 1.0  # the session's sim seconds per wall second (SENTINEL_SPEED)
    context_tokens: int = DEFAULT_CONTEXT_TOKENS
    max_turns: int = 2000
    costs_path: Path | None = None
    browser: str = "text"  # or "chromium": a real headless browser, with screenshots
    mcp_url: str | None = None  # --via mcp: act only through the session's MCP tools (mcp_driver.py)
    pacing: Pacing = WALL  # how the agent's own seconds pass (agents/pacing.py: the virtual clock's are sim)
    sim_limit_s: float | None = None  # the virtual clock: SENTINEL_TIME_LIMIT_SIM_S


def open_driver(settings: Settings) -> PageDriver:
    if settings.mcp_url:
        from sentinel.agents.mcp_driver import McpDriver

        return McpDriver(settings.mcp_url, settings.task_url)
    if settings.browser == "chromium":
        from sentinel.agents.chromium import ChromiumBrowser

        return ChromiumBrowser(settings.task_url, log=say, pacing=settings.pacing)
    return Browser(settings.task_url, pacing=settings.pacing)


def build(settings: Settings, browser: PageDriver, clock: Clock) -> tuple[Planner, Tools, Meter]:
    """The planner, the tools (with their judge) and the meter for these settings."""
    model = settings.model  # None: the rule-based planner
    meter = Meter(model=RULE_BASED if model is None else model, estimated=model is None, path=settings.costs_path)
    if model is None:
        decisions = DecisionCalls.from_env(log=say)  # charged through the session's proxy, if it has one
        judge = RuleJudge(meter, decisions)
        tools = Tools(browser, judge, clock, settings.contact_url, settings.check_s, settings.speed)
        planner: Planner = RulePlanner(load_solution(settings.scenario), settings.strategy, tools, judge, meter,
                                       settings.sleep_s, wait_timeout_s=DEFAULT_WAIT_TIMEOUT_S, decisions=decisions)
    else:
        client = ChatClient(model, Endpoint.from_env(), log=say)
        tools = Tools(browser, LLMJudge(client, meter, clock.deadline), clock, settings.contact_url,
                      settings.check_s, settings.speed)
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
    pacing = settings.pacing
    clock = Clock(settings.sim_limit_s or settings.time_limit_s, pacing, settings.time_limit_s) \
        if pacing.virtual else Clock(settings.time_limit_s)
    planner, tools, meter = build(settings, browser, clock)
    meter.save()
    screenshots = settings.browser == "chromium"
    conversation = Conversation(system_prompt(settings.strategy, screenshots), settings.prompt,
                                tools.show(first), settings.context_tokens,
                                latest_page_only=settings.strategy == "wait_for")
    show_screen(browser, tools, conversation, meter)
    tool_specs = tools_for(settings.strategy)
    say(f"{settings.strategy} agent, model {meter.model}, {settings.browser} browser, started on {first.path}")
    failures = idle = 0
    for _ in range(settings.max_turns):
        if tools.reported or clock.left() <= 0:
            break
        turn = Turn.begin(meter)  # trace.jsonl: the decision and its tool calls (sentinel/agents/trace.py)
        try:
            reply = planner.decide(conversation.messages, tool_specs, clock.deadline)
        except LLMError as exc:
            meter.add_error()
            failures += 1
            say(f"model call failed ({failures} in a row): {exc}")
            if failures >= MAX_FAILURES:
                say("giving up: the model endpoint keeps failing")
                return 1
            clock.sleep(min(float(failures), clock.left()))  # the client already retried with pauses
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
            turn.add(call.id, call.name, call.arguments, result)
            say(f"{call.name}({json.dumps(call.arguments)[:120]}) → {result.splitlines()[0][:120]}")
            if call.name == "wait_for" and not result.startswith(TOOL_ERROR):
                conversation.restart_from_wait(reply.message, call, result)
                break  # the rest of this reply is put away with the conversation
            conversation.add({"role": "tool", "tool_call_id": call.id, "content": result},
                             page=call.name in ("open", "submit", "sleep"))
            if tools.reported:
                break
        turn.save(reply.message)
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
    parser.add_argument("--check-s", "--reload-s", dest="check_s", type=float, default=DEFAULT_CHECK_S,
                        help="wait_for: the least seconds between two checks of a changed page")
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
    pacing = Pacing.from_env(args.task_url)
    return Settings(strategy=args.strategy, task_url=args.task_url, prompt=args.prompt,
                    contact_url=os.environ.get("SENTINEL_CONTACT_URL") or "/contact", time_limit_s=limit,
                    model=None if args.model in (None, RULE_BASED) else args.model, scenario=args.scenario,
                    sleep_s=args.sleep_s, check_s=args.check_s, speed=speed_from_env(),
                    context_tokens=args.context_tokens, max_turns=args.max_turns, browser=args.browser,
                    mcp_url=os.environ.get("SENTINEL_MCP_URL") if args.via == "mcp" else None,
                    costs_path=Path(costs) if costs else Path("costs.json"), pacing=pacing,
                    sim_limit_s=pacing.limit_s(DEFAULT_TIME_LIMIT_S) if pacing.virtual else None)


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
