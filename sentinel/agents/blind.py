"""The blind agent: never watches. At a fixed sim time it takes the solution's actions and reports.

It opens the task (which starts the session clock), sleeps until SIM_S sim seconds have passed
(SIM_S / speed wall seconds; the runner gives the session speed as SENTINEL_SPEED; on the
virtual clock SIM_S sim seconds, slept through the site), then runs
the scenario's `solution` block the way the oracle does, except that it never waits for a
condition:

- a `watch` step loads its page once and checks nothing; with `open_new` it opens every link on
  that page the pattern matches (a guesser cannot tell the target from its look-alikes, so it
  acts on all of them: what the "no collateral" rule of docs/environments.md#validity-rules must punish);
- `open`, `follow` and `submit` steps run as the oracle runs them; one that fails (a link or
  form that is not there yet) is logged and skipped, since a guesser carries on regardless;
- it always reports: with the solution's `report` step, or at the end with a message of its own
  if the solution has none (a no-op's solution only watches).

Run at a ladder of times (benchmarks/guessing.py), it measures how much of the suite a timer
that never looks could pass. Like the oracle it reads only the solution block of the scenario.

    python -m sentinel.agents.blind TASK_URL --scenario FILE --at SIM_S
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from sentinel.agents.oracle import Oracle, load_steps
from sentinel.core.solution import Step

FALLBACK_REPORT = "Reporting at the time I chose, without having looked."


def say(message: str) -> None:
    print(f"[blind] {message}", flush=True)


def speed_from_env() -> float:
    """The session speed (sim seconds per wall second) the runner passes in SENTINEL_SPEED."""
    try:
        speed = float(os.environ.get("SENTINEL_SPEED", "1"))
    except ValueError:
        return 1.0
    return speed if speed > 0 else 1.0


class Blind(Oracle):
    """The oracle's actions without its waiting: every watch step is one look, then act."""

    def __init__(self, task_url: str, steps: tuple[Step, ...], act_at_s: float, speed: float):
        super().__init__(task_url, steps, poll_s=0.0)
        self.act_at_s = act_at_s
        self.speed = speed
        self.reported = False

    def run(self) -> None:
        self.page = self.browser.get(self.task_url)
        pacing = self.browser.pacing  # wall seconds, or the virtual clock's sim seconds (agents/pacing.py)
        opened = pacing.now()
        wait = self.act_at_s / self.speed
        say(f"started at {self.page.url}; acting at sim {self.act_at_s:g} s ({wait:.2f} s from now)")
        pacing.sleep(opened + wait - pacing.now())
        for step in self.steps:
            try:
                getattr(self, f"do_{step.verb}")(step)
            except (RuntimeError, OSError) as exc:
                say(f"skipped a {step.verb} step: {exc}")
        if not self.reported:
            self.do_report(Step(verb="report", target=FALLBACK_REPORT))

    def do_watch(self, step: Step) -> None:
        self.page = self.browser.get(step.target)
        if step.open_new is None:
            say(f"looked once at {step.target}, checking nothing")
            return
        hrefs = self.page.link_hrefs(step.open_new)
        for href in hrefs:
            self.page = self.browser.get(href)
        say(f"opened all {len(hrefs)} link(s) on {step.target} matching {step.open_new.pattern!r}")

    def do_report(self, step: Step) -> None:
        if self.reported:
            return
        super().do_report(step)
        self.reported = True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sentinel.agents.blind")
    parser.add_argument("task_url")
    parser.add_argument("--scenario", required=True, type=Path)
    parser.add_argument("--at", required=True, type=float, help="the sim second at which to act")
    args = parser.parse_args(argv)
    steps = load_steps(args.scenario, say)
    if steps is None:
        return 2
    Blind(args.task_url, steps, args.at, speed_from_env()).run()
    say("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
