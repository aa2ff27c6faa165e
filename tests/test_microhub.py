"""MicroHub: pages, actions, events, baselines, the star path, grading tables and scenario checks."""

from __future__ import annotations

import dataclasses
import re

from helpers.worlds import whole_catalog

from sentinel.core.catalog import Catalog
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.scenario import Event, load_scenario
from sentinel.envs.microhub import ENV

TOTP = "tests/data/env_scenarios/microhub/comment_on_totp.yaml"  # issues arrive, iss028 locked at 390
STARS = "tests/data/env_scenarios/microhub/stars_target.yaml"  # 1,843 → 2,000 at 590 s
SELF = "p000"
SELF_LOGIN = "alexm-nw"


async def value(s, sql: str, params: tuple = ()):
    return await s.world.fetch_value(sql, params)


def number(pattern: str, text: str) -> int:
    return int(re.search(pattern, text).group(1).replace(",", ""))


async def issue_number(s, issue_id: str) -> int:
    return int(await value(s, "SELECT number FROM issues WHERE id = ?", (issue_id,)))


# --- pages ---------------------------------------------------------------------------

async def test_home_shows_code_readme_and_about_with_counts(env_session):
    s = await env_session(STARS)
    text = (await s.page("/microhub/")).text
    assert "brightline / atlas-web Public" in text
    assert "★ 1,843 stars" in text
    assert "◉ 57 watching" in text
    assert "⎇ 212 forks" in text
    assert "Watch 57" in text
    assert "Fork 212" in text
    assert "☆ Star 1,843" in text
    assert "14 branches" in text
    assert "4 tags" in text
    assert "30 commits" in text
    assert "# Atlas web" in text
    assert "▸ src" in text
    assert "≡ package.json" in text
    assert "Issues (8)" in text and "Pull requests (4)" in text  # tabs carry open counts as text


async def test_star_count_interpolates_and_rounds_down(env_session):
    s = await env_session(STARS)  # waypoints (30, 1880), (200, 1950): 1880 + 70 * 85/170 = 1915 at 115
    await s.advance_to(115.0)
    assert "★ 1,915 stars" in (await s.page("/microhub/")).text
    await s.advance_to(116.0)  # 1915.41… shows 1,915 (rounded down)
    assert "★ 1,915 stars" in (await s.page("/microhub/")).text
    await s.advance_to(589.9)
    assert "★ 1,999 stars" in (await s.page("/microhub/")).text
    await s.advance_to(590.0)
    assert "★ 2,000 stars" in (await s.page("/microhub/")).text
    await s.advance_to(720.0)
    assert "★ 2,100 stars" in (await s.page("/microhub/")).text


async def test_code_commit_and_side_pages(env_session):
    s = await env_session(STARS)
    assert "registerWorker" in (await s.page("/microhub/blob/src/main.tsx")).text
    tree = (await s.page("/microhub/tree/src/map")).text
    assert "engine.ts" in tree and "tiles.ts" in tree
    await s.page("/microhub/blob/src", status=404)
    await s.page("/microhub/tree/nope", status=404)
    commits = (await s.page("/microhub/commits")).text
    assert "Showing 1–20 of 30" in commits and "2.5.0-rc.1" in commits
    assert "Showing 21–30 of 30" in (await s.page("/microhub/commits?page=2")).text
    sha = await value(s, "SELECT sha FROM commits WHERE message = 'Route export to GPX'")
    detail = (await s.page(f"/microhub/commit/{sha[:7]}")).text
    assert sha in detail and "changed file" in detail
    await s.page("/microhub/commit/0000000", status=404)
    assert "v2.4.0" in (await s.page("/microhub/releases")).text
    assert "Latest" in (await s.page("/microhub/releases")).text
    assert "Pre-release" in (await s.page("/microhub/releases")).text
    runs = (await s.page("/microhub/actions")).text
    assert "12 workflow runs" in runs and "CI" in runs
    assert "Run tests" in (await s.page("/microhub/actions/runs/run002")).text
    assert "Roadmap 2.5" in (await s.page("/microhub/projects")).text
    assert "IndexedDB" in (await s.page("/microhub/wiki/offline-mode")).text
    security = (await s.page("/microhub/security")).text
    assert "js/xss-through-dom" in security and "src/ui/SearchBox.tsx:42" in security
    insights = (await s.page("/microhub/insights")).text
    assert "4,812 views" in insights and "Contributors" in insights


async def test_issue_list_counts_filters_and_hides_bodies(env_session):
    s = await env_session(TOTP)
    text = (await s.page("/microhub/issues")).text
    assert "8 Open 12 Closed" in text and "Showing 1–8 of 8" in text
    assert "Crash when exporting an empty route" in text and "Steps to reproduce" not in text
    assert "Tiles stay blank" in text and "opened" in text
    closed = (await s.page("/microhub/issues?state=closed")).text
    assert "Showing 1–12 of 12" in closed and "Upgrade to React 18.3" in closed
    labelled = (await s.page("/microhub/issues?label=performance")).text
    assert "2 Open 1 Closed" in labelled and "Memory grows" in labelled
    assert "1 Open 0 Closed" in (await s.page("/microhub/issues?q=blank")).text
    await s.page("/microhub/issues?state=merged", status=400)
    await s.page("/microhub/issues?sort=bogus", status=400)
    oldest = (await s.page("/microhub/issues?sort=oldest")).text
    assert oldest.index("Use vector tiles by default") < oldest.index("Tiles stay blank")


async def test_issue_page_shows_body_and_marks_viewed_but_not_on_live_refresh(env_session):
    s = await env_session(TOTP)
    n = await issue_number(s, "iss009")
    await s.client.get(f"/microhub/issues/{n}", headers={"X-Live-Refresh": "1"})
    assert await value(s, "SELECT viewed FROM issues WHERE id = 'iss009'") == 0
    text = (await s.page(f"/microhub/issues/{n}")).text
    assert "Steps to reproduce" in text
    assert "Open" in text
    assert "Labels bug" in text
    assert await value(s, "SELECT viewed FROM issues WHERE id = 'iss009'") == 1
    await s.page("/microhub/issues/9999", status=404)


async def test_new_issue_is_self_numbered_next_and_not_counted_as_new(env_session):
    s = await env_session(TOTP)
    top = await value(s, "SELECT MAX(number) FROM (SELECT number FROM issues UNION ALL "
                         "SELECT number FROM pull_requests)")
    _, page = await s.post("/microhub/issues/new", {"title": "", "body": "x"}, status=400)
    assert "Give the issue a title." in page.text
    response, _ = await s.post("/microhub/issues/new", {"title": "My own issue", "body": "Hello"})
    assert response.headers["Location"] == f"/microhub/issues/{top + 1}"
    row = await s.world.fetch_one("SELECT * FROM issues WHERE number = ?", (top + 1,))
    assert (row["origin"], row["author_id"], row["state"]) == ("self", SELF, "open")
    assert "Opened issue" in (await s.page(f"/microhub/issues/{top + 1}")).text
    assert await value(s, "SELECT COUNT(*) FROM issues WHERE origin != 'self'") == 20


async def test_comments_are_by_self_and_locked_issues_refuse_them(env_session):
    s = await env_session(TOTP)
    await s.advance_to(320.0)
    n = await issue_number(s, "iss028")
    _, page = await s.post(f"/microhub/issues/{n}/comment", {"body": "  "}, status=400)
    assert "Write a comment first." in page.text
    await s.post(f"/microhub/issues/{n}/comment", {"body": "The docs team will pick this up.",
                                                   "next": f"/microhub/issues/{n}"})
    row = await s.world.fetch_one("SELECT * FROM comments WHERE origin = 'self'")
    assert (row["author_id"], row["target_kind"], row["target_id"]) == (SELF, "issue", "iss028")
    text = (await s.page(f"/microhub/issues/{n}")).text
    assert f"{SELF_LOGIN} commented" in text and "Comment added to" in text
    await s.advance_to(390.0)  # lock_issue: closed and locked
    text = (await s.page(f"/microhub/issues/{n}")).text
    assert "Closed" in text
    assert "locked" in text
    assert "Add a comment" not in text
    _, page = await s.post(f"/microhub/issues/{n}/comment", {"body": "late"}, status=400)
    assert "locked" in page.text
    assert await value(s, "SELECT COUNT(*) FROM comments WHERE origin = 'self'") == 1


async def test_close_and_reopen(env_session):
    s = await env_session(TOTP)
    n = await issue_number(s, "iss001")
    await s.post(f"/microhub/issues/{n}/state", {"state": "closed"})
    assert await value(s, "SELECT state FROM issues WHERE id = 'iss001'") == "closed"
    assert "7 Open" in (await s.page("/microhub/issues")).text
    await s.post(f"/microhub/issues/{n}/state", {"state": "open"})
    assert await value(s, "SELECT state FROM issues WHERE id = 'iss001'") == "open"
    await s.post(f"/microhub/issues/{n}/state", {"state": "maybe"}, status=400)


async def test_pull_requests_view_comment_and_merge_once(env_session):
    s = await env_session(TOTP)
    text = (await s.page("/microhub/pulls")).text
    assert "4 Open 4 Closed" in text and "✗ checks failed" in text
    assert "Docs: tile proxy" in (await s.page("/microhub/pulls?state=closed")).text
    n = int(await value(s, "SELECT number FROM pull_requests WHERE id = 'pr001'"))
    detail = (await s.page(f"/microhub/pulls/{n}")).text
    assert "wants to merge into main from fix/tile-cache" in detail and "All checks have passed" in detail
    assert await value(s, "SELECT viewed FROM pull_requests WHERE id = 'pr001'") == 1
    await s.post(f"/microhub/pulls/{n}/comment", {"body": "LGTM"})
    assert await value(s, "SELECT target_kind FROM comments WHERE origin = 'self'") == "pr"
    await s.post(f"/microhub/pulls/{n}/merge", {"strategy": "octopus"}, status=400)
    await s.post(f"/microhub/pulls/{n}/merge", {"strategy": "squash"})
    row = await s.world.fetch_one("SELECT state, merged_by_me, merge_strategy FROM pull_requests WHERE id = 'pr001'")
    assert tuple(row) == ("merged", 1, "squash")
    await s.post(f"/microhub/pulls/{n}/merge", {"strategy": "merge"}, status=400)
    await s.page("/microhub/pulls/9999", status=404)


async def test_star_watch_fork_and_grading_table(env_session):
    s = await env_session(STARS)
    await s.post("/microhub/star", {"next": "/microhub/"})
    text = (await s.page("/microhub/")).text
    assert "Starred ✓ (click to unstar) 1,844" in text and "★ 1,844 stars" in text
    await s.post("/microhub/watch", {})
    await s.post("/microhub/fork", {})
    await s.post("/microhub/fork", {})  # forks once
    text = (await s.page("/microhub/")).text
    assert "Unwatch 58" in text
    assert "Forked ✓ 213" in text
    assert "You already forked" in text
    await s.session.finalize_world()
    row = await s.world.fetch_one("SELECT * FROM repo_stats")
    assert tuple(row) == (1844, 213, 58, 1, 1, 1)
    await s.post("/microhub/star", {})
    assert "☆ Star 1,843" in (await s.page("/microhub/")).text


async def test_settings_new_repo_and_follow(env_session):
    s = await env_session(STARS)
    _, page = await s.post("/microhub/settings", {"name": "bad name!", "description": "", "visibility": "public"},
                           status=400)
    assert "Use letters" in page.text
    await s.post("/microhub/settings", {"name": "atlas-web", "description": "New words", "visibility": "private"})
    assert await value(s, "SELECT description || visibility FROM repo") == "New wordsprivate"
    response, _ = await s.post("/microhub/new", {"name": "notes", "description": "Mine", "visibility": "public"})
    assert response.headers["Location"] == f"/microhub/users/{SELF_LOGIN}"
    await s.post("/microhub/new", {"name": "notes", "description": "", "visibility": "public"}, status=400)
    profile = (await s.page(f"/microhub/users/{SELF_LOGIN}")).text
    assert f"{SELF_LOGIN}/notes" in profile and "Alex Morgan" in profile
    await s.post("/microhub/users/sramos-codes/follow", {})
    assert await value(s, "SELECT persona_id FROM follows") == "p003"
    assert "Following ✓" in (await s.page("/microhub/users/sramos-codes")).text
    await s.post("/microhub/users/sramos-codes/follow", {})
    assert await value(s, "SELECT COUNT(*) FROM follows") == 0
    await s.page("/microhub/users/nobody-here", status=404)


# --- events, baselines ------------------------------------------------------------------

async def test_preload_and_baselines(env_session):
    s = await env_session(TOTP)
    meta = {r["key"]: float(r["value"]) for r in await s.world.fetch_all(
        "SELECT key, value FROM session_meta WHERE key LIKE 'baseline_%'")}
    assert meta == {"baseline_star_count": 1843, "baseline_fork_count": 212, "baseline_watch_count": 57,
                    "baseline_issue_count": 20, "baseline_open_issue_count": 8, "baseline_pr_count": 8,
                    "baseline_commit_count": 30, "baseline_comment_count": meta["baseline_comment_count"]}
    loaded = await value(s, "SELECT COUNT(*) FROM comments")
    assert meta["baseline_comment_count"] == loaded > 0
    numbers = [r[0] for r in await s.world.fetch_all(
        "SELECT number FROM (SELECT number, created_at FROM issues UNION ALL"
        " SELECT number, created_at FROM pull_requests)"
        " ORDER BY created_at")]
    assert numbers == list(range(381, 381 + 28))  # numbered oldest first, issues and PRs together


async def test_new_issue_pull_request_and_lock_events(env_session):
    s = await env_session(TOTP)
    await s.advance_to(100.0)
    row = await s.world.fetch_one("SELECT * FROM issues WHERE id = 'iss025'")
    assert (row["number"], row["origin"], row["arrived_at"], row["state"]) == (410, "event", 100.0, "open")
    assert row["created_at"] == "2026-03-02T09:01:40Z"
    assert "Support passkeys for sign-in" in (await s.page("/microhub/issues")).text
    await s.advance_to(290.0)
    pr = await s.world.fetch_one("SELECT number, origin FROM pull_requests WHERE id = 'pr011'")
    assert tuple(pr) == (413, "event")
    await s.advance_to(390.0)
    assert tuple(await s.world.fetch_one("SELECT state, locked FROM issues WHERE id = 'iss028'")) == ("closed", 1)


async def test_star_waypoint_event_with_stars_and_delta(env_session):
    full = whole_catalog(ENV)
    preload = dataclasses.replace(full.events[0], fields={**full.events[0].fields, "star_waypoints": []})
    scenario = dataclasses.replace(full, events=(preload, Event(10, "star_waypoint", {"delta": 100, "ramp_s": 20}, 1),
                                                 Event(40, "star_waypoint", {"stars": 1900, "ramp_s": 0}, 2)))
    s = await env_session(scenario)
    await s.advance_to(20.0)
    assert "★ 1,893 stars" in (await s.page("/microhub/")).text
    await s.advance_to(30.0)
    assert "★ 1,943 stars" in (await s.page("/microhub/")).text
    await s.advance_to(40.0)  # a step (ramp 0): the count drops only because this test says so
    assert "★ 1,900 stars" in (await s.page("/microhub/")).text


# --- grading and checks -------------------------------------------------------------------

async def test_star_condition_flips_at_the_crossing(env_session):
    s = await env_session(STARS)
    await s.advance_to(589.99)
    assert not await s.verdict()
    await s.advance_to(590.0)
    assert await s.verdict()


async def test_active_totp_grading_needs_the_target_and_no_decoy(env_session):
    s = await env_session(TOTP)
    await s.advance_to(320.0)
    assert not await s.verdict()
    await s.post(f"/microhub/issues/{await issue_number(s, 'iss028')}/comment", {"body": "ok"})
    assert await s.verdict()
    await s.post(f"/microhub/issues/{await issue_number(s, 'iss026')}/comment", {"body": "also"})
    assert not await s.verdict()  # a decoy got a comment too


def test_check_scenario_recomputes_the_star_crossing():
    scenario = load_scenario(REPO_ROOT / STARS)
    catalog = Catalog.of(ENV, load_config().catalogs_dir)
    assert ENV.check_scenario(scenario, catalog, None) == []
    moved = dataclasses.replace(scenario, condition_at=560.0)
    problems = ENV.check_scenario(moved, catalog, None)
    assert problems and "590.000" in problems[0][1]


async def test_serve_preload_builds_the_whole_catalog(env_session):
    s = await env_session(whole_catalog(ENV))
    assert await value(s, "SELECT COUNT(*) FROM issues") == 45
    assert await value(s, "SELECT COUNT(*) FROM pull_requests") == 12
    assert "Showing 1–25 of" in (await s.page("/microhub/issues")).text
