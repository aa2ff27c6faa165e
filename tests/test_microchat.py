"""MicroChat: events, actions, baselines, read state and the grading of a few scenarios."""

from __future__ import annotations

import re

from sentinel.core.catalog import Catalog
from sentinel.core.config import load_config
from sentinel.envs.microchat import ENV

FILE = "scenarios/verified/microchat/file_shared.yaml"
DM = "scenarios/verified/microchat/dm_keyword.yaml"
MENTIONS = "scenarios/verified/microchat/mentions_three_more.yaml"
CHATS_MORE = "scenarios/verified/microchat/unread_chats_more.yaml"
CALLS_MORE = "scenarios/verified/microchat/missed_calls_more.yaml"
CATALOG = Catalog(load_config().catalogs_dir, "microchat")
ME = "p000"


async def value(s, sql: str, params: tuple = ()):
    return await s.world.fetch_value(sql, params)


def number(pattern: str, text: str) -> float:
    return float(re.search(pattern, text).group(1))


# --- preload and baselines ---------------------------------------------------------------------

async def test_preload_loads_the_workspace_and_the_baselines_count_rows(env_session):
    s = await env_session(FILE)
    assert await value(s, "SELECT COUNT(*) FROM teams") == 8
    assert await value(s, "SELECT COUNT(*) FROM conversations") == len(CATALOG.records("conversations"))
    assert await value(s, "SELECT COUNT(*) FROM calls") == 20
    meta = {r["key"]: float(r["value"]) for r in await s.world.fetch_all("SELECT key, value FROM session_meta")
            if r["key"].startswith("baseline_")}
    expected = {
        "unread_count": "SELECT COUNT(*) FROM messages WHERE is_read = 0",
        "unread_conversation_count": "SELECT COUNT(DISTINCT conversation_id) FROM messages WHERE is_read = 0",
        "mention_total": "SELECT COUNT(*) FROM messages WHERE mentions_me = 1",
        "unread_mention_count": "SELECT COUNT(*) FROM messages WHERE mentions_me = 1 AND is_read = 0",
        "urgent_total": "SELECT COUNT(*) FROM messages WHERE is_urgent = 1",
        "unread_urgent_count": "SELECT COUNT(*) FROM messages WHERE is_urgent = 1 AND is_read = 0",
        "missed_call_count": "SELECT COUNT(*) FROM calls WHERE missed = 1",
        "message_count": "SELECT COUNT(*) FROM messages",
    }
    assert set(meta) == {f"baseline_{k}" for k in expected}
    for metric, sql in expected.items():
        assert meta[f"baseline_{metric}"] == await value(s, sql), metric
    assert meta["baseline_unread_count"] == 4 and meta["baseline_unread_conversation_count"] == 3
    assert meta["baseline_missed_call_count"] == 2 and meta["baseline_mention_total"] == 8
    assert meta["baseline_urgent_total"] == 6 and meta["baseline_message_count"] == 210


async def test_baselines_leave_out_the_agents_own_messages(env_session):
    s = await env_session(FILE)
    conv = (await s.world.fetch_all("SELECT id FROM conversations LIMIT 1"))[0]["id"]
    await s.post(f"/microchat/chats/{conv}/send", {"body": "@Alex Morgan note to self"})
    baselines = await ENV.baselines(s.world)
    assert baselines["message_count"] == 210 and baselines["mention_total"] == 8


# --- events ----------------------------------------------------------------------------------------

async def test_new_message_arrives_unread_with_its_flags_and_own_messages_arrive_read(env_session):
    s = await env_session(FILE)
    target = CATALOG.get("messages", "ms0225")
    await s.advance_to(40)
    row = await s.world.fetch_one("SELECT * FROM messages WHERE id = 'ms0225'")
    assert row["is_read"] == 0
    assert row["origin"] == "event"
    assert row["arrived_at"] == 40
    assert row["has_attachment"] == 1 and row["attachment_name"] == target["attachment_name"] == "pricing-model-v4.xlsx"
    await s.advance_to(260)  # own-0: the self user's own message from another device
    own = await s.world.fetch_one("SELECT * FROM messages WHERE sender_id = ? AND origin = 'event'", (ME,))
    assert own["is_read"] == 1


async def test_mentions_and_urgency_come_from_the_catalog(env_session):
    s = await env_session(MENTIONS)
    await s.advance_to(120)
    row = await s.world.fetch_one("SELECT mentions_me, is_urgent FROM messages WHERE id = 'ms0273'")
    assert row["mentions_me"] == 1 and row["is_urgent"] == 0
    await s.advance_to(60.5)
    decoy = await s.world.fetch_one("SELECT mentions_me FROM messages WHERE id = 'ms0193'")
    assert decoy["mentions_me"] == 0  # @Priya Shah, not the self user


async def test_delete_message_leaves_a_tombstone_without_file_or_reactions(env_session):
    s = await env_session(FILE)
    await s.advance_to(40)
    conv = await value(s, "SELECT conversation_id FROM messages WHERE id = 'ms0225'")
    await s.post("/microchat/messages/ms0225/react", {"emoji": "👍"})
    await s.advance_to(150)
    row = await s.world.fetch_one("SELECT * FROM messages WHERE id = 'ms0225'")
    assert row["is_deleted"] == 1
    assert row["has_attachment"] == 0
    assert row["body"] == ""
    assert await value(s, "SELECT COUNT(*) FROM reactions WHERE message_id = 'ms0225'") == 0
    page = await s.page(f"/microchat/chats/{conv}")
    assert "This message was deleted." in page.text and "pricing-model-v4.xlsx" not in page.text
    assert not [f for f in page.forms if f.action.endswith("/messages/ms0225/react")]


async def test_new_call_lands_in_the_log_with_missed_as_text(env_session):
    s = await env_session(CALLS_MORE)
    page = await s.page("/microchat/calls")
    assert "All (20) Missed (2)" in page.text
    await s.advance_to(150)
    assert await value(s, "SELECT missed FROM calls WHERE origin = 'event' ORDER BY arrived_at DESC") == 1
    page = await s.page("/microchat/calls?filter=missed")
    assert "Missed (3)" in page.text and page.text.count("Missed") >= 4  # the tab and three rows
    assert "Speed dial" in page.text


# --- pages and read state ----------------------------------------------------------------------------

async def test_list_orders_favourites_first_and_shows_previews_and_unread_counts(env_session):
    s = await env_session(FILE)
    resp = await s.client.get("/microchat/", allow_redirects=False)
    assert resp.status == 302 and resp.headers["Location"] == "/microchat/chats"
    page = await s.page("/microchat/chats")
    assert page.text.startswith("(4) Chat · MicroChat") and "Chat (4)" in page.text
    assert "Unread (3)" in page.text and "2 unread" in page.text
    pinned = await value(s, "SELECT COUNT(*) FROM conversations WHERE is_pinned = 1")
    first = [href.rsplit("/", 1)[1] for href, _ in page.links if re.fullmatch(r"/microchat/chats/cv\d+", href)]
    flags = [await value(s, "SELECT is_pinned FROM conversations WHERE id = ?", (c,)) for c in first[:pinned + 1]]
    assert flags == [1] * pinned + [0]
    await s.advance_to(40)
    page = await s.page("/microchat/chats")
    body = CATALOG.get("messages", "ms0225")["body"]
    assert body[:60].rstrip() + "…" in page.text and body[60:] not in page.text  # cut at 60 characters
    assert "pricing-model-v4.xlsx" not in page.text and "/microchat/messages/ms0225" in [h for h, _ in page.links]


async def test_opening_a_thread_marks_what_it_shows_read_but_live_refresh_does_not(env_session):
    s = await env_session(FILE)
    await s.advance_to(40)
    conv = await value(s, "SELECT conversation_id FROM messages WHERE id = 'ms0225'")
    live = await s.client.get(f"/microchat/chats/{conv}", headers={"X-Live-Refresh": "1"})
    assert live.status == 200 and await value(s, "SELECT is_read FROM messages WHERE id = 'ms0225'") == 0
    page = await s.page("/microchat/messages/ms0225")  # the permalink redirects to the thread
    assert "New messages (1)" in page.text and "Attachment: pricing-model-v4.xlsx (86.0 KB)" in page.text
    assert await value(s, "SELECT COUNT(*) FROM messages WHERE conversation_id = ? AND is_read = 0", (conv,)) == 0
    again = await s.page(f"/microchat/chats/{conv}")
    assert "New messages" not in again.text


async def test_thread_shows_urgency_mentions_quotes_and_in_thread_search(env_session):
    s = await env_session("scenarios/verified/microchat/urgent_three_more.yaml")
    await s.advance_to(250)
    conv = await value(s, "SELECT conversation_id FROM messages WHERE id = 'ms0056'")
    page = await s.page(f"/microchat/chats/{conv}")
    assert re.search(r"New messages \(1\).*URGENT", page.text)
    found = await s.page(f"/microchat/chats/{conv}?q=sign-off")
    assert "1 result for “sign-off”" in found.text
    quoted = await value(s, "SELECT conversation_id FROM messages WHERE reply_to_id IS NOT NULL LIMIT 1")
    assert "Replying to" in (await s.page(f"/microchat/chats/{quoted}")).text
    s2 = await env_session(MENTIONS)
    await s2.advance_to(120)
    conv = await value(s2, "SELECT conversation_id FROM messages WHERE id = 'ms0273'")
    html = await (await s2.client.get(f"/microchat/chats/{conv}")).text()
    assert '<mark class="mention me">@Alex Morgan</mark>' in html


async def test_teams_page_counts_channel_unread_from_rows(env_session):
    s = await env_session(CHATS_MORE)
    conv = CATALOG.get("messages", "ms0025")["conversation_id"]
    team = await value(s, "SELECT team_id FROM conversations WHERE id = ?", (conv,))
    before = await s.page(f"/microchat/teams/{team}")
    assert "#deploys" in before.text and "Members (" in before.text
    await s.advance_to(170)
    after = await s.page(f"/microchat/teams/{team}")
    assert re.search(r"#deploys — [^·]+· \d+ messages · 1 unread", after.text)
    assert "unread" in (await s.page("/microchat/teams")).text


async def test_search_finds_people_conversations_and_message_text_without_markers(env_session):
    s = await env_session(FILE)
    await s.advance_to(40)
    page = await s.page("/microchat/search?q=pricing")
    assert "Pricing working group" in page.text and "pricing model" in page.text
    assert "Attachment" not in page.text and "URGENT" not in page.text
    people = await s.page("/microchat/search?q=Omar")
    assert re.search(r"People \(\d\)", people.text) and "Omar Mansour" in people.text
    assert len(re.findall(r"…", (await s.page("/microchat/search?q=enterprise")).text)) >= 1


# --- actions -----------------------------------------------------------------------------------------------

async def test_send_react_pin_mute_and_new_chat(env_session):
    s = await env_session(FILE)
    conv = await value(s, "SELECT id FROM conversations WHERE kind = 'group' LIMIT 1")
    resp, _ = await s.post(f"/microchat/chats/{conv}/send", {"body": "  Hello   team ", "next": "/microchat/chats"})
    assert resp.headers["Location"] == "/microchat/chats"
    own = await s.world.fetch_one("SELECT * FROM messages WHERE origin = 'self'")
    assert own["body"] == "Hello team"
    assert own["is_read"] == 1
    assert own["sender_id"] == ME
    assert "You: Hello team" in (await s.page("/microchat/chats")).text
    await s.post(f"/microchat/chats/{conv}/send", {"body": "   "}, status=400)
    mid = await value(s, "SELECT id FROM messages WHERE conversation_id = ? AND origin = 'preload' LIMIT 1", (conv,))
    await s.post(f"/microchat/messages/{mid}/react", {"emoji": "👀"})
    assert await value(s, "SELECT COUNT(*) FROM reactions WHERE message_id = ? AND persona_id = ?", (mid, ME)) == 1
    assert "👀 1 (you)" in (await s.page(f"/microchat/chats/{conv}")).text
    await s.post(f"/microchat/messages/{mid}/react", {"emoji": "👀"})  # a second time removes it
    assert await value(s, "SELECT COUNT(*) FROM reactions WHERE message_id = ? AND persona_id = ?", (mid, ME)) == 0
    await s.post(f"/microchat/messages/{mid}/react", {"emoji": "🦄"}, status=400)
    for action, column, label in (("pin", "is_pinned", "Favourite ✓"), ("mute", "is_muted", "Muted ✓")):
        await s.post(f"/microchat/chats/{conv}/{action}", {})
        assert await value(s, f"SELECT {column} FROM conversations WHERE id = ?", (conv,)) == 1
        assert label in (await s.page(f"/microchat/chats/{conv}")).text
    resp, _ = await s.post("/microchat/new", {"persona_id": "p076"})
    existing = await value(s, "SELECT id FROM conversations WHERE kind = 'direct' AND counterpart_id = 'p076'")
    assert resp.headers["Location"] == f"/microchat/chats/{existing}"
    resp, _ = await s.post("/microchat/new", {"persona_id": "p002"})
    created = await s.world.fetch_one("SELECT * FROM conversations WHERE origin = 'self'")
    assert created["counterpart_id"] == "p002" and resp.headers["Location"] == f"/microchat/chats/{created['id']}"
    assert "Kai Moreno" in (await s.page(resp.headers["Location"])).text
    await s.post("/microchat/new", {"persona_id": "p000"}, status=400)


# --- grading around condition_at ------------------------------------------------------------------------

async def test_file_shared_grading_needs_the_reaction_on_the_file_and_no_collateral(env_session):
    s = await env_session(FILE)
    await s.advance_to(39.9)
    assert not await s.verdict()
    await s.advance_to(40)
    assert not await s.verdict()  # the condition holds, the action is missing
    await s.post("/microchat/messages/ms0225/react", {"emoji": "👍"})
    assert await s.verdict()
    await s.post("/microchat/messages/ms0103/react", {"emoji": "👍"})  # a look-alike without a file
    assert not await s.verdict()


async def test_dm_keyword_rejects_the_same_phrase_in_a_channel(env_session):
    s = await env_session(DM)
    await s.advance_to(180)
    await s.post("/microchat/messages/ms0042/react", {"emoji": "👀"})
    assert not await s.verdict()
    await s.post("/microchat/messages/ms0042/react", {"emoji": "👀"})
    await s.post("/microchat/messages/ms0026/react", {"emoji": "👀"})
    assert await s.verdict()


async def test_unread_chats_more_counts_conversations_not_messages(env_session):
    s = await env_session(CHATS_MORE)
    first = number(r"Unread \((\d+)\)", (await s.page("/microchat/chats")).text)
    await s.advance_to(249.9)
    assert number(r"Unread \((\d+)\)", (await s.page("/microchat/chats")).text) == first + 2
    assert not await s.verdict()
    await s.advance_to(250)
    assert number(r"Unread \((\d+)\)", (await s.page("/microchat/chats")).text) == first + 3
    assert await s.verdict()
    await s.page("/microchat/messages/ms0183")  # opening one of the chats undoes the count
    assert not await s.verdict()
