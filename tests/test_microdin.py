"""MicroDin: every event type's effect, every action's effect, every baseline, and the
condition/eval SQL of scenarios around condition_at."""

from __future__ import annotations

import importlib.util
import json
import re

import pytest
from helpers.worlds import whole_catalog

from sentinel.core.config import REPO_ROOT
from sentinel.envs.microdin import ENV

VIEWS = ["/microdin/feed", "/microdin/feed?page=2", "/microdin/posts/dp001", "/microdin/network",
         "/microdin/jobs", "/microdin/jobs?q=engineer", "/microdin/jobs/applied", "/microdin/jobs/dj011",
         "/microdin/messaging", "/microdin/messaging/dv001", "/microdin/notifications", "/microdin/in/me",
         "/microdin/in/p003", "/microdin/company/e069", "/microdin/search?q=data", "/microdin/search"]


async def value(s, sql: str, params: tuple = ()):
    return await s.world.fetch_value(sql, params)


@pytest.fixture
async def full(env_session):
    return await env_session(whole_catalog(ENV))


async def test_every_view_renders_on_the_whole_catalog(full):
    for path in VIEWS:
        page = await full.page(path)
        assert "MicroDin" in page.text, path
    for path in ("/microdin/posts/dp999", "/microdin/jobs/dj999", "/microdin/messaging/dv999",
                 "/microdin/in/p999", "/microdin/company/e999", "/microdin/notifications/dn999"):
        await full.page(path, status=404)


KUBE = "scenarios/verified/microdin/apply_kubernetes.yaml"
JOBS = "scenarios/verified/microdin/jobs_threshold.yaml"
PHONE = "+1 503 555 0142"
APPLY = {"email": "alex.morgan@northwind.example", "phone": PHONE, "resume": "Alex_Morgan_Resume_2024.pdf",
         "note": "", "next": "/microdin/jobs"}


def number(pattern: str, text: str) -> float:
    return float(re.search(pattern, text).group(1).replace(",", ""))


# --- events and baselines ----------------------------------------------------------------------

async def test_preload_fills_the_network_and_baselines_count_it(env_session):
    s = await env_session(KUBE)
    assert await value(s, "SELECT COUNT(*) FROM members") == 100
    assert await value(s, "SELECT COUNT(*) FROM companies") == 25
    assert await value(s, "SELECT COUNT(*) FROM posts") == 20
    comments = await value(s, "SELECT COUNT(*) FROM post_comments")
    assert await value(s, "SELECT SUM(comment_count) FROM posts") == comments
    b = s.session.baselines
    assert b["post_count"] == 20
    assert b["pending_invitation_count"] == 10
    assert b["job_count"] == 10
    assert b["applied_job_count"] == 0
    # the last line of a conversation written by the counterpart is unread; notifications older than a day are read
    assert b["unread_message_count"] == await value(s, "SELECT COUNT(*) FROM messages WHERE is_read = 0") > 0
    assert b["unread_conversation_count"] <= b["unread_message_count"]
    unread = await value(s, "SELECT COUNT(*) FROM notifications WHERE is_read = 0")
    assert b["unread_notification_count"] == unread and 0 < unread < 20


async def test_arrival_events_insert_rows_at_their_time(env_session):
    s = await env_session(KUBE)
    await s.advance_to(60)
    row = await s.world.fetch_one("SELECT * FROM jobs WHERE id = 'dj012'")
    assert row["origin"] == "event"
    assert row["arrived_at"] == 35
    assert row["applied"] == 0
    assert row["closed"] == 0
    post = await s.world.fetch_one("SELECT * FROM posts WHERE id = 'dp025'")
    assert post["origin"] == "event" and post["comment_count"] == 0
    # dm031 opens a conversation that did not exist, unread
    assert await value(s, "SELECT counterpart_id FROM conversations WHERE id = 'dv012'") == "p066"
    assert await value(s, "SELECT is_read FROM messages WHERE id = 'dm031'") == 0
    await s.advance_to(121)
    assert await value(s, "SELECT status FROM invitations WHERE id = 'di011'") == "pending"
    assert await value(s, "SELECT is_read FROM notifications WHERE id = 'dn021'") == 0
    page = await s.page("/microdin/notifications")
    unread = await value(s, "SELECT COUNT(*) FROM notifications WHERE is_read = 0")
    assert "New" in page.text and page.text.startswith(f"({unread}) ")


async def test_close_job_takes_the_posting_off_the_board_and_blocks_applying(env_session):
    s = await env_session(KUBE)
    await s.advance_to(130)
    assert "Site Reliability Engineer" in (await s.page("/microdin/jobs")).text
    await s.advance_to(220)
    assert "Site Reliability Engineer" not in (await s.page("/microdin/jobs")).text
    page = await s.page("/microdin/jobs/dj011")
    assert "No longer accepting applications" in page.text and "Submit application" not in page.text
    await s.post("/microdin/jobs/dj011/apply", APPLY, status=400)
    assert await value(s, "SELECT applied FROM jobs WHERE id = 'dj011'") == 0


# --- actions -----------------------------------------------------------------------------------

async def test_requirements_show_only_on_the_job_page_and_apply_is_a_real_form(env_session):
    s = await env_session(KUBE)
    await s.advance_to(119)
    assert "Kubernetes" not in (await s.page("/microdin/jobs")).text
    assert "Kubernetes" not in (await s.page("/microdin/search?q=Reliability")).text
    page = await s.page("/microdin/jobs/dj011")
    assert "Operating Kubernetes in production" in page.text and "Easy Apply" in page.text
    bad = dict(APPLY, phone="call me")
    _, answer = await s.post("/microdin/jobs/dj011/apply", bad, status=400)
    assert "Enter a phone number" in answer.text and await value(s, "SELECT applied FROM jobs WHERE id = 'dj011'") == 0
    before = await value(s, "SELECT applicant_count FROM jobs WHERE id = 'dj011'")
    response, _ = await s.post("/microdin/jobs/dj011/apply", dict(APPLY, next="/microdin/jobs/dj011"))
    assert response.headers["Location"] == "/microdin/jobs/dj011"
    row = await s.world.fetch_one("SELECT * FROM jobs WHERE id = 'dj011'")
    assert row["applied"] == 1
    assert row["applied_at"]
    assert row["applicant_count"] == before + 1
    page = await s.page("/microdin/jobs/dj011")
    assert "Applied ✓" in page.text and "Application submitted to Site Reliability Engineer" in page.text
    assert PHONE in page.text
    mine = await s.page("/microdin/jobs/applied")
    assert "Applied (1)" in mine.text and "Site Reliability Engineer" in mine.text
    assert "Applied" in (await s.page("/microdin/jobs")).text
    await s.post("/microdin/jobs/dj011/apply", APPLY, status=400)  # cannot apply twice
    assert await value(s, "SELECT COUNT(*) FROM applications") == 1
    assert await s.verdict()


async def test_like_comment_and_post(env_session):
    s = await env_session(KUBE)
    likes = await value(s, "SELECT like_count FROM posts WHERE id = 'dp001'")
    await s.post("/microdin/posts/dp001/like", {"next": "/microdin/feed"})
    assert await value(s, "SELECT liked FROM posts WHERE id = 'dp001'") == 1
    assert await value(s, "SELECT like_count FROM posts WHERE id = 'dp001'") == likes + 1
    assert "Liked ✓ (click to unlike)" in (await s.page("/microdin/posts/dp001")).text
    await s.post("/microdin/posts/dp001/like", {"next": "/microdin/feed"})
    assert await value(s, "SELECT like_count FROM posts WHERE id = 'dp001'") == likes
    comments = await value(s, "SELECT comment_count FROM posts WHERE id = 'dp001'")
    await s.post("/microdin/posts/dp001/comment", {"body": "Well said!", "next": "/microdin/posts/dp001"})
    assert await value(s, "SELECT comment_count FROM posts WHERE id = 'dp001'") == comments + 1
    assert "Well said!" in (await s.page("/microdin/posts/dp001")).text
    await s.post("/microdin/posts/dp001/comment", {"body": "  "}, status=400)
    await s.post("/microdin/posts", {"body": "Hello network", "next": "/microdin/feed"})
    row = await s.world.fetch_one("SELECT * FROM posts WHERE body = 'Hello network'")
    assert row["origin"] == "self"
    assert row["author_id"] == "p000"
    assert row["id"].startswith("u-")
    feed = await s.page("/microdin/feed")
    assert "Hello network" in feed.text and "Post shared" in feed.text
    # the agent's own post never counts toward feed growth
    assert await value(s, "SELECT COUNT(*) FROM posts WHERE origin != 'self'") == s.session.baselines["post_count"]


async def test_accept_and_ignore_invitations(env_session):
    s = await env_session(KUBE)
    page = await s.page("/microdin/network")
    assert "Invitations (10)" in page.text and "My Network (10)" in page.text
    persona = await value(s, "SELECT persona_id FROM invitations WHERE id = 'di001'")
    connections = number(r"(\d+) connections", page.text)
    await s.post("/microdin/invitations/di001/accept", {"next": "/microdin/network"})
    assert await value(s, "SELECT status FROM invitations WHERE id = 'di001'") == "accepted"
    assert await value(s, "SELECT connected FROM members WHERE id = ?", (persona,)) == 1
    await s.post("/microdin/invitations/di002/ignore", {"next": "/microdin/network"})
    assert await value(s, "SELECT status FROM invitations WHERE id = 'di002'") == "ignored"
    page = await s.page("/microdin/network")
    assert "Invitations (8)" in page.text and number(r"(\d+) connections", page.text) == connections + 1
    await s.post("/microdin/invitations/di002/accept", {}, status=400)


async def test_thread_marks_read_unless_live_and_sending_and_new_conversations(env_session):
    s = await env_session(KUBE)
    conv = await value(s, "SELECT conversation_id FROM messages WHERE is_read = 0 LIMIT 1")
    listing = await s.page("/microdin/messaging")
    assert "unread" in listing.text
    await s.page(f"/microdin/messaging/{conv}", headers={"X-Live-Refresh": "1"})
    assert await value(s, "SELECT COUNT(*) FROM messages WHERE conversation_id = ? AND is_read = 0", (conv,)) > 0
    await s.page(f"/microdin/messaging/{conv}")
    assert await value(s, "SELECT COUNT(*) FROM messages WHERE conversation_id = ? AND is_read = 0", (conv,)) == 0
    await s.post(f"/microdin/messaging/{conv}/send", {"body": "Thanks, talk soon", "next": "/microdin/messaging"})
    row = await s.world.fetch_one("SELECT * FROM messages WHERE body = 'Thanks, talk soon'")
    assert row["origin"] == "self"
    assert row["sender_id"] == "p000"
    assert row["is_read"] == 1
    await s.post(f"/microdin/messaging/{conv}/send", {"body": ""}, status=400)
    response, _ = await s.post("/microdin/messaging/new", {"persona_id": "p090"})
    new_id = await value(s, "SELECT id FROM conversations WHERE counterpart_id = 'p090'")
    assert response.headers["Location"] == f"/microdin/messaging/{new_id}"
    again, _ = await s.post("/microdin/messaging/new", {"persona_id": "p090"})
    assert again.headers["Location"] == response.headers["Location"]
    await s.post("/microdin/messaging/new", {"persona_id": "p000"}, status=400)


async def test_notification_link_marks_read_and_redirects(env_session):
    s = await env_session(KUBE)
    row = await s.world.fetch_one("SELECT * FROM notifications WHERE is_read = 0 AND post_id IS NOT NULL LIMIT 1")
    response = await s.client.get(f"/microdin/notifications/{row['id']}", allow_redirects=False,
                                  headers={"X-Live-Refresh": "1"})
    assert response.status == 303
    assert await value(s, "SELECT is_read FROM notifications WHERE id = ?", (row["id"],)) == 0
    response = await s.client.get(f"/microdin/notifications/{row['id']}", allow_redirects=False)
    assert response.headers["Location"] == f"/microdin/posts/{row['post_id']}"
    assert await value(s, "SELECT is_read FROM notifications WHERE id = ?", (row["id"],)) == 1


async def test_profile_sections_company_and_search(env_session):
    s = await env_session(KUBE)
    me = await s.page("/microdin/in/me")
    assert "Alex Morgan" in me.text
    assert "Experience" in me.text
    assert "Add section" in me.text
    await s.post("/microdin/in/me/sections", {"kind": "certification", "title": "Certified Scrum Product Owner",
                                              "subtitle": "Scrum Alliance", "body": "", "next": "/microdin/in/me"})
    assert "Certified Scrum Product Owner" in (await s.page("/microdin/in/me")).text
    _, bad = await s.post("/microdin/in/me/sections", {"kind": "hobby", "title": ""}, status=400)
    assert "Choose what kind" in bad.text and "Give the section a title" in bad.text
    other = await s.page("/microdin/in/p003")
    assert "Add section" not in other.text and "Message" in other.text
    company = await s.page("/microdin/company/e069")
    assert "Brightline Software" in company.text and "Product Manager, Growth" in company.text
    found = await s.page("/microdin/search?q=Brightline")
    assert "Brightline Software" in found.text
    assert "Requirements" not in (await s.page("/microdin/search?q=Engineer")).text


# --- scenarios ---------------------------------------------------------------------------------

async def test_jobs_threshold_holds_from_condition_at(env_session):
    s = await env_session(JOBS)
    at = s.session.scenario.condition_at
    await s.advance_to(at - 0.001)
    assert number(r"(\d+) results", (await s.page("/microdin/jobs")).text) == 7 and not await s.verdict()
    await s.advance_to(at)
    assert number(r"(\d+) results", (await s.page("/microdin/jobs")).text) == 8 and await s.verdict()


@pytest.mark.parametrize("name", ["apply_api_docs", "apply_python_two", "apply_react_two"])
async def test_applying_to_targets_passes_and_to_a_decoy_fails(env_session, name):
    s = await env_session(f"scenarios/verified/microdin/{name}.yaml")
    scenario = s.session.scenario
    await s.advance_to(scenario.condition_at)
    assert not await s.verdict()
    arrived = [e for e in scenario.timeline if e.type == "new_job" and e.at <= scenario.condition_at]
    for event in arrived:
        if event.note.startswith("target"):
            await s.post(f"/microdin/jobs/{event.fields['job_id']}/apply", APPLY)
    assert await s.verdict()
    decoy = next(e for e in arrived if e.note.startswith("decoy"))
    await s.post(f"/microdin/jobs/{decoy.fields['job_id']}/apply", APPLY)
    assert not await s.verdict()


async def test_cobol_noop_never_gets_a_cobol_requirement(env_session):
    s = await env_session("scenarios/verified/microdin/apply_cobol_noop.yaml")
    await s.advance_to(720)
    assert await value(s, "SELECT COUNT(*) FROM jobs WHERE requirements LIKE '%COBOL%'") == 0
    assert await value(s, "SELECT COUNT(*) FROM jobs WHERE title LIKE '%COBOL%'") == 1
    assert await s.verdict()
    await s.post("/microdin/jobs/dj029/apply", APPLY)
    assert not await s.verdict()


def test_generator_reproduces_the_committed_catalog_and_images(tmp_path):
    """generate.py is seeded and in sync with the committed JSONL and SVG files."""
    folder = REPO_ROOT / "catalogs" / "microdin"
    spec = importlib.util.spec_from_file_location("microdin_generate", folder / "generate.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    gen.HERE, gen.IMAGES = tmp_path, tmp_path / "images"
    gen.main()
    for made in tmp_path.glob("*.jsonl"):
        assert made.read_text() == (folder / made.name).read_text(), made.name
    images = sorted((tmp_path / "images").iterdir())
    assert images and all(i.read_text() == (REPO_ROOT / "web/static/microdin" / i.name).read_text() for i in images)
    jobs = [json.loads(line) for line in (folder / "jobs.jsonl").read_text().splitlines()]
    assert not any("COBOL" in r for j in jobs for r in j["requirements"])  # no posting asks for COBOL
