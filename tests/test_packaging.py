"""The package installs anywhere: the wheel carries the scenarios, catalogs, templates, static
files and default sentinel.toml under sentinel/_data/, and sentinel/core/paths.py finds them
there or in a checkout. The wheel is built once (a few seconds) and read as a zip; one test runs
the `sentinel` of the unpacked wheel from another folder."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import sentinel
from sentinel.core.config import DEFAULT_CONFIG, load_config
from sentinel.core.paths import DATA, DataPaths, data_paths, package_dir

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = "sentinel/_data/"


def repo_files(folder: str, suffixes: tuple[str, ...] = ()) -> set[str]:
    """The files under a top-level folder of the repository, as the wheel names them."""
    return {BUNDLED + p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and (not suffixes or p.suffix in suffixes)}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(out)],
                   check=True, capture_output=True, timeout=300)
    [built] = out.glob("sentinel_bench-*.whl")
    return built


@pytest.fixture(scope="module")
def names(wheel) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def test_the_wheel_carries_the_scenarios_templates_and_static_files(names):
    scenarios = repo_files("scenarios")  # the verified suite's 100 and the paper suite's files
    assert len(repo_files("scenarios/verified")) == 100 and scenarios <= names
    assert BUNDLED + "scenarios/paper/INVENTORY.tsv" in names  # the paper suite and what its rules read
    assert repo_files("web/templates") <= names and repo_files("web/static") <= names
    assert {BUNDLED + "web/templates/base.html", BUNDLED + "web/static/style.css"} <= names
    assert BUNDLED + "sentinel.toml" in names


def test_the_wheel_carries_the_catalog_records_but_not_their_generators(names):
    records = repo_files("catalogs", (".jsonl",))
    assert records and records <= names
    assert BUNDLED + "catalogs/shared/personas.jsonl" in names
    assert not [n for n in names if n.startswith(BUNDLED) and n.endswith(".py")]


def test_the_wheel_carries_the_files_the_package_reads_beside_its_code(names):
    envs = [p.name for p in (ROOT / "sentinel" / "envs").iterdir() if (p / "schema.sql").exists()]
    assert len(envs) >= 10
    assert {f"sentinel/envs/{env}/schema.sql" for env in envs} <= names
    assert "sentinel/tui/app.tcss" in names


def test_the_wheel_holds_only_the_package_and_is_named_sentinel_bench(wheel, names):
    assert {n.split("/")[0] for n in names} == {"sentinel", "sentinel_bench-0.1.0.dist-info"}
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read("sentinel_bench-0.1.0.dist-info/METADATA").decode()
        entry_points = archive.read("sentinel_bench-0.1.0.dist-info/entry_points.txt").decode()
    assert "Name: sentinel-bench" in metadata.splitlines()
    assert {"Provides-Extra: browser", "Provides-Extra: ray", "Provides-Extra: test"} <= set(metadata.splitlines())
    assert "sentinel = sentinel.cli:main" in entry_points


@pytest.mark.slow
def test_the_unpacked_wheel_lists_its_bundled_scenarios_from_another_folder(wheel, tmp_path):
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}  # ahead of the checkout this venv installs
    where = subprocess.run([sys.executable, "-c", "from sentinel.core.paths import DATA; print(DATA.root)"],
                           cwd=elsewhere, env=env, capture_output=True, text=True, timeout=60)
    assert where.stdout.strip() == str(site / "sentinel" / "_data")
    listed = subprocess.run([sys.executable, "-m", "sentinel.cli", "list"], cwd=elsewhere, env=env,
                            capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert sum(line.startswith("│ micro") for line in listed.stdout.splitlines()) == 100
    assert "micromail-sender_arrives" in listed.stdout


# --- sentinel/core/paths.py ----------------------------------------------------------------

def test_an_installed_package_reads_its_data_folder(tmp_path):
    package = tmp_path / "site-packages" / "sentinel"
    (package / "_data").mkdir(parents=True)
    found = data_paths(package)
    assert found == DataPaths(package / "_data", installed=True) and found.checkout is None
    assert found.scenarios == package / "_data" / "scenarios"
    assert found.catalogs == package / "_data" / "catalogs"
    assert found.templates == package / "_data" / "web" / "templates"
    assert found.static == package / "_data" / "web" / "static"
    assert found.default_config == package / "_data" / "sentinel.toml"


def test_a_checkout_reads_the_folders_beside_the_package(tmp_path):
    package = tmp_path / "repo" / "sentinel"
    package.mkdir(parents=True)
    found = data_paths(package)
    assert found == DataPaths(tmp_path / "repo", installed=False) and found.checkout == tmp_path / "repo"
    assert found.scenarios == tmp_path / "repo" / "scenarios"
    assert found.templates == tmp_path / "repo" / "web" / "templates"


def test_this_checkout_finds_its_own_folders():
    assert package_dir() == Path(sentinel.__file__).resolve().parent
    assert DATA == DataPaths(ROOT, installed=False)
    assert DATA.scenarios.is_dir()
    assert DATA.catalogs.is_dir()
    assert (DATA.templates / "base.html").is_file()
    assert (DATA.static / "style.css").is_file() and DEFAULT_CONFIG == ROOT / "sentinel.toml"
    config = load_config()
    assert config.scenarios_dir == ROOT / "scenarios" / "verified" and config.catalogs_dir == ROOT / "catalogs"
    assert "gpt-4o" in config.prices  # the defaults file was read, not only the built-in defaults
