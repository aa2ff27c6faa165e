"""`sentinel serve [ENV]`: browse environments filled with their whole catalog.

Each environment gets its own session (a preload of every catalog record, no timeline) on its
own port, with the clock running at speed 1, until Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import signal
import tempfile
from pathlib import Path

from sentinel import api
from sentinel.core.config import Config
from sentinel.core.errors import SentinelError
from sentinel.envs import environments, get_environment
from sentinel.envs.catalog import catalog_scenario
from sentinel.session.live import Session


def add_commands(subparsers) -> None:
    serve = subparsers.add_parser("serve", help="browse environments filled with their whole catalog")
    serve.add_argument("env", nargs="*", help="environment names (default: all)")
    serve.add_argument("--port", type=int, default=8400, help="port of the first environment (next ones count up)")
    serve.add_argument("--config", type=Path)
    serve.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    config = api.get_config(args.config)
    return asyncio.run(serve(config, args.env, args.port))


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
