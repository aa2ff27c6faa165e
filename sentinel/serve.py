"""`sentinel serve [ENV]`: browse environments filled with their whole catalog.

Each environment gets its own session (a preload of every catalog record, no timeline) on its
own port, with the clock running at speed 1, until Ctrl-C.
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import tempfile
from pathlib import Path

from sentinel.core.catalog import Catalog
from sentinel.core.config import Config
from sentinel.core.environment import Environment
from sentinel.core.errors import SentinelError
from sentinel.core.scenario import Event, Scenario, Taxonomy
from sentinel.envs import environments, get_environment
from sentinel.session.live import Session


def catalog_scenario(env: Environment, config: Config) -> Scenario:
    """A scenario with no task: only a preload of the environment's whole catalog."""
    preload = env.serve_preload(Catalog.of(env, config.catalogs_dir))
    return Scenario(
        id=f"{env.name}-catalog", environment=env.name, prompt=f"Browse {env.title}.", condition_at=None,
        start_page=env.start_page, taxonomy=Taxonomy("noop", "absolute"),
        events=(Event(at=0.0, type="preload", fields=preload),), eval_sql=None, solution=(),
        path=config.scenarios_dir / env.name / "catalog.yaml")


async def serve(config: Config, names: list[str], first_port: int) -> int:
    envs = [get_environment(n) for n in names] if names else list(environments().values())
    work = Path(tempfile.mkdtemp(prefix="sentinel-serve-"))
    sessions = []
    try:
        for offset, env in enumerate(envs):
            session = Session(catalog_scenario(env, config), env, config, out_dir=work / env.name, speed=1.0)
            await session.setup()
            sessions.append(session)
            try:
                url = await session.start_site(first_port + offset if first_port else 0)
            except OSError as exc:
                raise SentinelError(f"port {first_port + offset}: cannot listen ({exc.strerror}); "
                                    f"choose another with --port") from None
            await session.begin()
            print(f"{env.title:12} {url}{env.start_page}", flush=True)
        print("Press Ctrl-C to stop.", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        return 0
    finally:
        for session in sessions:
            await session.abort()
        shutil.rmtree(work, ignore_errors=True)
