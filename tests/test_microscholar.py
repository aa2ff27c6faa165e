"""MicroScholar: search, events, actions, baselines and the grading of a few scenarios."""

from __future__ import annotations

import asyncio
import re

from sentinel.checks.drafts import generate_set
from sentinel.core.config import load_config
from sentinel.envs.microscholar.search import parse_query, search, split_terms

SAVE = "scenarios/verified/microscholar/abstract_save_more.yaml"  # preload has one saved paper with the phrase
PHRASE = "scenarios/verified/microscholar/save_phrase.yaml"
CITE = "scenarios/verified/microscholar/cite_title.yaml"
UNREAD = "scenarios/verified/microscholar/unread_alerts_more.yaml"
AUTHOR = "scenarios/verified/microscholar/save_by_author.yaml"
MORE = "scenarios/verified/microscholar/papers_more.yaml"


async def value(s, sql: str, params: tuple = ()):
    return await s.world.fetch_value(sql, params)


def paper_ids(p) -> list[str]:
    return [href.rsplit("/", 1)[1] for href, _ in p.links if re.search(r"/microscholar/paper/sp\d+$", href)]


async def paper_id(s, title: str) -> str:
    return await value(s, "SELECT id FROM papers WHERE title = ?", (title,))


# --- search ----------------------------------------------------------------------------------

def test_query_language_phrases_exclusions_and_words():
    assert split_terms('robot "unstructured environments" -survey -"a b"') == (
        ["robot", "unstructured environments"], ["survey", "a b"])
    rows = [{"title": "Mapping Unstructured Environments", "authors": "A B", "abstract": "lidar maps", "venue": "ICRA",
             "year": 2024, "cited_by_count": 1, "created_at": "2024-01-01", "seq": 1},
            {"title": "Legged robots", "authors": "C D", "abstract": "walks in unstructured environments",
             "venue": "CoRL",
             "year": 2020, "cited_by_count": 9, "created_at": "2024-02-01", "seq": 2},
            {"title": "Recovery", "authors": "E F", "abstract": "unstructured outdoor environments", "venue": "CoRL",
             "year": 2024, "cited_by_count": 5, "created_at": "2024-03-01", "seq": 3}]
    phrase = parse_query({"q": '"unstructured environments"'})
    assert [r["seq"] for r in search(rows, phrase)] == [1, 2]  # title match ranks first
    assert [r["seq"] for r in search(rows, phrase, "date")] == [2, 1]
    assert [r["seq"] for r in search(rows, parse_query({"q": "unstructured"}), "citations")] == [2, 3, 1]
    assert [r["seq"] for r in search(rows, parse_query({"q": "unstructured -lidar", "since": "2021"}))] == [3]
    assert search(rows, parse_query({"q": "environment"})) == []  # whole words, no fuzzy matching
    assert [r["seq"] for r in search(rows, parse_query({"author": "c d", "venue": "corl"}))] == [2]


async def test_search_page_matches_abstracts_sorts_and_pages(env_session):
    s = await env_session(SAVE)
    p = await s.page('/microscholar/search?q="unstructured environments"&sort=date')
    expected = [r["id"] for r in await s.world.fetch_all(
        "SELECT id FROM papers WHERE (abstract LIKE '%unstructured environments%'"
        " OR title LIKE '%unstructured environments%')"
        " AND withdrawn = 0 ORDER BY created_at DESC")]
    assert paper_ids(p) == expected and f"About {len(expected)} results" in p.text
    saved = await value(s, "SELECT id FROM papers WHERE saved = 1 AND abstract LIKE '%unstructured environments%'")
    abstract = await value(s, "SELECT abstract FROM papers WHERE id = ?", (saved,))
    assert abstract[:160].split()[0] in p.text and "unstructured environments where vision fails" not in p.text
    many = await s.page("/microscholar/search?q=we&sort=citations")
    total = int(re.search(r"About (\d+) results", many.text).group(1))
    assert total > 10
    assert len(paper_ids(many)) == 10
    assert f"Showing 1–10 of {total}" in many.text
    second = await s.page("/microscholar/search?q=we&sort=citations&page=2")
    assert not set(paper_ids(second)) & set(paper_ids(many))
    await s.page("/microscholar/search?q=x&sort=stars", status=400)
    await s.page("/microscholar/search?q=x&ylo=20x4", status=400)


async def test_live_search_shows_a_new_match_after_its_event(env_session):
    s = await env_session(PHRASE)
    url = '/microscholar/search?q="downstream tasks"&sort=date'
    before = paper_ids(await s.page(url))
    await s.advance_to(110)
    target = await paper_id(s, "Contrastive Pretraining of Tabular Encoders with Column-Aware Augmentations")
    after = paper_ids(await s.page(url))
    assert after[0] == target and target not in before


# --- events ----------------------------------------------------------------------------------

async def test_preload_new_paper_citations_and_withdraw(env_session):
    s = await env_session(CITE)
    home = await s.page("/microscholar/")
    total = await value(s, "SELECT COUNT(*) FROM papers")
    assert f"Showing 1–10 of {total}" in home.text
    assert await value(s, "SELECT COUNT(*) FROM papers WHERE saved = 1 AND saved_at = 0") == 4
    assert await value(s, "SELECT COUNT(*) FROM paper_authors") > 50
    old = await paper_id(s, "Tactile Servoing for Rigid Object Manipulation")
    await s.advance_to(150)
    assert await value(s, "SELECT cited_by_count FROM papers WHERE id = ?", (old,)) == 203
    assert "Cited by 203" in (await s.page(f"/microscholar/paper/{old}")).text
    await s.advance_to(560)
    target = await paper_id(s, "Tactile Servoing for Deformable Object Manipulation")
    assert paper_ids(await s.page("/microscholar/"))[0] == target
    assert await value(s, "SELECT origin FROM papers WHERE id = ?", (target,)) == "event"
    await s.advance_to(640)
    page = await s.page(f"/microscholar/paper/{target}")
    assert "withdrawn by its authors" in page.text
    assert not [f for f in page.forms if re.search(r"/(save|cite)$", f.action)]
    assert target not in paper_ids(await s.page("/microscholar/search?q=servoing"))
    await s.post(f"/microscholar/paper/{target}/cite", {}, status=400)
    await s.post(f"/microscholar/paper/{target}/save", {}, status=400)


async def test_new_alert_unread_or_already_read(env_session):
    s = await env_session(UNREAD)
    unread = await value(s, "SELECT COUNT(*) FROM alerts WHERE is_read = 0")
    p = await s.page("/microscholar/alerts")
    assert p.text.startswith(f"({unread}) Alerts")
    assert f"{unread} unread" in p.text
    assert f"Alerts ({unread})" in p.text
    await s.advance_to(40)  # arrives already read
    assert await value(s, "SELECT is_read + arrived_read FROM alerts WHERE origin = 'event'") == 2
    await s.advance_to(120)
    assert f"{unread + 1} unread" in (await s.page("/microscholar/alerts")).text


# --- actions ---------------------------------------------------------------------------------

async def test_save_toggles_and_library_lists_it(env_session):
    s = await env_session(SAVE)
    pid = await value(s, "SELECT id FROM papers WHERE saved = 0 LIMIT 1")
    resp, _ = await s.post(f"/microscholar/paper/{pid}/save", {"next": "/microscholar/library"})
    assert resp.headers["Location"] == "/microscholar/library"
    assert await value(s, "SELECT saved_at FROM papers WHERE id = ?", (pid,)) == 0.0  # sim 0 on a paused clock
    lib = await s.page("/microscholar/library")
    assert "Saved to your library" in lib.text
    assert pid in paper_ids(lib)
    assert "All saved (5)" in lib.text
    await s.post(f"/microscholar/paper/{pid}/save", {"next": "/microscholar/library"})
    assert await value(s, "SELECT saved FROM papers WHERE id = ?", (pid,)) == 0
    assert pid not in paper_ids(await s.page("/microscholar/library"))


async def test_cite_is_a_post_and_shows_the_formats(env_session):
    s = await env_session(SAVE)
    pid = await value(s, "SELECT id FROM papers LIMIT 1")
    await s.page(f"/microscholar/paper/{pid}/cite")
    assert await value(s, "SELECT cited FROM papers WHERE id = ?", (pid,)) == 0  # opening the formats cites nothing
    resp, _ = await s.post(f"/microscholar/paper/{pid}/cite", {})
    assert resp.headers["Location"] == f"/microscholar/paper/{pid}/cite"
    assert await value(s, "SELECT cited FROM papers WHERE id = ?", (pid,)) == 1
    p = await s.page(resp.headers["Location"])
    for style in ("MLA", "APA", "Chicago", "Harvard", "Vancouver"):
        assert style in p.text, style
    assert re.search(r"@(article|book)\{\w+, title=", p.text)
    await s.post("/microscholar/paper/sp9999/cite", {}, status=404)


async def test_alerts_mark_read_and_read_all(env_session):
    s = await env_session(UNREAD)
    one = await value(s, "SELECT id FROM alerts WHERE is_read = 0 LIMIT 1")
    await s.post(f"/microscholar/alerts/{one}/read", {"next": "/microscholar/alerts"})
    assert await value(s, "SELECT is_read FROM alerts WHERE id = ?", (one,)) == 1
    _, _ = await s.post("/microscholar/alerts/read_all", {"next": "/microscholar/alerts"})
    assert await value(s, "SELECT COUNT(*) FROM alerts WHERE is_read = 0") == 0
    assert "Marked 1 alert as read" in (await s.page("/microscholar/alerts")).text


async def test_created_alert_lists_what_matches_as_it_arrives(env_session):
    s = await env_session(AUTHOR)
    await s.post("/microscholar/alerts/create", {"query": '"Renée Jackson"'}, status=303)
    await s.post("/microscholar/alerts/create", {"query": '"Renée Jackson"'}, status=400)
    await s.post("/microscholar/alerts/create", {"query": "  "}, status=400)
    assert await value(s, "SELECT origin FROM alert_queries") == "self"
    url = '/microscholar/alerts/matches?query="Renée Jackson"'
    before = paper_ids(await s.page(url))
    await s.advance_to(220)
    after = paper_ids(await s.page(url))
    assert len(after) == len(before) + 1 and "Delete alert" in (await s.page(url)).text
    assert "1 matching" not in (await s.page("/microscholar/alerts")).text
    alert_id = await value(s, "SELECT id FROM alert_queries")
    await s.post(f"/microscholar/alerts/mine/{alert_id}/delete", {})
    assert await value(s, "SELECT COUNT(*) FROM alert_queries") == 0


async def test_profile_metrics_and_coauthors_follow_the_index(env_session):
    s = await env_session(AUTHOR)
    p = await s.page("/microscholar/citations/p013")
    assert "Renée Jackson" in p.text
    assert "Lakemont University" in p.text
    assert "Darnell Jackson" in p.text
    counts = [r[0] for r in await s.world.fetch_all(
        "SELECT cited_by_count FROM papers p JOIN paper_authors a ON a.paper_id = p.id WHERE a.persona_id = 'p013'")]
    assert f"Citations {sum(counts)}" in p.text
    await s.advance_to(370)
    assert "Personalised Assistance Levels" in (await s.page("/microscholar/citations/p013?sort=year")).text
    me = await s.page("/microscholar/citations/me")
    assert "Alex Morgan (you)" in me.text and "Measuring Feature Adoption" in me.text
    await s.page("/microscholar/citations/p001", status=404)  # no scholar profile


# --- baselines and grading -------------------------------------------------------------------

async def test_baselines(env_session):
    s = await env_session(UNREAD)
    rows = await s.world.fetch_all("SELECT key, value FROM session_meta WHERE key LIKE 'baseline_%'")
    meta = {r[0]: float(r[1]) for r in rows}
    assert meta["baseline_paper_count"] == await value(s, "SELECT COUNT(*) FROM papers")
    assert meta["baseline_saved_count"] == 4
    assert meta["baseline_unread_alert_count"] == 2 and meta["baseline_alert_count"] == 8


async def test_save_by_author_needs_all_three_and_no_other_jackson(env_session):
    s = await env_session(AUTHOR)
    await s.advance_to(370)
    theirs = [r[0] for r in await s.world.fetch_all(
        "SELECT paper_id FROM paper_authors JOIN papers ON id = paper_id"
        " WHERE persona_id = 'p013' AND origin = 'event'")]
    for pid in theirs[:2]:
        await s.post(f"/microscholar/paper/{pid}/save", {})
    assert not await s.verdict()
    await s.post(f"/microscholar/paper/{theirs[2]}/save", {})
    assert await s.verdict()
    other = await paper_id(s, "Kinodynamic Planning for Mobile Manipulators")
    await s.post(f"/microscholar/paper/{other}/save", {})
    assert not await s.verdict()


async def test_papers_more_counts_from_the_baseline(env_session):
    s = await env_session(MORE)
    await s.advance_to(44)
    assert not await s.verdict()
    await s.advance_to(45)
    assert await s.verdict()


def test_the_noop_twin_asks_for_a_title_never_indexed_and_the_source_title_is_its_near_miss():
    data = asyncio.run(generate_set(load_config(), "microscholar", 1, 2, kind="title_absent_noop"))[0].data
    asked = re.search(r'paper "(.+)" should', data["prompt"]).group(1)
    source = re.search(r"title = '(.+)'\)", data["near_miss_sql"]).group(1)
    assert asked != source
    assert data["condition_at"] is None
    assert data["solution"][0]["until"] == {"text": asked}
    assert any(e.get("_note", "").startswith("near miss") for e in data["events"])
