"""Judges: does the watched condition hold, given only the lines of a page that changed?

The wait_for tool diffs each reload against its snapshot (difflib) and asks a judge only when
the diff is not empty. Two judges answer behind one interface, `check(condition, changes, path)`:

- `LLMJudge` sends the condition and the changed lines to a chat-completions endpoint and reads
  a JSON answer; its tokens are the API's usage.
- `RuleJudge` evaluates the predicate of the scenario's `solution` watch step on the visible
  text of the added lines (or, for an `open_new` step, looks for new links among them). It
  sends nothing, and counts as its tokens the judge prompt it would have sent (estimated).
"""

from __future__ import annotations

import difflib
import json
import re
import urllib.parse
from dataclasses import dataclass, field
from typing import Protocol

from sentinel.agents.browse import Line
from sentinel.agents.decisions import DecisionCalls
from sentinel.agents.llm import ChatClient, LLMError
from sentinel.agents.usage import Meter, estimate_prompt_tokens, estimate_tokens
from sentinel.core.solution import Step

MAX_DIFF_LINES = 60
RELATIVE_TIME = re.compile(r"\b(?:just now|yesterday|\d+ (?:min|h|days) ago)\b")
JUDGE_SYSTEM = (
    "You watch a web page for a condition. You see only the lines of the page that changed since "
    "the last check: '+' lines are new or changed text (as they read now), '-' lines are gone. Reply with JSON only: "
    '{"holds": true or false, "reason": "a few words"}. Say true only if these lines show that the '
    "condition holds now.")


@dataclass(frozen=True)
class Changes:
    """What changed between two readings of a page."""
    added: tuple[Line, ...] = ()
    removed: tuple[Line, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.added and not self.removed

    @property
    def added_text(self) -> str:
        return "\n".join(line.text for line in self.added if line.text)

    @property
    def added_links(self) -> list[str]:
        return [href for line in self.added for href in line.links]

    def describe(self, limit: int = MAX_DIFF_LINES) -> str:
        """The changed lines as a model reads them: '+ new', '- gone'."""
        marked = [f"- {line.shown}" for line in self.removed] + [f"+ {line.shown}" for line in self.added]
        if len(marked) > limit:
            marked = marked[:limit] + [f"… and {len(marked) - limit} more changed lines"]
        return "\n".join(marked)


def diff_lines(old: list[Line], new: list[Line]) -> Changes:
    """The lines that appeared or changed (added, as they read now) and the lines that
    disappeared with nothing in their place (removed: where a stretch of lines was replaced by
    fewer, the last ones of it), compared on what a model reads, except
    for the passing of time: a line that differs only in its relative times ("3 min ago" now
    "4 min ago") has not changed. Whether a condition holds now is read on the new lines; their
    old versions would only double what the judge is sent."""
    matcher = difflib.SequenceMatcher(a=[timeless(line.shown) for line in old],
                                      b=[timeless(line.shown) for line in new], autojunk=False)
    added, removed = [], []
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "delete":
            removed += old[a0:a1]
        elif tag == "replace" and a1 - a0 > b1 - b0:  # more lines went than came: the rest are gone
            removed += old[a0 + b1 - b0:a1]
        if tag in ("replace", "insert"):
            added += new[b0:b1]
    return Changes(tuple(added), tuple(removed))


def timeless(shown: str) -> str:
    """A line with its relative times ("just now", "N min ago", "N h ago", "yesterday", "N days
    ago", as the pages print them) blanked out."""
    return RELATIVE_TIME.sub("(time)", shown)


@dataclass(frozen=True)
class Verdict:
    holds: bool
    reason: str


class Judge(Protocol):
    def check(self, condition: str, changes: Changes, path: str) -> Verdict: ...


def judge_messages(condition: str, changes: Changes, path: str) -> list[dict[str, str]]:
    """The request a judge gets: the condition and only the changed lines."""
    return [{"role": "system", "content": JUDGE_SYSTEM},
            {"role": "user", "content": f"Condition: {condition}\nPage: {path}\nChanged lines:\n{changes.describe()}"}]


def read_verdict(answer: str) -> Verdict:
    """A judge's reply: JSON {"holds": ..., "reason": ...}, leniently (code fences, yes/no)."""
    text = answer.strip()
    fenced = re.search(r"\{.*\}", text, re.DOTALL)
    if fenced:
        try:
            data = json.loads(fenced.group(0))
            if isinstance(data, dict) and isinstance(data.get("holds"), bool):
                return Verdict(data["holds"], str(data.get("reason") or ""))
        except ValueError:
            pass
    found = re.search(r'"?holds"?\s*[:=]\s*(true|false)', text, re.IGNORECASE)
    if found:
        return Verdict(found.group(1).lower() == "true", text[:200])
    first = text.split(None, 1)[0].strip(".,:!").lower() if text else ""
    if first in ("yes", "true", "no", "false"):
        return Verdict(first in ("yes", "true"), text[:200])
    return Verdict(False, f"unreadable answer: {text[:120]}")


class LLMJudge:
    def __init__(self, client: ChatClient, meter: Meter, deadline: float | None = None):
        self.client = client
        self.meter = meter
        self.deadline = deadline

    def check(self, condition: str, changes: Changes, path: str) -> Verdict:
        try:
            reply = self.client.complete(judge_messages(condition, changes, path), deadline=self.deadline)
        except LLMError:
            self.meter.add_error()
            raise
        if not reply.usage_reported:
            self.meter.estimated = True
        self.meter.add("judge", reply.prompt_tokens, reply.completion_tokens)
        return read_verdict(reply.content)


@dataclass
class Watch:
    """The solution's watch step being waited on, with what the rule-based planner has read."""
    step: Step
    first: float | None = None  # the number on the first reading, for 'first + N' limits
    seen: set[str] = field(default_factory=set)  # links (open_new) already on the page or opened

    def fresh_links(self, hrefs: list[str]) -> list[str]:
        assert self.step.open_new is not None
        found: dict[str, None] = {}
        for href in hrefs:
            if href not in self.seen and self.step.open_new.search(urllib.parse.urlsplit(href).path):
                found.setdefault(href)
        return list(found)


class RuleJudge:
    """Reads the condition from the scenario's solution block, as set by the rule-based planner."""

    def __init__(self, meter: Meter, decisions: DecisionCalls | None = None):
        self.meter = meter
        self.decisions = decisions  # each check charged as a model call (sentinel/agents/decisions.py)
        self.watch: Watch | None = None

    def check(self, condition: str, changes: Changes, path: str) -> Verdict:
        if self.decisions is not None:
            self.decisions.charge("judge")
        watch = self.watch
        if watch is None:
            verdict = Verdict(False, "nothing to watch")
        elif watch.step.open_new is not None:
            fresh = watch.fresh_links(changes.added_links)
            verdict = Verdict(bool(fresh), f"{len(fresh)} new link(s) to open")
        else:
            assert watch.step.until is not None
            holds = watch.step.until.holds(changes.added_text, watch.first)
            verdict = Verdict(holds, "the changed lines meet the condition" if holds else "not yet")
        answer = json.dumps({"holds": verdict.holds, "reason": verdict.reason})
        self.meter.add("judge", estimate_prompt_tokens(judge_messages(condition, changes, path)),
                       estimate_tokens(answer))
        return verdict
