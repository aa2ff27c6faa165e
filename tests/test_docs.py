"""The docs stand on their own in a clone: pages that code comments cite exist with the cited
headings, the README stays a short front door, and nothing points outside the repository."""

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CITATION = re.compile(r"docs/([\w-]+\.md)((?:#[\w-]+)*)")
README_MAX_LINES = 350
CODE = (".py", ".html", ".js", ".css", ".sql", ".toml", ".cfg", ".txt", ".md")  # not catalog data


def code_files() -> list[Path]:
    return [p for p in tracked_files() if p.suffix in CODE or p.name == "run"]


def tracked_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    return [REPO / f for f in out.split() if (REPO / f).is_file()]


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    found = set()
    for line in page.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", title)))
    return found


def citations() -> list[tuple[str, str, str]]:
    out = []
    for path in code_files():
        if path.is_relative_to(REPO / "catalogs"):  # catalog records are made-up content, not citations
            continue
        text = path.read_text()
        for match in CITATION.finditer(text):
            out.append((str(path.relative_to(REPO)), match.group(1), match.group(2)))
    return out


def test_code_cites_pages_and_headings_that_exist():
    missing = []
    for where, page, tags in citations():
        target = REPO / "docs" / page
        if not target.is_file():
            missing.append(f"{where}: docs/{page}")
            continue
        for tag in filter(None, tags.split("#")):
            if tag not in anchors(target):
                missing.append(f"{where}: docs/{page}#{tag}")
    assert missing == []


def test_the_citation_check_sees_a_missing_heading(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# Title\n## Some heading, with punctuation\n")
    assert anchors(page) == {"title", "some-heading-with-punctuation"}


def test_the_readme_is_a_short_front_door():
    assert len((REPO / "README.md").read_text().splitlines()) <= README_MAX_LINES


# Spelled in pieces so that this file does not name them itself.
@pytest.mark.parametrize("needle", ["../" + "shared", "DESIGN" + " §", "ENVIRONMENTS" + " §", "DESIGN" + ".md",
                                    "ENVIRONMENTS" + ".md"])
def test_nothing_refers_to_specifications_outside_the_repository(needle):
    found = [str(p.relative_to(REPO)) for p in code_files() if needle in p.read_text()]
    assert found == []
