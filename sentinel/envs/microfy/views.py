"""MicroFy pages (GET): Trending, track, artist, playlist, library, search, mood; actions.py adds the POSTs.
No GET has a side effect (playing is an explicit POST)."""

from __future__ import annotations

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.microfy import queries as q
from sentinel.web.kit import fetch_or_404, paged, paged_list, text_param, world_of
from sentinel.web.render import render

TRACK_GONE = "This track is not available."
routes = Routes()


@routes.get("/", "home")
async def trending(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    listing = await paged(request, per_page=q.PER_PAGE, count_sql="SELECT COUNT(*) FROM tracks",
                          rows_sql=f"SELECT {q.TRACK_COLUMNS} {q.TRACK_FROM} ORDER BY {q.TRENDING_ORDER}",
                          row=q.track_row)
    top = await world.fetch_all("SELECT id, name, monthly_listeners FROM artists"
                                " WHERE id IN (SELECT artist_id FROM tracks)"
                                " ORDER BY monthly_listeners DESC, id LIMIT 6")
    moods = await world.fetch_all("SELECT id, name, genres FROM moods ORDER BY id")
    return await render(request, "microfy/home.html", {
        "list": listing, "top_artists": [dict(a) for a in top], "moods": [dict(m) for m in moods]})


@routes.get("/track/{id}", "track")
async def track_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    row = await fetch_or_404(request, f"SELECT {q.TRACK_COLUMNS}, t.lyrics {q.TRACK_FROM} WHERE t.id = ?",
                             (request.match_info["id"],), TRACK_GONE)
    track = q.track_row(row)
    verses = [stanza.splitlines() for stanza in str(row["lyrics"]).split("\n\n") if stanza.strip()]
    in_lists = await world.fetch_all("SELECT p.id, p.name FROM playlists p JOIN playlist_tracks i"
                                     " ON i.playlist_id = p.id WHERE i.track_id = ? AND p.is_mine = 1"
                                     " ORDER BY p.name", (track["id"],))
    return await render(request, "microfy/track.html", {
        "t": track, "verses": verses, "playlists": await q.my_playlists(world),
        "in_lists": [dict(p) for p in in_lists]})


@routes.get("/artist/{id}", "artist")
async def artist_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    artist = await fetch_or_404(request, "SELECT * FROM artists WHERE id = ?", (request.match_info["id"],),
                                "This artist is not on MicroFy.")
    popular = await q.tracks_where(world, "t.artist_id = ?", (artist["id"],), order="t.global_plays DESC, t.rowid")
    return await render(request, "microfy/artist.html", {"a": dict(artist), "tracks": popular})


@routes.get("/playlist/{id}", "playlist")
async def playlist_view(request: web.Request) -> web.StreamResponse:
    world = world_of(request)
    playlist_id = request.match_info["id"]
    if playlist_id == q.LIKED:
        playlist = {"id": q.LIKED, "name": "Liked Songs", "description": "Songs you liked.",
                    "owner": world.self_persona["name"], "is_mine": 0, "is_liked": True, "follower_count": 0}
    else:
        row = await fetch_or_404(request, "SELECT p.*, COALESCE(o.name, 'MicroFy') AS owner FROM playlists p"
                                 " LEFT JOIN personas o ON o.id = p.owner_id WHERE p.id = ?",
                                 (playlist_id,), "This playlist no longer exists.")
        playlist = {**dict(row), "is_liked": False}
    tracks = await q.playlist_tracks(world, playlist_id)
    total = sum(int(t["duration_s"]) for t in tracks)
    return await render(request, "microfy/playlist.html", {
        "p": playlist, "tracks": tracks, "total": f"{total // 3600} h {total % 3600 // 60} min" if total >= 3600
        else f"{total // 60} min"})


async def library_context(request: web.Request) -> dict:
    world = world_of(request)
    liked = await q.tracks_where(world, "t.liked = 1", order="t.title")
    followed = await world.fetch_all("SELECT id, name, genre FROM artists WHERE followed = 1 ORDER BY name")
    mine = await world.fetch_all("SELECT p.id, p.name, p.description, (SELECT COUNT(*) FROM playlist_tracks i"
                                 " JOIN tracks t ON t.id = i.track_id WHERE i.playlist_id = p.id) AS songs"
                                 " FROM playlists p WHERE p.is_mine = 1 ORDER BY p.created_at, p.rowid")
    return {"liked": liked, "followed": [dict(a) for a in followed], "mine": [dict(p) for p in mine],
            "form": {"name": "", "description": ""}, "error": None}


@routes.get("/library", "library")
async def library_view(request: web.Request) -> web.StreamResponse:
    return await render(request, "microfy/library.html", await library_context(request))


@routes.get("/search", "search")
async def search_view(request: web.Request) -> web.StreamResponse:
    """Tracks by title or artist name (never by lyrics), artists and playlists by name."""
    world = world_of(request)
    query = text_param(request.query, "q", max_len=100, label="The search")
    found: dict = {"tracks": None, "artists": [], "playlists": []}
    if query:
        like = f"%{query}%"
        found["tracks"] = paged_list(request, await q.tracks_where(world, "t.title LIKE ? OR a.name LIKE ?",
                                                                   (like, like), order=q.TRENDING_ORDER))
        for table, columns in (("artists", "id, name, genre"), ("playlists", "id, name")):
            rows = await world.fetch_all(f"SELECT {columns} FROM {table} WHERE name LIKE ? ORDER BY name", (like,))
            found[table] = [dict(r) for r in rows]
    return await render(request, "microfy/search.html", {"found": found, "searched": bool(query)})


@routes.get("/mood/{id}", "mood")
async def mood_view(request: web.Request) -> web.StreamResponse:
    mood = await fetch_or_404(request, "SELECT * FROM moods WHERE id = ?", (request.match_info["id"],),
                              "This mood does not exist.")
    genres = [g.strip() for g in str(mood["genres"]).split(",")]
    marks = ", ".join("?" for _ in genres)
    listing = await paged(request, per_page=q.PER_PAGE, params=genres,
                          count_sql=f"SELECT COUNT(*) FROM tracks t WHERE t.genre IN ({marks})",
                          rows_sql=f"SELECT {q.TRACK_COLUMNS} {q.TRACK_FROM} WHERE t.genre IN ({marks})"
                                   f" ORDER BY {q.TRENDING_ORDER}", row=q.track_row)
    return await render(request, "microfy/mood.html", {"mood": dict(mood), "list": listing})
