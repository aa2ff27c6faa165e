"""The HTML report of real runs, opened in headless Chromium: no console errors, no network,
numbers equal to `sentinel grade`, sorting by clicking, a row opens its session view.
Screenshots go to tests/artifacts/report-*.png."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from helpers.browser import ARTIFACTS
from helpers.results import make_result, write_run
from helpers.runs import TEST_SCENARIOS, write_test_config

from sentinel.agents import BUILTIN_AGENTS
from sentinel.core.config import load_config
from sentinel.core.scenario import load_scenario, scenario_files
from sentinel.core.summary import Summary, summarize
from sentinel.outputs.plots import PALETTE
from sentinel.outputs.report import load_runs, render_report, write_report
from sentinel.outputs.results import load_results
from sentinel.run.plan import RunPlan
from sentinel.run.runner import Runner

SPEED = 200.0


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """Two real runs of the microhood test scenarios: oracle with 2 trials each, and eager."""
    tmp = tmp_path_factory.mktemp("report")
    config_path = write_test_config(tmp)
    config = load_config(config_path)
    scenarios = tuple(load_scenario(p) for p in scenario_files(TEST_SCENARIOS, "microhood"))
    for name, agent, trials in (("oracle2", "oracle", 2), ("eager", "eager", 1)):
        plan = RunPlan(name=name, agent=agent, command=BUILTIN_AGENTS[agent], speed=SPEED, scenarios=scenarios,
                       trials=trials)
        asyncio.run(Runner(config, plan).run())
    return {"oracle2": config.results_dir / "oracle2", "eager": config.results_dir / "eager", "config": config_path}


def expected_cells(name: str, summary: Summary) -> dict[tuple[str, str], tuple[float | None, str]]:
    """(run, metric) → (raw value, text) as the report must show them."""
    def rate(g):
        return g.rate, f"{g.rate:.1%} ± {g.stderr:.1%} ({g.passed}/{g.total})"

    def seconds(v):
        return v, "—" if v is None else f"{v:.3f} s"

    def on_time(g):
        return g.on_time_rate, f"{g.on_time_rate:.1%} ({g.on_time}/{g.normal})"

    cells = {(name, "overall.rate"): rate(summary.overall), (name, "overall.on_time"): on_time(summary.overall)}
    for kind, groups in (("environment", summary.by_environment), ("activity", summary.by_activity),
                         ("criteria", summary.by_criteria)):
        cells.update({(name, f"{kind}.{g.name}.rate"): rate(g) for g in groups})
        cells.update({(name, f"{kind}.{g.name}.on_time"): on_time(g) for g in groups if g.normal})
    cells[(name, "reaction_p50")] = seconds(summary.reaction_p50)
    cells[(name, "reaction_p90")] = seconds(summary.reaction_p90)
    for metric in ("reaction_sim_p50", "reaction_sim_p90"):  # the same reactions in sim seconds
        value = getattr(summary, metric)
        cells[(name, metric)] = value, "—" if value is None else f"{value:.2f} sim s"
    for metric in ("cost_median", "cost_total"):
        value = getattr(summary, metric)
        cells[(name, metric)] = value, "—" if value is None else f"${value:.4f}"
    for metric in ("tokens_median", "requests_median", "infra_errors"):
        cells[(name, metric)] = getattr(summary, metric), f"{getattr(summary, metric):g}"
    if summary.trials > 1:
        for p in summary.pass_k:
            cells[(name, f"pass_at.{p.k}")] = p.pass_at, f"{p.pass_at:.1%}"
            cells[(name, f"pass_hat.{p.k}")] = p.pass_hat, f"{p.pass_hat:.1%}"
    return cells


async def open_report(tab, path: Path, anchor: str = "") -> list[str]:
    """Open the file in the tab; return every URL it asked for that is not the file itself."""
    fetched: list[str] = []

    async def guard(route):
        if route.request.url.startswith("file://"):
            await route.continue_()
        else:
            fetched.append(route.request.url)
            await route.abort()

    await tab.page.set_viewport_size({"width": 1280, "height": 900})
    await tab.page.route("**/*", guard)
    await tab.visit(path.resolve().as_uri() + anchor)
    return fetched


async def shown_cells(page) -> dict[tuple[str, str], tuple[str, str]]:
    found = await page.eval_on_selector_all(
        "#headline td[data-metric]",
        "cells => cells.map(c => [c.dataset.run, c.dataset.metric, c.dataset.value, c.textContent.trim()])")
    return {(run, metric): (value, text) for run, metric, value, text in found}


def grade_json(run_dir: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "sentinel.cli", "grade", str(run_dir), "--format", "json"],
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)["summary"]


@pytest.mark.browser
@pytest.mark.slow
async def test_report_numbers_equal_grade_and_nothing_is_fetched(runs, browser_tab):
    run_dir = runs["oracle2"]
    path = write_report([run_dir], load_config(runs["config"]))
    fetched = await open_report(browser_tab, path)
    summary = summarize(load_results(run_dir))
    expected = expected_cells("oracle2", summary)
    shown = await shown_cells(browser_tab.page)
    assert set(shown) == set(expected)
    for key, (value, text) in expected.items():
        shown_value, shown_text = shown[key]
        assert shown_text == text, key
        assert (shown_value == "") if value is None else float(shown_value) == pytest.approx(value), key
    graded = grade_json(run_dir)  # what `sentinel grade` prints, rounded to 4 places
    assert float(shown[("oracle2", "overall.rate")][0]) == pytest.approx(graded["overall"]["rate"], abs=1e-4)
    on_time = float(shown[("oracle2", "overall.on_time")][0])
    assert on_time == pytest.approx(graded["overall"]["on_time_rate"], abs=1e-4)
    assert on_time > 0  # shown and counted (its exact value depends on the machine at speed 200)
    assert float(shown[("oracle2", "reaction_p90")][0]) == pytest.approx(graded["reaction_p90"], abs=1e-4)
    assert float(shown[("oracle2", "pass_hat.2")][0]) == pytest.approx(graded["pass_k"][1]["pass_hat"], abs=1e-4)
    assert await browser_tab.page.locator("#sessions tbody tr").count() == 6
    assert await browser_tab.page.locator("figure.chart-card svg").count() == 6  # with pass@k and pass^k
    await browser_tab.screenshot("report-single-run")
    assert fetched == []
    browser_tab.assert_clean("single-run report")


async def column_values(page, key: str) -> list[str]:
    return await page.eval_on_selector_all(f'#sessions tbody td[data-key="{key}"]', "cs => cs.map(c => c.dataset.sort)")


@pytest.mark.browser
@pytest.mark.slow
async def test_clicking_headings_sorts_the_sessions(runs, browser_tab):
    path = write_report([runs["oracle2"], runs["eager"]], load_config(runs["config"]))
    await open_report(browser_tab, path)
    page = browser_tab.page
    await page.click('#sessions th[data-key="reaction"] button')
    values = await column_values(page, "reaction")
    present = [float(v) for v in values if v != ""]
    assert present == sorted(present) and len(present) == 4  # oracle's normal sessions; no-ops have none
    assert values[4:] == [""] * 5  # missing values last
    await page.click('#sessions th[data-key="reaction"] button')
    values = await column_values(page, "reaction")
    assert [float(v) for v in values[:4]] == sorted(present, reverse=True) and values[4:] == [""] * 5
    assert await page.get_attribute('#sessions th[data-key="reaction"]', "aria-sort") == "descending"
    await page.click('#sessions th[data-key="run"] button')
    assert await column_values(page, "run") == ["eager"] * 3 + ["oracle2"] * 6
    browser_tab.assert_clean("sorting")


@pytest.mark.browser
@pytest.mark.slow
async def test_a_row_opens_its_session_view(runs, browser_tab):
    path = write_report([runs["oracle2"]], load_config(runs["config"]))
    await open_report(browser_tab, path)
    page = browser_tab.page
    row = page.locator("#sessions tbody tr", has_text="microhood-rise_buy").first
    await row.click()
    view = page.locator("dialog#session-view section.session:not([hidden])")
    assert await page.locator("dialog#session-view[open]").count() == 1 and await view.count() == 1
    text = await view.inner_text()
    result = next(r for r in load_results(runs["oracle2"]) if r.scenario_id == "microhood-rise_buy" and r.trial == 1)
    assert "When CHPX trades at $520 or more, buy 2 shares" in text  # the prompt
    assert result.detail in text and "[oracle] done" in text  # verdict detail and the log's tail
    timeline = view.locator("svg.timeline")
    assert await timeline.locator("text", has_text="condition holds · sim 60 s").count() == 1
    assert await timeline.locator("text", has_text=f"contact · sim {result.contact_at:.2f} s").count() == 1
    assert await timeline.locator("path").count() >= 1  # the fired price step
    assert page.url.endswith("#s2")
    await page.screenshot(path=str(ARTIFACTS / "report-session-view.png"))  # the dialog as a person sees it
    await page.keyboard.press("Escape")
    assert await page.locator("dialog#session-view[open]").count() == 0
    browser_tab.assert_clean("session view")


@pytest.mark.browser
@pytest.mark.slow
async def test_an_anchor_opens_the_session_and_a_comparison_has_a_colour_per_run(runs, browser_tab):
    path = write_report([runs["oracle2"], runs["eager"]], load_config(runs["config"]))
    await open_report(browser_tab, path, "#s7")
    page = browser_tab.page
    assert await page.locator("dialog#session-view[open] section#s7:not([hidden])").count() == 1
    assert "eager" in await page.locator("section#s7").inner_text()
    await page.keyboard.press("Escape")
    legend = await page.eval_on_selector_all("#chart-success svg rect[rx]", "rs => rs.map(r => r.getAttribute('fill'))")
    assert legend == [PALETTE[0], PALETTE[1]]
    assert await page.locator("article.run-card").count() == 2
    shown = await shown_cells(page)
    assert shown[("eager", "overall.rate")][1] == "0.0% ± 0.0% (0/3)"
    assert shown[("oracle2", "overall.rate")][1] == "100.0% ± 0.0% (6/6)"
    await browser_tab.screenshot("report-comparison")
    browser_tab.assert_clean("comparison report")


@pytest.mark.slow
def test_report_command_writes_the_file_and_refuses_bad_runs(runs):
    def report(*args):
        return subprocess.run([sys.executable, "-m", "sentinel.cli", "report", *args, "--config", str(runs["config"])],
                              capture_output=True, text=True, timeout=60)

    done = report("oracle2", "eager")
    expected = runs["oracle2"].parent / "report-oracle2-vs-eager.html"
    assert done.returncode == 0 and done.stdout.strip() == f"report: {expected}", done.stderr
    html = expected.read_text()
    assert "<script src" not in html
    assert "<link rel=\"stylesheet\"" not in html
    assert "cdn" not in html.lower()
    for args, message in ((("nowhere",), "no such run"), (("eager", "eager"), "need different names")):
        bad = report(*args)
        assert bad.returncode == 2, bad.stderr
        assert message in bad.stderr, bad.stderr
        assert "Traceback" not in bad.stderr, bad.stderr


def test_agent_text_is_escaped_and_a_missing_scenario_is_said(tmp_path):
    hostile = "<script>alert(1)</script>"
    run_dir = write_run(tmp_path / "hostile", [
        make_result("microhood-rise", True, contact_message="<img src=x onerror=alert(2)>"),
        make_result("microhood-gone", False)])
    (run_dir / "microhood" / "rise" / "agent.log").write_text(f"line one\n{hostile}\n")
    (run_dir / "microhood" / "rise" / "events.jsonl").write_text("not json\n" + json.dumps(
        {"index": 1, "at": 60, "type": "price_waypoint", "fields": {"note": hostile}, "scheduled_wall_s": 1.2,
         "actual_wall_s": 1.201, "sim_at_fire": 60.05, "lateness_ms": 1.0}) + "\n")
    config = replace(load_config(), scenarios_dir=TEST_SCENARIOS)
    html = render_report(load_runs([run_dir], config))
    assert hostile not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Tell me when CHPX trades at $520 or more." in html  # the prompt of a scenario that exists
    assert "the scenario file is no longer found" in html  # microhood-gone has none


def test_on_time_chart_has_a_curve_per_run_that_steps_at_each_delay(tmp_path):
    fast = write_run(tmp_path / "fast", [make_result("microhood-a", True, condition_at=60.0, contact_at=61.0),
                                         make_result("microhood-b", True, condition_at=60.0, contact_at=61.0)])
    late = write_run(tmp_path / "late", [make_result("microhood-a", True, condition_at=60.0, contact_at=360.0,
                                                     on_time=False),
                                         make_result("microhood-b", False)])
    config = replace(load_config(), scenarios_dir=TEST_SCENARIOS)
    runs = load_runs([fast, late], config)
    from sentinel.outputs.report.charts import on_time_chart, tau_corners

    assert tau_corners(runs[1].results) == [0.0, 300.0, 600.0]
    chart = on_time_chart(runs, 60.0)
    assert chart.key == "on_time" and chart.svg.count("<path ") == 2
    assert "fast: 100.0% at 600" in chart.svg and "late: 50.0% at 600" in chart.svg
    html = render_report(runs)
    assert 'id="chart-on_time"' in html and "on time · 2/2 normal tasks within 60 sim s" in html
