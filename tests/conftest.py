"""Shared fixtures: a real session of any scenario with a paused clock and an aiohttp client."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from sentinel.config import REPO_ROOT, load_config
from sentinel.envs import get_environment
from sentinel.grading import read_verdict
from sentinel.scenario import load_scenario
from sentinel.session import Session

WORLD_START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


@dataclass
class LiveSession:
    """A built session whose clock is started but paused at sim 0: tests move time by hand."""
    session: Session
    client: Any  # aiohttp TestClient on the session's app

    @property
    def world(self):
        return self.session.world

    @property
    def clock(self):
        return self.session.clock

    async def advance_to(self, sim_t: float) -> list:
        """Move the paused clock to sim_t and fire every event due by then."""
        if sim_t > self.clock.now():
            self.clock.advance_to(sim_t)
        return await self.session.scheduler.fire_due()

    async def verdict(self) -> Any:
        """eval_sql's value right now, derived tables written first, on a read-only connection."""
        env = self.session.environment
        if env.finalize:
            async with self.world.write():
                await env.finalize(self.world)
        return read_verdict(self.session.db_path, self.session.scenario.grading_sql()).value


@pytest.fixture
async def env_session(aiohttp_client, tmp_path):
    """env_session(path) → LiveSession for that scenario file (relative to the repo root)."""
    sessions: list[Session] = []

    async def build(path: str | Path) -> LiveSession:
        scenario = load_scenario(REPO_ROOT / path)
        config = load_config()
        session = Session(scenario, get_environment(scenario.environment), config,
                          out_dir=tmp_path / scenario.short_id, speed=1.0, world_start=WORLD_START)
        await session.setup()
        session.clock.start(paused=True)
        sessions.append(session)
        client = await aiohttp_client(session.app)
        return LiveSession(session, client)

    yield build
    for session in sessions:
        await session.abort()
