"""MicroScholar pages (GET), actions (POST: save, cite, read, create and delete alerts) and what pages compute."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.microscholar.search import SORTS, Query, QueryError, parse_query, search
from sentinel.web import kit
from sentinel.web.kit import BadInput, choice_param, done, fetch_or_404, form_of, paged, text_param, url_for, world_of
from sentinel.web.render import render

if TYPE_CHECKING:
    from sentinel.world.state import World

SNIPPET_CHARS = 160
PER_PAGE = 10
PAPER_COLUMNS = ("id, title, authors, venue, year, abstract, cited_by_count, versions, is_book, saved, cited,"
                 " withdrawn, created_at, rowid AS seq")
INDEXED = "withdrawn = 0"
NEWEST = "created_at DESC, rowid DESC"
SEARCH_FIELDS = ("q", "phrase", "any", "without", "author", "venue", "since", "ylo", "yhi")
LABELS = {"": "All saved", "cited": "Cited by me"}
YEARS = [("", "Any time"), ("2024", "Since 2024"), ("2023", "Since 2023"), ("2020", "Since 2020")]  # the Time filter
WITHDRAWN = "This paper was withdrawn by its authors; it can no longer be saved or cited."
MAX_ALERTS = 50
ALERT_CHANGES = {"read": ("alerts", "UPDATE alerts SET is_read = 1 WHERE id = ?", "Alert marked as read"),
                 "delete": ("alert_queries", "DELETE FROM alert_queries WHERE id = ?", "Alert deleted")}
routes = Routes()


def parsed(params: Mapping[str, str]) -> Query:
    """The query of a search or an alert; one the search cannot use answers 400."""
    try:
        return parse_query(params)
    except QueryError as exc:
        raise BadInput(str(exc)) from None


def alert_query(source: Mapping[str, Any]) -> tuple[str, Query]:
    """An alert's words (the `query` of a form or a URL) and their query; no words answers 400."""
    words = text_param(source, "query", max_len=200, label="The alert query")
    query = parsed({"q": words})
    if query.empty:
        raise BadInput("Type the words the alert should look for.")
    return words, query


@routes.get("/", "home")
async def home(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    listing = await paged(request, per_page=PER_PAGE, count_sql=f"SELECT COUNT(*) FROM papers WHERE {INDEXED}",
                          rows_sql=f"SELECT {PAPER_COLUMNS} FROM papers WHERE {INDEXED} ORDER BY {NEWEST}")
    unread = int(await world.fetch_value("SELECT COUNT(*) FROM alerts WHERE is_read = 0") or 0)
    return await render(request, "microscholar/home.html", {"list": await as_results(world, listing), "unread": unread})


@routes.get("/search", "search")
async def search_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    params = {name: text_param(request.query, name, max_len=200, label="The search") for name in SEARCH_FIELDS}
    sort = choice_param(request.query, "sort", SORTS, "relevance", "Sort by relevance, date or citations.")
    query = parsed(params)
    found = [] if query.empty else search(await indexed_papers(world), query, sort)
    listing = None if query.empty else await as_results(world, kit.paged_list(request, found, per_page=PER_PAGE))
    keep = {k: v for k, v in params.items() if v}
    sorts = [(s, s.capitalize() if s != "date" else "Date added", url_for(request, "search", {**keep, "sort": s}))
             for s in SORTS]
    return await render(request, "microscholar/search.html", {
        "query": params["q"], "params": keep, "list": listing, "sort": sort, "sorts": sorts,
        "since": params["since"], "years": YEARS})


@routes.get("/advanced", "advanced")
async def advanced(request: web.Request) -> web.StreamResponse:
    return await render(request, "microscholar/advanced.html", {})


async def paper_row(request: web.Request) -> Any:
    return await fetch_or_404(request, f"SELECT {PAPER_COLUMNS} FROM papers WHERE id = ?",
                              (request.match_info["id"],), "This paper is not in the index.")


@routes.get("/paper/{id}", "paper")
async def paper_view(request: web.Request) -> web.StreamResponse:
    world, paper = world_of(request), await paper_row(request)
    personas = world.catalog.personas()
    authors = [{**a, "affiliation": personas[a["persona_id"]]["scholar"]["affiliation"] if a["persona_id"] else None}
               for a in (await authors_of(world, [paper]))[paper["id"]]]
    return await render(request, "microscholar/paper.html", {
        "p": {**dict(paper), "author_rows": authors, "pdf_host": pdf_host(paper)}})


@routes.get("/paper/{id}/cite", "cite_page")
async def cite_view(request: web.Request) -> web.StreamResponse:
    paper = await paper_row(request)
    return await render(request, "microscholar/cite.html", {
        "p": paper, "styles": citations(paper), "bibtex": bibtex(paper)})


@routes.get("/library", "library")
async def library(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    label = choice_param(request.query, "label", tuple(LABELS), "", "Unknown label: choose All saved or Cited by me.")
    where = "saved = 1" + (" AND cited = 1" if label == "cited" else "")
    listing = await paged(request, per_page=20, count_sql=f"SELECT COUNT(*) FROM papers WHERE {where}",
                          rows_sql=f"SELECT {PAPER_COLUMNS} FROM papers WHERE {where} ORDER BY saved_at DESC, {NEWEST}")
    counts = await world.fetch_one("SELECT COUNT(*), COALESCE(SUM(cited), 0) FROM papers WHERE saved = 1") or (0, 0)
    tabs = [(f"{LABELS[key]} ({n})", url_for(request, "library", {"label": key}), key == label)
            for key, n in zip(LABELS, counts, strict=True)]
    return await render(request, "microscholar/library.html", {"list": await as_results(world, listing), "tabs": tabs})


@routes.get("/alerts", "alerts")
async def alerts(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    listing = await paged(request, per_page=20, count_sql="SELECT COUNT(*) FROM alerts",
                          rows_sql=f"SELECT * FROM alerts ORDER BY {NEWEST}")
    unread = int(await world.fetch_value("SELECT COUNT(*) FROM alerts WHERE is_read = 0") or 0)
    papers = await indexed_papers(world)
    created = [{**dict(a), "count": len(search(papers, parse_query({"q": a["query"]}), "date"))}
               for a in await world.fetch_all(f"SELECT * FROM alert_queries ORDER BY {NEWEST}")]
    return await render(request, "microscholar/alerts.html", {"list": listing, "unread": unread, "created": created})


@routes.get("/alerts/matches", "alert_matches")
async def alert_matches(request: web.Request) -> web.StreamResponse:
    """What an alert query matches, newest first: a preview before creating it, or an own alert's page."""
    world = world_of(request)
    words, query = alert_query(request.query)
    mine = await world.fetch_one("SELECT * FROM alert_queries WHERE query = ? ORDER BY rowid LIMIT 1", (words,))
    listing = kit.paged_list(request, search(await indexed_papers(world), query, "date"), per_page=PER_PAGE)
    return await render(request, "microscholar/alert_matches.html", {
        "alert_query": words, "alert": dict(mine) if mine else None, "list": await as_results(world, listing)})


@routes.get("/citations/{persona}", "profile")
async def profile_view(request: web.Request) -> web.StreamResponse:
    world, persona = world_of(request), request.match_info["persona"]
    persona = world.self_persona["id"] if persona == "me" else persona
    if "scholar" not in world.catalog.personas().get(persona, {}):
        raise web.HTTPNotFound(text="This scholar profile does not exist.")
    sort = choice_param(request.query, "sort", ("cited", "year"), "cited", "Sort by cited or year.")
    return await render(request, "microscholar/profile.html", {"s": await profile(world, persona, sort), "sort": sort})


# --- actions (POST): each answers 303 to the form's `next` page with a one-line status; bad input 400

@routes.post("/paper/{id}/save", "save")
async def save(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    paper = await paper_row(request)
    if paper["withdrawn"] and not paper["saved"]:
        raise BadInput(WITHDRAWN)
    async with world.write() as db:
        await db.execute("UPDATE papers SET saved = 1 - saved, saved_at = CASE WHEN saved = 0 THEN ? ELSE saved_at END"
                         " WHERE id = ?", (world.now(), paper["id"]))
    status = "Removed from your library" if paper["saved"] else "Saved to your library"
    raise done(request, form, status, url_for(request, "paper", id=paper["id"]))


@routes.post("/paper/{id}/cite", "cite")
async def cite(request: web.Request) -> web.StreamResponse:
    world, _ = world_of(request), await form_of(request)
    paper = await paper_row(request)
    if paper["withdrawn"]:
        raise BadInput(WITHDRAWN)
    async with world.write() as db:
        await db.execute("UPDATE papers SET cited = 1 WHERE id = ?", (paper["id"],))
    world.flash = "Citation formats below"
    raise web.HTTPSeeOther(url_for(request, "cite_page", id=paper["id"]))


@routes.post("/alerts/mine/{id}/delete", "alert_delete")
@routes.post("/alerts/{id}/read", "alert_read")
async def alert_change(request: web.Request) -> web.StreamResponse:
    table, sql, status = ALERT_CHANGES[request.path.rsplit("/", 1)[1]]
    world, form = world_of(request), await form_of(request)
    row = await fetch_or_404(request, f"SELECT id FROM {table} WHERE id = ?", (request.match_info["id"],),
                             "This alert no longer exists.")
    async with world.write() as db:
        await db.execute(sql, (row["id"],))
    raise done(request, form, status, url_for(request, "alerts"))


@routes.post("/alerts/read_all", "alerts_read_all")
async def alerts_read_all(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    async with world.write() as db:
        changed = (await db.execute("UPDATE alerts SET is_read = 1 WHERE is_read = 0")).rowcount
    raise done(request, form, f"Marked {changed} alert{'s' * (changed != 1)} as read", url_for(request, "alerts"))


@routes.post("/alerts/create", "alert_create")
async def alert_create(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    query = alert_query(form)[0]
    if int(await world.fetch_value("SELECT COUNT(*) FROM alert_queries") or 0) >= MAX_ALERTS:
        raise BadInput(f"You can keep at most {MAX_ALERTS} alerts; delete one first.")
    if await world.fetch_value("SELECT 1 FROM alert_queries WHERE query = ?", (query,)):
        raise BadInput("You already have an alert for exactly these words.")
    async with world.write():
        alert_id = await world.next_self_id("alert_queries")
        await world.insert("alert_queries", {"id": alert_id, "query": query}, origin="self")
    raise done(request, form, "Alert created", url_for(request, "alert_matches", {"query": query}))


# --- result rows and paper details ---------------------------------------------------------------

def snippet(abstract: str) -> str:
    """The first 160 characters of the abstract (results never show more)."""
    folded = " ".join(abstract.split())
    return folded if len(folded) <= SNIPPET_CHARS else folded[:SNIPPET_CHARS].rstrip() + " …"


async def authors_of(world: World, papers: list[Any]) -> dict[str, list[dict[str, str | None]]]:
    """paper id → its authors in order: name, and persona id when the author has a profile (else None)."""
    rows = await world.fetch_all("SELECT paper_id, persona_id FROM paper_authors WHERE paper_id IN"
                                 f" ({','.join('?' * len(papers))})", tuple(p["id"] for p in papers))
    personas = world.catalog.personas()
    linked = {(r["paper_id"], personas[r["persona_id"]]["name"]): r["persona_id"] for r in rows
              if "scholar" in personas.get(r["persona_id"], {})}
    return {p["id"]: [{"name": name, "persona_id": linked.get((p["id"], name))} for name in p["authors"].split(", ")
                      if name] for p in papers}


async def as_results(world: World, listing: kit.Paged) -> kit.Paged:
    """The same page of a list, its paper rows turned into result rows (snippets, linked authors)."""
    authors = await authors_of(world, listing.rows)
    return dataclasses.replace(listing, rows=[{**p, "authors": authors[p["id"]], "snippet": snippet(p["abstract"]),
                                               "cited_by": p["cited_by_count"]} for p in listing.rows])


async def indexed_papers(world: World) -> list[dict[str, Any]]:
    return [dict(r) for r in await world.fetch_all(f"SELECT {PAPER_COLUMNS} FROM papers WHERE {INDEXED}")]


def pdf_host(paper: Any) -> str:
    """The PDF link text, as a scholar search shows it: "[PDF] arxiv.org"."""
    venue = re.sub(r"[^a-z]", "", str(paper["venue"]).lower())[:12] or "papers"
    return "arxiv.org" if "arxiv" in venue else f"{venue}.example.org"


# --- citation strings ---------------------------------------------------------------------------

def _split_name(name: str) -> tuple[str, str]:
    parts = name.split()
    return (" ".join(parts[:-1]), parts[-1]) if len(parts) > 1 else ("", name)


def _initials(first: str, dots: bool = True) -> str:
    return " ".join(f"{p[0]}." if dots else p[0] for p in first.split())


def citations(paper: Any) -> list[tuple[str, str]]:
    """(style, text) for MLA, APA, Chicago, Harvard and Vancouver."""
    names = [n for n in str(paper["authors"]).split(", ") if n]
    split = [_split_name(n) for n in names]
    title, venue, year = paper["title"], paper["venue"], paper["year"]
    last_first = [f"{last}, {first}".strip(", ") for first, last in split]
    apa_names = [f"{last}, {_initials(first)}".strip(", ") for first, last in split]
    mla = last_first[0] + (", et al." if len(names) > 2 else (f", and {names[1]}" if len(names) == 2 else ""))
    vancouver = ", ".join(f"{last} {_initials(first, dots=False).replace(' ', '')}" for first, last in split)
    apa = ", ".join(apa_names[:-1]) + (", & " if len(apa_names) > 1 else "") + apa_names[-1]
    chicago = ", ".join(last_first[:1] + names[1:-1]) + (f", and {names[-1]}" if len(names) > 1 else "")
    harvard = ", ".join(f"{last}, {_initials(first)}" for first, last in split[:-1])
    harvard = (harvard + " and " if harvard else "") + f"{split[-1][1]}, {_initials(split[-1][0])}"
    return [("MLA", f"{mla}. \"{title}.\" {venue} ({year})."), ("APA", f"{apa} ({year}). {title}. {venue}."),
            ("Chicago", f"{chicago}. \"{title}.\" {venue} ({year})."),
            ("Harvard", f"{harvard}, {year}. {title}. {venue}."),
            ("Vancouver", f"{vancouver}. {title}. {venue}. {year}.")]


def bibtex(paper: Any) -> str:
    first_last = _split_name(str(paper["authors"]).split(", ")[0])[1].lower()
    word = re.sub(r"[^a-z]", "", str(paper["title"]).split()[0].lower())
    key = re.sub(r"[^a-z0-9]", "", f"{first_last}{paper['year']}{word}")
    kind = "book" if paper["is_book"] else "article"
    authors = " and ".join(str(paper["authors"]).split(", "))
    return (f"@{kind}{{{key},\n  title={{{paper['title']}}},\n  author={{{authors}}},\n"
            f"  journal={{{paper['venue']}}},\n  year={{{paper['year']}}}\n}}")


# --- profiles ------------------------------------------------------------------------------------

async def profile(world: World, persona_id: str, sort: str) -> dict[str, Any]:
    personas = world.catalog.personas()
    order = "p.year DESC, p.cited_by_count DESC" if sort == "year" else "p.cited_by_count DESC, p.year DESC"
    papers = [dict(r) for r in await world.fetch_all(
        "SELECT p.id, p.title, p.authors, p.venue, p.year, p.cited_by_count FROM papers p"
        f" JOIN paper_authors a ON a.paper_id = p.id WHERE a.persona_id = ? AND p.withdrawn = 0 ORDER BY {order}",
        (persona_id,))]
    counts = [p["cited_by_count"] for p in papers]
    rows = await world.fetch_all("SELECT persona_b, shared_count FROM coauthors WHERE persona_a = ?"
                                 " ORDER BY shared_count DESC, persona_b", (persona_id,))
    coauthors = [{"persona_id": r["persona_b"], "name": p["name"], "linked": "scholar" in p,
                  "affiliation": p["scholar"]["affiliation"] if "scholar" in p else "", "shared": r["shared_count"]}
                 for r in rows for p in [personas[r["persona_b"]]]]
    block = personas[persona_id]["scholar"]
    return {"id": persona_id, "name": personas[persona_id]["name"], "affiliation": block["affiliation"],
            "interests": block["interests"], "papers": papers, "coauthors": coauthors,
            "metrics": {"citations": sum(counts), "i10_index": sum(1 for c in counts if c >= 10),
                        "h_index": sum(1 for i, c in enumerate(sorted(counts, reverse=True), 1) if c >= i)},
            "is_self": persona_id == world.self_persona["id"]}
