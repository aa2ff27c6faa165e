"""MicroGram: every event type's effect, every action's effect, every baseline, and the
grading of a few scenarios around their condition_at."""

from __future__ import annotations

import re

from sentinel.core.catalog import Catalog
from sentinel.core.config import load_config
from sentinel.envs.microgram import ENV

LIKE = "scenarios/verified/microgram/like_next_three.yaml"
DM = "scenarios/verified/microgram/dm_keyword.yaml"
FOLLOW = "scenarios/verified/microgram/follow_new_creators.yaml"
STORIES = "scenarios/verified/microgram/stories_three.yaml"
COMMENTER = "scenarios/verified/microgram/commenter_three_more.yaml"
PILEUP = "scenarios/verified/microgram/comment_pileup.yaml"
CATALOG = Catalog(load_config().catalogs_dir, "microgram")


async def value(s, sql: str, params: tuple = ()):
    return await s.world.fetch_value(sql, params)


def post_ids(page) -> list[str]:
    return [m.group(1) for href, _ in page.links if (m := re.search(r"/microgram/p/(gp\d+)$", href))]


# --- baselines and the preload ---------------------------------------------------------------

async def test_every_baseline_counts_the_preloaded_world(env_session):
    s = await env_session(LIKE)
    meta = {r["key"]: float(r["value"]) for r in await s.world.fetch_all("SELECT key, value FROM session_meta")
            if r["key"].startswith("baseline_")}
    assert meta == {"baseline_post_count": 60, "baseline_story_count": 16, "baseline_viewed_story_count": 7,
                    "baseline_liked_count": 4, "baseline_saved_count": 2, "baseline_followed_count": 25,
                    "baseline_activity_count": 20, "baseline_my_comment_count": 0}
    assert set(meta) == {f"baseline_{k}" for k in ENV.baseline_sql}
    # preloaded likes count the self user's like once, on top of the catalog count
    liked = CATALOG.get("posts", "gp0008")["like_count"]
    assert await value(s, "SELECT like_count FROM posts WHERE id = 'gp0008'") == liked + 1
    assert await value(s, "SELECT MAX(n) FROM (SELECT COUNT(*) n FROM post_comments GROUP BY post_id)") <= 3


# --- events ------------------------------------------------------------------------------

async def test_new_post_arrives_with_its_catalog_comments(env_session):
    s = await env_session(COMMENTER)
    await s.advance_to(120)
    row = await s.world.fetch_one("SELECT * FROM posts WHERE id = 'gp0061'")
    assert row["origin"] == "event"
    assert row["arrived_at"] == 120
    assert row["viewed"] == 0
    expected = [c["author_id"] for c in CATALOG.records("post_comments").values() if c["post_id"] == "gp0061"]
    got = [r["author_id"] for r in await s.world.fetch_all(
        "SELECT author_id FROM post_comments WHERE post_id = 'gp0061' ORDER BY rowid")]
    assert got == expected and "p002" in got
    feed = await s.page("/microgram/")
    assert post_ids(feed)[0] == "gp0061" and "kai.m" not in feed.text  # commenters only on the post page
    assert f"View all {len(expected)} comment" in feed.text


async def test_new_story_arrives_unviewed_and_only_its_page_marks_it(env_session):
    s = await env_session(STORIES)
    await s.advance_to(80)
    feed = await s.page("/microgram/")
    assert "kai.m (new)" in feed.text and "lin.p (seen)" in feed.text
    assert feed.text.index("kai.m (new)") < feed.text.index("lin.p (seen)")  # unviewed first
    assert await value(s, "SELECT viewed FROM stories WHERE id = 'gs017'") == 0
    await s.page("/microgram/stories/gs017", headers={"X-Live-Refresh": "1"})
    assert await value(s, "SELECT viewed FROM stories WHERE id = 'gs017'") == 0
    story = await s.page("/microgram/stories/gs017")
    assert "Next:" in story.text and await value(s, "SELECT viewed FROM stories WHERE id = 'gs017'") == 1
    assert "kai.m (seen)" in (await s.page("/microgram/")).text
    await s.page("/microgram/stories/gs999", status=404)


async def test_new_dm_creates_its_thread_unread_and_unsend_removes_it(env_session):
    s = await env_session(DM)
    await s.advance_to(300)
    direct = await s.page("/microgram/direct")
    assert "camila.garcia" in direct.text and "mockup" not in direct.text  # past the 40-character preview
    assert await value(s, "SELECT is_read FROM dm_messages WHERE id = 'gm033'") == 0
    assert not await s.verdict()
    thread = await s.page("/microgram/direct/gt09")
    assert "onboarding mockup" in thread.text and await s.verdict()
    await s.advance_to(345)
    assert await value(s, "SELECT COUNT(*) FROM dm_messages WHERE id = 'gm033'") == 0
    await s.page("/microgram/direct/gt09", status=404)
    assert not await s.verdict()  # acting after the message was unsent fails


async def test_new_activity_is_listed_newest_first_and_tagged_new(env_session):
    s = await env_session("scenarios/verified/microgram/activity_more.yaml")
    before = await s.page("/microgram/activity")
    assert "Showing 1–20 of 20" in before.text
    await s.advance_to(62)
    after = await s.page("/microgram/activity")
    assert "Showing 1–20 of 21" in after.text
    actor = CATALOG.personas()[CATALOG.get("activity", "ga021")["actor_id"]]["username"]
    entries = after.text.split("Showing 1–20 of 21", 1)[1]
    assert entries.split(" new ", 1)[1].startswith(f"{actor} ")  # newest first, tagged new
    assert re.search(r"Activity \((\d+)\)", after.text).group(1) == str(
        int(re.search(r"Activity \((\d+)\)", before.text).group(1)) + 1)


# --- actions -------------------------------------------------------------------------------

async def test_like_toggles_and_moves_the_count_by_exactly_one(env_session):
    s = await env_session(LIKE)
    await s.advance_to(12)
    start = await value(s, "SELECT like_count FROM posts WHERE id = 'gp0082'")
    resp, _ = await s.post("/microgram/p/gp0082/like", {"next": "/microgram/"})
    assert resp.headers["Location"] == "/microgram/"
    assert await value(s, "SELECT liked FROM posts WHERE id = 'gp0082'") == 1
    assert await value(s, "SELECT like_count FROM posts WHERE id = 'gp0082'") == start + 1
    page = await s.page("/microgram/p/gp0082")
    assert "Liked ✓ (click to unlike)" in page.text
    assert f"{start + 1} likes" in page.text
    assert "Liked" in page.text
    await s.post("/microgram/p/gp0082/like", {})
    assert await value(s, "SELECT like_count FROM posts WHERE id = 'gp0082'") == start
    await s.post("/microgram/p/nope/like", {}, status=404)


async def test_like_next_three_grading_punishes_collateral(env_session):
    s = await env_session(LIKE)
    await s.advance_to(40)
    for pid in ("gp0082", "gp0083", "gp0084"):
        await s.post(f"/microgram/p/{pid}/like", {})
    assert await s.verdict()
    await s.advance_to(140)
    await s.post("/microgram/p/gp0085/like", {})  # a later post: collateral
    assert not await s.verdict()


async def test_save_toggles_and_shows_on_the_saved_tab(env_session):
    s = await env_session(LIKE)
    await s.post("/microgram/p/gp0040/save", {})
    assert await value(s, "SELECT saved FROM posts WHERE id = 'gp0040'") == 1
    saved = await s.page("/microgram/u/me?tab=saved")
    assert "gp0040" in post_ids(saved) and "Showing 1–3 of 3" in saved.text
    await s.post("/microgram/p/gp0040/save", {})
    assert await value(s, "SELECT saved FROM posts WHERE id = 'gp0040'") == 0
    await s.page("/microgram/u/p001?tab=saved", status=400)


async def test_comment_is_stored_with_its_post_and_empty_ones_are_refused(env_session):
    s = await env_session(LIKE)
    await s.post("/microgram/p/gp0010/comment", {"body": "  Lovely   light ", "next": "/microgram/p/gp0010"})
    row = await s.world.fetch_one("SELECT * FROM post_comments WHERE origin = 'self'")
    assert row["post_id"] == "gp0010"
    assert row["body"] == "Lovely light"
    assert row["author_id"] == "p000"
    page = await s.page("/microgram/p/gp0010")
    assert "Comment posted" in page.text and "alex.morgan Lovely light" in page.text
    bad = await s.post("/microgram/p/gp0010/comment", {"body": "   "}, status=400)
    assert "cannot be empty" in bad[1].text
    assert await value(s, "SELECT COUNT(*) FROM post_comments WHERE origin = 'self'") == 1


async def test_follow_toggles_counts_and_grading(env_session):
    s = await env_session(FOLLOW)
    before = await s.page("/microgram/u/p043")
    followers = int(re.search(r"(\d+) followers", before.text).group(1))
    await s.post("/microgram/u/p043/follow", {})
    after = await s.page("/microgram/u/p043")
    assert f"{followers + 1} followers" in after.text and "Following ✓" in after.text
    await s.post("/microgram/u/p058/follow", {})
    await s.advance_to(524)
    await s.post("/microgram/u/p090/follow", {})
    assert await s.verdict()  # the three creators, and nobody else
    await s.post("/microgram/u/p001/follow", {})  # unfollowing someone fails the task
    assert await value(s, "SELECT COUNT(*) FROM follows WHERE persona_id = 'p001'") == 0
    assert not await s.verdict()
    await s.post("/microgram/u/p000/follow", {}, status=400)
    await s.post("/microgram/u/p999/follow", {}, status=404)


async def test_send_adds_a_read_message_to_the_thread(env_session):
    s = await env_session(DM)
    await s.post("/microgram/direct/gt01/send", {"body": "See you at six"})
    row = await s.world.fetch_one("SELECT * FROM dm_messages WHERE origin = 'self'")
    assert row["thread_id"] == "gt01"
    assert row["sender_id"] == "p000"
    assert row["is_read"] == 1
    direct = await s.page("/microgram/direct")
    assert "You: See you at six" in direct.text
    await s.post("/microgram/direct/gt01/send", {"body": ""}, status=400)
    await s.post("/microgram/direct/gt99/send", {"body": "hi"}, status=404)


async def test_opening_a_thread_marks_it_read_but_the_list_does_not(env_session):
    s = await env_session(DM)
    unread = await value(s, "SELECT COUNT(*) FROM dm_messages WHERE is_read = 0")
    assert unread > 0
    direct = await s.page("/microgram/direct")
    threads = await value(s, "SELECT COUNT(DISTINCT thread_id) FROM dm_messages WHERE is_read = 0")
    assert direct.text.startswith(f"({threads}) ") and f"Direct ({threads})" in direct.text
    assert await value(s, "SELECT COUNT(*) FROM dm_messages WHERE is_read = 0") == unread
    thread = await value(s, "SELECT thread_id FROM dm_messages WHERE is_read = 0 LIMIT 1")
    await s.page(f"/microgram/direct/{thread}")
    assert await value(s, "SELECT COUNT(*) FROM dm_messages WHERE is_read = 0 AND thread_id = ?", (thread,)) == 0


# --- scenario conditions ------------------------------------------------------------------

async def test_commenter_counts_only_opened_posts_with_kai_m(env_session):
    s = await env_session(COMMENTER)
    await s.advance_to(449.9)
    for pid in ("gp0061", "gp0062", "gp0067", "gp0068", "gp0069"):
        await s.page(f"/microgram/p/{pid}")
    assert not await s.verdict()  # kai_m's posts do not count
    await s.advance_to(450)
    assert not await s.verdict()  # the third one is not opened yet
    page = await s.page("/microgram/p/gp0063")
    assert re.search(r"(^|\s)kai\.m(\s|$)", page.text) and await s.verdict()


async def test_pileup_turns_true_with_the_four_comment_post(env_session):
    s = await env_session(PILEUP)
    await s.advance_to(589.9)
    assert not await s.verdict()
    assert not re.search(r"View all ([4-9]|\d{2,}) comments", (await s.page("/microgram/")).text)
    await s.advance_to(590)
    assert await s.verdict()
    assert "View all 4 comments" in (await s.page("/microgram/")).text
