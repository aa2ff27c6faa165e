r"""The `solution` block: a small declarative script the oracle agent follows through the pages.

A solution is a list of steps, run in order. Each step is a mapping with one verb:

    solution:
      - watch: /microhood/stock/VLTA         # reload this page until the predicate holds
        until: {number: 'Price \$([\d,.]+)', at_most: first * 0.90}
      - open: /microhood/stock/VLTA/order?side=buy
      - submit: /order/review                 # the form whose action matches this regex
        fields: {order_type: market, shares: 3}
      - submit: /order/confirm
      - report: VLTA dipped below 90% of its start; bought 3.

Verbs
- `open: PATH` loads a page.
- `follow: TEXT` follows the first link on the current page whose text contains TEXT.
- `watch: PATH` reloads PATH until `until` holds. With `open_new: REGEX` it instead opens every
  link (href matching REGEX) that was not on the page at the first read, and `until` must
  hold on `count` of the opened pages (default 1); the last page that matched stays current.
- `submit: REGEX` fills the form on the current page whose action matches REGEX with its
  own default values plus `fields`, posts it and follows the redirect.
- `report: MESSAGE` visits the contact page and posts MESSAGE. A no-op's solution simply
  watches for a condition that never comes.

Predicates read a page's visible text (tags stripped, whitespace folded):
- `{text: "mobile-app-mockups.fig"}`: the text contains this, ignoring case.
- `{matches: 'Cc: [^|]*Alex Morgan \(you\)'}`: a regular expression found in the text.
- `{number: REGEX, at_least|at_most|above|below: LIMIT}`: the first group of REGEX, read as a
  number (commas dropped), compared to LIMIT: a number, or `first + N` / `first * F` where
  `first` is the number on the first read of the watched page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

COMPARISONS = {
    "at_least": lambda v, lim: v >= lim,
    "at_most": lambda v, lim: v <= lim,
    "above": lambda v, lim: v > lim,
    "below": lambda v, lim: v < lim,
}
VERBS = ("open", "follow", "watch", "submit", "report")
STEP_KEYS = {
    "open": {"open"},
    "follow": {"follow"},
    "watch": {"watch", "until", "open_new", "count", "poll_s"},
    "submit": {"submit", "fields"},
    "report": {"report"},
}
LIMIT_RE = re.compile(r"^\s*first\s*([+*\-])\s*([0-9.]+)\s*$")


@dataclass(frozen=True)
class Limit:
    """A comparison bound: a constant, or relative to the first value read."""
    constant: float | None = None
    op: str | None = None  # '+', '-' or '*' applied to `first`
    operand: float = 0.0

    def resolve(self, first: float | None) -> float:
        if self.constant is not None:
            return self.constant
        if first is None:
            raise ValueError("relative limit needs a first value")
        if self.op == "+":
            return first + self.operand
        if self.op == "-":
            return first - self.operand
        return first * self.operand

    @property
    def relative(self) -> bool:
        return self.constant is None


@dataclass(frozen=True)
class Predicate:
    text: str | None = None
    matches: re.Pattern | None = None
    number: re.Pattern | None = None
    comparison: str | None = None
    limit: Limit | None = None

    def read_number(self, page_text: str) -> float | None:
        assert self.number is not None
        match = self.number.search(page_text)
        if not match:
            return None
        try:
            return float(match.group(1).replace(",", ""))
        except (ValueError, IndexError):
            return None

    def holds(self, page_text: str, first: float | None = None) -> bool:
        if self.text is not None:
            return self.text.casefold() in page_text.casefold()
        if self.matches is not None:
            return self.matches.search(page_text) is not None
        value = self.read_number(page_text)
        if value is None or self.limit is None or self.comparison is None:
            return False
        return COMPARISONS[self.comparison](value, self.limit.resolve(first))


@dataclass(frozen=True)
class Step:
    verb: str
    target: str  # path, link text, form-action regex or report message
    until: Predicate | None = None
    open_new: re.Pattern | None = None
    count: int = 1
    poll_s: float | None = None
    fields: Mapping[str, str] = field(default_factory=dict)


def parse_solution(raw: Any) -> tuple[tuple[Step, ...], list[tuple[str, str]]]:
    """Parse a solution block; return the steps and a list of (field, reason) problems."""
    problems: list[tuple[str, str]] = []
    if raw is None:
        return (), [("solution", "missing: the oracle needs steps to follow")]
    if not isinstance(raw, list) or not raw:
        return (), [("solution", "expected a list of steps")]
    steps = []
    for i, item in enumerate(raw):
        where = f"solution[{i}]"
        step = _parse_step(item, where, problems)
        if step is not None:
            steps.append(step)
    return tuple(steps), problems


def _parse_step(item: Any, where: str, problems: list) -> Step | None:
    if not isinstance(item, dict):
        problems.append((where, f"expected a mapping with one of {', '.join(VERBS)}"))
        return None
    verbs = [v for v in VERBS if v in item]
    if len(verbs) != 1:
        problems.append((where, f"expected exactly one of {', '.join(VERBS)}"))
        return None
    verb = verbs[0]
    for key in sorted(set(item) - STEP_KEYS[verb]):
        problems.append((f"{where}.{key}", f"unknown key for a '{verb}' step"))
    target = item[verb]
    if not isinstance(target, str) or not target.strip():
        problems.append((f"{where}.{verb}", "expected text"))
        return None
    if verb in ("open", "watch") and not target.startswith("/"):
        problems.append((f"{where}.{verb}", "expected a path starting with '/'"))
    if verb == "submit" and _compile(target, f"{where}.submit", problems) is None:
        return None
    if verb == "watch":
        return _parse_watch(item, target, where, problems)
    fields_raw = item.get("fields", {})
    if not isinstance(fields_raw, dict):
        problems.append((f"{where}.fields", "expected a mapping of form field names to values"))
        fields_raw = {}
    return Step(verb=verb, target=target, fields={str(k): str(v) for k, v in fields_raw.items()})


def _parse_watch(item: dict, target: str, where: str, problems: list) -> Step | None:
    until = parse_predicate(item.get("until"), f"{where}.until", problems)
    open_new = None
    if "open_new" in item:
        open_new = _compile(item["open_new"], f"{where}.open_new", problems)
    count = item.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        problems.append((f"{where}.count", "expected a whole number ≥ 1"))
        count = 1
    if count > 1 and open_new is None:
        problems.append((f"{where}.count", "only makes sense with open_new"))
    poll_s = item.get("poll_s")
    if poll_s is not None and (isinstance(poll_s, bool) or not isinstance(poll_s, (int, float)) or poll_s <= 0):
        problems.append((f"{where}.poll_s", "expected wall seconds > 0"))
        poll_s = None
    if until is None:
        return None
    if until.limit is not None and until.limit.relative and open_new is not None:
        problems.append((f"{where}.until", "a relative limit ('first …') cannot be used with open_new"))
    return Step(verb="watch", target=target, until=until, open_new=open_new, count=count,
                poll_s=float(poll_s) if poll_s else None)


def parse_predicate(raw: Any, where: str, problems: list) -> Predicate | None:
    if not isinstance(raw, dict):
        problems.append((where, "expected {text: ...} or {number: REGEX, at_least|at_most|above|below: LIMIT}"))
        return None
    if "text" in raw:
        extra = set(raw) - {"text"}
        if extra:
            problems.append((where, f"unexpected key(s) beside text: {', '.join(sorted(extra))}"))
        if not isinstance(raw["text"], str) or not raw["text"]:
            problems.append((f"{where}.text", "expected text"))
            return None
        return Predicate(text=raw["text"])
    if "matches" in raw:
        extra = set(raw) - {"matches"}
        if extra:
            problems.append((where, f"unexpected key(s) beside matches: {', '.join(sorted(extra))}"))
        pattern = _compile(raw["matches"], f"{where}.matches", problems)
        if pattern is not None and UNANCHORED_LOOKAHEAD.match(pattern.pattern):
            problems.append((f"{where}.matches", "a pattern that starts with a lookahead is tried at every "
                             "position of the page, which takes seconds on a long one: start it with \\A"))
            pattern = None
        return Predicate(matches=pattern) if pattern is not None else None
    if "number" not in raw:
        problems.append((where, "expected a 'text', 'matches' or 'number' predicate"))
        return None
    pattern = _compile(raw["number"], f"{where}.number", problems)
    if pattern is not None and pattern.groups < 1:
        problems.append((f"{where}.number", "the regex needs one group around the number"))
        pattern = None
    comparisons = [c for c in COMPARISONS if c in raw]
    extra = set(raw) - {"number"} - set(COMPARISONS)
    if extra:
        problems.append((where, f"unknown key(s): {', '.join(sorted(extra))}"))
    if len(comparisons) != 1:
        problems.append((where, "expected exactly one of at_least, at_most, above, below"))
        return None
    limit = parse_limit(raw[comparisons[0]], f"{where}.{comparisons[0]}", problems)
    if pattern is None or limit is None:
        return None
    return Predicate(number=pattern, comparison=comparisons[0], limit=limit)


def parse_limit(raw: Any, where: str, problems: list) -> Limit | None:
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return Limit(constant=float(raw))
    if isinstance(raw, str):
        match = LIMIT_RE.match(raw)
        if match:
            return Limit(op=match.group(1), operand=float(match.group(2)))
    problems.append((where, f"expected a number or 'first + N' / 'first * F', got {raw!r}"))
    return None


# "(?s)(?=.*a)(?=.*b)" searched over a page scans the rest of the page from every position
# (quadratic: half a second of CPU on a 7,000-character page); "(?s)\A(?=.*a)(?=.*b)" scans once.
UNANCHORED_LOOKAHEAD = re.compile(r"(\(\?[a-zA-Z]+\))*\(\?=")


def _compile(raw: Any, where: str, problems: list) -> re.Pattern | None:
    if not isinstance(raw, str) or not raw:
        problems.append((where, "expected a regular expression"))
        return None
    try:
        return re.compile(raw)
    except re.error as exc:
        problems.append((where, f"not a valid regular expression: {exc}"))
        return None
