"""The layering of docs/protocol.md#architecture: packages that show the layers, imports that only
point down, no import cycle anywhere in sentinel/ (nor between the edges: the CLI, the API and the
screens), a pure core that never imports the web or display stacks, and `sentinel run` that never
loads Textual.

Imports are read from the source (ast), not by importing it. An import inside a function counts
like one at module level: it runs as soon as the function does, so a cycle through it is as real
(only deferred). Imports under `if TYPE_CHECKING:` are annotations and do not count. A module
imported by a name computed at run time (importlib, as the environments' registry does) is not
seen, so the commands are imported by name, not listed as strings."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "sentinel"

# Each layer and the layers it may import (besides itself). Lower layers never import higher ones.
LAYERS: dict[str, set[str]] = {
    "core": set(),
    "world": {"core"},
    "web": {"core", "world"},
    "generation": {"core"},
    "envs": {"core", "world", "web", "generation"},
    "agents": {"core"},
    "outputs": {"core"},
    "mcp": {"core", "agents"},
    "session": {"core", "world", "web", "envs"},
    "checks": {"core", "world", "web", "generation", "envs", "session"},
    "run": {"core", "world", "web", "envs", "agents", "outputs", "session", "mcp"},
}
EDGE_MODULES = {"cli", "api", "tui"}  # the edges, which may import any layer
MAX_TOP_LEVEL_MODULES = 12

CORE = sorted(p.stem for p in (PACKAGE / "core").glob("*.py") if p.stem != "__init__")
EDGE_PACKAGES = ("aiohttp", "textual", "jinja2", "aiosqlite", "rich")


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str:
    if module == "sentinel":
        return "root"  # the package itself: its name and version, importable from anywhere
    top = module.split(".")[1]
    return "edge" if top in EDGE_MODULES else top


def is_module(name: str, package: Path) -> bool:
    path = package.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def runtime_imports(path: Path, package: Path = PACKAGE) -> set[str]:
    """The modules of the package a file imports when it runs, at module level or inside a function.
    `from pkg import name` imports the module pkg.name when there is one, else pkg itself."""
    tree = ast.parse(path.read_text())
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == package.name:
            found.update(f"{node.module}.{a.name}" if is_module(f"{node.module}.{a.name}", package) else node.module
                         for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == package.name)
    return found


def import_graph(package: Path) -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports (itself left out)."""
    graph = {}
    for path in sorted(package.rglob("*.py")):
        name = module_name(path, package)
        graph[name] = runtime_imports(path, package) - {name}
    return graph


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """The modules that importing `start` goes on to import, directly or through others."""
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph.get(module, ()))
    return seen


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that import each other (directly or through others), sorted."""
    reach = {module: reachable(graph, module) for module in graph}
    cycles = {frozenset(other for other in reach[module] if module in reach.get(other, ()))
              for module in graph if module in reach[module]}
    return sorted(sorted(cycle) for cycle in cycles)


def edge_of(module: str) -> str | None:
    """The edge a module belongs to (cli, api, tui, ...), or None for a layer's module."""
    return layer_of(module) == "edge" and module.split(".")[1] or None


def edge_imports() -> dict[str, set[str]]:
    """Each edge and the other edges its modules import."""
    edges: dict[str, set[str]] = {edge: set() for edge in EDGE_MODULES}
    for module, imports in import_graph(PACKAGE).items():
        if (here := edge_of(module)) is not None:
            edges[here].update(there for target in imports if (there := edge_of(target)) not in (None, here))
    return edges


def test_every_package_is_a_known_layer():
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert packages <= set(LAYERS) | EDGE_MODULES


def test_at_most_a_dozen_modules_sit_directly_in_the_package():
    assert len(list(PACKAGE.glob("*.py"))) <= MAX_TOP_LEVEL_MODULES


def test_imports_only_point_down_the_layers():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = layer_of(module_name(path))
        if here in ("edge", "root"):
            continue
        for target in runtime_imports(path):
            there = layer_of(target)
            if there not in (here, "root") and there not in LAYERS[here]:
                wrong.append(f"{module_name(path)} ({here}) imports {target} ({there})")
    assert wrong == []


def test_the_layer_check_sees_a_wrong_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from typing import TYPE_CHECKING\nimport sentinel.run.runner\n"
                   "if TYPE_CHECKING:\n    from sentinel.world.state import World\n")
    assert runtime_imports(bad) == {"sentinel.run.runner"}


def test_no_import_cycle_anywhere_in_the_package():
    assert import_cycles(import_graph(PACKAGE)) == []


def test_the_edges_form_no_import_cycle():
    assert import_cycles(edge_imports()) == []


def test_the_screens_and_the_api_never_import_the_cli():
    edges = edge_imports()
    assert "cli" not in edges["tui"]
    assert "cli" not in edges["api"]


def test_the_cycle_check_sees_a_cycle_through_a_function_but_not_through_type_checking(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from typing import TYPE_CHECKING\nfrom pkg.sub import b\n"
                                  "if TYPE_CHECKING:\n    from pkg import d\n")
    (package / "sub" / "b.py").write_text("def later():\n    import pkg.c\n")
    (package / "c.py").write_text("from pkg import a\n")
    (package / "d.py").write_text("import pkg.a\n")  # no cycle: a imports d for its annotations only
    assert import_cycles(import_graph(package)) == [["pkg.a", "pkg.c", "pkg.sub.b"]]


def loaded_after_import(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_no_edge_package(module):
    assert loaded_after_import(f"import sentinel.core.{module}") & set(EDGE_PACKAGES) == set()


@pytest.mark.parametrize("module", ["sentinel.generation.kit", "sentinel.generation.draw", "sentinel.outputs.results"])
def test_generation_and_results_import_no_edge_package(module):
    assert loaded_after_import(f"import {module}") & set(EDGE_PACKAGES) == set()


def test_the_cli_does_not_load_textual_until_a_screen_is_asked_for():
    assert "textual" not in loaded_after_import("import sentinel.cli; sentinel.cli.build_parser()")


def test_the_api_does_not_import_the_cli():
    code = "import sys, sentinel.api; print(' '.join(m for m in sys.modules if m.startswith('sentinel.')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert "sentinel.api" in loaded and "sentinel.cli" not in loaded


# --- the tests themselves ---------------------------------------------------------------------

TESTS = PACKAGE.parent / "tests"


def collected_modules(tests: Path) -> set[str]:
    """The names of the test modules (and conftest) directly in tests: pytest's to collect, no one's to import."""
    return {p.stem for p in tests.glob("*.py") if p.stem.startswith("test_") or p.stem == "conftest"}


def imports_of_test_modules(tests: Path) -> list[str]:
    """'file: imports module' for every import, at any depth, of a test module (or conftest) by a
    file under tests (helpers included): what several test files share belongs in tests/helpers/."""
    modules = collected_modules(tests)
    found = []
    for path in sorted(tests.rglob("*.py")):
        if "__snapshots__" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            found += [f"{path.relative_to(tests)}: imports {name}" for name in names if name.split(".")[0] in modules]
    return found


def test_no_test_module_imports_another():
    assert imports_of_test_modules(TESTS) == []


def test_the_test_import_check_sees_an_import_of_a_test_module(tmp_path):
    (tmp_path / "test_a.py").write_text("def test_a():\n    from test_b import B\n")
    (tmp_path / "test_b.py").write_text("import conftest\nimport helpers.runs\nB = 1\n")
    (tmp_path / "conftest.py").write_text("")
    assert imports_of_test_modules(tmp_path) == ["test_a.py: imports test_b", "test_b.py: imports conftest"]
