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

CONVERSATION_ROWS = """
SELECT c.id, c.counterpart_id, pe.name AS counterpart_name, m.headline AS counterpart_headline,
       pe.avatar_color AS counterpart_color,
       (SELECT body FROM messages WHERE conversation_id = c.id
        ORDER BY created_at DESC, rowid DESC LIMIT 1) AS last_body,
       (SELECT sender_id FROM messages WHERE conversation_id = c.id
        ORDER BY created_at DESC, rowid DESC LIMIT 1) AS last_sender,
       COALESCE((SELECT MAX(created_at) FROM messages WHERE conversation_id = c.id), c.created_at) AS last_at,
       (SELECT COUNT(*) FROM messages WHERE conversation_id = c.id AND is_read = 0) AS unread
FROM conversations c JOIN personas pe ON pe.id = c.counterpart_id LEFT JOIN members m ON m.id = pe.id
"""

ACTOR_COLS, ACTOR_JOIN = person_join("n.actor_id", "actor")
NOTIFICATION_ROWS = f"SELECT n.*, {ACTOR_COLS} FROM notifications n{ACTOR_JOIN}"


def preview(text: str | None, limit: int = PREVIEW_CHARS) -> str:
    """A fixed-length preview: the first `limit` characters, with an ellipsis when cut."""
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[:limit].rstrip() + "…"


def split_lines(text: str | None) -> list[str]:
    return [line for line in (text or "").split("\n") if line.strip()]


async def counts(world: World) -> dict[str, int]:
    """The header's counters: pending invitations, unread conversations, unread notifications."""
    row = await world.fetch_one(
        "SELECT (SELECT COUNT(*) FROM invitations WHERE status = 'pending') AS network,"
        " (SELECT COUNT(DISTINCT conversation_id) FROM messages WHERE is_read = 0) AS messaging,"
        " (SELECT COUNT(*) FROM notifications WHERE is_read = 0) AS notifications")
    return {key: int(row[key] or 0) for key in ("network", "messaging", "notifications")} if row else {}


async def connection_count(world: World) -> int:
    return int(await world.fetch_value("SELECT COUNT(*) FROM members WHERE connected = 1") or 0)


async def person(world: World, persona_id: str) -> Any:
    return await world.fetch_one(
        "SELECT pe.*, m.headline, m.company_id, m.connected, m.about, m.experience, m.education, m.skills,"
        " c.name AS company_name FROM personas pe LEFT JOIN members m ON m.id = pe.id"
        " LEFT JOIN companies c ON c.id = m.company_id WHERE pe.id = ?", (persona_id,))


def notification_target(row: Any, conversation_id: str | None) -> tuple[str, dict[str, str]]:
    """Where a notification leads: (route name, path parts)."""
    if row["post_id"]:
        return "post", {"id": row["post_id"]}
    if row["job_id"]:
        return "job", {"id": row["job_id"]}
    if row["kind"] == "message":
        return ("thread", {"id": conversation_id}) if conversation_id else ("messaging", {})
    if row["kind"] in ("connection", "profile_view"):
        return "profile", {"id": row["actor_id"]}
    return "profile", {"id": "me"}
