"""Scholar search on plain dicts of paper rows: the query language, whole-word matching and ranking
(docs/environments.md#microscholar "Search")."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

SORTS = ("relevance", "date", "citations")
TOKEN = re.compile(r'(-?)"([^"]*)"|(\S+)')
MAX_TERMS = 20


class QueryError(ValueError):
    """A query the search cannot use (shown to the user as a 400 message)."""


@functools.lru_cache(maxsize=1024)
def word_pattern(text: str) -> re.Pattern[str]:
    """Whole words, case-insensitive: "unstructured environments" never matches "environment"."""
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in text.split()) + r"(?!\w)", re.IGNORECASE)


@dataclass(frozen=True)
class Query:
    required: tuple[str, ...] = ()  # words and phrases that must all appear
    excluded: tuple[str, ...] = ()
    any_of: tuple[str, ...] = ()  # at least one must appear (when given)
    author: str = ""
    venue: str = ""
    year_from: int | None = None
    year_to: int | None = None

    @property
    def empty(self) -> bool:
        return not any(vars(self).values())  # no words, phrases, author, venue or years

def split_terms(text: str) -> tuple[list[str], list[str]]:
    """'robot "unstructured environments" -survey' → (['robot', 'unstructured environments'], ['survey'])."""
    terms: tuple[list[str], list[str]] = ([], [])  # required, excluded
    for negate, phrase, word in TOKEN.findall(text):
        if word.startswith("-") and len(word) > 1:
            negate, word = "-", word[1:]
        term = word.strip('"') if word else " ".join(phrase.split())
        if term:
            terms[bool(negate)].append(term)
    return terms


def year_value(raw: str, label: str) -> int | None:
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) == 4):
        raise QueryError(f"{label} must be a four-digit year.")
    return int(raw)


def parse_query(params: Mapping[str, str]) -> Query:
    """The query of a search URL: q (all words, "phrases", -without), phrase, any, without,
    author, venue, since / ylo (from year), yhi (to year)."""
    required, excluded = split_terms(params.get("q", ""))
    if params.get("phrase"):
        required.append(" ".join(params["phrase"].replace('"', " ").split()))
    excluded += params.get("without", "").replace('"', " ").split()
    any_of = params.get("any", "").replace('"', " ").split()
    if len(required) + len(excluded) + len(any_of) > MAX_TERMS:
        raise QueryError(f"A search can have at most {MAX_TERMS} words and phrases.")
    year_from = year_value(params.get("since", "") or params.get("ylo", ""), "The start year")
    year_to = year_value(params.get("yhi", ""), "The end year")
    if year_from and year_to and year_from > year_to:
        raise QueryError("The start year comes after the end year.")
    return Query(tuple(t for t in required if t), tuple(t for t in excluded if t), tuple(any_of),
                 " ".join(params.get("author", "").split()), " ".join(params.get("venue", "").split()),
                 year_from, year_to)


def holds(term: str, text: str) -> bool:
    return bool(word_pattern(term).search(text))


def matches(paper: Mapping[str, Any], query: Query) -> bool:
    text = " \n ".join(str(paper[k]) for k in ("title", "authors", "abstract", "venue"))
    return (all(holds(t, text) for t in query.required) and not any(holds(t, text) for t in query.excluded)
            and (not query.any_of or any(holds(t, text) for t in query.any_of))
            and (not query.author or holds(query.author, paper["authors"]))
            and (not query.venue or holds(query.venue, paper["venue"]))
            and not (query.year_from and paper["year"] < query.year_from)
            and not (query.year_to and paper["year"] > query.year_to))


def relevance(paper: Mapping[str, Any], query: Query) -> tuple[int, ...]:
    """Matches of the words in the title, then in the abstract."""
    terms = [*query.required, *query.any_of]
    return tuple(sum(len(word_pattern(t).findall(paper[field])) for t in terms) for field in ("title", "abstract"))


def search(papers: Iterable[Mapping[str, Any]], query: Query, sort: str = "relevance") -> list[Mapping[str, Any]]:
    """The matching papers in the order asked for; ties (and sort=date) newest first, then last inserted (`seq`)."""
    newest = sorted((p for p in papers if matches(p, query)), key=lambda p: (p["created_at"], p["seq"]), reverse=True)
    if sort == "date":
        return newest
    if sort == "citations":
        return sorted(newest, key=lambda p: -p["cited_by_count"])
    return sorted(newest, key=lambda p: tuple(-n for n in relevance(p, query)))
