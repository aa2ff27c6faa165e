"""The docs stand on their own in a clone: every pointer to them holds. Code, messages and config
comments cite docs/ pages and headings that exist, never a part of the README by its title (the
README is a short front door whose sections come and go); the links between the pages resolve; the package and its
config name repository files that exist; the README stays short; nothing points outside the
repository."""

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# docs/page.md#heading (any file under docs/; headings only on .md pages), not part of a longer path
CITATION = re.compile(r"(?<![\w./-])docs/([\w./-]*[\w-])((?:#[\w-]+)*)")
# a part of the README named as the place to read: after the name, a colon, a quoted title, § or
# the word section (the README named as a whole, "the README's test command", is fine)
README_SECTION = re.compile(r"README(?:\.md)?(?:'s)?(?::\s|\s+[\"“]|\s*§|\s+section\b)")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
# a repository path named in the package or its config: sentinel/..., tests/..., docs/...
REPO_PATH = re.compile(r"(?<![\w./<>-])((?:sentinel|tests|docs|web|scenarios|catalogs|benchmarks)/[\w./-]*[\w/])")
MADE_PATHS = ("sentinel/_data",)  # made when a wheel is built (pyproject.toml), never in a checkout
README_MAX_LINES = 350
CODE = (".py", ".html", ".js", ".css", ".sql", ".toml", ".cfg", ".txt", ".md")  # not catalog data


def code_files() -> list[Path]:
    return [p for p in tracked_files() if p.suffix in CODE or p.name == "run"]


def tracked_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    return [REPO / f for f in out.split() if (REPO / f).is_file()]


def cited_files() -> list[Path]:
    """The files whose pointers count: all code but the catalogs' records, which are made-up content,
    and this file, whose examples are broken on purpose."""
    return [p for p in code_files() if not p.is_relative_to(REPO / "catalogs") and p != Path(__file__).resolve()]


def package_and_config() -> list[Path]:
    """The package (code, messages, docstrings) and the files that configure and run it."""
    return [p for p in cited_files() if p.is_relative_to(REPO / "sentinel") or
            p.relative_to(REPO).as_posix() in ("pyproject.toml", "sentinel.toml", "hatch_build.py", ".ci/run")]


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings (outside fenced code): lower case, punctuation dropped,
    spaces as hyphens."""
    found, fenced = set(), False
    for line in page.read_text().splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif line.startswith("#") and not fenced:
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", title)))
    return found


def broken_target(target: Path, tags: str) -> str | None:
    """Why target#tags does not resolve (the missing file or heading), or None when it does."""
    if not target.exists():
        return "no such file"
    for tag in filter(None, tags.split("#")):
        if target.suffix != ".md" or tag not in anchors(target):
            return f"no heading #{tag}"
    return None


def citations(files: list[Path]) -> list[tuple[str, str, str]]:
    """(where, docs/ path, #tags) for every docs/ pointer in files."""
    out = []
    for path in files:
        for match in CITATION.finditer(path.read_text()):
            out.append((str(path.relative_to(REPO)), match.group(1), match.group(2)))
    return out


def broken_citations(files: list[Path]) -> list[str]:
    return [f"{where}: docs/{page}{tags} ({why})" for where, page, tags in citations(files)
            if (why := broken_target(REPO / "docs" / page, tags)) is not None]


def broken_links(pages: list[Path]) -> list[str]:
    """Relative links of markdown pages ([text](other.md#heading), [text](#heading)) that do not
    resolve, as 'page: link (why)'."""
    found = []
    for page in pages:
        for match in MARKDOWN_LINK.finditer(page.read_text()):
            link = match.group(1)
            if re.match(r"[a-z]+:", link):  # https:, mailto:: outside, and checked by no one here
                continue
            file, _, tag = link.partition("#")
            target = (page.parent / file).resolve() if file else page
            if (why := broken_target(target, "#" + tag if tag else "")) is not None:
                found.append(f"{page.relative_to(REPO)}: {link} ({why})")
    return found


def readme_sections(files: list[Path]) -> list[str]:
    return [f"{path.relative_to(REPO)}:{n}: {line.strip()}" for path in files
            for n, line in enumerate(path.read_text().splitlines(), 1) if README_SECTION.search(line)]


def missing_paths(files: list[Path]) -> list[str]:
    """Repository paths named in files that are not in the checkout (placeholders like <name> and
    globs are not paths)."""
    found = []
    for path in files:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for match in REPO_PATH.finditer(line):
                named = match.group(1).rstrip(".")
                if named.startswith(MADE_PATHS) or re.match(r"[<{*]", line[match.end():match.end() + 1]):
                    continue
                if not (REPO / named).exists():
                    found.append(f"{path.relative_to(REPO)}:{n}: {named}")
    return found


def test_code_cites_pages_and_headings_that_exist():
    assert broken_citations(cited_files()) == []


def test_links_between_the_pages_resolve():
    pages = [p for p in cited_files() if p.suffix == ".md"]
    assert broken_links(pages) == []


def test_nothing_points_at_a_readme_section():
    """Pointers go to docs/ pages (checked above); the README is a front door, its sections move."""
    assert readme_sections(cited_files()) == []


def test_the_package_and_its_config_name_files_that_exist():
    assert missing_paths(package_and_config()) == []


def test_the_pointer_checks_see_what_is_broken(tmp_path, monkeypatch):
    page = tmp_path / "p.md"
    page.write_text("# Title\n## Some heading, with punctuation\n```sh\n# a comment, not a heading\n```\n"
                    "[ok](#title) [gone](#nowhere) [file](q.md) [out](https://example.com/x.md)\n")
    assert anchors(page) == {"title", "some-heading-with-punctuation"}
    monkeypatch.setitem(globals(), "REPO", tmp_path)
    assert broken_links([page]) == ["p.md: #nowhere (no heading #nowhere)", "p.md: q.md (no such file)"]
    code = tmp_path / "code.py"
    code.write_text('raise Error("see docs/p.md#title, docs/p.md#gone, docs/none.md")  # README: Old part\n'
                    "# tests/p.md, tests/gone.py, scenarios/<name>/, README's test command\n")
    (tmp_path / "docs").mkdir()
    page.rename(tmp_path / "docs" / "p.md")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "p.md").write_text("")
    assert broken_citations([code]) == ["code.py: docs/p.md#gone (no heading #gone)",
                                        "code.py: docs/none.md (no such file)"]
    assert readme_sections([code]) == ['code.py:1: raise Error("see docs/p.md#title, docs/p.md#gone, '
                                       'docs/none.md")  # README: Old part']
    assert missing_paths([code]) == ["code.py:1: docs/none.md", "code.py:2: tests/gone.py"]


def test_the_readme_is_a_short_front_door():
    assert len((REPO / "README.md").read_text().splitlines()) <= README_MAX_LINES


# Spelled in pieces so that this file does not name them itself.
@pytest.mark.parametrize("needle", ["../" + "shared", "DESIGN" + " §", "ENVIRONMENTS" + " §", "DESIGN" + ".md",
                                    "ENVIRONMENTS" + ".md"])
def test_nothing_refers_to_specifications_outside_the_repository(needle):
    found = [str(p.relative_to(REPO)) for p in code_files() if needle in p.read_text()]
    assert found == []
