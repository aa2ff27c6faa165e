"""MicroChat actions (POST): send, react, favourite, mute, start a chat. Each answers 303 to the
form's `next` page with a one-line status; bad input answers 400."""

from __future__ import annotations

from aiohttp import web

from sentinel.envs.microchat import queries as q
from sentinel.envs.microchat.events import mention_of
from sentinel.envs.microchat.views import GONE, routes
from sentinel.web.kit import BadInput, done, fetch_or_404, form_of, text_param, toggle, url_for, world_of

MAX_BODY = 4000
MINE = "message_id = ? AND emoji = ? AND persona_id = ?"  # the self user's reaction
TOGGLES = {"pin": ("is_pinned", "Added to favourites", "Removed from favourites"),
           "mute": ("is_muted", "Conversation muted", "Conversation unmuted")}


async def conversation_of(request: web.Request):
    return await fetch_or_404(request, "SELECT * FROM conversations WHERE id = ?", (request.match_info["id"],), GONE)


@routes.post("/chats/{id}/send", "send")
async def send_action(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    body = text_param(form, "body", max_len=MAX_BODY, label="The message")
    if not body:
        raise BadInput("Write a message before sending.")
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
    emoji = form.get("emoji")
    if emoji not in q.EMOJI_NAMES:
        raise BadInput(f"Choose a reaction: {' '.join(q.EMOJI_NAMES)}.")
    message = await fetch_or_404(request, "SELECT id, conversation_id, is_deleted FROM messages WHERE id = ?",
                                 (request.match_info["id"],), "This message no longer exists.")
    if message["is_deleted"]:
        raise BadInput("This message was deleted; it cannot take reactions.")
    key = (message["id"], emoji, world.self_persona["id"])
    async with world.write() as db:
        had = await world.fetch_value(f"SELECT COUNT(*) FROM reactions WHERE {MINE}", key)
        if had:
            await db.execute(f"DELETE FROM reactions WHERE {MINE}", key)
        else:
            await db.execute("INSERT INTO reactions (message_id, emoji, persona_id) VALUES (?, ?, ?)", key)
    status = f"Reaction {emoji} removed" if had else f"Reacted {emoji}"
    raise done(request, form, status, url_for(request, "chat", id=message["conversation_id"]))


@routes.post("/chats/{id}/mute", "mute")
@routes.post("/chats/{id}/pin", "pin")
async def toggle_action(request: web.Request) -> web.StreamResponse:
    """Favourite (pin) or mute a conversation, or undo it."""
    column, on, off = TOGGLES[request.path.rsplit("/", 1)[1]]
    form = await form_of(request)
    conv = await conversation_of(request)
    now_on = await toggle(request, "conversations", column, conv["id"])
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
    existing = await world.fetch_value(
        "SELECT id FROM conversations WHERE kind = 'direct' AND counterpart_id = ? ORDER BY rowid LIMIT 1",
        (person["id"],))
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
