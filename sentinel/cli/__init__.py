"""The `sentinel` command. Each module holds the subcommands of one concern, each command a thin
function that parses its options and calls sentinel.api (the CLI calls the API, never the reverse):

- runs.py: `run` and `grade`; scenarios.py: `list`, `validate`, `generate`
- results.py: `report`, `show`, `export`, `regrade` (what a finished run left)
- screens.py: `tui`, `step`, `play` (the Textual screens of sentinel/tui/)
- serve.py: `serve`; sweep.py: `sweep`
- display.py: the console, the progress displays and the grade tables the commands print

Here: main(), the entry point, and the parser that gathers every module's subcommands. Input
errors (bad config, bad scenario, unknown agent, port in use) end with one clear line and exit
code 2; never a traceback. Nothing outside this package imports it; `python -m sentinel.cli`
runs the command.
"""

from __future__ import annotations

import argparse
import sys

from sentinel.cli import results, runs, scenarios, screens, serve, sweep
from sentinel.core.errors import SentinelError
from sentinel.mcp import commands as mcp_commands

# Each module brings its own subcommands with add_commands(subparsers), in the order `--help`
# lists them, and imports anything heavy (Textual, ...) inside its command functions.
COMMAND_MODULES = (runs, scenarios, serve, results, screens, sweep, mcp_commands)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except SentinelError as exc:
        print(f"sentinel: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sentinel: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # a disk, a folder or a port the system refused: one line, no traceback
        where = f": {exc.filename}" if exc.filename else ""
        print(f"sentinel: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sentinel",
                                     description="Benchmark runner for long-running monitoring agents.")
    subparsers = parser.add_subparsers(dest="command")
    for module in COMMAND_MODULES:
        module.add_commands(subparsers)
    return parser
