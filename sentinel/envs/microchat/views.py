"""MicroChat pages (GET), actions (POST: send, react, favourite, mute, start a chat) and what the pages compute.
The one GET side effect: opening a thread marks what it shows as read (not on live refreshes)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.kit import contains, like_pattern
from sentinel.envs.microchat.events import mention_of
from sentinel.web import kit
from sentinel.web.kit import BadInput, done, fetch_or_404, form_of, mark_seen, paged, text_param, url_for, world_of
from sentinel.web.render import render
from sentinel.world.state import World

GONE = "This conversation no longer exists."
MAX_QUERY = 200
SPEED_DIAL = 8
MINE = "message_id = ? AND emoji = ? AND persona_id = ?"  # the self user's reaction
TOGGLES = {"pin": ("is_pinned", "Added to favourites", "Removed from favourites"),
           "mute": ("is_muted", "Conversation muted", "Conversation unmuted")}
PER_PAGE = 25
PREVIEW = 60  # characters of the last message a conversation row shows
SNIPPET = 40  # characters of a message a search result shows
EMOJI_NAMES = {"👍": "thumbs up", "👀": "eyes", "✅": "done", "🎉": "party", "❤️": "heart", "😂": "laughing"}
FILTERS = {  # key → (label, SQL condition on c / unread count)
    "all": ("All", ""),
    "unread": ("Unread", " AND EXISTS (SELECT 1 FROM messages u WHERE u.conversation_id = c.id AND u.is_read = 0)"),
    "chats": ("Chats", " AND c.kind IN ('direct', 'group')"), "meetings": ("Meetings", " AND c.kind = 'meeting'")}
LISTED = "(c.kind = 'channel' OR EXISTS (SELECT 1 FROM messages x WHERE x.conversation_id = c.id))"
LAST = ("(SELECT id FROM messages WHERE conversation_id = c.id ORDER BY created_at DESC, rowid DESC LIMIT 1)")
ROW_SQL = (f"SELECT c.*, lm.id AS last_id, lm.body AS last_body, lm.sender_id AS last_sender,"
           f" lm.created_at AS last_at, lm.is_deleted AS last_deleted,"
           f" (SELECT COUNT(*) FROM messages u WHERE u.conversation_id = c.id AND u.is_read = 0) AS unread"
           f" FROM conversations c LEFT JOIN messages lm ON lm.id = {LAST} WHERE {LISTED}")
ORDER = " ORDER BY c.is_pinned DESC, COALESCE(lm.created_at, c.created_at) DESC, lm.rowid DESC"
routes = Routes()


async def conversation_of(request: web.Request):
    return await fetch_or_404(request, "SELECT * FROM conversations WHERE id = ?", (request.match_info["id"],), GONE)


routes.get("/", "home")(kit.redirect_to("chats"))


@routes.get("/chats", "chats")
async def chat_list(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    key = kit.choice_param(request.query, "filter", tuple(FILTERS), "all",
                           "Unknown filter: choose All, Unread, Chats or Meetings.")
    people = await People.load(world)
    counts = {k: int(await world.fetch_value(f"SELECT COUNT(*) FROM conversations c WHERE {LISTED}{cond}") or 0)
              for k, (_, cond) in FILTERS.items()}  # how many conversations each filter shows
    listing = await paged(request, per_page=PER_PAGE, total=counts[key], rows_sql=f"{ROW_SQL}{FILTERS[key][1]}{ORDER}",
                          row=lambda r: conversation_row(r, people))
    filters = [(f"{label} ({counts[k]})", k, k == key) for k, (label, _) in FILTERS.items()]
    return await render(request, "microchat/chats.html", {
        "list": listing, "filters": filters, "unread_total": await unread_total(world),
        "empty_text": "No conversations yet." if key == "all" else "No conversations match this filter."})


@routes.get("/chats/{id}", "chat")
async def chat_view(request: web.Request) -> web.StreamResponse:
    world, conv = world_of(request), await conversation_of(request)
    query = text_param(request.query, "q", max_len=MAX_QUERY, label="The search")
    people = await People.load(world)
    messages = await thread(world, conv["id"], people, query)
    unread = [m["id"] for m in messages if not m["is_read"]]
    if unread:
        await mark_seen(request, f"UPDATE messages SET is_read = 1 WHERE id IN ({','.join('?' * len(unread))})", unread)
    new = [m["id"] for m in messages if not m["is_read"] and not m["own"]]
    members = await world.fetch_all("SELECT persona_id FROM conversation_members WHERE conversation_id = ?",
                                    (conv["id"],))
    sidebar = await world.fetch_all(f"{ROW_SQL}{ORDER} LIMIT ?", (PER_PAGE,))
    return await render(request, "microchat/chat.html", {
        "conv": dict(conv), "title": people.title(conv), "messages": messages, "first_new": next(iter(new), None),
        "new_count": len(new), "members": [people.name(m["persona_id"]) for m in members], "search": query,
        "sidebar": [conversation_row(r, people) for r in sidebar], "emojis": EMOJI_NAMES,
        "team": people.teams.get(conv["team_id"]) if conv["team_id"] else None})


@routes.get("/messages/{id}", "message")
async def message_link(request: web.Request) -> web.StreamResponse:
    """A message's permalink ("jump to message"): its thread, scrolled to it."""
    row = await fetch_or_404(request, "SELECT id, conversation_id FROM messages WHERE id = ?",
                             (request.match_info["id"],), "This message no longer exists.")
    raise web.HTTPFound(url_for(request, "chat", id=row["conversation_id"]) + f"#m-{row['id']}")


@routes.get("/new", "new")
async def new_chat(request: web.Request) -> web.StreamResponse:
    people = await world_of(request).fetch_all("SELECT id, name, title FROM personas WHERE is_self = 0 ORDER BY name")
    return await render(request, "microchat/new.html", {"people": people, "chosen": request.query.get("persona", "")})


@routes.get("/teams", "teams")
async def teams_view(request: web.Request) -> web.StreamResponse:
    rows = await world_of(request).fetch_all(
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
    key = kit.choice_param(request.query, "filter", ("all", "missed"), "all", "Unknown filter: choose All or Missed.")
    condition = " WHERE c.missed = 1" if key == "missed" else ""
    listing = await paged(request, per_page=PER_PAGE, count_sql=f"SELECT COUNT(*) FROM calls c{condition}",
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
    people, pattern = await People.load(world), like_pattern(query)
    persons = await world.fetch_all(
        f"SELECT id, name, title FROM personas WHERE is_self = 0 AND {contains('name', 'title')}"
        " ORDER BY name LIMIT 10", (pattern, pattern))
    convs = [r for r in (conversation_row(r, people) for r in await world.fetch_all(f"{ROW_SQL}{ORDER}"))
             if query.casefold() in r["display"].casefold()][:10]
    rows = await world.fetch_all(
        "SELECT m.id, m.body, m.sender_id, m.created_at, m.conversation_id FROM messages m"
        f" WHERE m.is_deleted = 0 AND {contains('m.body')} ORDER BY m.created_at DESC, m.rowid DESC", (pattern,))
    titles = {r["id"]: people.title(r) for r in await world.fetch_all("SELECT * FROM conversations")}
    found = [{**dict(r), "sender": people.name(r["sender_id"]), "where": titles.get(r["conversation_id"], ""),
              "snippet": snippet(r["body"], query)} for r in rows]
    return await render(request, "microchat/search.html", {
        "search": query, "people": persons, "convs": convs, "list": kit.paged_list(request, found, PER_PAGE)})


# --- actions (POST): each answers 303 to the form's `next` page with a one-line status; bad input 400

@routes.post("/chats/{id}/send", "send")
async def send_action(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    body = text_param(form, "body", max_len=4000, label="The message", required="Write a message before sending.")
    conv = await conversation_of(request)
    async with world.write():
        message_id = await world.next_self_id("messages")
        await world.insert("messages", {
            "id": message_id, "conversation_id": conv["id"], "sender_id": world.self_persona["id"], "body": body,
            "mentions_me": int(mention_of(world) in body), "is_read": 1}, origin="self")
    raise done(request, form, "Message sent", url_for(request, "chat", id=conv["id"]))


@routes.post("/messages/{id}/react", "react")
async def react_action(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    emoji = kit.choice_param(form, "emoji", tuple(EMOJI_NAMES), "", f"Choose a reaction: {' '.join(EMOJI_NAMES)}.")
    message = await fetch_or_404(request, "SELECT id, conversation_id, is_deleted FROM messages WHERE id = ?",
                                 (request.match_info["id"],), "This message no longer exists.")
    if message["is_deleted"]:
        raise BadInput("This message was deleted; it cannot take reactions.")
    key = (message["id"], emoji, world.self_persona["id"])
    async with world.write() as db:
        had = await world.fetch_value(f"SELECT COUNT(*) FROM reactions WHERE {MINE}", key)
        await db.execute(f"DELETE FROM reactions WHERE {MINE}" if had
                         else "INSERT INTO reactions (message_id, emoji, persona_id) VALUES (?, ?, ?)", key)
    status = f"Reaction {emoji} removed" if had else f"Reacted {emoji}"
    raise done(request, form, status, url_for(request, "chat", id=message["conversation_id"]))


@routes.post("/chats/{id}/mute", "mute")
@routes.post("/chats/{id}/pin", "pin")
async def toggle_action(request: web.Request) -> web.StreamResponse:
    column, on, off = TOGGLES[request.path.rsplit("/", 1)[1]]
    form, conv = await form_of(request), await conversation_of(request)
    now_on = await kit.toggle(request, "conversations", column, conv["id"])
    raise done(request, form, on if now_on else off, url_for(request, "chat", id=conv["id"]))


@routes.post("/new", "start")
async def start_action(request: web.Request) -> web.StreamResponse:
    """Open the direct chat with a person, creating it when there is none yet."""
    world, form = world_of(request), await form_of(request)
    persona_id = form.get("persona_id")
    person = await world.fetch_one("SELECT id, name FROM personas WHERE id = ? AND is_self = 0",
                                   (persona_id if isinstance(persona_id, str) else "",))
    if person is None:
        raise BadInput("Choose a person to chat with.")
    existing = await world.fetch_value("SELECT id FROM conversations WHERE kind = 'direct' AND counterpart_id = ?"
                                       " ORDER BY rowid LIMIT 1", (person["id"],))
    if existing:
        raise web.HTTPSeeOther(url_for(request, "chat", id=existing))
    async with world.write() as db:
        conv_id = await world.next_self_id("conversations")
        await world.insert("conversations", {"id": conv_id, "kind": "direct", "counterpart_id": person["id"]},
                           origin="self")
        await db.executemany("INSERT INTO conversation_members (conversation_id, persona_id) VALUES (?, ?)",
                             [(conv_id, member) for member in (world.self_persona["id"], person["id"])])
    world.flash = f"New chat with {person['name']}"
    raise web.HTTPSeeOther(url_for(request, "chat", id=conv_id))


# --- what the pages compute: conversation rows, threads, snippets; unread counts (from rows, never stored) ---

@dataclass(frozen=True)
class People:
    """Persona names and the team names, for titles and senders."""
    names: dict[str, str]
    teams: dict[str, str]
    self_id: str

    @classmethod
    async def load(cls, world: World) -> People:
        names = {r["id"]: r["name"] for r in await world.fetch_all("SELECT id, name FROM personas")}
        teams = {r["id"]: r["name"] for r in await world.fetch_all("SELECT id, name FROM teams")}
        return cls(names, teams, world.self_persona["id"])

    def name(self, persona_id: str) -> str:
        return self.names.get(persona_id, "Unknown")

    def title(self, conv: Any) -> str:
        if conv["kind"] == "direct":
            return self.name(conv["counterpart_id"])
        if conv["kind"] == "channel":
            return f"{self.teams.get(conv['team_id'], 'Team')} / #{conv['title']}"
        return conv["title"]


def cut(text: str, length: int) -> str:
    return text if len(text) <= length else text[:length].rstrip() + "…"


def conversation_row(row: Any, people: People) -> dict[str, Any]:
    """A row of ROW_SQL as a conversation list shows it: its title and the preview of its last message."""
    preview = ("No messages yet" if row["last_id"] is None else "This message was deleted" if row["last_deleted"]
               else ("You: " if row["last_sender"] == people.self_id else "") + cut(row["last_body"], PREVIEW))
    return {**dict(row), "display": people.title(row), "preview": preview}


async def unread_total(world: World) -> int:
    return int(await world.fetch_value("SELECT COUNT(*) FROM messages WHERE is_read = 0") or 0)


def body_parts(body: str, people: People) -> list[tuple[str, str]]:
    """The body as (kind, text) parts: "text", "mention" (another person) or "me" (the self user)."""
    names = sorted(people.names.values(), key=len, reverse=True)
    if not names:
        return [("text", body)]
    pieces = re.split("@(" + "|".join(re.escape(n) for n in names) + ")", body)  # text, name, text, …, text
    me = people.name(people.self_id)
    parts = [("text", t) if i % 2 == 0 else ("me" if t == me else "mention", f"@{t}") for i, t in enumerate(pieces)]
    return [p for p in parts if p[1]]


async def thread(world: World, conv_id: str, people: People, query: str) -> list[dict[str, Any]]:
    """A conversation's messages oldest first (only those matching `query`), with reply quotes and reactions."""
    where, params = "conversation_id = ?", [conv_id]
    if query:
        where += f" AND is_deleted = 0 AND {contains('body')}"
        params.append(like_pattern(query))
    rows = await world.fetch_all(f"SELECT * FROM messages WHERE {where} ORDER BY created_at, rowid", tuple(params))
    ids = [r["id"] for r in rows]
    reactions: dict[str, list[dict[str, Any]]] = {}
    for r in await world.fetch_all(
            f"SELECT message_id, emoji, COUNT(*) AS n, MAX(persona_id = ?) AS mine FROM reactions"
            f" WHERE message_id IN ({','.join('?' * len(ids))}) GROUP BY message_id, emoji ORDER BY MIN(rowid)",
            (people.self_id, *ids)):
        reactions.setdefault(r["message_id"], []).append(dict(r))
    quoted = await quotes(world, [r["reply_to_id"] for r in rows if r["reply_to_id"]], people)
    return [{**dict(r), "sender": people.name(r["sender_id"]), "own": r["sender_id"] == people.self_id,
             "parts": body_parts(r["body"], people), "reactions": reactions.get(r["id"], []),
             "quote": quoted.get(r["reply_to_id"])} for r in rows]


async def quotes(world: World, ids: list[str], people: People) -> dict[str, str]:
    rows = await world.fetch_all(
        f"SELECT id, sender_id, body, is_deleted FROM messages WHERE id IN ({','.join('?' * len(ids))})", tuple(ids))
    return {r["id"]: f"{people.name(r['sender_id'])}: "
                     f"{'This message was deleted' if r['is_deleted'] else cut(r['body'], PREVIEW)}" for r in rows}


def snippet(body: str, query: str) -> str:
    """About SNIPPET characters of body around the first match of query."""
    at = body.casefold().find(query.casefold())
    start = max(0, min(at - 10, len(body) - SNIPPET)) if at >= 0 else 0
    if start > 0 and body[start - 1] != " ":  # begin at a word
        space = body.find(" ", start, max(at, start))
        start = space + 1 if space >= 0 else start
    piece = body[start:start + SNIPPET]
    return ("…" if start > 0 else "") + piece + ("…" if start + SNIPPET < len(body) else "")
