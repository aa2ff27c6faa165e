"""Planners: given the conversation so far, choose the next tool calls.

Both planners answer `decide(messages, tools, deadline) -> Completion`, the shape of a
chat-completions reply, so the agent loop treats them alike:

- `LLMPlanner` asks a chat-completions endpoint, offering the strategy's tools as functions.
- `RulePlanner` replays the scenario's `solution` block (open, follow, submit, report) and
  turns each `watch` step into the strategy's waiting tool: sleep and re-read, or wait_for.
  It decides from what a model would have seen (the full page after open or sleep, only the
  changed lines after wait_for, after which the conversation starts again from its notes, so it
  opens a page again before it uses a form or a link of it) and counts as its tokens the request a model would have been
  sent: the whole conversation and the tool schemas, at characters / 4 (estimated).
"""

from __future__ import annotations

import itertools
import json
import re
import urllib.parse
from collections.abc import Iterator
from typing import Any, Protocol

from sentinel.agents.decisions import DecisionCalls
from sentinel.agents.judges import RuleJudge, Watch
from sentinel.agents.llm import ChatClient, Completion, ToolCall, assistant_message
from sentinel.agents.usage import Meter, estimate_image_tokens, estimate_prompt_tokens, estimate_tokens
from sentinel.core.solution import Predicate, Step

STRATEGIES = ("sleep", "wait_for")

BASE_PROMPT = (
    "You are a monitoring agent. You work in a web app through a text browser and carry out the "
    "user's task below. Pages are shown as text: a link is marked [n] before its text, and a form "
    "is one line `[form n] METHOD /path: field (kind: choices)`, where * marks a field's current "
    "value. Use open to load a link by its number or a path, and submit to send a form. The app "
    "changes while you wait: time is real. When the task's condition holds, first do everything "
    "the task asks (for example place an order), then call report exactly once with a short "
    "message; report visits the contact page for you. If the condition never holds, never report.")
WAITING_PROMPT = {
    "sleep": (
        "To wait, call sleep(seconds): it pauses, then shows you the current page again. Choose "
        "each pause yourself: short enough to react in time, long enough not to waste calls."),
    "wait_for": (
        "To wait, call wait_for(condition, timeout_s) on this page or the one named in page. It "
        "returns when a checker who sees only the changed lines (not the task) judges that the "
        "condition holds, or at the timeout: state it concretely, with exact numbers (e.g. 'the "
        "price is $75.60 or lower'). Then you see only the task, that call and its result, so put "
        "what you must remember (done, counted so far) in notes. Only the latest page you read "
        "stays whole; open a page again to see it."),
}


def _function(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "function", "function": {
        "name": name, "description": description,
        "parameters": {"type": "object", "properties": properties, "required": required}}}


TOOLS = {
    "open": _function("open", "Load a page: a link number from the current page, or a path.",
                      {"target": {"type": "string", "description": "a link number such as \"12\", or a path"}},
                      ["target"]),
    "submit": _function("submit", "Send a form of the current page; fields not given keep their current values.",
                        {"form": {"type": "string", "description": "the form number, or its action path"},
                         "fields": {"type": "object", "additionalProperties": {"type": "string"},
                                    "description": "field name to value"}},
                        ["form"]),
    "sleep": _function("sleep", "Pause, then read the current page again.",
                       {"seconds": {"type": "number", "description": "how long to pause"}}, ["seconds"]),
    "wait_for": _function("wait_for", "Watch a page until the condition holds or the timeout ends.",
                          {"condition": {"type": "string", "description": "what must be true, concretely"},
                           "timeout_s": {"type": "number", "description": "the most seconds to wait"},
                           "page": {"type": "string", "description": "the path to watch (default: this page)"},
                           "notes": {"type": "string", "description": "what to remember when it returns"}},
                          ["condition", "timeout_s"]),
    "report": _function("report", "Tell the user the condition holds (once, after doing what the task asks).",
                        {"message": {"type": "string"}}, ["message"]),
}


SCREEN_PROMPT = (
    "You are a monitoring agent. You work in a web app through a real web browser and carry out "
    "the user's task below. After each step you get a screenshot of the browser window and the "
    "page's text, in which a link is marked [n] before its text and a form is one line `[form n] "
    "METHOD /path: field (kind: choices)`, where * marks a field's current value. Use open to "
    "click a link by its number (or to go to a path), and submit to type the given values into a "
    "form's fields and press its submit button.")


def system_prompt(strategy: str, screenshots: bool = False) -> str:
    base = BASE_PROMPT if not screenshots else SCREEN_PROMPT + BASE_PROMPT[BASE_PROMPT.index(" The app changes"):]
    waiting = WAITING_PROMPT[strategy]
    if screenshots:  # a real browser's page refreshes itself: the tool reads it, no reload
        waiting = waiting.replace("reloads the page", "reads the page")
    return f"{base}\n\n{waiting}"


def tools_for(strategy: str) -> list[dict[str, Any]]:
    return [TOOLS[name] for name in ("open", "submit", strategy, "report")]


class Planner(Protocol):
    finished: bool  # True once the planner has nothing left to do

    def decide(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
               deadline: float | None) -> Completion: ...


class LLMPlanner:
    finished = False  # a model may stop talking, but only the agent loop decides it is done

    def __init__(self, client: ChatClient, meter: Meter):
        self.client = client
        self.meter = meter

    def decide(self, messages, tools, deadline):
        reply = self.client.complete(messages, tools=tools, deadline=deadline)
        if not reply.usage_reported:
            self.meter.estimated = True
        self.meter.add("planner", reply.prompt_tokens, reply.completion_tokens, estimate_image_tokens(messages))
        return reply


class Browsing(Protocol):
    """What the rule-based planner reads of the agent's state (the strategy's Tools)."""
    page: Any  # browse.Page, the page the agent is on
    browser: Any  # a browse.PageDriver
    waited: Any  # the last wait_for's WaitOutcome, or None

    def reading(self, path: str) -> list | None:
        """The lines of a page of this site as last shown or checked, or None."""


class RulePlanner:
    """Follows the solution block; decides as a model would from what it has been shown."""

    def __init__(self, steps: tuple[Step, ...], strategy: str, state: Browsing, judge: RuleJudge,
                 meter: Meter, sleep_s: float, wait_timeout_s: float, decisions: DecisionCalls | None = None):
        self.steps = steps
        self.decisions = decisions  # each decision charged as a model call (sentinel/agents/decisions.py)
        self.strategy = strategy
        self.state = state
        self.judge = judge
        self.meter = meter
        self.sleep_s = sleep_s
        self.wait_timeout_s = wait_timeout_s
        self.finished = False
        self._page_shown = True  # the conversation holds the whole current page (not after a wait_for)
        self._visited: set[str] = set()  # every address the planner opened, by the link's href
        self._ids = itertools.count(1)
        self._script = self._run()

    def decide(self, messages, tools, deadline):
        if self.decisions is not None:
            self.decisions.charge("planner")
        chosen = next(self._script, None)
        if chosen is None:  # the solution has no report step: nothing left to do
            self.finished = True
            return Completion(assistant_message("Finished.", ()), "Finished.", (), 0, 0, False)
        call = ToolCall(f"rule_{next(self._ids)}", *chosen)
        prompt = estimate_prompt_tokens(messages, tools)
        completion = estimate_tokens(call.name + json.dumps(call.arguments))
        self.meter.add("planner", prompt, completion, estimate_image_tokens(messages))
        self._page_shown = call.name != "wait_for"
        if call.name == "open":
            target = str(call.arguments["target"])
            browser = self.state.browser
            self._visited.add(browser.link(int(target)) if target.isdigit() else browser.site_url(target))
        return Completion(assistant_message("", (call,)), "", (call,), prompt, completion, usage_reported=False)

    # --- the script: one yield per model decision ------------------------------------------------

    def _run(self) -> Iterator[tuple[str, dict[str, Any]]]:
        for step in self.steps:
            if step.verb in ("follow", "submit") and not self._page_shown and not self._shown_in_wake(step):
                yield "open", {"target": self.state.page.path}  # see its links and forms again
            if step.verb == "open":
                yield "open", {"target": step.target}
            elif step.verb == "follow":
                yield "open", {"target": str(self._link_by_text(step.target))}
            elif step.verb == "submit":
                yield "submit", {"form": str(self._form_number(step.target)), "fields": dict(step.fields)}
            elif step.verb == "report":
                yield "report", {"message": step.target}
            else:
                yield from self._watch(step)

    def _watch(self, step: Step) -> Iterator[tuple[str, dict[str, Any]]]:
        assert step.until is not None
        known = self._known_lines(step)
        if known is None and not (self._page_shown and self.state.page.path == step.target):
            yield "open", {"target": step.target}
        text = self.state.page.text if known is None else "\n".join(line.text for line in known if line.text)
        hrefs = [href for href, _ in self.state.page.links] if known is None else \
            [href for line in known for href in line.links]
        first = step.until.read_number(text) if step.until.number is not None else None
        # Watching from the last check: what the last wake showed (still in the conversation)
        # is looked at first, for this step's condition; new links it showed are not seen yet.
        last = self.state.waited
        earlier = last if known is not None and last and last.holds and last.path == step.target else None
        unseen = set(earlier.changes.added_links) - self._visited if earlier else set()
        watch = Watch(step, first, set(watch_links(step, hrefs)) - unseen | self._visited)
        self.judge.watch = watch
        opened = matched = 0
        look = "page" if known is None else "wake" if earlier else "nothing"  # what the last result showed
        while True:
            waited = self.state.waited if look == "wake" else None
            if waited is None:
                held = False
            elif earlier is not None and waited is earlier:  # the last step's wake: does it show this one's condition?
                held = step.until.holds(waited.changes.added_text, first)
            else:
                held = waited.holds
            if step.open_new is None:
                if held and waited is earlier and self.state.page.path != step.target:
                    yield "open", {"target": step.target}  # the page the next steps act on
                if held or (look == "page" and step.until.holds(self.state.page.text, first)):
                    return
            elif look != "nothing":
                shown = self.state.page.link_hrefs(step.open_new) if look == "page" else \
                    (waited.changes.added_links if waited is not None and waited.holds else [])
                fresh = watch.fresh_links(shown)
                for href in fresh:
                    watch.seen.add(href)
                    opened += 1
                    yield "open", {"target": str(self.state.browser.link_number(href))}
                    matched += step.until.holds(self.state.page.text)
                    if matched >= step.count:
                        return
                if fresh and self.strategy == "sleep":  # sleep re-reads the page it is on
                    yield "open", {"target": step.target}
                    continue
            if self.strategy == "sleep":
                yield "sleep", {"seconds": self.sleep_s}
                look = "page"
            else:  # wait_for watches the step's page from wherever the agent is
                notes = f"opened {opened} new item(s), {matched} of {step.count} matched" if step.open_new else ""
                yield "wait_for", {"condition": describe_condition(watch), "timeout_s": self.wait_timeout_s,
                                   "page": step.target, **({"notes": notes} if notes else {})}
                look = "wake"

    def _known_lines(self, step: Step) -> list | None:
        """The watched page as wait_for last checked it, when wait_for can watch it from there
        without reading it again: a change since then shows in its first check. Not for a step
        whose limit counts from the number on the page, nor when the page is on screen anyway."""
        if self.strategy != "wait_for" or (step.until is not None and step.until.number is not None):
            return None
        if self._page_shown and self.state.page.path == step.target:
            return None
        return self.state.reading(step.target)

    def _shown_in_wake(self, step: Step) -> bool:
        """Did the changed lines the last wait_for returned show the form or link this step uses
        (its `[form n]` summary, its `[n]` mark), so that a model could use it without opening
        the page again?"""
        waited = self.state.waited
        if waited is None or not waited.holds:
            return False
        try:
            number = self._form_number(step.target) if step.verb == "submit" else self._link_by_text(step.target)
        except RuntimeError:
            return False
        mark = f"[form {number}]" if step.verb == "submit" else f"[{number}]"
        return mark in waited.changes.describe()

    def _link_by_text(self, text: str) -> int:
        for href, label in self.state.page.links:
            if text.casefold() in label.casefold():
                return self.state.browser.link_number(href)
        raise RuntimeError(f"no link containing {text!r} on {self.state.page.path}")

    def _form_number(self, action_pattern: str) -> int:
        pattern = re.compile(action_pattern)
        for number, form in self.state.browser.numbered_forms(self.state.page):
            if form is self.state.page.form_matching(pattern):
                return number
        raise RuntimeError(f"no form with an action matching {action_pattern!r} on {self.state.page.path}")


def watch_links(step: Step, hrefs: list[str]) -> list[str]:
    """The links an open_new watch step is about, among these."""
    if step.open_new is None:
        return []
    pattern = step.open_new
    return [href for href in hrefs if pattern.search(urllib.parse.urlsplit(href).path)]


COMPARISON_WORDS = {"at_least": "at least", "at_most": "at most", "above": "above", "below": "below"}


def describe_condition(watch: Watch) -> str:
    """The condition of a watch step in words, as a model would pass it to wait_for."""
    step = watch.step
    if step.open_new is not None:
        return f"a new link to a page matching {step.open_new.pattern} appears"
    return describe_predicate(step.until, watch.first)


def describe_predicate(until: Predicate | None, first: float | None) -> str:
    assert until is not None
    if until.text is not None:
        return f'the page shows "{until.text}"'
    if until.matches is not None:
        return f"the page has text matching /{until.matches.pattern}/"
    assert until.number is not None and until.limit is not None and until.comparison is not None
    limit = until.limit.resolve(first)
    return f"the number in /{until.number.pattern}/ is {COMPARISON_WORDS[until.comparison]} {limit:g}"
