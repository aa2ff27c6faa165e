"""MicroFy actions (POST): play, like, follow, create a playlist, add to and remove from one of the user's
playlists. Each answers 303 to the form's `next` page with a one-line status; bad input answers 400."""

from __future__ import annotations

from aiohttp import web

from sentinel.core.environment import Routes
from sentinel.envs.microfy.views import TRACK_GONE, library_context
from sentinel.web.kit import BadInput, done, fetch_or_404, form_of, route_name, text_param, toggle, url_for, world_of
from sentinel.web.render import render

MAX_NAME = 80
MAX_DESCRIPTION = 300
routes = Routes()


async def track_of(request: web.Request, track_id: str) -> dict:
    return dict(await fetch_or_404(request, "SELECT id, title FROM tracks WHERE id = ?", (track_id,), TRACK_GONE))


@routes.post("/track/{id}/play", "play")
async def play(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    track = await track_of(request, request.match_info["id"])
    async with world.write() as db:
        await db.execute("UPDATE tracks SET my_play_count = my_play_count + 1, last_played_at = ? WHERE id = ?",
                         (world.now(), track["id"]))
    raise done(request, form, f"Now playing: {track['title']}", url_for(request, "track", id=track["id"]))


@routes.post("/track/{id}/like", "like")
async def like(request: web.Request) -> web.StreamResponse:
    form = await form_of(request)
    track = await track_of(request, request.match_info["id"])
    liked = await toggle(request, "tracks", "liked", track["id"])
    message = f"Added {track['title']} to Liked Songs" if liked else f"Removed {track['title']} from Liked Songs"
    raise done(request, form, message, url_for(request, "track", id=track["id"]))


@routes.post("/artist/{id}/follow", "follow")
async def follow(request: web.Request) -> web.StreamResponse:
    form = await form_of(request)
    artist = await fetch_or_404(request, "SELECT id, name FROM artists WHERE id = ?", (request.match_info["id"],),
                                "This artist is not on MicroFy.")
    following = await toggle(request, "artists", "followed", artist["id"])
    raise done(request, form, f"Following {artist['name']}" if following else f"Unfollowed {artist['name']}",
               url_for(request, "artist", id=artist["id"]))


@routes.post("/playlists", "create_playlist")
async def create_playlist(request: web.Request) -> web.StreamResponse:
    world, form = world_of(request), await form_of(request)
    try:
        name = text_param(form, "name", max_len=MAX_NAME, label="The playlist name")
        description = text_param(form, "description", max_len=MAX_DESCRIPTION, label="The description")
        if not name:
            raise BadInput("Give the playlist a name.")
    except BadInput as exc:
        kept = {"name": str(form.get("name", ""))[:MAX_NAME],
                "description": str(form.get("description", ""))[:MAX_DESCRIPTION]}
        return await render(request, "microfy/library.html",
                            {**await library_context(request), "form": kept, "error": str(exc)}, status=400)
    async with world.write():
        new_id = await world.next_self_id("playlists")
        await world.insert("playlists", {"id": new_id, "name": name, "description": description,
                                         "owner_id": world.self_persona["id"], "is_mine": 1}, origin="self")
    raise done(request, form, f"Created playlist {name}", url_for(request, "playlist", id=new_id))


@routes.post("/playlist/{id}/remove", "playlist_remove")
@routes.post("/playlist/{id}/add", "playlist_add")
async def playlist_edit(request: web.Request) -> web.StreamResponse:
    """Add the form's track to the end of one of the user's own playlists (400 for someone else's), or remove it."""
    world, form = world_of(request), await form_of(request)
    playlist = await fetch_or_404(request, "SELECT id, name, is_mine FROM playlists WHERE id = ?",
                                  (request.match_info["id"],), "This playlist no longer exists.")
    if not playlist["is_mine"]:
        raise BadInput("You can only change your own playlists.")
    track_id = form.get("track_id")
    if not isinstance(track_id, str) or not track_id:
        raise BadInput("Choose a track.")
    track, adding = await track_of(request, track_id), route_name(request) == "playlist_add"
    async with world.write() as db:
        if adding:
            await db.execute("INSERT OR IGNORE INTO playlist_tracks (playlist_id, track_id, position)"
                             " SELECT ?, ?, COALESCE(MAX(position), 0) + 1 FROM playlist_tracks WHERE playlist_id = ?",
                             (playlist["id"], track["id"], playlist["id"]))
        else:
            await db.execute("DELETE FROM playlist_tracks WHERE playlist_id = ? AND track_id = ?",
                             (playlist["id"], track["id"]))
    change = f"Added {track['title']} to" if adding else f"Removed {track['title']} from"
    raise done(request, form, f"{change} {playlist['name']}", url_for(request, "playlist", id=playlist["id"]))
