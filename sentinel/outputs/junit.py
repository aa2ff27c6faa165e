"""JUnit XML for CI systems: one test suite per environment, one test case per session.

A passed session is a passing test case, a failed one carries <failure> with the grading
detail, and an infrastructure error carries <error>. With repeated trials each trial is its
own test case, named "<scenario> [trial n]". Times are the sessions' wall seconds.

Each suite carries the on-time figures of its environment as properties (on_time, normal,
on_time_rate), and each test case of a normal task a property on_time (true / false); a no-op
has none (docs/protocol.md#grading).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import groupby
from pathlib import Path

from sentinel.core.files import write_atomic
from sentinel.core.grading import Result

# Characters XML 1.0 cannot carry (an agent's contact message may contain anything).
NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def clean(text: object) -> str:
    return NOT_XML.sub("\ufffd", str(text))


def case_name(result: Result, trials: int) -> str:
    return result.scenario_id if trials == 1 else f"{result.scenario_id} [trial {result.trial}]"


def _facts(result: Result) -> str:
    lines = [f"detail: {result.detail}", f"on time: {_on_time_text(result.on_time)}", f"ended by: {result.ended_by}",
             f"condition_at (sim s): {'no-op' if result.condition_at is None else result.condition_at}",
             f"contact_at (sim s): {result.contact_at}", f"reaction_s: {result.reaction_s}",
             f"requests: {result.requests}", f"cost_usd: {result.cost_usd}"]
    if result.contact_message:
        lines.append(f"contact message: {result.contact_message}")
    return "\n".join(lines)


def _testcase(parent: ET.Element, result: Result, trials: int) -> None:
    case = ET.SubElement(parent, "testcase", classname=f"sentinel.{clean(result.environment)}",
                         name=clean(case_name(result, trials)), time=f"{result.wall_s:.3f}")
    if result.is_infra_error:
        ET.SubElement(case, "error", message=clean(result.detail), type="infrastructure")
    elif not result.success:
        ET.SubElement(case, "failure", message=clean(result.detail), type="fail")
    if result.on_time is not None:
        props = ET.SubElement(case, "properties")
        ET.SubElement(props, "property", name="on_time", value=_on_time_text(result.on_time))
    ET.SubElement(case, "system-out").text = clean(_facts(result))


def _on_time_text(value: bool | None) -> str:
    return "n/a (no-op)" if value is None else ("true" if value else "false")


def _on_time_properties(results: list[Result]) -> dict[str, object]:
    normal = [r for r in results if r.is_normal]
    hits = sum(bool(r.on_time) for r in normal)
    return {"on_time": hits, "normal": len(normal),
            "on_time_rate": f"{hits / len(normal):.4f}" if normal else "n/a"}


def _counts(results: list[Result]) -> dict[str, str]:
    return {"tests": str(len(results)),
            "failures": str(sum(not r.success and not r.is_infra_error for r in results)),
            "errors": str(sum(r.is_infra_error for r in results)), "skipped": "0",
            "time": f"{sum(r.wall_s for r in results):.3f}"}


def junit_xml(results: list[Result], run: str, properties: dict[str, object] | None = None) -> str:
    """The JUnit XML document (a string) for a run's results."""
    trials = max((r.trial for r in results), default=1)
    root = ET.Element("testsuites", {"name": clean(f"sentinel run {run}"), **_counts(results)})
    ordered = sorted(results, key=lambda r: (r.environment, r.scenario_id, r.trial))
    for environment, group in groupby(ordered, key=lambda r: r.environment):
        members = list(group)
        suite = ET.SubElement(root, "testsuite", {"name": clean(environment), **_counts(members)})
        props = ET.SubElement(suite, "properties")
        for key, value in {**(properties or {}), **_on_time_properties(members)}.items():
            ET.SubElement(props, "property", name=clean(key), value=clean(value))
        for result in members:
            _testcase(suite, result, trials)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_junit(path: Path, results: list[Result], run: str, properties: dict[str, object] | None = None) -> Path:
    write_atomic(path, junit_xml(results, run, properties))
    return path
