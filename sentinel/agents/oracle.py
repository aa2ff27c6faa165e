"""The oracle: a perfect monitor that follows the scenario's `solution` block through the pages.

It reads only pages over HTTP and the `solution` block of the scenario file: never the
database, never condition_at, never eval_sql. A scenario it cannot pass is either unsolvable
through its pages or shows its condition too early.

    python -m sentinel.agents.oracle TASK_URL --scenario FILE [--poll SECONDS]

A watched page is read with the site's change notification (Browser.wait_for_change): the
oracle sleeps in one request until the page differs, so a hundred waiting oracles cost nothing.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

import yaml

from sentinel.agents.browse import Browser, Page
from sentinel.agents.pacing import Pacing
from sentinel.core.solution import Step, parse_solution

WATCH_WAIT_SIM_S = 120.0  # one waiting read of a watched page lasts at most this long


def say(message: str) -> None:
    print(f"[oracle] {message}", flush=True)


class Oracle:
    def __init__(self, task_url: str, steps: tuple[Step, ...], poll_s: float | None = None):
        self.browser = Browser(task_url, pacing=Pacing.from_env(task_url))  # its pauses (agents/pacing.py)
        self.task_url = task_url
        self.steps = steps
        self.poll_s = poll_s
        self.page: Page | None = None

    def run(self) -> None:
        self.page = self.browser.get(self.task_url)
        say(f"started at {self.page.url}")
        for step in self.steps:
            getattr(self, f"do_{step.verb}")(step)

    def do_open(self, step: Step) -> None:
        self.page = self.browser.get(step.target)
        say(f"opened {step.target} ({self.page.status})")

    def do_follow(self, step: Step) -> None:
        assert self.page is not None
        for href, text in self.page.links:
            if step.target.casefold() in text.casefold():
                self.page = self.browser.get(href)
                say(f"followed '{text}' to {href}")
                return
        raise RuntimeError(f"no link containing {step.target!r} on {self.page.url}")

    def do_watch(self, step: Step) -> None:
        assert step.until is not None
        poll = step.poll_s or self.poll_s
        page = self._current_or_read(step.target)
        first = step.until.read_number(page.text) if step.until.number is not None else None
        say(f"watching {step.target} (first value {first})")
        seen = set(page.link_hrefs(step.open_new)) if step.open_new else set()
        matched = 0
        while True:
            if step.open_new is None:
                if step.until.holds(page.text, first):
                    self.page = page
                    say(f"condition holds on {step.target}")
                    return
            else:
                for href in page.link_hrefs(step.open_new):
                    if href in seen:
                        continue
                    seen.add(href)
                    opened = self.browser.get(href)
                    if step.until.holds(opened.text):
                        matched += 1
                        self.page = opened
                        say(f"{href} matches ({matched} of {step.count})")
                        if matched >= step.count:
                            return
            if poll:  # plain re-reads at this interval, as asked
                self.browser.pacing.sleep(poll)
                page = self.browser.get(step.target, conditional=True)
            else:
                page = self.browser.wait_for_change(step.target, WATCH_WAIT_SIM_S)

    def _current_or_read(self, target: str) -> Page:
        """The page at target: the one just read if it is that page (a relative watch counts
        from the start page as first seen, however long the next read is delayed), else a read."""
        if self.page is not None and self.page.url == self.browser.url(target):
            return self.page
        return self.browser.get(target)

    def do_submit(self, step: Step) -> None:
        assert self.page is not None
        form = self.page.form_matching(re.compile(step.target))
        if form is None:
            raise RuntimeError(f"no form with an action matching {step.target!r} on {self.page.url}")
        self.page = self.browser.submit(form, dict(step.fields))
        say(f"submitted {form.action} → {self.page.url} ({self.page.status})")
        if self.page.status >= 400:
            raise RuntimeError(f"form {form.action} answered {self.page.status}: {self.page.text[:300]}")

    def do_report(self, step: Step) -> None:
        page = self.browser.get("/contact")
        form = page.form_matching(re.compile(r"/contact$"))
        if form is not None:
            self.browser.post(form.action, {**form.fields, "message": step.target})
        say(f"reported: {step.target}")


def load_steps(path: Path, tell: Callable[[str], None]) -> tuple[Step, ...] | None:
    """The solution steps of a scenario file (its solution block only); None, with each problem
    told, if the block is missing or wrong."""
    # libyaml's loader where PyYAML has it: the pure-Python one takes ~9 ms of CPU for a scenario's
    # preload lists (~1 ms), times a hundred oracles starting at once before the start line opens
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # both loaders are safe ones
    steps, problems = parse_solution(data.get("solution") if isinstance(data, dict) else None)
    for where, reason in problems:
        tell(f"bad solution: {where}: {reason}")
    return None if problems else steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sentinel.agents.oracle")
    parser.add_argument("task_url")
    parser.add_argument("--scenario", required=True, type=Path)
    parser.add_argument("--poll", type=float, default=None,
                        help="re-read a watched page every this many wall seconds instead of waiting "
                             "for it to change (the site's long-poll)")
    args = parser.parse_args(argv)
    steps = load_steps(args.scenario, say)
    if steps is None:
        return 2
    try:
        Oracle(args.task_url, steps, args.poll).run()
    except (RuntimeError, OSError) as exc:
        say(f"gave up: {exc}")
        return 1
    say("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
