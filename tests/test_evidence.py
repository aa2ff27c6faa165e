"""Evidence of what each agent saw (docs/evidence.md): pages as served, stored once per content and
named by requests.jsonl; `show`, `export --format atif` and `regrade` on real runs; screenshots'
recorder and their move into the session folder."""

from __future__ import annotations

import asyncio
import gzip
import json
import shutil
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
from atif import Trajectory

from sentinel import api, cli
from sentinel.agents.shots import ShotRecorder
from sentinel.core.config import load_config
from sentinel.core.errors import SentinelError
from sentinel.core.evidence import page_file, read_jsonl, read_page, sim_at_wall
from sentinel.session.pages import PageStore
from sentinel.session.shots import collect_shots

INBOX = "/micromail/folder/inbox"


def write_config(folder: Path, cap: int | None = None) -> Path:
    path = folder / "evidence.toml"
    cap_line = f"evidence_cap_bytes = {cap}\n" if cap is not None else ""
    path.write_text(f'[run]\nresults_dir = "{folder / "results"}"\n{cap_line}'
                    "[timing]\nreaction_window_s = 5\nstartup_timeout_s = 60\nterm_grace_s = 1\n")
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two real runs at speed 50: the oracle (no trace) and wait_for (its trace.jsonl) on the
    sender scenario and its no-op."""
    folder = tmp_path_factory.mktemp("evidence")
    config = write_config(folder)
    tasks = ["micromail-sender_arrives", "micromail-sender_noop"]
    api.run(agent="oracle", tasks=tasks, speed=50, run_name="oracle", config=config)
    api.run(agent="wait_for", tasks=["micromail-sender_arrives"], speed=50, run_name="waiter", config=config)
    return folder, config


def session(folder: Path, run: str, short: str) -> Path:
    return folder / "results" / run / "micromail" / short


# --- pages as served -------------------------------------------------------------------------------

@pytest.mark.slow
def test_every_page_line_names_a_stored_body_that_holds_what_was_served(runs):
    folder, _ = runs
    where = session(folder, "oracle", "sender_arrives")
    pages = [r for r in read_jsonl(where / "requests.jsonl") if r["status"] == 200 and r["method"] == "GET"]
    assert pages and all(page_file(where, r["body"]).is_file() for r in pages)
    assert all(len(read_page(where, r["body"])) == r["bytes"] for r in pages)
    stored = sorted(p.name for p in (where / "pages").iterdir())
    assert len(stored) == len({r["body"] for r in read_jsonl(where / "requests.jsonl") if r.get("body")})
    index = json.loads((where / "pages.json").read_text())
    assert index["stored"] == len(stored) and not index["cap_hit"]


async def test_the_site_logs_bodies_but_not_for_304s(env_session):
    live = await env_session("scenarios/verified/micromail/sender_arrives.yaml")
    first = await live.client.get(INBOX)
    tag = first.headers["ETag"]
    again = await live.client.get(INBOX, headers={"If-None-Match": tag})
    assert again.status == 304
    await live.client.get(INBOX)
    first_line, not_modified, same = live.session.stats.log[-3:]
    assert first_line["body"] == tag.strip('"')
    assert same["body"] == first_line["body"]
    assert "body" not in not_modified
    await live.session.pages.flush()
    assert read_page(live.session.pages.folder, first_line["body"]) == await first.read()


async def test_the_cap_keeps_bodies_out_and_says_when(tmp_path):
    store = PageStore(tmp_path / "work", cap_bytes=10)
    first = store.record(b"<p>one</p>" * 50, sim=1.0)
    await store.flush()
    assert first and store.record(b"<p>one</p>" * 50, sim=2.0) == first  # seen before: no new bytes
    assert store.record(b"<p>two</p>" * 50, sim=3.0) is None
    store.move_to(tmp_path / "out", store.state())
    index = json.loads((tmp_path / "out" / "pages.json").read_text())
    assert index == {"cap_bytes": 10, "stored": 1, "stored_bytes": index["stored_bytes"], "skipped": 1,
                     "cap_hit": True, "cap_hit_at_sim": 3.0}
    assert gzip.decompress((tmp_path / "out" / "pages" / f"{first}.html.gz").read_bytes()) == b"<p>one</p>" * 50


async def test_bodies_are_written_on_the_loops_default_executor(tmp_path):
    """A run raises the default executor's threads just below the loop (sentinel/run/tuning.py);
    a writer of its own at normal priority, preempted while it held the GIL, stalled the loop."""
    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="raised-pool")
    loop.set_default_executor(pool)
    names: list[str] = []
    store = PageStore(tmp_path / "work", cap_bytes=10_000)
    write = store._write
    store._write = lambda sha, body: names.append(threading.current_thread().name) or write(sha, body)
    store.record(b"<p>one</p>", sim=1.0)
    await store.flush()
    assert names
    assert names[0].startswith("raised-pool")
    assert store.state().stored == 1

@pytest.mark.slow
def test_a_run_past_its_cap_marks_the_lines_it_could_not_keep(tmp_path):
    config = write_config(tmp_path, cap=4_000)
    api.run(agent="oracle", tasks=["micromail-sender_arrives"], speed=50, run_name="capped", config=config)
    where = session(tmp_path, "capped", "sender_arrives")
    lines = [r for r in read_jsonl(where / "requests.jsonl") if r["status"] == 200]
    assert any(r.get("body_cap") for r in lines) and any(r.get("body") for r in lines)
    assert json.loads((where / "pages.json").read_text())["cap_hit"] is True


def test_a_negative_cap_in_the_config_is_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[run]\nevidence_cap_bytes = -1\n")
    with pytest.raises(SentinelError, match=r"run.evidence_cap_bytes: expected a number of bytes ≥ 0, got -1$"):
        load_config(bad)


# --- show ------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_show_prints_the_inbox_as_served_at_the_report(runs, capsys):
    folder, config = runs
    assert cli.main(["show", "oracle", "micromail-sender_arrives", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    header, text = out.split("\n", 1)
    assert header.startswith("micromail-sender_arrives at the report: GET /micromail/folder/inbox (200)")
    assert "Priya Shah" in text and "Churn model results" in text
    assert "\n+Priya Shah" in out.split("changes since", 1)[1]  # the new row is what changed


@pytest.mark.slow
def test_show_at_an_earlier_moment_is_the_inbox_before_the_sender(runs, tmp_path):
    folder, config = runs
    shown = api.show("oracle", "sender_arrives", at_sim=5, config=config)
    assert shown.request.sim <= 5 and "Churn model results" not in shown.text
    html = tmp_path / "page.html"
    argv = ["show", "oracle", "sender_arrives", "--at", "5", "--html", str(html), "--config", str(config)]
    assert cli.main(argv) == 0
    assert html.read_bytes() == shown.html and b"<html" in shown.html


@pytest.mark.slow
def test_show_says_in_one_line_what_it_cannot_show(runs, capsys):
    _, config = runs
    assert cli.main(["show", "oracle", "nothing_like_it", "--config", str(config)]) == 2
    assert cli.main(["show", "oracle", "sender_arrives", "--at", "-1", "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["sentinel: oracle: no finished session of nothing_like_it",
                   "sentinel: micromail-sender_arrives: the agent had been served no page by sim -1 s"]


# --- export --------------------------------------------------------------------------------------

@pytest.mark.parametrize("run", ["oracle", "waiter"])
@pytest.mark.slow
def test_export_writes_one_valid_atif_trajectory_per_session(runs, tmp_path, run, capsys):
    _, config = runs
    out = tmp_path / "atif"
    assert cli.main(["export", run, "--format", "atif", "--out", str(out), "--config", str(config)]) == 0
    files = sorted(out.iterdir())
    sessions = api.load(run, config=config).results
    assert [f.name for f in files] == [f"{r.scenario_id}.json" for r in sessions]
    for path, result in zip(files, sessions, strict=True):
        trajectory = Trajectory.model_validate(json.loads(path.read_text()))
        assert trajectory.steps[0].source == "user"
        assert trajectory.steps[0].message.startswith("I'm expecting an email from")
        assert trajectory.steps[-1].extra["grade"]["success"] == result.success
        assert trajectory.final_metrics.total_prompt_tokens == result.prompt_tokens
        assert trajectory.final_metrics.total_cost_usd == result.cost_usd


@pytest.mark.slow
def test_a_traced_agent_exports_its_tool_calls_and_an_untraced_one_its_page_reads(runs, tmp_path):
    _, config = runs
    api.export("waiter", tmp_path / "w", config=config)
    api.export("oracle", tmp_path / "o", config=config)
    waiter = Trajectory.model_validate_json((tmp_path / "w" / "micromail-sender_arrives.json").read_text())
    calls = [c.function_name for s in waiter.steps for c in (s.tool_calls or [])]
    assert calls == ["wait_for", "report"]
    assert sum(s.metrics.prompt_tokens for s in waiter.steps if s.metrics) == waiter.final_metrics.total_prompt_tokens
    oracle = Trajectory.model_validate_json((tmp_path / "o" / "micromail-sender_arrives.json").read_text())
    reads = [s for s in oracle.steps if s.source == "agent"]
    assert reads and all(s.message.startswith("GET ") and s.llm_call_count == 0 for s in reads)
    assert "Priya Shah" in reads[-1].observation.results[0].content or \
        any("Priya Shah" in (s.observation.results[0].content or "") for s in reads)


@pytest.mark.slow
def test_export_of_an_unknown_format_is_one_line(runs, tmp_path, capsys):
    _, config = runs
    with pytest.raises(SystemExit):
        cli.main(["export", "oracle", "--format", "zip", "--out", str(tmp_path), "--config", str(config)])
    assert "invalid choice: 'zip'" in capsys.readouterr().err


# --- regrade -------------------------------------------------------------------------------------

@pytest.mark.slow
def test_regrade_of_an_unchanged_run_changes_nothing_and_writes_nothing(runs, capsys):
    folder, config = runs
    db = session(folder, "oracle", "sender_arrives") / "state.db"
    before = (db.read_bytes(), (db.parent / "result.json").read_bytes())
    assert cli.main(["regrade", "oracle", "--config", str(config)]) == 0
    assert capsys.readouterr().out.strip() == "2 session(s) regraded, 0 changed verdict(s); nothing rewritten"
    assert (db.read_bytes(), (db.parent / "result.json").read_bytes()) == before


@pytest.mark.slow
def test_regrade_sees_a_changed_world_and_stores_it_only_when_asked(runs, tmp_path, capsys):
    folder, config = runs
    copy = tmp_path / "copy"
    shutil.copytree(folder / "results" / "oracle", copy)
    db = sqlite3.connect(copy / "micromail" / "sender_arrives" / "state.db")
    db.execute("DELETE FROM emails WHERE sender_id IN (SELECT id FROM personas WHERE name = 'Priya Shah')")
    db.commit()
    db.close()
    assert cli.main(["regrade", str(copy), "--config", str(config)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("micromail-sender_arrives (trial 1): PASS on time (verdict 1) → FAIL")
    assert out[-1] == "2 session(s) regraded, 1 changed verdict(s); nothing rewritten"
    assert api.load(copy, config=config).by_scenario()["micromail-sender_arrives"][0].success
    assert cli.main(["regrade", str(copy), "--write", "--config", str(config)]) == 0
    stored = api.load(copy, config=config)
    assert not stored.by_scenario()["micromail-sender_arrives"][0].success
    assert json.loads((copy / "summary.json").read_text())["overall"]["passed"] == 1


# --- screenshots --------------------------------------------------------------------------------

def test_the_recorder_keeps_new_pictures_within_the_cap_and_idles_between_them(tmp_path):
    now = [100.0]
    shots = ShotRecorder(tmp_path / "shots", cap_bytes=25, idle_every_s=5.0, clock=lambda: now[0])
    assert shots.take(b"a" * 10, "load", "/x") and not shots.take(b"a" * 10, "agent", "/x")  # same picture
    now[0] += 1
    assert not shots.idle_due()
    now[0] += 5
    assert shots.idle_due() and shots.take(b"b" * 10, "idle", "/x")
    assert not shots.take(b"c" * 10, "idle", "/x") and shots.capped
    index = read_jsonl(tmp_path / "shots" / "index.jsonl")
    assert [r.get("file") for r in index] == ["00001.jpg", "00002.jpg", None] and index[-1]["cap_hit"]


def test_collected_shots_get_sim_times_from_the_request_log(tmp_path):
    agent = tmp_path / "agent" / "shots"
    agent.mkdir(parents=True)
    (agent / "00001.png").write_bytes(b"png")
    (agent / "index.jsonl").write_text(json.dumps({"wall": 1012.0, "file": "00001.png", "reason": "load",
                                                   "path": "/p"}) + "\n")
    requests = [{"wall": 1000.0, "sim": 0.0}, {"wall": 1010.0, "sim": 100.0}]
    assert collect_shots(tmp_path, speed=10.0, end_sim=110.0, requests=requests) == 1
    assert (tmp_path / "shots" / "00001.png").read_bytes() == b"png" and not agent.exists()
    assert read_jsonl(tmp_path / "shots.jsonl")[0]["sim"] == 110.0  # 120 capped at the session's end
    assert sim_at_wall(requests, 1005.0, 10.0, 500.0) == 50.0 and sim_at_wall(requests, 999.0, 10.0, 500.0) == 0.0


@pytest.mark.browser
@pytest.mark.slow
def test_a_browser_agent_leaves_screenshots_on_the_sim_axis(tmp_path):
    config = write_config(tmp_path)
    outcome = api.run(agent="browser-wait_for", tasks=["micromail-sender_arrives"], speed=10, run_name="b",
                      config=config)
    where = session(tmp_path, "b", "sender_arrives")
    shots = read_jsonl(where / "shots.jsonl")
    result = outcome.results[0]
    log = (where / "agent.log").read_text(errors="replace")[-2000:] if (where / "agent.log").exists() else ""
    assert shots, (f"no screenshots kept; verdict {result.verdict!r}, ended by {result.ended_by} "
                   f"({result.infra_error}); agent.log ends:\n{log}")
    assert shots[0]["reason"] == "load" and shots[0]["path"] == INBOX
    magic = {"png": b"\x89PNG\r\n\x1a\n", "jpg": b"\xff\xd8\xff"}
    assert all((where / "shots" / s["file"]).read_bytes().startswith(magic[s["file"][-3:]]) for s in shots)
    assert all(0 <= s["sim"] <= (result.contact_at or 600) for s in shots)
    page = api.report([outcome.run_dir], config=config).read_text()
    assert f'href="micromail/sender_arrives/shots/{shots[0]["file"]}"' in page and "pages/" in page


def test_replace_keeps_the_config_cap(tmp_path):
    config = load_config(write_config(tmp_path, cap=1234))
    assert config.evidence_cap_bytes == 1234 and replace(config).evidence_cap_bytes == 1234
