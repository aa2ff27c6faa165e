"""A built-in agent's own seconds (sentinel/agents/pacing.py): wall seconds on the wall clock,
its session's sim seconds through the site's /sleep on the virtual clock."""

from __future__ import annotations

import asyncio

import pytest

from sentinel.agents.pacing import WALL, Pacing
from sentinel.core.protocol import CLOCK_VARIABLE, SIM_LIMIT_VARIABLE

MAIL = "scenarios/verified/micromail/sender_arrives.yaml"


def test_the_clock_variable_chooses_the_seconds(monkeypatch):
    monkeypatch.delenv(CLOCK_VARIABLE, raising=False)
    assert not Pacing.from_env("http://127.0.0.1:5000/start").virtual
    monkeypatch.setenv(CLOCK_VARIABLE, "virtual")
    pacing = Pacing.from_env("http://127.0.0.1:5000/start?x=1")
    assert pacing.virtual and pacing.site == "http://127.0.0.1:5000"


def test_the_limit_is_in_the_agent_s_own_seconds(monkeypatch):
    monkeypatch.setenv("SENTINEL_TIME_LIMIT_S", "42")
    monkeypatch.setenv(SIM_LIMIT_VARIABLE, "630")
    assert WALL.limit_s(10) == 42
    assert Pacing("http://127.0.0.1:1").limit_s(10) == 630
    monkeypatch.setenv(SIM_LIMIT_VARIABLE, "soon")
    assert Pacing("http://127.0.0.1:1").limit_s(10) == 10  # garbage: the default, not a crash


async def test_on_the_virtual_clock_an_agent_sleeps_and_reads_sim_time_through_its_site(env_session):
    live = await env_session(MAIL, virtual=True)
    await live.page("/start")
    pacing = Pacing(str(live.client.make_url("")).rstrip("/"))
    assert await asyncio.to_thread(pacing.now) == 0.0
    await asyncio.to_thread(pacing.sleep, 45)
    assert await asyncio.to_thread(pacing.now) == pytest.approx(45.0) == live.clock.now()
    # /start, the start page it leads to, and the sleep; the two clock reads are logged apart
    assert live.session.stats.requests == 3 and live.session.stats.live_requests == 2


def test_a_site_that_does_not_answer_is_an_os_error():
    with pytest.raises(OSError, match="did not answer"):
        Pacing("http://127.0.0.1:9").now()
