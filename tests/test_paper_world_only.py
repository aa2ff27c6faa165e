"""The paper suite's tasks graded on the world alone, with no agent (docs/scenarios.md).

The original benchmark tests every active task twice: with its action taken it passes, and on
the same timeline with no action it must fail. The oracle runs show the first half; this file
checks the second: each active task's eval_sql is still false after the whole timeline has
played without anyone acting, and each passive task's is true (its condition alone grades it).
"""

from __future__ import annotations

import pytest

from sentinel.core.config import REPO_ROOT, load_config
from sentinel.core.scenario import load_scenario

PAPER = REPO_ROOT / "scenarios" / "paper"
ENVS = ("microhood", "microhub", "microlendar", "microscholar", "microtube")
FILES = sorted(path for env in ENVS for path in (PAPER / env).glob("*.yaml"))


def files_of(activity: str) -> list:
    return [path for path in FILES if load_scenario(path).taxonomy.activity == activity]


async def played_verdict(env_session, path) -> object:
    live = await env_session(path.relative_to(REPO_ROOT))
    await live.advance_to(load_config().timing.event_timeline_end)
    return await live.verdict()


def test_the_five_environments_have_their_paper_tasks():
    assert {env: len(list((PAPER / env).glob("*.yaml"))) for env in ENVS} == dict.fromkeys(ENVS, 10)


@pytest.mark.parametrize("path", files_of("active"), ids=lambda p: p.stem)
async def test_an_active_task_fails_when_nothing_is_done(env_session, path):
    assert not await played_verdict(env_session, path)


@pytest.mark.parametrize("path", files_of("passive"), ids=lambda p: p.stem)
async def test_a_passive_task_holds_once_its_timeline_has_played(env_session, path):
    assert await played_verdict(env_session, path)
