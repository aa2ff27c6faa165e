"""`sentinel report RUN [RUN ...]`: write the HTML report of one run or a comparison."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_commands(subparsers) -> None:
    report = subparsers.add_parser("report", help="write a self-contained HTML report of one or more runs")
    report.add_argument("runs", nargs="+", metavar="RUN", help="run names (under the results folder) or paths")
    report.add_argument("--out", type=Path, help="where to write the HTML (default: RUN/report.html, or "
                                                 "report-A-vs-B.html beside the runs when comparing)")
    report.add_argument("--config", type=Path)
    report.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    from sentinel.api import report

    path = report(args.runs, out=args.out, config=args.config)
    print(f"report: {path}")
    return 0
