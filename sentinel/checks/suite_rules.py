"""The suite rules of docs/environments.md#validity-rules, checked over whole environments (not one file).

- Spread target times: at least 20% of normal tasks have condition_at under 120 s and at
  least 20% over 480 s; no 60 s window [x, x + 60] holds more than 20% of them; in each
  environment at least one is under 120 s and one over 480 s.
- Conditions that pass: at least one active task per environment has condition_until, and
  together at least a quarter of the active tasks.
`suite_split` reports the passive/active/noop and absolute/relative split.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

from sentinel.core.scenario import Problem, Scenario

EARLY_S, LATE_S = 120.0, 480.0
SHARE = 0.20  # of normal tasks: at least this many early and late, at most this many in a window
WINDOW_S = 60.0
PASSING_SHARE = 0.25  # of active tasks with condition_until


def suite_problems(scenarios: list[Scenario]) -> list[Problem]:
    normal = [s for s in scenarios if not s.is_noop]
    out: list[Problem] = []
    if not normal:
        return out
    where = _common_folder(scenarios)
    early = [s for s in normal if s.condition_at is not None and s.condition_at < EARLY_S]
    late = [s for s in normal if s.condition_at is not None and s.condition_at > LATE_S]
    need = math.ceil(SHARE * len(normal))
    if len(early) < need:
        out.append(Problem(where, "condition_at", f"{len(early)} of {len(normal)} normal tasks have condition_at "
                                                  f"under {EARLY_S:g} s ({_ids(early)}); at least {need} must "
                                                  "(validity rules: spread target times)"))
    if len(late) < need:
        out.append(Problem(where, "condition_at", f"{len(late)} of {len(normal)} normal tasks have condition_at "
                                                  f"over {LATE_S:g} s ({_ids(late)}); at least {need} must "
                                                  "(validity rules: spread target times)"))
    out += _window_problems(normal, where)
    by_env: dict[str, list[Scenario]] = {}
    for s in scenarios:
        by_env.setdefault(s.environment, []).append(s)
    for env, members in sorted(by_env.items()):
        out += _environment_problems(env, members)
    active = [s for s in normal if s.taxonomy.activity == "active"]
    passing = [s for s in active if s.condition_until is not None]
    if active and len(passing) < PASSING_SHARE * len(active):
        out.append(Problem(where, "condition_until", f"{len(passing)} of {len(active)} active tasks have a condition "
                                                     f"that passes ({_ids(passing)}); at least a quarter must "
                                                     "(validity rules: conditions that pass)"))
    return out


def _window_problems(normal: list[Scenario], where: str) -> list[Problem]:
    limit = SHARE * len(normal)
    times = sorted((s.condition_at or 0.0, s.id) for s in normal)
    for start, _ in times:
        inside = [sid for t, sid in times if start <= t <= start + WINDOW_S]
        if len(inside) > limit:
            return [Problem(where, "condition_at", f"{len(inside)} of {len(normal)} normal tasks fall in the "
                                                   f"{WINDOW_S:g} s window [{start:g}, {start + WINDOW_S:g}] s "
                                                   f"({', '.join(inside)}); at most 20% may "
                                                   "(validity rules: spread target times)")]
    return []


def _environment_problems(env: str, members: list[Scenario]) -> list[Problem]:
    where = _common_folder(members)
    normal = [s for s in members if not s.is_noop]
    out: list[Problem] = []
    if normal and not any((s.condition_at or 0) < EARLY_S for s in normal):
        out.append(Problem(where, "condition_at", f"no {env} task has condition_at under {EARLY_S:g} s "
                                                  "(validity rules: spread target times)"))
    if normal and not any((s.condition_at or 0) > LATE_S for s in normal):
        out.append(Problem(where, "condition_at", f"no {env} task has condition_at over {LATE_S:g} s "
                                                  "(validity rules: spread target times)"))
    active = [s for s in normal if s.taxonomy.activity == "active"]
    if active and not any(s.condition_until is not None for s in active):
        out.append(Problem(where, "condition_until", f"no active {env} task has a condition that passes "
                                                     f"(one of {_ids(active)} needs condition_until; "
                                                     "docs/environments.md#validity-rules conditions that pass)"))
    return out


def suite_split(scenarios: list[Scenario]) -> list[str]:
    """One line per environment and one for the suite: activity and criteria counts."""
    lines = []
    by_env: dict[str, list[Scenario]] = {}
    for s in scenarios:
        by_env.setdefault(s.environment, []).append(s)
    groups = sorted(by_env.items()) + ([("suite", scenarios)] if len(by_env) > 1 else [])
    for name, members in groups:
        acts = Counter(s.taxonomy.activity for s in members)
        crit = Counter(s.taxonomy.criteria for s in members if not s.is_noop)
        lines.append(f"{name}: {acts['passive']} passive / {acts['active']} active / {acts['noop']} noop; "
                     f"normal tasks {crit['absolute']} absolute / {crit['relative']} relative")
    return lines


def _ids(scenarios: list[Scenario]) -> str:
    return ", ".join(s.id for s in scenarios) or "none"


def _common_folder(scenarios: list[Scenario]) -> str:
    folders = {str(s.path.parent) for s in scenarios}
    return folders.pop() if len(folders) == 1 else str(Path(next(iter(folders))).parent)
