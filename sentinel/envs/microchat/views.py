"""MicroChat pages (GET): chats, a thread, new chat, teams, a team, calls, search. The one GET side
effect: opening a thread marks what it shows as read (not on live refreshes). actions.py adds the POSTs."""

from __future__ import annotations

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.microchat import queries as q
from sentinel.web.kit import choice_param, fetch_or_404, mark_seen, paged, paged_list, text_param, url_for, world_of
from sentinel.web.render import render

GONE = "This conversation no longer exists."
MAX_QUERY = 200
SPEED_DIAL = 8

routes = Routes()


@routes.get("/", "home")
async def home(request: web.Request) -> web.StreamResponse:
    raise web.HTTPFound(url_for(request, "chats"))


@routes.get("/chats", "chats")
async def chat_list(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    key = choice_param(request.query, "filter", tuple(q.FILTERS), "all",
                       "Unknown filter: choose All, Unread, Chats or Meetings.")
    people = await q.People.load(world)
    condition = q.FILTERS[key][1]
    listing = await paged(request, per_page=q.PER_PAGE,
                          count_sql=f"SELECT COUNT(*) FROM conversations c WHERE {q.LISTED}{condition}",
                          rows_sql=f"{q.ROW_SQL}{condition}{q.ORDER}", row=lambda r: q.conversation_row(r, people))
    counts = await q.filter_counts(world)
    filters = [(f"{label} ({counts[k]})", k, k == key) for k, (label, _) in q.FILTERS.items()]
    return await render(request, "microchat/chats.html", {
        "list": listing, "filters": filters, "unread_total": await q.unread_total(world),
        "empty_text": "No conversations yet." if key == "all" else "No conversations match this filter."})


@routes.get("/chats/{id}", "chat")
async def chat_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    conv = await fetch_or_404(request, "SELECT * FROM conversations WHERE id = ?", (request.match_info["id"],), GONE)
    query = text_param(request.query, "q", max_len=MAX_QUERY, label="The search")
    people = await q.People.load(world)
    messages = await q.thread(world, conv["id"], people, query)
    unread = [m["id"] for m in messages if not m["is_read"]]
    if unread:
        await mark_seen(request, f"UPDATE messages SET is_read = 1 WHERE id IN ({','.join('?' * len(unread))})", unread)
    new = [m["id"] for m in messages if not m["is_read"] and not m["own"]]
    members = await world.fetch_all("SELECT persona_id FROM conversation_members WHERE conversation_id = ?",
                                    (conv["id"],))
    sidebar = await world.fetch_all(f"{q.ROW_SQL}{q.ORDER} LIMIT ?", (q.PER_PAGE,))
    return await render(request, "microchat/chat.html", {
        "conv": dict(conv), "title": people.title(conv), "messages": messages, "first_new": next(iter(new), None),
        "new_count": len(new), "members": [people.name(m["persona_id"]) for m in members], "search": query,
        "sidebar": [q.conversation_row(r, people) for r in sidebar], "emojis": q.EMOJI_NAMES,
        "team": people.teams.get(conv["team_id"]) if conv["team_id"] else None})


@routes.get("/messages/{id}", "message")
async def message_link(request: web.Request) -> web.StreamResponse:
    """A message's permalink ("jump to message"): its thread, scrolled to it."""
    row = await fetch_or_404(request, "SELECT id, conversation_id FROM messages WHERE id = ?",
                             (request.match_info["id"],), "This message no longer exists.")
    raise web.HTTPFound(url_for(request, "chat", id=row["conversation_id"]) + f"#m-{row['id']}")


@routes.get("/new", "new")
async def new_chat(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    people = await world.fetch_all("SELECT id, name, title FROM personas WHERE is_self = 0 ORDER BY name")
    return await render(request, "microchat/new.html", {"people": people, "chosen": request.query.get("persona", ""),
                                                        "error": None})


@routes.get("/teams", "teams")
async def teams_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    rows = await world.fetch_all(
        "SELECT t.*, (SELECT COUNT(*) FROM team_members m WHERE m.team_id = t.id) AS members,"
        " (SELECT COUNT(*) FROM messages x JOIN conversations c ON c.id = x.conversation_id"
        "  WHERE c.team_id = t.id AND x.is_read = 0) AS unread FROM teams t ORDER BY t.name")
    return await render(request, "microchat/teams.html", {"teams": rows})


@routes.get("/teams/{id}", "team")
async def team_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    team = await fetch_or_404(request, "SELECT * FROM teams WHERE id = ?", (request.match_info["id"],),
                              "This team no longer exists.")
    channels = await world.fetch_all(
        "SELECT c.*, (SELECT COUNT(*) FROM messages x WHERE x.conversation_id = c.id AND x.is_read = 0) AS unread,"
        " (SELECT COUNT(*) FROM messages x WHERE x.conversation_id = c.id) AS total"
        " FROM conversations c WHERE c.team_id = ? AND c.kind = 'channel' ORDER BY c.title", (team["id"],))
    members = await world.fetch_all(
        "SELECT p.name, p.title FROM team_members m JOIN personas p ON p.id = m.persona_id"
        " WHERE m.team_id = ? ORDER BY p.is_self DESC, p.name", (team["id"],))
    return await render(request, "microchat/team.html", {"team": team, "channels": channels, "members": members})


@routes.get("/calls", "calls")
async def calls_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    key = choice_param(request.query, "filter", ("all", "missed"), "all", "Unknown filter: choose All or Missed.")
    condition = " WHERE c.missed = 1" if key == "missed" else ""
    listing = await paged(request, per_page=q.PER_PAGE, count_sql=f"SELECT COUNT(*) FROM calls c{condition}",
                          rows_sql=f"SELECT c.*, p.name FROM calls c JOIN personas p ON p.id = c.persona_id{condition}"
                                   " ORDER BY c.created_at DESC, c.rowid DESC")
    total, missed = await world.fetch_one("SELECT COUNT(*), COALESCE(SUM(missed = 1), 0) FROM calls") or (0, 0)
    dial = await world.fetch_all(
        "SELECT c.id, p.name, p.title FROM conversations c JOIN personas p ON p.id = c.counterpart_id"
        " WHERE c.kind = 'direct' ORDER BY c.is_pinned DESC, c.rowid LIMIT ?", (SPEED_DIAL,))
    filters = [(f"All ({total})", "all", key == "all"), (f"Missed ({missed})", "missed", key == "missed")]
    return await render(request, "microchat/calls.html", {"list": listing, "filters": filters, "dial": dial})


@routes.get("/search", "search")
async def search_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    query = text_param(request.query, "q", max_len=MAX_QUERY, label="The search")
    if not query:
        return await render(request, "microchat/search.html", {"search": "", "people": [], "convs": [], "list": None})
    people = await q.People.load(world)
    pattern = q.like(query)
    persons = await world.fetch_all(
        "SELECT id, name, title FROM personas WHERE is_self = 0"
        " AND (name LIKE ? ESCAPE '\\' OR title LIKE ? ESCAPE '\\') ORDER BY name LIMIT 10", (pattern, pattern))
    convs = [r for r in (q.conversation_row(r, people) for r in await world.fetch_all(f"{q.ROW_SQL}{q.ORDER}"))
             if query.casefold() in r["display"].casefold()][:10]
    rows = await world.fetch_all(
        "SELECT m.id, m.body, m.sender_id, m.created_at, m.conversation_id FROM messages m"
        " WHERE m.is_deleted = 0 AND m.body LIKE ? ESCAPE '\\' ORDER BY m.created_at DESC, m.rowid DESC", (pattern,))
    titles = {r["id"]: people.title(r) for r in await world.fetch_all("SELECT * FROM conversations")}
    found = [{**dict(r), "sender": people.name(r["sender_id"]), "where": titles.get(r["conversation_id"], ""),
              "snippet": q.snippet(r["body"], query)} for r in rows]
    return await render(request, "microchat/search.html", {
        "search": query, "people": persons, "convs": convs, "list": paged_list(request, found, q.PER_PAGE)})

