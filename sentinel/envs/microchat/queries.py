"""What MicroChat's pages compute: conversation rows, threads, counters, snippets. Unread counts
are always counted from message rows (`is_read = 0`), never stored."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sentinel.world.state import World

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
    if row["last_id"] is None:
        preview = "No messages yet"
    elif row["last_deleted"]:
        preview = "This message was deleted"
    else:
        preview = ("You: " if row["last_sender"] == people.self_id else "") + cut(row["last_body"], PREVIEW)
    return {**dict(row), "display": people.title(row), "preview": preview}


async def unread_total(world: World) -> int:
    return int(await world.fetch_value("SELECT COUNT(*) FROM messages WHERE is_read = 0") or 0)


async def filter_counts(world: World) -> dict[str, int]:
    """How many conversations each filter of the list shows."""
    return {key: int(await world.fetch_value(f"SELECT COUNT(*) FROM conversations c WHERE {LISTED}{cond}") or 0)
            for key, (_, cond) in FILTERS.items()}


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
        where += " AND is_deleted = 0 AND body LIKE ? ESCAPE '\\'"
        params.append(like(query))
    rows = await world.fetch_all(f"SELECT * FROM messages WHERE {where} ORDER BY created_at, rowid", tuple(params))
    ids = [r["id"] for r in rows]
    reactions: dict[str, list[dict[str, Any]]] = {}
    if ids:
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
    if not ids:
        return {}
    rows = await world.fetch_all(
        f"SELECT id, sender_id, body, is_deleted FROM messages WHERE id IN ({','.join('?' * len(ids))})", tuple(ids))
    return {r["id"]: f"{people.name(r['sender_id'])}: "
                     f"{'This message was deleted' if r['is_deleted'] else cut(r['body'], PREVIEW)}" for r in rows}


def like(query: str) -> str:
    escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def snippet(body: str, query: str) -> str:
    """About SNIPPET characters of body around the first match of query."""
    at = body.casefold().find(query.casefold())
    start = max(0, min(at - 10, len(body) - SNIPPET)) if at >= 0 else 0
    if start > 0 and body[start - 1] != " ":  # begin at a word
        space = body.find(" ", start, max(at, start))
        start = space + 1 if space >= 0 else start
    piece = body[start:start + SNIPPET]
    return ("…" if start > 0 else "") + piece + ("…" if start + SNIPPET < len(body) else "")
