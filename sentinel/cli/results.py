"""What a finished run left, read again: `sentinel report` (HTML), and `show`, `export` and
`regrade`: what the agents saw, and their grades again (docs/evidence.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from sentinel import api


def add_commands(subparsers) -> None:
    report = subparsers.add_parser("report", help="write a self-contained HTML report of one or more runs")
    report.add_argument("runs", nargs="+", metavar="RUN", help="run names (under the results folder) or paths")
    report.add_argument("--out", type=Path, help="where to write the HTML (default: RUN/report.html, or "
                                                 "report-A-vs-B.html beside the runs when comparing)")
    report.add_argument("--config", type=Path)
    report.set_defaults(func=cmd_report)
    add_evidence_commands(subparsers)


def add_evidence_commands(subparsers) -> None:
    """show, export and regrade: what the agents saw, and their grades again (docs/evidence.md)."""
    show = subparsers.add_parser("show", help="the page a session's agent had been served at a sim moment")
    show.add_argument("run", help="run name (under the results folder) or a path")
    show.add_argument("scenario", help="scenario id or short id")
    show.add_argument("--at", type=float, metavar="SIM_S", help="sim seconds (default: the report's moment)")
    show.add_argument("--trial", type=int, default=1)
    show.add_argument("--html", type=Path, metavar="FILE", help="also write the page as served to FILE")
    show.add_argument("--config", type=Path)
    show.set_defaults(func=cmd_show)
    export = subparsers.add_parser("export", help="write a run's sessions as ATIF trajectories")
    export.add_argument("run", help="run name (under the results folder) or a path")
    export.add_argument("--format", choices=api.EXPORT_FORMATS, default="atif")
    export.add_argument("--out", type=Path, required=True, help="folder for the files (one per session)")
    export.add_argument("--config", type=Path)
    export.set_defaults(func=cmd_export)
    regrade = subparsers.add_parser("regrade", help="grade a run again from its stored worlds; print what changed")
    regrade.add_argument("run", help="run name (under the results folder) or a path")
    regrade.add_argument("--write", action="store_true", help="store the new grades (default: change nothing)")
    regrade.add_argument("--config", type=Path)
    regrade.set_defaults(func=cmd_regrade)


def cmd_report(args: argparse.Namespace) -> int:
    path = api.report(args.runs, out=args.out, config=args.config)
    print(f"report: {path}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    shown = api.show(args.run, args.scenario, at_sim=args.at, trial=args.trial, config=args.config)
    print("\n".join(shown.lines()))
    if args.html:
        args.html.write_bytes(shown.html)
        print(f"page as served: {args.html}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    files = api.export(args.run, args.out, format=args.format, config=args.config)
    print(f"{len(files)} {args.format} file(s) written to {args.out}")
    return 0


def cmd_regrade(args: argparse.Namespace) -> int:
    regraded = api.regrade(args.run, write=args.write, config=args.config)
    changed = [r for r in regraded if r.changed]
    for item in changed + [r for r in regraded if r.after is None]:
        print(item.line())
    done = sum(r.after is not None for r in regraded)
    stored = "new grades stored" if args.write and changed else "nothing rewritten"
    print(f"{done} session(s) regraded, {len(changed)} changed verdict(s); {stored}")
    return 0
