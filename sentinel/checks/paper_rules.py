"""The paper suite's rules (docs/paper-suite.md#rules), checked instead of the verified suite's.

The paper suite promises the original benchmark's tasks, so its checks compare each scenario with
the inventory committed beside it, `scenarios/paper/INVENTORY.tsv` (id, activity, criteria,
condition_at, events: facts of the original, one task a row):
- every id of the inventory is there (when the whole suite is checked) and no other;
- each task's activity, criteria, condition_at (to 0.01 s) and number of events (a preload
  counted once) are the inventory's.
The verified suite's anti-guessing rules (spread target times, conditions that pass) do not
apply: the paper's times are what they are.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from sentinel.core.scenario import Problem, Scenario

INVENTORY_NAME = "INVENTORY.tsv"
TOLERANCE_S = 0.01


@dataclass(frozen=True)
class Task:
    """One row of the inventory: what the original task is."""
    id: str
    activity: str
    criteria: str
    condition_at: float | None
    events: int


def read_inventory(path: Path) -> dict[str, Task]:
    """The inventory's tasks by id."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return {row["id"]: Task(row["id"], row["activity"], row["criteria"],
                            float(row["condition_at"]) if row["condition_at"] else None, int(row["events"]))
            for row in rows}


def find_inventory(scenarios: list[Scenario]) -> Path | None:
    """The INVENTORY.tsv in a folder above the scenarios (the suite's root), if there is one."""
    for folder in scenarios[0].path.resolve().parents if scenarios else ():
        if (folder / INVENTORY_NAME).is_file():
            return folder / INVENTORY_NAME
    return None


def paper_problems(scenarios: list[Scenario], whole_suite: bool) -> list[Problem]:
    """Every difference between the paper scenarios and the inventory (all ids only if whole_suite)."""
    inventory_path = find_inventory(scenarios)
    if inventory_path is None:
        where = str(scenarios[0].path.parent) if scenarios else "-"
        return [Problem(where, "-", f"no {INVENTORY_NAME} above the paper scenarios to check them against")]
    tasks = read_inventory(inventory_path)
    out: list[Problem] = []
    for scenario in scenarios:
        task = tasks.get(scenario.id)
        if task is None:
            out.append(Problem(str(scenario.path), "id", f"{scenario.id} is not a task of {inventory_path}"))
            continue
        out += [Problem(str(scenario.path), field, reason) for field, reason in task_differences(scenario, task)]
    if whole_suite:
        missing = sorted(set(tasks) - {s.id for s in scenarios})
        if missing:
            out.append(Problem(str(inventory_path), "id", f"{len(missing)} task(s) have no scenario: "
                                                          f"{', '.join(missing)}"))
    return out


def task_differences(scenario: Scenario, task: Task) -> list[tuple[str, str]]:
    """(field, reason) for each way one scenario differs from its inventory row."""
    out = []
    if scenario.taxonomy.activity != task.activity:
        out.append(("taxonomy.activity", f"{scenario.taxonomy.activity}, but the original is {task.activity}"))
    if scenario.taxonomy.criteria != task.criteria:
        out.append(("taxonomy.criteria", f"{scenario.taxonomy.criteria}, but the original is {task.criteria}"))
    at, want = scenario.condition_at, task.condition_at
    if (at is None) != (want is None) or (at is not None and want is not None and abs(at - want) > TOLERANCE_S):
        out.append(("condition_at", f"{at}, but the original's is {want}"))
    if len(scenario.events) != task.events:
        out.append(("events", f"{len(scenario.events)} events, but the original has {task.events} "
                              "(a preload counted once)"))
    if not scenario.is_paper:
        out.append(("convention", "a paper scenario says `convention: paper`"))
    return out
