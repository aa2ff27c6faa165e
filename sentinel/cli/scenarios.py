"""The scenario files: `sentinel list` (a table, or ids or JSON for scripts), `sentinel validate`
and `sentinel generate`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.table import Table

from sentinel import api
from sentinel.cli.display import make_console
from sentinel.core.scenario import Scenario
from sentinel.run.options import add_suite_option

LIST_FORMATS = ("table", "ids", "json")


def add_commands(subparsers) -> None:
    listing = subparsers.add_parser("list", help="list scenarios")
    listing.add_argument("--env", action="append")
    listing.add_argument("--config", type=Path)
    add_suite_option(listing)
    listing.add_argument("--format", choices=LIST_FORMATS, default="table",
                         help="table (default); ids: one scenario id a line; json: a list of objects with the "
                              "table's fields and the file's path (condition_at null for a no-op)")
    listing.set_defaults(func=cmd_list)

    validate = subparsers.add_parser("validate", help="check scenario files")
    validate.add_argument("paths", nargs="*", type=Path, help="scenario files or folders (default: the suite's)")
    validate.add_argument("--config", type=Path)
    add_suite_option(validate)
    validate.set_defaults(func=cmd_validate)

    gen = subparsers.add_parser("generate", help="draw fresh validated scenarios from an environment's kinds")
    gen.add_argument("--env", required=True, help="the environment (its kinds: sentinel/envs/<env>/kinds.py)")
    gen.add_argument("--kind", help="only this kind (default: every kind of the environment in turn)")
    gen.add_argument("--seed", type=int, required=True, help="the same seed and catalog give the same files")
    gen.add_argument("--count", type=int, required=True, help="how many scenario files to write")
    gen.add_argument("--out", type=Path, required=True, help="folder for the files (<id>.yaml)")
    gen.add_argument("--knob", action="append", default=[], metavar="NAME=VALUE",
                     help="difficulty knob: decoys, near_miss, hold_s, density, earliest, latest (repeatable)")
    gen.add_argument("--force", action="store_true", help="overwrite files that exist in --out")
    gen.add_argument("--config", type=Path)
    gen.set_defaults(func=cmd_generate)


def cmd_list(args: argparse.Namespace) -> int:
    listing = api.list_scenarios(args.env, config=args.config, suite=args.suite)
    if args.format == "ids":
        sys.stdout.write("".join(f"{s.id}\n" for s in listing.scenarios))
    elif args.format == "json":
        sys.stdout.write(json.dumps([scenario_entry(s) for s in listing.scenarios], indent=2) + "\n")
    else:
        make_console().print(scenario_table(listing.scenarios))
    if listing.unreadable:
        print(f"{len(listing.unreadable)} scenario file(s) could not be loaded; run `sentinel validate`",
              file=sys.stderr)
    return 0


def scenario_entry(scenario: Scenario) -> dict[str, object]:
    """What the table shows of one scenario, as JSON values, and where its file is."""
    return {"id": scenario.id, "activity": scenario.taxonomy.activity, "criteria": scenario.taxonomy.criteria,
            "condition_at": scenario.condition_at, "events": len(scenario.events), "path": str(scenario.path)}


def scenario_table(scenarios: tuple[Scenario, ...]) -> Table:
    table = Table(title="Scenarios")
    for column in ("id", "activity", "criteria", "condition_at", "events"):
        table.add_column(column)
    for s in scenarios:
        table.add_row(s.id, s.taxonomy.activity, s.taxonomy.criteria,
                      "no-op" if s.condition_at is None else f"{s.condition_at:g}", str(len(s.events)))
    return table


def cmd_validate(args: argparse.Namespace) -> int:
    checked = api.validate(args.paths or None, config=args.config, suite=args.suite)
    for problem in checked.problems:
        print(problem)
    for line in checked.split:
        print(line, file=sys.stderr)
    status = f"{checked.checked} scenario file(s) checked, {len(checked.problems)} problem(s)"
    print(status, file=sys.stdout if checked.ok else sys.stderr)
    return 0 if checked.ok else 1


def cmd_generate(args: argparse.Namespace) -> int:
    made = api.generate(args.env, args.seed, args.count, args.out, kind=args.kind, knobs=args.knob,
                        force=args.force, config=args.config)
    for line in made.acceptance:
        print(line)
    print(f"{len(made.files)} scenario file(s) written to {args.out}")
    return 0
