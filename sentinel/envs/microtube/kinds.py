"""MicroTube's ten scenario kinds (ENVIRONMENTS §10): the authored scenarios made into templates.

Every draw keeps the authored preload (the catalog's preload material: videos, comments and
notifications with an age, the usual subscriptions) and picks from the catalog's arrivals:
uploads (with their upload notification at the same instant), comments on preloaded videos and
notifications that need no upload. Knobs: `decoys` look-alikes before the target (per kind
below), `near_miss` how alike they are, `hold_s` until a liked upload is taken down, `density`
background arrivals per sim minute. Solutions count against numbers known from the preload, so
the oracle does not depend on when its first read lands.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs
from sentinel.envs.microtube.kinds_counts import COUNT_KINDS
from sentinel.envs.microtube.kinds_kit import (
    ABSENT_GAMES,
    GAME,
    Unit,
    about,
    fill,
    has,
    preload,
    room,
    taxonomy,
    unit_events,
    units,
    used_by,
    video,
)
from sentinel.envs.microtube.kinds_uploads import UPLOAD_KINDS
from sentinel.generation.kit import choose, nearest, scenario, sql_text, target_time, timeline, times_between

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog


# --- comment_keyword and its no-op --------------------------------------------------------

def games(catalog: Catalog) -> dict[str, str]:
    """Game name → the one arrival comment naming it (the catalog's notes say which game a comment names)."""
    comments = catalog.raw("video_comments")
    found: dict[str, str] = {}
    for cid, rec in comments.items():
        m = GAME.search(str(rec.get("_note", "")))
        if "age_minutes" not in rec and m:
            found[m.group(1).strip()] = cid
    return {g: cid for g, cid in found.items() if mentions(catalog, g) == {cid}}


def mentions(catalog: Catalog, word: str) -> set[str]:
    """Every comment and video (title or description) whose text holds `word`, ignoring case."""
    low = word.lower()
    out = {cid for cid, r in catalog.raw("video_comments").items() if low in r["body"].lower()}
    return out | {vid for vid, r in catalog.raw("videos").items() if low in f"{r['title']} {r['description']}".lower()}


def _comment_setup(rng: random.Random, catalog: Catalog, knobs: Knobs, spare: int = 0) -> dict[str, Any]:
    found = games(catalog)
    game = choose(rng, sorted(found), "game named in a comment")
    target = found[game]
    comments = catalog.raw("video_comments")
    named = set(found.values())
    others = [u for u in units(catalog) if has(u, "new_comment") and u[0][1] != target
              and game.lower() not in comments[u[0][1]]["body"].lower()]

    def score(u: Unit) -> float:
        body = comments[u[0][1]]["body"]
        prefix = any(w[:4].lower() == game[:4].lower() for w in re.findall(r"[A-Za-z]{4,}", body))
        return (u[0][1] in named) + 0.6 * prefix + 0.3 * (video(catalog, comments[u[0][1]]["video_id"])["category"]
                                                          == video(catalog, comments[target]["video_id"])["category"])
    decoys = nearest(rng, others, min(room(knobs, 0), len(others) - spare), score, knobs.near_miss)
    at = target_time(rng, knobs, lo=4 + 2 * len(decoys))
    key = [e for t, u in zip(times_between(rng, len(decoys), 0, at), decoys, strict=True)
           for e in unit_events(u, t, f"decoy: {about(catalog, u)}: {comments[u[0][1]]['body']!r}, not {game}")]
    return {"game": game, "target": target, "video": comments[target]["video_id"], "at": at, "key": key,
            "named": named}


def draw_comment_keyword(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _comment_setup(rng, catalog, knobs)
    game, vid, at = s["game"], s["video"], s["at"]
    title = video(catalog, vid)["title"]
    key = s["key"] + unit_events((("new_comment", s["target"]),), at,
                                 f"target: a comment on '{title}' ({vid}) naming {game}")
    key += fill(rng, catalog, knobs, key, used_by(key) | {s["target"]}, lambda u, t: True)
    like = sql_text(f"%{game}%")
    return scenario(
        description=f"{len(s['key'])} comments naming other games or look-alike words come first; at {at} s a comment "
                    f"under '{title}' names {game}. Comments show only on watch pages.",
        prompt=f"A friend says people are arguing about {game} in the comments on MicroTube. When a new comment that "
               f"mentions {game} appears under any video, open that video's page (so it is in my watch history after "
               "the comment arrived) and tell me.",
        condition_at=at, start_page="/microtube/",
        taxonomy=taxonomy("active", "absolute", "medium", "comments naming other games, comments visible only on "
                                                          "watch pages"),
        events=timeline(preload(catalog), key),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM video_comments WHERE origin = 'event' AND body LIKE {like})",
        eval_sql="SELECT EXISTS (SELECT 1 FROM video_comments k JOIN videos v ON v.id = k.video_id WHERE "
                 f"k.origin = 'event' AND k.body LIKE {like} AND v.last_watched_at >= k.created_at)",
        solution=[{"watch": f"/microtube/watch/{vid}", "until": {"text": game}},
                  {"report": f"A new comment mentioning {game} is under '{title}'; I opened the video."}])


def draw_comment_keyword_absent_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Another game is asked for; no comment names it. The source task's target still arrives."""
    s = _comment_setup(rng, catalog, knobs, spare=1)
    game, vid, at = s["game"], s["video"], s["at"]
    on_timeline = used_by(s["key"]) | {s["target"]}
    found = games(catalog)
    asked = choose(rng, sorted({g for g, cid in found.items() if cid not in on_timeline}
                               | {g for g in ABSENT_GAMES if not mentions(catalog, g)}), "absent game")
    banned = mentions(catalog, asked)
    key = s["key"] + unit_events((("new_comment", s["target"]),), at,
                                 f"near miss (the source task's target): a comment on '{video(catalog, vid)['title']}' "
                                 f"naming {game}, not {asked}")
    key += fill(rng, catalog, knobs, key, on_timeline | banned, lambda u, t: True)
    return scenario(
        description=f"No-op copy of comment_keyword asking for {asked}, which no comment names; the {game} comment "
                    f"still arrives at {at} s (the near miss) among comments naming other games.",
        prompt=f"A friend says people are arguing about {asked} in the comments on MicroTube. When a new comment that "
               f"mentions {asked} appears under any video, open that video's page and tell me.",
        condition_at=None, start_page="/microtube/",
        taxonomy=taxonomy("noop", "absolute", "medium", f"comments naming other games, one naming {game}"),
        events=timeline(preload(catalog), key),
        condition_sql="SELECT EXISTS (SELECT 1 FROM video_comments WHERE origin = 'event' AND body LIKE "
                      f"{sql_text(f'%{asked}%')})",
        near_miss_sql="SELECT EXISTS (SELECT 1 FROM video_comments WHERE origin = 'event' AND body LIKE "
                      f"{sql_text(f'%{game}%')})",
        solution=[{"watch": f"/microtube/watch/{vid}", "until": {"text": asked}},
                  {"report": f"A new comment mentioning {asked} appeared; I opened the video."}])


KINDS: tuple[Kind, ...] = tuple(sorted((
    Kind("comment_keyword", "active", "absolute", draw_comment_keyword, Knobs(decoys=4),
         "decoys: comments before the target (near_miss: naming another game, sharing the game's first letters, "
         "on a video of the target's category)"),
    Kind("comment_keyword_absent_noop", "noop", "absolute", draw_comment_keyword_absent_noop, Knobs(decoys=4),
         "as comment_keyword; another game (named by no comment) is asked for, the source target is the near miss"),
    *COUNT_KINDS, *UPLOAD_KINDS,
), key=lambda k: k.name))
