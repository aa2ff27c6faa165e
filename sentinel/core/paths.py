"""Where the bundled data is: the scenarios, catalogs, page templates, static files and the
default sentinel.toml that Sentinel ships.

The repository keeps them at its top (scenarios/, catalogs/, web/templates/, web/static/,
sentinel.toml, beside sentinel/); a built wheel carries the same tree inside the package as
sentinel/_data/ (pyproject.toml [tool.hatch.build.targets.wheel]). So the data root is
sentinel/_data/ when it exists (an installed wheel) and otherwise the folder that holds the
package (a source checkout or an editable install). Everything that reads bundled data asks
this module; user scenarios given with --scenarios-dir or run.scenarios_dir are not bundled.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

BUNDLED = "_data"  # the data root's name inside an installed package


@dataclass(frozen=True)
class DataPaths:
    """The bundled data of one installation, under one root."""

    root: Path
    installed: bool  # True: an installed wheel (root is sentinel/_data); False: a source checkout

    @property
    def scenarios(self) -> Path:
        return self.root / "scenarios"

    @property
    def catalogs(self) -> Path:
        return self.root / "catalogs"

    @property
    def templates(self) -> Path:
        return self.root / "web" / "templates"

    @property
    def static(self) -> Path:
        return self.root / "web" / "static"

    @property
    def default_config(self) -> Path:
        return self.root / "sentinel.toml"

    @property
    def checkout(self) -> Path | None:
        """The source checkout (the repository's root), or None for an installed wheel."""
        return None if self.installed else self.root


def data_paths(package_dir: Path) -> DataPaths:
    """The bundled data of the sentinel package in package_dir: its _data folder if it has one,
    else the folder it sits in."""
    bundled = package_dir / BUNDLED
    if bundled.is_dir():
        return DataPaths(bundled, installed=True)
    return DataPaths(package_dir.parent, installed=False)


def package_dir() -> Path:
    """The folder of the imported sentinel package. Sentinel reads its data as plain files
    (templates, static files, SQLite schemas), so it runs from a folder, not from a zip."""
    found = resources.files("sentinel")
    if not isinstance(found, Path):
        raise RuntimeError(f"sentinel is imported from {found}, not from a folder: install it with pip")
    return found.resolve()


DATA = data_paths(package_dir())
