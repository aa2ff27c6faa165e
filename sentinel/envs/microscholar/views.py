"""MicroScholar pages (GET): home, search, paper, cite, library, alerts and profiles. No GET
changes state: saving, citing and reading alerts are POSTs (actions.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.microscholar import queries as q
from sentinel.envs.microscholar.search import SORTS, Query, QueryError, parse_query, search
from sentinel.web.kit import BadInput, choice_param, fetch_or_404, paged, paged_list, text_param, url_for, world_of
from sentinel.web.render import render

GONE = "This paper is not in the index."
SEARCH_FIELDS = ("q", "phrase", "any", "without", "author", "venue", "since", "ylo", "yhi")
LABELS = {"": "All saved", "cited": "Cited by me"}
YEARS = [("", "Any time"), ("2024", "Since 2024"), ("2023", "Since 2023"), ("2020", "Since 2020")]  # the Time filter
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
    listing = await paged(request, per_page=q.PER_PAGE, count_sql=f"SELECT COUNT(*) FROM papers WHERE {q.INDEXED}",
                          rows_sql=f"SELECT {q.PAPER_COLUMNS} FROM papers WHERE {q.INDEXED} ORDER BY {q.NEWEST}")
    unread = int(await world.fetch_value("SELECT COUNT(*) FROM alerts WHERE is_read = 0") or 0)
    return await render(request, "microscholar/home.html", {"list": await q.as_results(world, listing),
                                                           "unread": unread})


@routes.get("/search", "search")
async def search_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    params = {name: text_param(request.query, name, max_len=200, label="The search") for name in SEARCH_FIELDS}
    sort = choice_param(request.query, "sort", SORTS, "relevance", "Sort by relevance, date or citations.")
    query, listing = parsed(params), None
    if not query.empty:
        found = paged_list(request, search(await q.indexed_papers(world), query, sort), per_page=q.PER_PAGE)
        listing = await q.as_results(world, found)
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
    return await fetch_or_404(request, f"SELECT {q.PAPER_COLUMNS} FROM papers WHERE id = ?",
                              (request.match_info["id"],), GONE)


@routes.get("/paper/{id}", "paper")
async def paper_view(request: web.Request) -> web.StreamResponse:
    paper = await paper_row(request)
    return await render(request, "microscholar/paper.html", {"p": await q.paper_detail(world_of(request), paper)})


@routes.get("/paper/{id}/cite", "cite_page")
async def cite_view(request: web.Request) -> web.StreamResponse:
    paper = await paper_row(request)
    return await render(request, "microscholar/cite.html", {
        "p": paper, "styles": q.citations(paper), "bibtex": q.bibtex(paper)})


@routes.get("/library", "library")
async def library(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    label = choice_param(request.query, "label", tuple(LABELS), "", "Unknown label: choose All saved or Cited by me.")
    where = "saved = 1" + (" AND cited = 1" if label == "cited" else "")
    listing = await paged(request, per_page=20, count_sql=f"SELECT COUNT(*) FROM papers WHERE {where}",
                          rows_sql=f"SELECT {q.PAPER_COLUMNS} FROM papers WHERE {where}"
                                   f" ORDER BY saved_at DESC, {q.NEWEST}")
    listing = await q.as_results(world, listing)
    counts = await world.fetch_one("SELECT COUNT(*), COALESCE(SUM(cited), 0) FROM papers WHERE saved = 1") or (0, 0)
    tabs = [(f"{LABELS[key]} ({n})", url_for(request, "library", {"label": key}), key == label)
            for key, n in zip(LABELS, counts, strict=True)]
    return await render(request, "microscholar/library.html", {"list": listing, "tabs": tabs})


@routes.get("/alerts", "alerts")
async def alerts(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    listing = await paged(request, per_page=20, count_sql="SELECT COUNT(*) FROM alerts",
                          rows_sql=f"SELECT * FROM alerts ORDER BY {q.NEWEST}")
    unread = int(await world.fetch_value("SELECT COUNT(*) FROM alerts WHERE is_read = 0") or 0)
    papers = await q.indexed_papers(world)
    created = [{**dict(a), "count": len(search(papers, parse_query({"q": a["query"]}), "date"))}
               for a in await world.fetch_all(f"SELECT * FROM alert_queries ORDER BY {q.NEWEST}")]
    return await render(request, "microscholar/alerts.html", {"list": listing, "unread": unread, "created": created})


@routes.get("/alerts/matches", "alert_matches")
async def alert_matches(request: web.Request) -> web.StreamResponse:
    """What an alert query matches, newest first: a preview before creating it, or an own alert's page."""
    world = world_of(request)
    words, query = alert_query(request.query)
    mine = await world.fetch_one("SELECT * FROM alert_queries WHERE query = ? ORDER BY rowid LIMIT 1", (words,))
    listing = paged_list(request, search(await q.indexed_papers(world), query, "date"), per_page=q.PER_PAGE)
    return await render(request, "microscholar/alert_matches.html", {
        "alert_query": words, "alert": dict(mine) if mine else None, "list": await q.as_results(world, listing)})


@routes.get("/citations/{persona}", "profile")
async def profile_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    persona = request.match_info["persona"]
    persona = world.self_persona["id"] if persona == "me" else persona
    if "scholar" not in world.catalog.personas().get(persona, {}):
        raise web.HTTPNotFound(text="This scholar profile does not exist.")
    sort = choice_param(request.query, "sort", ("cited", "year"), "cited", "Sort by cited or year.")
    return await render(request, "microscholar/profile.html", {"s": await q.profile(world, persona, sort),
                                                              "sort": sort})
