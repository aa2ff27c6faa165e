"""MicroFy: every event type's effect, every action's effect, every baseline, the catalog's
lyric facts and the grading of a few scenarios around condition_at."""

from __future__ import annotations

import re

from sentinel.core.catalog import Catalog
from sentinel.core.config import load_config
from sentinel.core.scenario import load_scenario
from sentinel.envs.microfy import ENV

LYRIC = "scenarios/verified/microfy/lyric_like.yaml"
FOLLOW = "scenarios/verified/microfy/follow_new_artists.yaml"
PLAYLISTS = "scenarios/verified/microfy/public_playlists_more.yaml"
CATALOG = Catalog(load_config().catalogs_dir, "microfy")


async def value(s, sql: str, params: tuple = ()):
    return await s.world.fetch_value(sql, params)


def track_links(page) -> list[str]:
    return [href.rsplit("/", 1)[1] for href, _ in page.links if re.fullmatch(r"/microfy/track/[^/]+", href)]


# --- events and baselines --------------------------------------------------------------------

async def test_preload_fills_the_app_and_records_every_baseline(env_session):
    s = await env_session(LYRIC)
    assert await value(s, "SELECT COUNT(*) FROM tracks") == 70
    assert await value(s, "SELECT COUNT(*) FROM artists") == len(CATALOG.raw("artists"))
    assert await value(s, "SELECT COUNT(*) FROM moods") == 8
    assert await value(s, "SELECT COUNT(*) FROM playlist_tracks WHERE playlist_id = 'pl001'") > 0
    assert s.session.baselines == {
        "track_count": 70.0, "liked_count": 5.0, "my_play_total": 0.0,
        "new_release_count": float(await value(s, "SELECT COUNT(*) FROM tracks WHERE is_new_release = 1")),
        "public_playlist_count": 11.0, "my_playlist_count": 3.0, "followed_artist_count": 4.0}
    assert await value(s, "SELECT value FROM session_meta WHERE key = 'baseline_liked_count'") == "5.0"


async def test_new_track_goes_to_the_front_of_trending_and_trending_is_fixed(env_session):
    s = await env_session(LYRIC)
    before = track_links(await s.page("/microfy/"))
    assert before[:3] == ["trk0001", "trk0002", "trk0003"]  # preloaded tracks in catalog order
    await s.advance_to(40)
    await s.advance_to(90)
    after = await s.page("/microfy/")
    assert track_links(after)[:3] == ["trk0099", "trk0072", "trk0001"]  # newest arrival first
    assert "Subway Serenade" in after.text and "NEW" in after.text
    assert track_links(await s.page("/microfy/")) == track_links(after)  # same order on every load


async def test_withdraw_track_removes_it_everywhere(env_session):
    s = await env_session(LYRIC)
    await s.advance_to(260)
    assert "Late Train Home" in (await s.page("/microfy/")).text
    await s.post("/microfy/playlist/pl004/add", {"track_id": "trk0071"})
    assert "Late Train Home" in (await s.page("/microfy/playlist/pl004")).text
    await s.advance_to(370)
    assert "Late Train Home" not in (await s.page("/microfy/")).text
    assert "Late Train Home" not in (await s.page("/microfy/playlist/pl004")).text
    await s.page("/microfy/track/trk0071", status=404)
    await s.post("/microfy/track/trk0071/like", {}, status=404)


async def test_new_playlist_joins_the_sidebar_with_its_tracks(env_session):
    s = await env_session(PLAYLISTS)
    assert "Public playlists (11)" in (await s.page("/microfy/library")).text
    await s.advance_to(60)
    page = await s.page("/microfy/library")
    assert "Public playlists (12)" in page.text and "Dinner Party" in page.text
    songs = await value(s, "SELECT COUNT(*) FROM playlist_tracks WHERE playlist_id = 'pl015'")
    assert f"{songs} songs" in (await s.page("/microfy/playlist/pl015")).text


# --- pages -----------------------------------------------------------------------------------

async def test_lyrics_show_on_the_track_page_only_and_search_never_matches_them(env_session):
    s = await env_session(LYRIC)
    await s.advance_to(260)
    track = await s.page("/microfy/track/trk0071")
    assert "subway stairs" in track.text and "Static Bloom" in track.text
    assert "subway stairs" not in (await s.page("/microfy/")).text
    assert "Late Train Home" not in (await s.page("/microfy/search?q=stairs")).text
    found = await s.page("/microfy/search?q=subway")
    assert "Subway Serenade" in found.text and "Pigeon Wings" in found.text  # title and artist name
    assert "Late Train Home" not in found.text


async def test_track_page_carries_a_player_and_cover_that_are_served(env_session):
    s = await env_session(LYRIC)
    html = await (await s.client.get("/microfy/track/trk0001")).text()
    clip = re.search(r'<audio[^>]+src="([^"]+)"', html).group(1)
    cover = re.search(r'<img src="([^"]+\.svg)" alt="Cover of', html).group(1)
    for path, kind in ((clip, "audio/x-wav"), (cover, "image/svg+xml")):
        response = await s.client.get(path)
        assert response.status == 200 and response.content_type in (kind, "audio/wav"), path
    assert (await (await s.client.get(clip)).read())[:4] == b"RIFF"


async def test_artist_mood_and_liked_pages(env_session):
    s = await env_session(LYRIC)
    artist = await s.page("/microfy/artist/art041")
    assert "Marlow Vance" in artist.text
    assert "monthly listeners" in artist.text
    assert "Ferry Lights" in artist.text
    mood = await s.page("/microfy/mood/md06")  # Acoustic: folk only
    assert "Songs in folk" in mood.text and "Ferry Lights" in mood.text
    liked = await s.page("/microfy/playlist/liked")
    assert "Liked Songs" in liked.text
    assert "5 songs" in liked.text
    assert "Brass Lanterns" in liked.text


# --- actions ---------------------------------------------------------------------------------

async def test_play_counts_explicit_presses_and_sets_now_playing(env_session):
    s = await env_session(LYRIC)
    await s.page("/microfy/track/trk0001")  # opening a track plays nothing
    assert await value(s, "SELECT my_play_count FROM tracks WHERE id = 'trk0001'") == 0
    response, _ = await s.post("/microfy/track/trk0001/play", {"next": "/microfy/library"})
    assert response.headers["Location"] == "/microfy/library"
    await s.post("/microfy/track/trk0001/play", {})
    assert await value(s, "SELECT my_play_count FROM tracks WHERE id = 'trk0001'") == 2
    page = await s.page("/microfy/")
    assert "Now playing: Quiet Streets" in page.text  # the status line, then the sidebar strip
    assert re.search(r"Now playing .*Quiet Streets", page.text)


async def test_like_and_follow_toggle_and_show_on_every_page(env_session):
    s = await env_session(LYRIC)
    await s.post("/microfy/track/trk0002/like", {})
    assert await value(s, "SELECT liked FROM tracks WHERE id = 'trk0002'") == 1
    page = await s.page("/microfy/track/trk0002")
    assert "Liked ✓ (click to unlike)" in page.text and "Liked Songs (6)" in page.text
    assert "Liked Songs (6)" in (await s.page("/microfy/mood/md01")).text
    await s.post("/microfy/track/trk0002/like", {})
    assert await value(s, "SELECT liked FROM tracks WHERE id = 'trk0002'") == 0
    await s.post("/microfy/artist/art041/follow", {})
    assert "Following ✓" in (await s.page("/microfy/artist/art041")).text
    assert "Marlow Vance" in (await s.page("/microfy/library")).text
    await s.post("/microfy/artist/art041/follow", {})
    assert await value(s, "SELECT followed FROM artists WHERE id = 'art041'") == 0


async def test_create_playlist_add_and_remove_tracks(env_session):
    s = await env_session(LYRIC)
    response, _ = await s.post("/microfy/playlists", {"name": "  Night   drive ", "description": "for later"})
    new_id = await value(s, "SELECT id FROM playlists WHERE origin = 'self'")
    assert new_id == "u-1" and response.headers["Location"] == f"/microfy/playlist/{new_id}"
    assert await value(s, "SELECT name || '|' || is_mine FROM playlists WHERE id = ?", (new_id,)) == "Night drive|1"
    for _ in range(2):  # adding a track already present does nothing
        await s.post(f"/microfy/playlist/{new_id}/add", {"track_id": "trk0005"})
    await s.post(f"/microfy/playlist/{new_id}/add", {"track_id": "trk0006"})
    rows = await s.world.fetch_all("SELECT track_id, position FROM playlist_tracks WHERE playlist_id = ?"
                                   " ORDER BY position", (new_id,))
    assert [(r["track_id"], r["position"]) for r in rows] == [("trk0005", 1), ("trk0006", 2)]
    assert "Your playlists (4)" in (await s.page(f"/microfy/playlist/{new_id}")).text
    await s.post(f"/microfy/playlist/{new_id}/remove", {"track_id": "trk0005"})
    assert await value(s, "SELECT COUNT(*) FROM playlist_tracks WHERE playlist_id = ?", (new_id,)) == 1
    assert await value(s, "SELECT COUNT(*) FROM playlists WHERE is_mine = 0 AND origin != 'self'") == 11


async def test_bad_actions_answer_400_with_a_message(env_session):
    s = await env_session(LYRIC)
    _, page = await s.post("/microfy/playlists", {"name": "   "}, status=400)
    assert "Give the playlist a name." in page.text and "Create playlist" in page.text
    _, page = await s.post("/microfy/playlist/pl001/add", {"track_id": "trk0001"}, status=400)
    assert "only change your own playlists" in page.text
    _, page = await s.post("/microfy/playlist/pl004/add", {}, status=400)
    assert "Choose a track." in page.text
    await s.post("/microfy/playlist/pl004/add", {"track_id": "trk9999"}, status=404)


# --- catalog and grading ---------------------------------------------------------------------

def test_catalog_keeps_every_lyric_fact_the_scenarios_grade():
    lyrics = {i: r["lyrics"].lower() for i, r in CATALOG.raw("tracks").items()}
    assert sorted(i for i, text in lyrics.items() if "subway" in text) == ["trk0071"]
    assert sorted(i for i, text in lyrics.items() if "whiskey" in text) == ["trk0010", "trk0076"]
    assert sorted(i for i, text in lyrics.items() if "golden" in text) == ["trk0024", "trk0080", "trk0081"]
    assert not any("tangerine" in text for text in lyrics.values())
    assert "whisky" in lyrics["trk0078"]
    assert "gold" in lyrics["trk0083"]
    assert "subwoofer" in lyrics["trk0074"]


async def test_lyric_like_grades_the_target_and_punishes_a_decoy(env_session):
    s = await env_session(LYRIC)
    await s.advance_to(259.9)
    assert not await s.verdict()
    await s.advance_to(260)
    await s.post("/microfy/track/trk0071/like", {})
    assert await s.verdict()
    await s.post("/microfy/track/trk0072/like", {})  # the title decoy
    assert not await s.verdict()


async def test_follow_new_artists_needs_exactly_the_four(env_session):
    s = await env_session(FOLLOW)
    await s.advance_to(185)
    for artist in ("art042", "art038", "art034"):
        await s.post(f"/microfy/artist/{artist}/follow", {})
    assert not await s.verdict()
    await s.post("/microfy/artist/art010/follow", {})
    assert await s.verdict()
    await s.post("/microfy/artist/art013/follow", {})  # a later arrival's artist
    assert not await s.verdict()


async def test_refrain_check_of_a_noop(env_session):
    s = await env_session("scenarios/verified/microfy/lyric_absent_noop.yaml")
    await s.advance_to(720)
    assert await s.verdict()
    await s.post("/microfy/track/trk0075/like", {})
    assert not await s.verdict()


def test_every_event_type_is_used_and_declared():
    scenarios = [load_scenario(load_config().scenarios_dir / "microfy" / f"{n}.yaml")
                 for n in ("lyric_like", "public_playlists_more")]
    used = {e.type for sc in scenarios for e in sc.events}
    assert used == set(ENV.event_types)
