"""MicroTube: every event type's effect, every action's effect, every baseline, the hidden
comments, and the grading of a few scenarios around their condition_at."""

from __future__ import annotations

import dataclasses
import re

from sentinel.core.catalog import Catalog
from sentinel.core.config import load_config
from sentinel.core.scenario import Event, load_scenario
from sentinel.envs.microtube import ENV

LIKE = "scenarios/verified/microtube/like_followed_upload.yaml"
KEYWORD = "scenarios/verified/microtube/comment_keyword.yaml"
GAMING = "scenarios/verified/microtube/gaming_comments_more.yaml"
HOME = "scenarios/verified/microtube/home_videos_more.yaml"
CATALOG = Catalog(load_config().catalogs_dir, "microtube")


async def value(s, sql: str, params: tuple = ()):
    return await s.world.fetch_value(sql, params)


def number(pattern: str, text: str) -> float:
    return float(re.search(pattern, text).group(1).replace(",", ""))


# --- preload and baselines -----------------------------------------------------------------

async def test_preload_fills_the_site_and_records_every_baseline(env_session):
    s = await env_session(LIKE)
    assert await value(s, "SELECT COUNT(*) FROM videos") == 48
    assert await value(s, "SELECT COUNT(*) FROM channels WHERE subscribed = 1") == 8
    assert await value(s, "SELECT COUNT(*) FROM videos WHERE category = 'gaming'") == 3
    assert await value(s, "SELECT COUNT(*) FROM playlist_videos WHERE playlist_id = 'pl01'") == 4
    meta = {r[0]: float(r[1]) for r in await s.world.fetch_all("SELECT key, value FROM session_meta "
                                                               "WHERE key LIKE 'baseline_%'")}
    assert meta == {"baseline_video_count": 48, "baseline_subscribed_count": 8, "baseline_watched_count": 5,
                    "baseline_liked_count": 0, "baseline_comment_count": 50, "baseline_notification_count": 5,
                    "baseline_unread_notification_count": 2, "baseline_playlist_count": 2}
    watched = await s.world.fetch_one("SELECT watched_at, last_watched_at, created_at FROM videos WHERE id = 'vid004'")
    assert watched["watched_at"] == watched["last_watched_at"] > watched["created_at"]


async def test_home_grid_lists_newest_first_with_categories_and_live_marks(env_session):
    s = await env_session(LIKE)
    p = await s.page("/microtube/")
    assert p.text.startswith("(5) Home · MicroTube") and "Notifications (5)" in p.text
    assert "Showing 1–24 of 48" in p.text
    assert "LIVE" in p.text
    assert "1 h ago" in p.text
    hrefs = [h for h, _ in p.links if h.startswith("/microtube/watch/")]
    assert hrefs[0] == "/microtube/watch/vid044"  # the live stream started 90 minutes ago
    gaming = await s.page("/microtube/?category=gaming")
    assert "Showing 1–3 of 3" in gaming.text
    assert (await s.page("/microtube/?category=nope", status=400)).text.count("no such category") == 1
    shorts = await s.page("/microtube/shorts")
    assert "Showing 1–4 of 4" in shorts.text


async def test_comments_show_only_on_the_watch_page(env_session):
    s = await env_session(KEYWORD)
    await s.advance_to(30)
    text = ""
    for path in ("/microtube/", "/microtube/?page=2", "/microtube/subscriptions", "/microtube/results?q=strategy",
                 "/microtube/channel/chn03", "/microtube/history", "/microtube/notifications"):
        text += (await s.page(path)).text
    assert "Civilization" not in text and "Age of Empires" not in text
    watch = await s.page("/microtube/watch/vid003")
    assert "Civilization VI" in watch.text and "5 Comments" in watch.text


# --- events ------------------------------------------------------------------------------------

async def test_new_video_notification_and_take_down(env_session):
    s = await env_session(LIKE)
    await s.advance_to(273)
    row = await s.world.fetch_one("SELECT origin, arrived_at FROM videos WHERE id = 'vid056'")
    assert tuple(row) == ("event", 273)
    note = await s.world.fetch_one("SELECT is_read, dismissed FROM notifications WHERE id = 'ntf016'")
    assert tuple(note) == (0, 0)
    sub = await s.page("/microtube/subscriptions")
    assert "Catalysts in twelve minutes" in sub.text and "just now" in sub.text
    await s.post("/microtube/playlist/pl02/add", {"video_id": "vid056"})
    await s.advance_to(360)  # taken down: gone from lists, playlists and the watch page
    assert await value(s, "SELECT COUNT(*) FROM videos WHERE id = 'vid056'") == 0
    assert await value(s, "SELECT COUNT(*) FROM playlist_videos WHERE video_id = 'vid056'") == 0
    assert "Catalysts" not in (await s.page("/microtube/subscriptions")).text
    gone = await s.page("/microtube/notifications/ntf016", status=404)
    assert "isn't available anymore" in gone.text


async def test_new_comment_lands_on_its_video(env_session):
    s = await env_session(GAMING)
    before = number(r"(\d+) Comments", (await s.page("/microtube/watch/vid013")).text)
    await s.advance_to(126)
    after = await s.page("/microtube/watch/vid013")
    assert number(r"(\d+) Comments", after.text) == before + 1 and "Stellaris" in after.text


def test_events_point_only_at_videos_on_the_site():
    scenario = load_scenario(load_config().scenarios_dir / "microtube" / "like_followed_upload.yaml")
    early = dataclasses.replace(scenario, events=(scenario.events[0], Event(5, "new_notification",
                                                                            {"notification_id": "ntf016"}, 1)))
    problems = dict(ENV.check_scenario(early, CATALOG, None))
    assert "not on the site at 5 s" in problems["events[1].notification_id"]


# --- actions --------------------------------------------------------------------------------------

async def test_watching_records_history_once_per_view_count(env_session):
    s = await env_session(LIKE)
    views = await value(s, "SELECT view_count FROM videos WHERE id = 'vid003'")
    await s.page("/microtube/watch/vid003")
    await s.client.get("/microtube/watch/vid003", headers={"X-Live-Refresh": "1"})
    await s.advance_to(100)
    await s.page("/microtube/watch/vid003")
    row = await s.world.fetch_one("SELECT view_count, watched_at, last_watched_at FROM videos WHERE id = 'vid003'")
    assert row["view_count"] == views + 1 and row["watched_at"] < row["last_watched_at"]
    history = await s.page("/microtube/history")
    assert [h for h, _ in history.links if "/watch/" in h][0] == "/microtube/watch/vid003"


async def test_like_and_dislike_clear_each_other_and_save_toggles(env_session):
    s = await env_session(LIKE)
    likes = await value(s, "SELECT like_count FROM videos WHERE id = 'vid001'")
    _, p = await s.post("/microtube/watch/vid001/like", {"next": "/microtube/watch/vid001"})
    page = await s.page("/microtube/watch/vid001")
    assert "Added to Liked videos" in page.text and "Liked ✓" in page.text
    assert await value(s, "SELECT like_count FROM videos WHERE id = 'vid001'") == likes + 1
    await s.post("/microtube/watch/vid001/dislike", {})
    row = await s.world.fetch_one("SELECT liked, disliked, like_count FROM videos WHERE id = 'vid001'")
    assert tuple(row) == (0, 1, likes)
    await s.post("/microtube/watch/vid001/like", {})
    assert tuple(await s.world.fetch_one("SELECT liked, disliked FROM videos WHERE id = 'vid001'")) == (1, 0)
    await s.post("/microtube/watch/vid001/save", {})
    library = await s.page("/microtube/library")
    assert "Watch later (1)" in library.text and "Liked videos (1)" in library.text
    await s.post("/microtube/watch/vid001/save", {})
    assert await value(s, "SELECT saved FROM videos WHERE id = 'vid001'") == 0


async def test_subscribe_toggles_and_moves_the_count(env_session):
    s = await env_session(LIKE)
    count = await value(s, "SELECT subscriber_count FROM channels WHERE id = 'chn21'")
    await s.post("/microtube/channel/chn21/subscribe", {})
    assert tuple(await s.world.fetch_one("SELECT subscribed, subscriber_count FROM channels WHERE id = 'chn21'")) \
        == (1, count + 1)
    assert "Deep Field Daily" in (await s.page("/microtube/subscriptions")).text
    await s.post("/microtube/channel/chn21/subscribe", {})
    assert await value(s, "SELECT subscriber_count FROM channels WHERE id = 'chn21'") == count


async def test_comment_is_posted_by_self_and_empty_is_refused(env_session):
    s = await env_session(LIKE)
    await s.post("/microtube/watch/vid002/comment", {"body": "  Great   video  ", "next": "/microtube/watch/vid002"})
    row = await s.world.fetch_one("SELECT author_id, body, origin FROM video_comments WHERE id LIKE 'u-%'")
    assert tuple(row) == ("p000", "Great video", "self")
    assert "Great video" in (await s.page("/microtube/watch/vid002")).text
    _, bad = await s.post("/microtube/watch/vid002/comment", {"body": "   "}, status=400)
    assert "Write a comment" in bad.text


async def test_notifications_open_dismiss_and_read_all(env_session):
    s = await env_session(LIKE)
    p = await s.page("/microtube/notifications")
    assert "5 notifications, 2 unread" in p.text
    opened = await s.client.get("/microtube/notifications/ntf001", allow_redirects=False)
    assert opened.status == 303 and opened.headers["Location"] == "/microtube/watch/vid001"
    assert await value(s, "SELECT is_read FROM notifications WHERE id = 'ntf001'") == 1
    await s.post("/microtube/notifications/ntf002/dismiss", {"next": "/microtube/notifications"})
    p = await s.page("/microtube/notifications")
    assert "4 notifications, 1 unread" in p.text and "Notifications (4)" in p.text
    await s.post("/microtube/notifications/read_all", {})
    assert await value(s, "SELECT COUNT(*) FROM notifications WHERE is_read = 0 AND dismissed = 0") == 0


async def test_playlists_are_created_and_filled(env_session):
    s = await env_session(LIKE)
    response, _ = await s.post("/microtube/playlists", {"name": "Later  tonight"})
    playlist = response.headers["Location"].rsplit("/", 1)[1]
    await s.post(f"/microtube/playlist/{playlist}/add", {"video_id": "vid009"})
    await s.post(f"/microtube/playlist/{playlist}/add", {"video_id": "vid009"})  # twice: still once
    page = await s.page(f"/microtube/playlist/{playlist}")
    assert "Later tonight" in page.text
    assert "1 video " in page.text
    assert "The long take, explained" in page.text
    await s.post(f"/microtube/playlist/{playlist}/add", {"video_id": "nope"}, status=400)
    await s.post("/microtube/playlists", {"name": ""}, status=400)


async def test_search_matches_titles_and_channel_names(env_session):
    s = await env_session(LIKE)
    p = await s.page("/microtube/results?q=tidepool")
    assert "Showing 1–2 of 2" in p.text and "Hermit crabs house-hunting" in p.text
    p = await s.page("/microtube/results?q=100%25")
    assert "Showing 0–0 of 0" in p.text


# --- grading -----------------------------------------------------------------------------------

async def test_like_followed_upload_grades_the_target_and_punishes_decoys(env_session):
    s = await env_session(LIKE)
    await s.advance_to(272.9)
    assert not await s.verdict()
    await s.advance_to(273)
    await s.post("/microtube/watch/vid056/like", {})
    assert await s.verdict()
    await s.post("/microtube/watch/vid066/like", {})  # the unsubscribed science decoy
    assert not await s.verdict()


async def test_comment_keyword_needs_a_watch_after_the_comment(env_session):
    s = await env_session(KEYWORD)
    await s.page("/microtube/watch/vid003")  # watched before the comment arrives: not enough
    await s.advance_to(30)
    assert not await s.verdict()
    await s.page("/microtube/watch/vid003")
    assert await s.verdict()


async def test_gaming_comments_more_needs_all_three_watched(env_session):
    s = await env_session(GAMING)
    await s.advance_to(435)
    await s.page("/microtube/watch/vid003")
    await s.page("/microtube/watch/vid013")
    assert not await s.verdict()
    await s.page("/microtube/watch/vid021")
    assert await s.verdict()


async def test_home_videos_more_counts_the_take_down(env_session):
    s = await env_session(HOME)
    await s.advance_to(172)  # five arrivals, one take-down
    assert "of 52" in (await s.page("/microtube/")).text and not await s.verdict()
    await s.advance_to(192)
    assert "of 53" in (await s.page("/microtube/")).text and await s.verdict()
