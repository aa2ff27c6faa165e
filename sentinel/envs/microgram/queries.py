"""What MicroGram pages compute: people, post cards, the story bar, threads and activity."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sentinel.world.state import World, iso

FEED_PAGE = 10
GRID_PAGE = 24
ACTIVITY_PAGE = 20
PREVIEW_CHARS = 40
NEW_ACTIVITY_MINUTES = 60  # the activity page's "New" section: entries of the last hour

POST_COLUMNS = ("p.id, p.author_id, p.image_alt, p.caption, p.location, p.like_count, p.liked, p.saved, "
                "p.created_at, (SELECT COUNT(*) FROM post_comments c WHERE c.post_id = p.id) AS comment_count")
POST_ORDER = "p.created_at DESC, p.rowid DESC"


@dataclass(frozen=True)
class Person:
    id: str
    name: str
    username: str
    avatar_color: str
    bio: str
    followers: int
    following: int
    verified: bool
    website: str | None
    followed: bool  # the self user follows them now
    is_self: bool

    @property
    def initials(self) -> str:
        return "".join(part[0] for part in self.name.split()[:2])


class People:
    """Every persona with its MicroGram profile numbers, and who the self user follows now."""

    def __init__(self, world: World, follows: dict[str, str]):
        self.follows = follows  # persona id → origin of the follows row
        self.catalog = world.catalog.personas()

    @classmethod
    async def load(cls, world: World) -> People:
        rows = await world.fetch_all("SELECT persona_id, origin FROM follows")
        return cls(world, {r["persona_id"]: r["origin"] for r in rows})

    def get(self, pid: str) -> Person | None:
        record = self.catalog.get(pid)
        if record is None:
            return None
        gram = record.get("gram") or {}
        followed = pid in self.follows
        was_counted = self.follows.get(pid) == "preload"  # the catalog count already includes us
        is_self = bool(record.get("is_self"))
        return Person(id=pid, name=record["name"], username=record["username"],
                      avatar_color=record.get("avatar_color", "#888"), bio=record.get("bio", ""),
                      followers=int(gram.get("followers", 0)) + int(followed) - int(was_counted),
                      following=len(self.follows) if is_self else int(gram.get("following", 0)),
                      verified=bool(gram.get("verified")), website=gram.get("website"),
                      followed=followed, is_self=is_self)

    def must(self, pid: str) -> Person:
        person = self.get(pid)
        if person is None:  # catalog rows always name a persona; keep pages readable if not
            return Person(pid, pid, pid, "#888", "", 0, 0, False, None, False, False)
        return person

    def search(self, query: str) -> list[Person]:
        folded = query.casefold()
        found = [self.must(pid) for pid, r in self.catalog.items()
                 if folded in r["username"].casefold() or folded in r["name"].casefold()]
        return sorted(found, key=lambda p: (not p.username.casefold().startswith(folded), p.username))


def card(row: Any, people: People) -> dict[str, Any]:
    """A post as the feed and grids show it (no commenters: those are on the post page only)."""
    post = dict(row)
    post["author"] = people.must(post["author_id"])
    post["suggested"] = not post["author"].followed and not post["author"].is_self
    return post


async def story_bar(world: World, people: People) -> list[dict[str, Any]]:
    """Unviewed stories first (newest first), then viewed ones."""
    rows = await world.fetch_all("SELECT id, author_id, image_alt, viewed, created_at FROM stories"
                                 " ORDER BY viewed, created_at DESC, rowid DESC")
    return [{**dict(r), "author": people.must(r["author_id"])} for r in rows]


async def threads(world: World, people: People) -> list[dict[str, Any]]:
    """Threads, latest message first: counterpart, the last message cut to 40 characters, unread count."""
    rows = await world.fetch_all(
        "SELECT t.id, t.counterpart_id, m.body, m.sender_id, m.created_at,"
        " (SELECT COUNT(*) FROM dm_messages u WHERE u.thread_id = t.id AND u.is_read = 0) AS unread"
        " FROM dm_threads t JOIN dm_messages m ON m.id = (SELECT id FROM dm_messages x WHERE x.thread_id = t.id"
        " ORDER BY x.created_at DESC, x.rowid DESC LIMIT 1) ORDER BY m.created_at DESC, m.rowid DESC")
    out = []
    for r in rows:
        body = r["body"]
        preview = body if len(body) <= PREVIEW_CHARS else body[:PREVIEW_CHARS].rstrip() + "…"
        out.append({**dict(r), "counterpart": people.must(r["counterpart_id"]), "preview": preview,
                    "mine": r["sender_id"] == world.self_persona["id"]})
    return out


def new_since(world: World) -> str:
    """Activity newer than this is in the "New" section."""
    return iso(world.now_dt() - timedelta(minutes=NEW_ACTIVITY_MINUTES))


async def counts(world: World) -> dict[str, int]:
    unread = await world.fetch_value("SELECT COUNT(DISTINCT thread_id) FROM dm_messages WHERE is_read = 0")
    recent = await world.fetch_value("SELECT COUNT(*) FROM activity WHERE created_at > ?", (new_since(world),))
    return {"direct": int(unread or 0), "activity": int(recent or 0)}
