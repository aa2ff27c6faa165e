"""What MicroDin pages compute: SQL fragments, page sizes and small row shapes. Rows name people by
persona id; a person is the persona joined with their member profile (headline, company)."""

from __future__ import annotations

from typing import Any

from sentinel.world.state import World

FEED_PER_PAGE, JOBS_PER_PAGE, LIST_PER_PAGE = 10, 15, 20
PREVIEW_CHARS, SUGGESTIONS = 50, 6

def person_join(column: str, prefix: str) -> tuple[str, str]:
    """Columns and joins naming the person in `column` as {prefix}_name, _headline, _color."""
    joins = (f" JOIN personas {prefix}pe ON {prefix}pe.id = {column}"
             f" LEFT JOIN members {prefix}m ON {prefix}m.id = {prefix}pe.id")
    cols = (f"{prefix}pe.name AS {prefix}_name, {prefix}m.headline AS {prefix}_headline,"
            f" {prefix}pe.avatar_color AS {prefix}_color")
    return cols, joins


AUTHOR_COLS, AUTHOR_JOIN = person_join("p.author_id", "author")
POST_ROWS = f"SELECT p.*, {AUTHOR_COLS} FROM posts p{AUTHOR_JOIN}"
POST_ORDER = " ORDER BY p.created_at DESC, p.rowid DESC"

JOB_ROWS = ("SELECT j.*, c.name AS company_name FROM jobs j JOIN companies c ON c.id = j.company_id")
JOB_ORDER = " ORDER BY j.created_at DESC, j.rowid DESC"

INVITE_COLS, INVITE_JOIN = person_join("i.persona_id", "from")
PENDING = f"SELECT i.*, {INVITE_COLS} FROM invitations i{INVITE_JOIN} WHERE i.status = 'pending'"

COUNTERPART_COLS, COUNTERPART_JOIN = person_join("c.counterpart_id", "counterpart")
LATEST = "FROM messages WHERE conversation_id = c.id ORDER BY created_at DESC, rowid DESC LIMIT 1"
CONVERSATION_ROWS = (
    f"SELECT c.id, c.counterpart_id, {COUNTERPART_COLS}, (SELECT body {LATEST}) AS last_body,"
    f" (SELECT sender_id {LATEST}) AS last_sender,"
    " COALESCE((SELECT MAX(created_at) FROM messages WHERE conversation_id = c.id), c.created_at) AS last_at,"
    " (SELECT COUNT(*) FROM messages WHERE conversation_id = c.id AND is_read = 0) AS unread"
    f" FROM conversations c{COUNTERPART_JOIN}")

ACTOR_COLS, ACTOR_JOIN = person_join("n.actor_id", "actor")
NOTIFICATION_ROWS = f"SELECT n.*, {ACTOR_COLS} FROM notifications n{ACTOR_JOIN}"


def preview(text: str | None, limit: int = PREVIEW_CHARS) -> str:
    """A fixed-length preview: the first `limit` characters, with an ellipsis when cut."""
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[:limit].rstrip() + "…"


def split_lines(text: str | None) -> list[str]:
    return [line for line in (text or "").split("\n") if line.strip()]


async def connection_count(world: World) -> int:
    return int(await world.fetch_value("SELECT COUNT(*) FROM members WHERE connected = 1") or 0)


async def person(world: World, persona_id: str) -> Any:
    return await world.fetch_one(
        "SELECT pe.*, m.headline, m.company_id, m.connected, m.about, m.experience, m.education, m.skills,"
        " c.name AS company_name FROM personas pe LEFT JOIN members m ON m.id = pe.id"
        " LEFT JOIN companies c ON c.id = m.company_id WHERE pe.id = ?", (persona_id,))
