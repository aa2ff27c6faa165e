"""The layering DESIGN §6 asks for: a pure core that never imports the web or display stacks,
and `sentinel run` that never loads Textual."""

import subprocess
import sys

import pytest

CORE = ["scenario", "solution", "clock", "scheduler", "waypoints", "grading", "summary", "trials", "bus",
        "config", "catalog", "files"]
EDGE_PACKAGES = ("aiohttp", "textual", "jinja2", "aiosqlite", "rich")


def loaded_after_import(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_no_edge_package(module):
    assert loaded_after_import(f"import sentinel.{module}") & set(EDGE_PACKAGES) == set()


def test_the_cli_does_not_load_textual_until_a_screen_is_asked_for():
    assert "textual" not in loaded_after_import("import sentinel.cli; sentinel.cli.build_parser()")


def test_the_api_does_not_import_the_cli():
    code = "import sys, sentinel.api; print(' '.join(m for m in sys.modules if m.startswith('sentinel.')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert "sentinel.api" in loaded and "sentinel.cli" not in loaded
