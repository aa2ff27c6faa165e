"""What MicroTube's pages compute: video cards, counts in words, search, header counters."""

from __future__ import annotations

from typing import Any

from sentinel.world.state import World

CARD_SELECT = ("SELECT v.*, c.name AS channel_name, c.handle AS channel_handle, c.is_verified AS channel_verified, "
               "c.subscribed AS channel_subscribed FROM videos v JOIN channels c ON c.id = v.channel_id")
NEWEST = "ORDER BY v.arrived_at DESC, v.created_at DESC, v.rowid DESC"
CATEGORIES = ("gaming", "science", "music", "film", "tech", "education", "cooking", "howto", "sports",
              "nature", "travel", "comedy", "people")
LABELS = {"howto": "How-to", "tech": "Tech"}
OPEN_NOTIFICATIONS = "FROM notifications WHERE dismissed = 0"


def category_label(category: str) -> str:
    return LABELS.get(category, category.capitalize())


def compact(n: int) -> str:
    """1234 → '1.2K', 2_400_000 → '2.4M' (as video sites print counts)."""
    for size, suffix in ((1_000_000_000, "B"), (1_000_000, "M"), (1_000, "K")):
        if n >= size:
            value = n / size
            text = f"{value:.1f}" if value < 10 else f"{int(value)}"
            return text.removesuffix(".0") + suffix
    return str(n)


def duration_text(seconds: int) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def card(row: Any) -> dict[str, Any]:
    """A video row as every list prints it."""
    video = dict(row)
    video["length"] = "LIVE" if video["is_live"] else duration_text(video["duration_s"])
    video["views"] = f"{compact(video['view_count'])} {'watching' if video['is_live'] else 'views'}"
    video["likes"] = compact(video["like_count"])
    video["thumbnail"] = f"/static/microtube/{video['id']}.svg"
    return video


def like_pattern(text: str) -> str:
    """A LIKE pattern matching text anywhere, with % and _ taken literally (ESCAPE '\\')."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


async def categories_present(world: World) -> list[str]:
    found = {r[0] for r in await world.fetch_all("SELECT DISTINCT category FROM videos")}
    return [c for c in CATEGORIES if c in found]


async def open_notification_count(world: World) -> int:
    return int(await world.fetch_value(f"SELECT COUNT(*) {OPEN_NOTIFICATIONS}") or 0)


async def suggestions(world: World, video: dict[str, Any], limit: int = 8) -> list[dict[str, Any]]:
    """Up next: the same category first, then the newest others."""
    rows = await world.fetch_all(f"{CARD_SELECT} WHERE v.id != ? AND v.is_short = 0 "
                                 "ORDER BY (v.category = ?) DESC, v.created_at DESC, v.rowid DESC LIMIT ?",
                                 (video["id"], video["category"], limit))
    return [card(r) for r in rows]


async def playlists_with_counts(world: World) -> list[dict[str, Any]]:
    rows = await world.fetch_all("SELECT p.id, p.name, p.created_at, COUNT(pv.video_id) AS size FROM playlists p "
                                 "LEFT JOIN playlist_videos pv ON pv.playlist_id = p.id "
                                 "GROUP BY p.id ORDER BY p.created_at, p.rowid")
    return [dict(r) for r in rows]
