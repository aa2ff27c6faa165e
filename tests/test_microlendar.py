"""MicroLendar: calendar layout, every event type, every action, the baselines, the views'
rules (hidden descriptions, calendars filter, RSVP state everywhere) and the scenarios' grading."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
from datetime import date

import pytest
from helpers.worlds import whole_catalog

from sentinel.checks.drafts import generate_set
from sentinel.core.config import REPO_ROOT, load_config
from sentinel.envs.microlendar import calendar as cal

TASKS = "scenarios/verified/microlendar/tasks_threshold.yaml"
INVITE = "scenarios/verified/microlendar/invite_destination.yaml"
FEATURE = "scenarios/verified/microlendar/feature_meeting.yaml"


def number(pattern: str, text: str) -> int:
    return int(re.search(pattern, text).group(1).replace(",", ""))


async def catalog_session(env_session):
    return await env_session(whole_catalog("microlendar"))


async def value(s, sql: str, params: tuple = ()):
    return await s.world.fetch_value(sql, params)


# --- calendar arithmetic ------------------------------------------------------------------


def test_clock_month_grid_and_weeks():
    assert [cal.clock(t) for t in ("00:15", "09:00", "12:30", "13:05")] == ["12:15am", "9:00am", "12:30pm", "1:05pm"]
    grid = cal.month_grid(2025, 6)
    assert len(grid) == 6 and all(len(w) == 7 for w in grid)
    assert grid[0][0] == date(2025, 6, 1) and grid[0][0].weekday() == 6  # June 2025 starts on a Sunday
    assert cal.week_days(date(2025, 6, 17))[0] == date(2025, 6, 15)
    assert cal.shift_month(2025, 12, 1) == (2026, 1) and cal.shift_month(2025, 1, -1) == (2024, 12)


def test_overlapping_events_sit_side_by_side():
    def ev(start, end):
        return {"start_at": f"2025-06-17T{start}", "end_at": f"2025-06-17T{end}"}

    placed = cal.side_by_side(
        [ev("15:00", "16:00"), ev("15:30", "16:30"), ev("15:45", "16:45"), ev("10:00", "10:45"), ev("16:30", "17:00")]
    )
    by_start = {p.event["start_at"][11:]: (p.col, p.cols) for p in placed}
    assert by_start["10:00"] == (0, 1)
    assert {by_start["15:00"], by_start["15:30"], by_start["15:45"]} == {(0, 3), (1, 3), (2, 3)}
    assert by_start["16:30"][1] == 3  # still in the cluster: 15:45–16:45 overlaps it


# --- events --------------------------------------------------------------------------------


async def test_preload_sets_today_and_places_events_by_day_offset(env_session):
    s = await env_session(TASKS)
    assert await value(s, "SELECT value FROM session_meta WHERE key = 'today'") == "2025-06-17"
    row = await s.world.fetch_one("SELECT * FROM events WHERE id = 'ev0068'")  # day_offset 5, 14:00–15:00
    assert (row["start_at"], row["end_at"], row["all_day"], row["origin"]) == (
        "2025-06-22T14:00",
        "2025-06-22T15:00",
        0,
        "preload",
    )
    allday = await s.world.fetch_one("SELECT * FROM events WHERE title = 'Recycling pick-up'")
    assert allday["all_day"] == 1 and allday["start_at"] == "2025-06-17T00:00"
    assert (
        await value(s, "SELECT response FROM event_attendees WHERE event_id = 'ev0068' AND persona_id = 'p000'")
        == "pending"
    )
    assert await value(s, "SELECT COUNT(*) FROM tasks") == 7
    assert await value(s, "SELECT due_date FROM tasks WHERE id = 'td0001'") == "2025-06-22"


async def test_new_event_new_task_and_cancel_event(env_session):
    s = await env_session(INVITE)
    await s.advance_to(180)
    row = await s.world.fetch_one("SELECT origin, arrived_at, deleted FROM events WHERE id = 'ev0071'")
    assert tuple(row) == ("event", 180.0, 0)
    assert "Trip planning" in (await s.page("/microlendar/day/2025-06-23")).text
    await s.advance_to(270)  # the organizer withdraws the invitation
    assert await value(s, "SELECT deleted FROM events WHERE id = 'ev0071'") == 1
    await s.page("/microlendar/event/ev0071", status=404)
    assert "Trip planning" not in (await s.page("/microlendar/day/2025-06-23")).text
    t = await env_session(TASKS)
    await t.advance_to(20)
    assert tuple(await t.world.fetch_one("SELECT origin, arrived_at FROM tasks WHERE id = 'td0008'")) == ("event", 20.0)


# --- views -----------------------------------------------------------------------------------


async def test_month_view_counts_chips_and_marks_today(env_session):
    s = await catalog_session(env_session)
    resp = await s.client.get("/microlendar/", allow_redirects=False)
    assert resp.headers["Location"] == "/microlendar/month/2025/06"
    p = await s.page("/microlendar/month/2025/06")
    june = await value(s, "SELECT COUNT(*) FROM events WHERE deleted = 0 AND start_at LIKE '2025-06%'")
    assert number(r"(\d+) events this month", p.text) == june
    assert "17 Today" in p.text and re.search(r"\+\d+ more", p.text)
    html = await (await s.client.get("/microlendar/month/2025/06")).text()
    assert 'aria-current="date"' in html
    hidden = await s.page("/microlendar/month/2025/06?hide=work,family")
    personal = await value(s, "SELECT COUNT(*) FROM events WHERE category = 'personal' AND start_at LIKE '2025-06%'")
    assert number(r"(\d+) events this month", hidden.text) == personal
    await s.page("/microlendar/month/2025/06?hide=holidays", status=400)
    await s.page("/microlendar/month/2025/13", status=404)


async def test_calendars_form_redirects_to_the_hide_url(env_session):
    s = await catalog_session(env_session)
    resp = await s.client.get("/microlendar/week/2025-06-17?calendars=1&show=personal", allow_redirects=False)
    assert resp.status == 302 and resp.headers["Location"] == "/microlendar/week/2025-06-17?hide=work,family"


async def test_week_day_and_schedule_views(env_session):
    s = await catalog_session(env_session)
    week = await s.page("/microlendar/week/2025-06-17")
    in_week = await value(s, "SELECT COUNT(*) FROM events WHERE start_at >= '2025-06-15' AND start_at < '2025-06-22'")
    assert number(r"(\d+) events this week", week.text) == in_week
    day = await s.page("/microlendar/day/2025-06-17")
    assert number(r"(\d+) events on this day", day.text) == 9 and "It is 9:00am" in day.text
    assert "3:00pm – 4:00pm Design critique" in day.text and "All day · Recycling pick-up" in day.text
    sched = await s.page("/microlendar/schedule?from=2025-06-17&to=2025-07-01&hide=personal,family")
    work = await value(
        s,
        "SELECT COUNT(*) FROM events WHERE category = 'work' AND date(start_at) BETWEEN '2025-06-17' AND '2025-07-01'",
    )
    assert number(r"Showing \d+–\d+ of (\d+)", sched.text) == work
    await s.page("/microlendar/schedule?from=June", status=400)
    await s.page("/microlendar/schedule?page=99", status=404)


async def test_descriptions_only_on_the_event_page_which_marks_it_viewed(env_session):
    s = await catalog_session(env_session)
    for path in (
        "/microlendar/schedule",
        "/microlendar/week/2025-06-22",
        "/microlendar/day/2025-06-23",
        "/microlendar/search?q=Hawaii",
        "/microlendar/month/2025/06",
    ):
        assert "Hawaii" not in (await s.page(path)).text, path
    assert "Trip planning" in (await s.page("/microlendar/search?q=Hawaii")).text  # found by its description
    await s.page("/microlendar/event/ev0071", headers={"X-Live-Refresh": "1"})
    assert await value(s, "SELECT viewed FROM events WHERE id = 'ev0071'") == 0
    p = await s.page("/microlendar/event/ev0071")
    assert "Hawaii" in p.text and "Invitation: awaiting your reply" in p.text
    assert await value(s, "SELECT viewed FROM events WHERE id = 'ev0071'") == 1
    await s.page("/microlendar/event/ev9999", status=404)


# --- actions ----------------------------------------------------------------------------------


async def test_rsvp_shows_everywhere_and_is_refused_for_own_events(env_session):
    s = await catalog_session(env_session)
    assert "Invitation" in (await s.page("/microlendar/day/2025-06-23")).text
    await s.post("/microlendar/event/ev0071/rsvp", {"response": "no", "next": "/microlendar/event/ev0071"})
    assert (
        await value(s, "SELECT response FROM event_attendees WHERE event_id = 'ev0071' AND persona_id = 'p000'") == "no"
    )
    assert "You declined" in (await s.page("/microlendar/event/ev0071")).text
    for path in (
        "/microlendar/day/2025-06-23",
        "/microlendar/week/2025-06-23",
        "/microlendar/schedule?from=2025-06-23",
    ):
        assert re.search(
            r"Trip planning · Personal Declined|Trip planning( · Video call)? · Personal Declined",
            (await s.page(path)).text,
        ), path
    await s.post("/microlendar/event/ev0071/rsvp", {"response": "perhaps"}, status=400)
    own = await value(s, "SELECT id FROM events WHERE organizer_id IS NULL LIMIT 1")
    await s.post(f"/microlendar/event/{own}/rsvp", {"response": "yes"}, status=400)


async def test_create_edit_and_delete_an_event(env_session):
    s = await catalog_session(env_session)
    _, form = await s.post("/microlendar/event", {"title": "", "date": "2025-06-20"}, status=400)
    assert "Title is required." in form.text
    await s.post(
        "/microlendar/event", {"title": "Late", "date": "2025-06-20", "start": "10:00", "end": "09:00"}, status=400
    )
    resp, _ = await s.post(
        "/microlendar/event",
        {
            "title": "Pick up Leo",
            "date": "2025-06-20",
            "start": "15:00",
            "end": "15:30",
            "category": "family",
            "location": "School",
        },
    )
    new_id = resp.headers["Location"].rsplit("/", 1)[1]
    row = await s.world.fetch_one("SELECT * FROM events WHERE id = ?", (new_id,))
    assert (row["origin"], row["start_at"], row["category"]) == ("self", "2025-06-20T15:00", "family")
    await s.post(
        f"/microlendar/event/{new_id}/edit",
        {"title": "Pick up Leo and Maya", "date": "2025-06-21", "all_day": "on", "category": "family"},
    )
    row = await s.world.fetch_one("SELECT * FROM events WHERE id = ?", (new_id,))
    assert (row["title"], row["all_day"], row["start_at"]) == ("Pick up Leo and Maya", 1, "2025-06-21T00:00")
    await s.post(
        "/microlendar/event/ev0001/edit",
        {
            "title": "Product team sync (moved)",
            "date": "2025-05-14",
            "start": "11:00",
            "end": "11:30",
            "category": "work",
        },
    )
    assert await value(s, "SELECT start_at FROM events WHERE id = 'ev0001'") == "2025-05-14T11:00"
    await s.post(f"/microlendar/event/{new_id}/delete", {"next": "/microlendar/day/2025-06-21"})
    assert await value(s, "SELECT deleted FROM events WHERE id = ?", (new_id,)) == 1
    await s.page(f"/microlendar/event/{new_id}", status=404)


async def test_tasks_add_toggle_and_delete(env_session):
    s = await env_session(TASKS)
    p = await s.page("/microlendar/tasks")
    assert number(r"(\d+) tasks · \d+ done", p.text) == 7
    await s.post("/microlendar/tasks", {"title": "", "next": "/microlendar/tasks"}, status=400)
    await s.post("/microlendar/tasks", {"title": "Buy milk", "due_date": "soon"}, status=400)
    await s.post("/microlendar/tasks", {"title": "Buy milk", "due_date": "2025-06-18", "next": "/microlendar/tasks"})
    row = await s.world.fetch_one("SELECT id, origin, due_date, completed FROM tasks WHERE title = 'Buy milk'")
    assert tuple(row)[1:] == ("self", "2025-06-18", 0)
    await s.post(f"/microlendar/tasks/{row['id']}/toggle", {"next": "/microlendar/tasks"})
    assert await value(s, "SELECT completed FROM tasks WHERE id = ?", (row["id"],)) == 1
    await s.post(f"/microlendar/tasks/{row['id']}/delete", {"next": "/microlendar/tasks"})
    assert await value(s, "SELECT deleted FROM tasks WHERE id = ?", (row["id"],)) == 1
    assert number(r"(\d+) tasks · \d+ done", (await s.page("/microlendar/tasks")).text) == 7
    await s.post("/microlendar/tasks/td9999/toggle", {}, status=404)


# --- baselines ------------------------------------------------------------------------------


async def test_baselines_match_the_preloaded_calendar(env_session):
    s = await env_session(TASKS)
    meta = {
        r["key"]: float(r["value"])
        for r in await s.world.fetch_all("SELECT key, value FROM session_meta WHERE key LIKE 'baseline_%'")
    }
    base = [json.loads(line) for line in (REPO_ROOT / "catalogs/microlendar/events.jsonl").read_text().splitlines()]
    base = [e for e in base if e["_role"] == "base"]
    assert meta["baseline_event_count"] == len(base)
    assert meta["baseline_today_event_count"] == sum(e["day_offset"] == 0 for e in base) == 5
    for cat_name in ("work", "personal", "family"):
        assert meta[f"baseline_{cat_name}_event_count"] == sum(e["category"] == cat_name for e in base)
    assert meta["baseline_work_next_14d_count"] == sum(
        e["category"] == "work" and 0 <= e["day_offset"] <= 14 for e in base
    )
    assert meta["baseline_task_count"] == 7
    timed = [e for e in base if not e.get("all_day")]
    overlapping = [
        (a["title"], b["title"])
        for i, a in enumerate(timed)
        for b in timed[i + 1 :]
        if a["day_offset"] == b["day_offset"] and a["start"] < b["end"] and b["start"] < a["end"]
    ]
    assert ("Design critique", "Budget review") in overlapping
    assert meta["baseline_conflict_count"] == len(overlapping)


# --- catalog and scenarios --------------------------------------------------------------------


def test_generator_reproduces_the_committed_catalog(tmp_path, monkeypatch):
    folder = REPO_ROOT / "catalogs" / "microlendar"
    spec = importlib.util.spec_from_file_location("microlendar_generate", folder / "generate.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    monkeypatch.setattr(gen, "HERE", tmp_path)
    gen.main()
    for name in ("events.jsonl", "tasks.jsonl"):
        assert (tmp_path / name).read_text() == (folder / name).read_text()
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    assert not any("Iceland" in e["description"] for e in events)  # the no-op's destination never exists


NORMAL = [
    "description_second_match",
    "events_threshold",
    "feature_meeting",
    "invite_destination",
    "personal_more",
    "tasks_threshold",
    "today_more",
    "work_fortnight_more",
]


@pytest.mark.parametrize("name", NORMAL)
async def test_eval_sql_turns_true_at_condition_at(env_session, name):
    s = await env_session(f"scenarios/verified/microlendar/{name}.yaml")
    scenario = s.session.scenario
    await s.advance_to(scenario.condition_at - 0.001)
    assert not await s.verdict()
    await s.advance_to(scenario.condition_at)
    if scenario.taxonomy.activity == "passive":
        assert await s.verdict()
        return
    assert not await s.verdict()
    arrived = [
        e.fields["event_id"] for e in scenario.timeline if e.type == "new_event" and e.at <= scenario.condition_at
    ]
    target = next(e.fields["event_id"] for e in scenario.timeline if e.note.startswith("target"))
    if name == "description_second_match":
        await s.page(f"/microlendar/event/{target}")
        assert await s.verdict()
        return
    reply = "yes" if name == "invite_destination" else "no"
    invited = [i for i in arrived if await value(s, "SELECT organizer_id FROM events WHERE id = ?", (i,))]
    for event_id in invited:  # answering every look-alike fails
        await s.post(f"/microlendar/event/{event_id}/rsvp", {"response": reply})
    assert not await s.verdict()
    for event_id in invited:
        if event_id != target:
            await s.post(f"/microlendar/event/{event_id}/rsvp", {"response": "maybe"})
    assert await s.verdict()


async def test_accepting_after_the_invitation_is_withdrawn_is_impossible(env_session):
    s = await env_session(INVITE)
    await s.advance_to(s.session.scenario.condition_until)
    await s.post("/microlendar/event/ev0071/rsvp", {"response": "yes"}, status=404)
    assert not await s.verdict()


@pytest.mark.parametrize("name", ["invite_other_destination_noop", "events_unreachable_noop"])
async def test_noops_never_hold_but_their_near_miss_does(env_session, name):
    s = await env_session(f"scenarios/verified/microlendar/{name}.yaml")
    await s.advance_to(720.0)
    june = number(r"(\d+) events this month", (await s.page("/microlendar/month/2025/06")).text)
    if name == "events_unreachable_noop":
        assert 24 <= june < 100
    else:
        assert await value(s, "SELECT COUNT(*) FROM events WHERE description LIKE '%Iceland%'") == 0
        assert await value(s, "SELECT COUNT(*) FROM events WHERE description LIKE '%Hawaii%'") == 1


def test_the_noop_twin_asks_what_never_arrives_and_keeps_the_source_as_its_near_miss():
    made = asyncio.run(generate_set(load_config(), "microlendar", 1, 2, kind="invite_other_destination_noop"))
    data = made[0].data
    asked = re.search(r"plan our (\w+) trip", data["prompt"]).group(1)
    near = next(e for e in data["events"] if e.get("_note", "").startswith("near miss"))
    fact = re.search(r"names (\w+)", near["_note"]).group(1)
    assert asked != fact
    assert data["condition_at"] is None
    assert "condition_until" not in data
    assert f"'%{asked}%'" in data["condition_sql"] and f"'%{fact}%'" in data["near_miss_sql"]
    assert any(e["type"] == "cancel_event" for e in data["events"])
