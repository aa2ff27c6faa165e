"""MicroScholar actions (POST): save (a toggle), cite, mark alerts read, create and delete alerts.
Each answers 303 to the form's `next` page with a one-line status; bad input answers 400."""

from __future__ import annotations

from aiohttp import web

from sentinel.envs.microscholar.views import alert_query, paper_row, routes
from sentinel.web.kit import BadInput, done, fetch_or_404, form_of, url_for, world_of

WITHDRAWN = "This paper was withdrawn by its authors; it can no longer be saved or cited."
MAX_ALERTS = 50
ALERT_CHANGES = {"read": ("alerts", "UPDATE alerts SET is_read = 1 WHERE id = ?", "Alert marked as read"),
                 "delete": ("alert_queries", "DELETE FROM alert_queries WHERE id = ?", "Alert deleted")}


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
    world = world_of(request)
    await form_of(request)
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
    """Mark an alert read, or delete an alert the user created."""
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
