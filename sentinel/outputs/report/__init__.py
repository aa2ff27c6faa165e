"""`sentinel report`: one self-contained HTML file for one run or a comparison of several.

data.py reads results folders, charts.py and timeline.py draw SVG, html.py fills the template
web/templates/report/report.html (CSS and JS inlined from the same folder). Nothing is fetched
from the network when the file is opened.
"""

from __future__ import annotations

from pathlib import Path

from sentinel.core.config import Config
from sentinel.core.files import write_atomic
from sentinel.outputs.report.data import RunData, load_runs
from sentinel.outputs.report.html import render_report

__all__ = ["RunData", "default_report_path", "load_runs", "render_report", "write_report"]


def default_report_path(run_dirs: list[Path]) -> Path:
    """report.html inside a single run's folder; beside the runs for a comparison."""
    if len(run_dirs) == 1:
        return run_dirs[0] / "report.html"
    return run_dirs[0].parent / ("report-" + "-vs-".join(d.name for d in run_dirs) + ".html")


def write_report(run_dirs: list[Path], config: Config, out: Path | None = None) -> Path:
    """Read the runs, write their report (atomically) and return its path."""
    runs = load_runs(run_dirs, config)
    path = out or default_report_path(run_dirs)
    write_atomic(path, render_report(runs, path.resolve().parent))
    return path
