"""MicroMail: pages, actions, events, baselines, the catalog and every scenario's grading."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re

import pytest
from helpers.worlds import whole_catalog

from sentinel.checks.validate import static_checks
from sentinel.core.catalog import Catalog
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.scenario import Event, load_scenario
from sentinel.envs.micromail import ENV

CC = "scenarios/verified/micromail/cc_three_more.yaml"
SENDER = "scenarios/verified/micromail/sender_arrives.yaml"
ME = "alex.morgan@northwind.example"
CATALOG = Catalog(load_config().catalogs_dir, "micromail")





async def value(s, sql: str, params: tuple = ()):
    return await s.world.fetch_value(sql, params)


def number(pattern: str, text: str) -> float:
    return float(re.search(pattern, text).group(1).replace(",", ""))


def message_ids(p) -> list[str]:
    return [href.rsplit("/", 1)[1] for href, _ in p.links if re.search(r"/micromail/message/[^/]+$", href)]


# --- lists ---------------------------------------------------------------------------

async def test_inbox_list_counters_pinned_first_and_pages(env_session):
    s = await env_session(CC)
    resp = await s.client.get("/micromail/", allow_redirects=False)
    assert resp.status == 302 and resp.headers["Location"] == "/micromail/folder/inbox"
    p = await s.page("/micromail/folder/inbox")
    total = await value(s, "SELECT COUNT(*) FROM emails WHERE folder = 'inbox'")
    unread = await value(s, "SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND is_read = 0")
    assert unread == 4 and p.text.startswith("(4) Inbox · MicroMail")
    assert "Inbox (4) Drafts (2) Sent (6) Archive (8) Junk (12) Trash (0)" in p.text
    assert f"Showing 1–25 of {total}" in p.text and f"All ({total}) Unread (4) Flagged (3) Mentions (6)" in p.text
    ids = message_ids(p)
    assert len(ids) == 25
    pinned = await value(s, "SELECT id FROM emails WHERE is_pinned = 1")
    assert ids[0] == pinned  # pinned first, then newest first
    order = [r["id"] for r in await s.world.fetch_all(
        "SELECT id FROM emails WHERE folder = 'inbox' AND is_pinned = 0 ORDER BY created_at DESC LIMIT 24")]
    assert ids[1:] == order
    for marker in ("Unread", "Pinned", "Flagged", "External", "! High", "📎 Attachment"):
        assert marker in p.text, marker
    last = (total - 1) // 25 + 1
    p = await s.page(f"/micromail/folder/inbox?page={last}")
    assert f"Showing {(last - 1) * 25 + 1}–{total} of {total}" in p.text and "Newer" in p.text
    p = await s.page("/micromail/folder/inbox?filter=unread")
    assert "Showing 1–4 of 4" in p.text and len(message_ids(p)) == 4
    p = await s.page("/micromail/folder/inbox?filter=mentions")
    assert "Showing 1–6 of 6" in p.text
    p = await s.page("/micromail/folder/trash")
    assert "Showing 0–0 of 0" in p.text and "No messages." in p.text
    p = await s.page("/micromail/folder/sent")
    assert "To: " in p.text  # outgoing folders show recipients


async def test_lists_hide_cc_attachment_names_and_text_past_the_preview(env_session):
    s = await env_session(CC)
    text = ""
    for n in range(1, 5):
        text += (await s.page(f"/micromail/folder/inbox?page={n}")).text
    assert "December deadline" not in text  # the preloaded mention sits past the preview
    assert ".pdf" not in text
    assert ".docx" not in text
    assert "Cc:" not in text
    for body in [r["body"] for r in await s.world.fetch_all("SELECT body FROM emails WHERE folder = 'inbox'")]:
        folded = " ".join(body.split())
        if len(folded) > 100:
            assert folded[:100].rstrip() + "…" in text
            assert folded[:101] not in text


async def test_bad_list_parameters_answer_400_or_404(env_session):
    s = await env_session(CC)
    for bad in ("0", "-1", "abc", "1.5", "99999999999999999999"):
        p = await s.page(f"/micromail/folder/inbox?page={bad}", status=400)
        assert "page number" in p.text
    p = await s.page("/micromail/folder/inbox?page=9", status=404)
    assert "There is no page 9 here; the last page is 4." in p.text
    await s.page("/micromail/folder/inbox?filter=starred", status=400)
    p = await s.page("/micromail/folder/spam", status=404)
    assert "This folder does not exist." in p.text and "MicroMail" in p.text


async def test_pages_carry_etags_and_answer_304_until_mail_arrives(env_session):
    s = await env_session(SENDER)
    first = await s.client.get("/micromail/folder/inbox")
    tag = first.headers["ETag"]
    again = await s.client.get("/micromail/folder/inbox", headers={"If-None-Match": tag})
    assert again.status == 304
    await s.advance_to(20.0)
    changed = await s.client.get("/micromail/folder/inbox", headers={"If-None-Match": tag})
    assert changed.status == 200 and "Priya Raman" in await changed.text()


# --- message, attachment ---------------------------------------------------------------

async def test_message_page_shows_cc_files_and_marks_read_unless_live(env_session):
    s = await env_session(CC)
    row = await s.world.fetch_one(
        "SELECT id, subject FROM emails WHERE cc_me = 1 AND has_attachment = 1 AND origin = 'preload'")
    async with s.world.write() as db:
        await db.execute("UPDATE emails SET is_read = 0 WHERE id = ?", (row["id"],))
    live = await s.page(f"/micromail/message/{row['id']}", headers={"X-Live-Refresh": "1"})
    assert row["subject"] in live.text
    assert await value(s, "SELECT is_read FROM emails WHERE id = ?", (row["id"],)) == 0
    p = await s.page(f"/micromail/message/{row['id']}")
    assert await value(s, "SELECT is_read FROM emails WHERE id = ?", (row["id"],)) == 1
    assert f"Cc: Alex Morgan (you) <{ME}>" in p.text
    file = await s.world.fetch_one("SELECT id, file_name FROM attachments WHERE email_id = ?", (row["id"],))
    assert f"📎 {file['file_name']}" in p.text and "Attachments (1)" in p.text
    assert any(href.endswith(f"/micromail/attachment/{file['id']}") for href, _ in p.links)
    for label in ("Reply", "Reply all", "Forward", "Mark as unread", "Flag", "Pin", "Move", "Delete"):
        assert label in p.text
    to_me = await value(s, "SELECT id FROM emails WHERE folder = 'inbox' AND cc_list = '' AND sender_id IS NULL")
    p = await s.page(f"/micromail/message/{to_me}")
    assert f"To: Alex Morgan (you) <{ME}>" in p.text
    assert "Cc:" not in p.text
    assert "External" in p.text
    p = await s.page("/micromail/message/em9999", status=404)
    assert "This message no longer exists." in p.text


async def test_draft_opens_in_compose_and_attachment_page(env_session):
    s = await env_session(CC)
    draft = await value(s, "SELECT id FROM emails WHERE folder = 'drafts' LIMIT 1")
    resp = await s.client.get(f"/micromail/message/{draft}", allow_redirects=False)
    assert resp.status == 302 and resp.headers["Location"] == f"/micromail/compose?draft={draft}"
    file = await s.world.fetch_one(
        "SELECT a.id, a.file_name, a.size_bytes, e.subject, e.id AS email FROM attachments a"
        " JOIN emails e ON e.id = a.email_id LIMIT 1")
    was_read = await value(s, "SELECT is_read FROM emails WHERE id = ?", (file["email"],))
    p = await s.page(f"/micromail/attachment/{file['id']}")
    assert file["file_name"] in p.text
    assert "Preview not available." in p.text
    assert file["subject"] in p.text
    assert await value(s, "SELECT is_read FROM emails WHERE id = ?", (file["email"],)) == was_read
    p = await s.page("/micromail/attachment/f999", status=404)
    assert "This attachment no longer exists." in p.text
    # a message that has not arrived yet does not exist yet
    future = load_scenario(REPO_ROOT / CC).timeline[-1].fields["email_id"]
    await s.page(f"/micromail/message/{future}", status=404)


# --- compose, send, drafts -------------------------------------------------------------

async def test_compose_prefills_reply_reply_all_and_forward(env_session):
    s = await env_session(CC)
    row = await s.world.fetch_one(
        "SELECT * FROM emails WHERE cc_me = 1 AND has_attachment = 1 AND origin = 'preload'")
    others_to = [a for a in row["to_list"].split(", ") if a != ME]
    others_cc = [a for a in row["cc_list"].split(", ") if a != ME]
    form = (await s.page(f"/micromail/compose?mode=reply&of={row['id']}")).forms[1]
    assert form.fields["to"] == row["sender_email"] and form.fields["subject"] == f"Re: {row['subject']}"
    assert form.fields["mode"] == "reply"
    assert form.fields["of"] == row["id"]
    assert "wrote:" in form.fields["body"]
    form = (await s.page(f"/micromail/compose?mode=reply_all&of={row['id']}")).forms[1]
    assert form.fields["to"] == ", ".join([row["sender_email"]] + others_to)
    assert form.fields["cc"] == ", ".join(others_cc) and ME not in form.fields["to"] + form.fields["cc"]
    p = await s.page(f"/micromail/compose?mode=forward&of={row['id']}")
    form = p.forms[1]
    assert form.fields["to"] == "" and form.fields["subject"] == f"Fwd: {row['subject']}"
    assert "---------- Forwarded message ----------" in form.fields["body"]
    assert "Attachments forwarded with this message" in p.text
    await s.page("/micromail/compose?mode=bounce&of=" + row["id"], status=400)
    await s.page("/micromail/compose?mode=reply", status=400)
    await s.page("/micromail/compose?mode=reply&of=em9999", status=404)
    await s.page("/micromail/compose?draft=em9999", status=404)
    await s.page(f"/micromail/compose?draft={row['id']}", status=404)  # not a draft


async def test_send_validates_addresses_and_files_a_sent_message(env_session):
    s = await env_session(CC)
    _, p = await s.post("/micromail/send", {"to": "", "subject": "Hello", "body": "Hi"}, status=400)
    assert "Add at least one recipient." in p.text and p.forms[1].fields["subject"] == "Hello"
    _, p = await s.post("/micromail/send", {"to": "priya@", "subject": "x", "body": "y"}, status=400)
    assert "Not a valid email address: priya@" in p.text
    _, p = await s.post("/micromail/send", {"to": "a@b.example", "subject": "x" * 301, "body": ""}, status=400)
    assert "subject is too long" in p.text
    resp, _ = await s.post("/micromail/send", {
        "to": "Meera Reddy <meera.reddy@northwind.example>; wei.liu@northwind.example",
        "cc": ME, "subject": "Plan", "body": "See you there."})
    assert resp.headers["Location"] == "/micromail/folder/inbox"
    p = await s.page("/micromail/folder/inbox")
    assert "Message sent" in p.text and "Sent (7)" in p.text
    sent = await s.world.fetch_one("SELECT * FROM emails WHERE origin = 'self'")
    assert sent["folder"] == "sent"
    assert sent["is_read"] == 1
    assert sent["cc_me"] == 1
    assert sent["id"] == "u-1"
    assert sent["to_list"] == "meera.reddy@northwind.example, wei.liu@northwind.example"
    assert sent["sender_email"] == ME and sent["is_external"] == 0
    again = await s.page("/micromail/folder/inbox")
    assert "Message sent" not in again.text  # the status line shows once
    # a forward carries the original's files
    source = await value(s, "SELECT email_id FROM attachments GROUP BY email_id HAVING COUNT(*) = 2 LIMIT 1")
    await s.post("/micromail/send", {"to": "wei.liu@northwind.example", "subject": "Fwd", "body": "",
                                      "mode": "forward", "of": source})
    copy = await s.world.fetch_one("SELECT * FROM emails WHERE origin = 'self' AND ref_mode = 'forward'")
    assert copy["has_attachment"] == 1 and copy["ref_id"] == source
    assert await value(s, "SELECT COUNT(*) FROM attachments WHERE email_id = ? AND origin = 'self'", (copy["id"],)) == 2


async def test_drafts_save_update_send_and_discard(env_session):
    s = await env_session(CC)
    resp, _ = await s.post("/micromail/draft", {"to": "wei.liu@northwind.example", "subject": "Idea", "body": "Half"})
    assert resp.headers["Location"] == "/micromail/folder/drafts"
    p = await s.page("/micromail/folder/drafts")
    assert "Draft saved" in p.text and "Drafts (3)" in p.text
    draft = await value(s, "SELECT id FROM emails WHERE folder = 'drafts' AND origin = 'self'")
    form = (await s.page(f"/micromail/compose?draft={draft}")).forms[1]
    assert form.fields["draft_id"] == draft and form.fields["subject"] == "Idea"
    assert form.fields["body"].lstrip("\n") == "Half"
    await s.post("/micromail/draft", {**form.fields, "body": "Whole"})
    assert await value(s, "SELECT COUNT(*) FROM emails WHERE folder = 'drafts'") == 3
    assert await value(s, "SELECT body FROM emails WHERE id = ?", (draft,)) == "Whole"
    await s.post("/micromail/draft", {"to": "not an address"}, status=400)
    await s.post("/micromail/send", {**form.fields, "body": "Whole"})
    assert await value(s, "SELECT COUNT(*) FROM emails WHERE id = ?", (draft,)) == 0
    assert await value(s, "SELECT COUNT(*) FROM emails WHERE folder = 'sent' AND subject = 'Idea'") == 1
    preloaded = await value(s, "SELECT id FROM emails WHERE folder = 'drafts' LIMIT 1")
    await s.post(f"/micromail/message/{preloaded}/delete", {"next": "/micromail/folder/drafts"})
    p = await s.page("/micromail/folder/drafts")
    assert "Draft discarded" in p.text and "Drafts (1)" in p.text


# --- message actions ---------------------------------------------------------------------

async def test_read_flag_pin_move_and_delete(env_session):
    s = await env_session(CC)
    mid = await value(s, "SELECT id FROM emails WHERE folder = 'inbox' AND is_read = 1 AND is_pinned = 0 LIMIT 1")
    resp, _ = await s.post(f"/micromail/message/{mid}/read", {"state": "unread", "next": "/micromail/folder/inbox"})
    assert resp.headers["Location"] == "/micromail/folder/inbox"
    p = await s.page("/micromail/folder/inbox")
    assert "Marked as unread" in p.text
    assert "Inbox (5)" in p.text
    assert p.text.startswith("(5) ")
    await s.post(f"/micromail/message/{mid}/read", {"state": "maybe"}, status=400)
    await s.post(f"/micromail/message/{mid}/read", {"state": "read"})
    assert await value(s, "SELECT is_read FROM emails WHERE id = ?", (mid,)) == 1

    await s.post(f"/micromail/message/{mid}/flag", {"next": f"/micromail/message/{mid}"})
    p = await s.page(f"/micromail/message/{mid}")
    assert "Flagged" in p.text and "Flagged ✓ (click to unflag)" in p.text
    await s.post(f"/micromail/message/{mid}/flag", {})
    assert await value(s, "SELECT is_flagged FROM emails WHERE id = ?", (mid,)) == 0

    resp, _ = await s.post(f"/micromail/message/{mid}/pin", {"next": "//evil.example/"})
    assert resp.headers["Location"] == f"/micromail/message/{mid}"  # only local next pages
    p = await s.page("/micromail/folder/inbox")
    assert message_ids(p)[:2].count(mid) == 1

    await s.post(f"/micromail/message/{mid}/move", {"folder": "archive"})
    assert await value(s, "SELECT folder FROM emails WHERE id = ?", (mid,)) == "archive"
    await s.post(f"/micromail/message/{mid}/move", {"folder": "drafts"}, status=400)
    draft = await value(s, "SELECT id FROM emails WHERE folder = 'drafts' LIMIT 1")
    await s.post(f"/micromail/message/{draft}/move", {"folder": "inbox"}, status=400)

    await s.post(f"/micromail/message/{mid}/delete", {"next": "/micromail/folder/archive"})
    assert await value(s, "SELECT folder FROM emails WHERE id = ?", (mid,)) == "trash"
    p = await s.page("/micromail/folder/archive")
    assert "Moved to Trash" in p.text and "Trash (1)" in p.text
    p = await s.page(f"/micromail/message/{mid}")
    assert "Delete permanently" in p.text
    await s.post(f"/micromail/message/{mid}/delete", {})
    assert await value(s, "SELECT COUNT(*) FROM emails WHERE id = ?", (mid,)) == 0
    for action in ("read", "flag", "pin", "move", "delete"):
        await s.post(f"/micromail/message/em9999/{action}", {"state": "read", "folder": "inbox"}, status=404)


async def test_bulk_actions(env_session):
    s = await env_session(CC)
    unread = [r["id"] for r in await s.world.fetch_all(
        "SELECT id FROM emails WHERE folder = 'inbox' AND is_read = 0 ORDER BY id")]
    p = await s.page("/micromail/folder/inbox")
    bulk = next(f for f in p.forms if f.action.endswith("/micromail/bulk"))
    assert bulk.fields["op"] == "read" and bulk.fields["next"] == "/micromail/folder/inbox"
    resp, _ = await s.post("/micromail/bulk", [("op", "read"), ("next", "/micromail/folder/inbox")]
                         + [("ids", i) for i in unread[:2]] + [("ids[]", "em9999")])
    p = await s.page("/micromail/folder/inbox")
    assert "2 messages marked as read" in p.text and "Inbox (2)" in p.text
    await s.post("/micromail/bulk", [("op", "flag"), ("ids", unread[2])])
    assert await value(s, "SELECT is_flagged FROM emails WHERE id = ?", (unread[2],)) == 1
    await s.post("/micromail/bulk", [("op", "archive"), ("ids", unread[2]), ("ids", unread[3])])
    assert await value(s, "SELECT COUNT(*) FROM emails WHERE folder = 'archive'") == 10
    await s.post("/micromail/bulk", [("op", "trash"), ("ids", unread[2])])
    await s.post("/micromail/bulk", [("op", "trash"), ("ids", unread[2]), ("ids", unread[3]),
                                      ("next", "/micromail/folder/trash")])
    p = await s.page("/micromail/folder/trash")
    assert "1 message moved to Trash, 1 deleted permanently" in p.text
    await s.post("/micromail/bulk", [("op", "explode"), ("ids", unread[0])], status=400)
    await s.post("/micromail/bulk", [("op", "read")] + [("ids", f"x{i}") for i in range(501)], status=400)
    await s.post("/micromail/bulk", {"op": "unread", "next": "/micromail/folder/inbox"})
    assert "No messages selected" in (await s.page("/micromail/folder/inbox")).text


async def test_search_covers_every_folder_and_field(env_session):
    s = await env_session(CC)
    p = await s.page("/micromail/search")
    assert "Type a word" in p.text
    p = await s.page("/micromail/search?q=verify+your")  # junk, by body text
    assert "Results for “verify your”" in p.text
    assert "Junk" in p.text
    assert "Showing 1–1 of 1" in p.text
    p = await s.page("/micromail/search?q=cloudnest.example")  # by sender address
    assert number(r"of (\d+)", p.text) == 2 and "CloudNest Billing" in p.text
    p = await s.page("/micromail/search?q=alex.morgan")  # recipients: every delivered message
    assert number(r"of (\d+)", p.text) == await value(
        s, "SELECT COUNT(*) FROM emails WHERE to_list LIKE '%alex.morgan%' OR cc_list LIKE '%alex.morgan%'"
           " OR sender_email LIKE '%alex.morgan%'")
    p = await s.page("/micromail/search?q=100%25")
    assert "No messages match “100%”" in p.text
    await s.page("/micromail/search?q=" + "x" * 201, status=400)
    await s.page("/micromail/search?q=the&page=x", status=400)
    assert 'value="verify your"' in await (await s.client.get("/micromail/search?q=verify+your")).text()


# --- events, baselines, catalog -------------------------------------------------------------

async def test_new_email_event_inserts_unread_mail_with_files_and_times(env_session):
    s = await env_session("scenarios/verified/micromail/attachment_name.yaml")
    timeline = load_scenario(REPO_ROOT / "scenarios/verified/micromail/attachment_name.yaml").timeline
    at = timeline[2].at
    await s.advance_to(at)
    decoy = timeline[2].fields["email_id"]
    row = await s.world.fetch_one("SELECT * FROM emails WHERE id = ?", (decoy,))
    assert row["origin"] == "event"
    assert row["arrived_at"] == at
    assert row["is_read"] == 0
    assert row["created_at"] == s.world.created_at(at) and row["has_attachment"] == 1
    name = await value(s, "SELECT file_name FROM attachments WHERE email_id = ?", (decoy,))
    assert name == "mobile-app-wireframes.pdf"
    junk = timeline[1].fields["email_id"]
    assert await value(s, "SELECT folder FROM emails WHERE id = ?", (junk,)) == "junk"
    p = await s.page("/micromail/folder/inbox")
    assert message_ids(p)[1] == decoy and "just now" in p.text  # newest after the pinned one
    read_arrival = timeline[4].fields["email_id"]
    await s.advance_to(timeline[4].at)
    assert await value(s, "SELECT is_read FROM emails WHERE id = ?", (read_arrival,)) == 1


async def test_whole_catalog_preload_and_scenario_checks(env_session):
    sc = whole_catalog(ENV)
    assert ENV.check_scenario(sc, CATALOG) == []
    session = (await env_session(sc)).session
    assert await session.world.fetch_value("SELECT COUNT(*) FROM emails") == len(CATALOG.raw("emails"))
    assert await session.world.fetch_value("SELECT COUNT(*) FROM attachments") == len(CATALOG.raw("attachments"))
    rec = CATALOG.get("emails", "em0001")
    created = await session.world.fetch_value("SELECT created_at FROM emails WHERE id = 'em0001'")
    assert created == session.world.preload_created_at(rec["age_minutes"])
    async with session.world.write() as db:
        await db.execute("DELETE FROM attachments")
        await db.execute("DELETE FROM emails")
        preload = Event(0, "preload", {"emails": ["em0001"], "age_offset_minutes": 60})
        await ENV.event_types["preload"].apply(session.world, preload)
    created = await session.world.fetch_value("SELECT created_at FROM emails WHERE id = 'em0001'")
    assert created == session.world.preload_created_at(rec["age_minutes"] + 60)
    sent = next(r["id"] for r in CATALOG.raw("emails").values() if r["folder"] == "sent")
    bad = load_scenario(REPO_ROOT / SENDER)
    bad = dataclasses.replace(bad, events=(
        Event(0, "preload", {"emails": "all", "age_offset_minutes": -5}, 0),
        Event(30, "new_email", {"email_id": sent}, 1)))
    problems = dict(ENV.check_scenario(bad, CATALOG))
    assert set(problems) == {"events[1].email_id"}
    assert "only inbox or junk mail can arrive" in problems["events[1].email_id"]
    # the preload's shapes are the kit's generic rules, the same for every environment
    generic = dict(static_checks(bad, ENV, CATALOG, load_config()))
    assert "events[0].age_offset_minutes" in generic
    assert "'all' is not in the emails catalog" in generic["events[0].emails"]


async def test_baselines_match_the_preloaded_mailbox(env_session):
    s = await env_session(CC)
    b = s.session.baselines
    assert b["inbox_count"] == await value(s, "SELECT COUNT(*) FROM emails WHERE folder = 'inbox'")
    assert b["inbox_unread_count"] == 4 and b["junk_count"] == 12
    assert b["inbox_cc_count"] == await value(s, "SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND cc_me = 1") > 0
    assert b["inbox_mention_count"] == 6
    external = await value(s, "SELECT COUNT(*) FROM emails WHERE folder = 'inbox' AND is_external = 1")
    assert b["inbox_external_count"] == external > 0
    assert b["inbox_high_importance_count"] > 0
    assert b["attachment_count"] == await value(s, "SELECT COUNT(*) FROM attachments")
    assert await value(s, "SELECT value FROM session_meta WHERE key = 'baseline_junk_count'") == "12.0"


def test_catalog_subsets_and_near_misses():
    emails = CATALOG.raw("emails")
    files = CATALOG.raw("attachments")
    assert 260 <= len(emails) <= 300 and 40 <= len(files) <= 50
    assert all(re.fullmatch(r"em\d{4}", i) for i in emails) and all(re.fullmatch(r"f\d{3}", i) for i in files)
    assert all(f["email_id"] in emails for f in files.values())
    non_junk = [r for r in emails.values() if r["folder"] != "junk"]
    assert sum(r["folder"] == "junk" for r in emails.values()) == 40
    assert len({f["email_id"] for f in files.values()}) >= 35
    assert sum(r["sender_id"] is None for r in non_junk) >= 30
    assert sum(ME in r["cc"] for r in emails.values()) >= 20
    assert sum(r["mentions_me"] for r in emails.values()) >= 20
    assert sum(r["importance"] == "high" for r in emails.values()) >= 30
    long_ones = [r for r in emails.values() if "key phrase" in r["_note"]]
    assert len(long_ones) >= 15
    for r in long_ones:
        phrase = r["_note"].split("'")[1]
        assert r["body"].find(phrase) >= 160, r["id"]
    names = {f["file_name"] for f in files.values()}
    assert {"mobile-app-mockups.fig", "mobile-app-wireframes.pdf", "mobile-app-mockups.pdf",
            "web-app-mockups.fig"} <= names
    assert all(set(r) >= {"_role", "_note", "age_minutes", "is_read"} for r in emails.values())


def built_catalog():
    """The generator module (catalogs/micromail/generate.py) and a Builder that ran it."""
    spec = importlib.util.spec_from_file_location("micromail_generate", MAIL_CATALOG / "generate.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    b = gen.Builder(gen.load_personas())
    gen.build(b)
    return gen, b


MAIL_CATALOG = REPO_ROOT / "catalogs" / "micromail"


def test_generator_reproduces_the_committed_catalog():
    """generate.py is deterministic and in sync with the JSONL files (without rewriting them)."""
    folder = MAIL_CATALOG
    gen, b = built_catalog()
    emails, files = gen.assign_ids(b)
    gen.check(b, emails, files)
    committed = [json.loads(line) for line in (folder / "emails.jsonl").read_text().splitlines()]
    assert [gen.public_email(r) for r in emails] == committed
    assert files == [json.loads(line) for line in (folder / "attachments.jsonl").read_text().splitlines()]


def test_catalog_ids_are_append_only():
    """Adding an item gives it the next free id and renumbers nothing (scenarios keep their mail)."""
    folder = MAIL_CATALOG
    gen, b = built_catalog()
    b.add("special", b.me, "A brand-new item", "Authored later.", files=[("later.txt", 10)])
    b.records.insert(0, b.records.pop())  # even first in build order
    emails, files = gen.assign_ids(b)
    gen.check(b, emails, files)
    committed = {r["id"]: r for r in (json.loads(line) for line in (folder / "emails.jsonl").read_text().splitlines())}
    new = [r for r in emails if r["id"] not in committed]
    assert [r["subject"] for r in new] == ["A brand-new item"] and new[0]["id"] == f"em{len(committed) + 1:04d}"
    assert all(gen.public_email(r) == committed[r["id"]] for r in emails if r["id"] in committed)
    committed_files = [json.loads(line) for line in (folder / "attachments.jsonl").read_text().splitlines()]
    assert files[:-1] == committed_files and files[-1]["file_name"] == "later.txt"
    assert files[-1]["id"] == f"f{len(committed_files) + 1:03d}"


# --- scenarios ----------------------------------------------------------------------------

NORMAL = ["attachment_name", "body_keyword_second", "body_phrase", "cc_three_more", "inbox_growth",
          "junk_growth", "sender_arrives", "unread_threshold"]


@pytest.mark.parametrize("name", NORMAL)
async def test_eval_sql_turns_true_at_condition_at(env_session, name):
    s = await env_session(f"scenarios/verified/micromail/{name}.yaml")
    scenario = s.session.scenario
    at = scenario.condition_at
    await s.advance_to(at - 0.001)
    assert not await s.verdict()
    await s.advance_to(at)
    if scenario.taxonomy.activity == "passive":
        assert await s.verdict()
        return
    assert not await s.verdict()  # active: nothing is flagged yet
    arrived = [e for e in scenario.timeline if e.type == "new_email" and e.at <= at]
    for event in arrived:  # "do it to everything" flags the look-alikes too, and fails
        await s.post(f"/micromail/message/{event.fields['email_id']}/flag", {"next": "/micromail/"})
    assert not await s.verdict()
    for event in arrived:
        if not event.note.startswith("target"):
            await s.post(f"/micromail/message/{event.fields['email_id']}/flag", {"next": "/micromail/"})
    assert await s.verdict()


@pytest.mark.parametrize("name", ["attachment_name_noop", "sender_noop"])
async def test_noop_targets_never_arrive_but_the_near_miss_does(env_session, name):
    s = await env_session(f"scenarios/verified/micromail/{name}.yaml")
    assert s.session.scenario.condition_at is None and s.session.scenario.near_miss_sql
    await s.advance_to(720.0)
    text = ""
    for n in range(1, 5):
        text += (await s.page(f"/micromail/folder/inbox?page={n}")).text
    if name == "sender_noop":
        assert "Marta Quinlan" not in text and "Priya Shah" in text
    else:
        assert await value(s, "SELECT COUNT(*) FROM attachments WHERE file_name = 'press-release-final.docx'") == 0
        assert await value(s, "SELECT COUNT(*) FROM attachments WHERE file_name = 'press-release-draft.docx'") == 1
        recalled = "SELECT COUNT(*) FROM attachments WHERE file_name = 'mobile-app-mockups.fig'"
        assert await value(s, recalled) == 0


async def test_unread_threshold_is_visible_only_from_condition_at(env_session):
    s = await env_session("scenarios/verified/micromail/unread_threshold.yaml")
    at = s.session.scenario.condition_at
    await s.advance_to(at - 1)
    p = await s.page("/micromail/folder/inbox")
    assert number(r"Inbox \((\d+)\)", p.text) == 9
    await s.advance_to(at)
    p = await s.page("/micromail/folder/inbox")
    assert number(r"Inbox \((\d+)\)", p.text) == 10 and p.text.startswith("(10) ")


def test_preview_folds_whitespace_of_long_bodies_as_of_short_ones():
    """The preview folds only a prefix of a long body; the text is that of folding all of it."""
    from sentinel.envs.micromail.queries import PREVIEW_CHARS, preview

    def folded_whole(body: str) -> str:
        text = " ".join(body.split())
        return text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS].rstrip() + "…"
    bodies = ["", "short", "word " * 19 + "x", "a" * 100, "a" * 101, " " * 399 + "tail", " " * 500 + "late words " * 30,
              ("b \n\t" * 200) + "c", "word " * 300, "x" * 399 + "  y" + " " * 900 + "z"]
    for body in bodies:
        assert preview(body) == folded_whole(body), body[:40]


async def test_mailbox_counts_match_a_count_per_folder_and_filter(env_session):
    from sentinel.envs.micromail import queries as q
    s = await env_session(CC)
    async with s.world.write() as db:  # flags in folders that have none preloaded
        await db.execute("UPDATE emails SET is_flagged = 1, mentions_me = 1, is_read = 0"
                         " WHERE rowid IN (SELECT rowid FROM emails WHERE folder = 'junk' LIMIT 3)")
        await db.execute("UPDATE emails SET folder = 'trash' WHERE rowid IN"
                         " (SELECT rowid FROM emails WHERE folder = 'archive' LIMIT 2)")
    counts = await q.mailbox_counts(s.world)
    for folder in q.FOLDERS:
        for key, (_, condition) in q.FILTERS.items():
            expected = await value(s, f"SELECT COUNT(*) FROM emails WHERE folder = ?{condition}", (folder,))
            assert q.filter_counts(counts, folder)[key] == expected, (folder, key)
    assert counts["trash"]["total"] == 2 and counts["junk"]["mentions"] >= 3
