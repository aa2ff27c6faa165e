"""Where a full render's CPU goes: one page requested N times in-process, page cache off,
through the real app (a session as `sentinel serve` builds it) over a raw keep-alive socket.

Prints the CPU per request (server and this small client together; a bare aiohttp handler
serving the same bytes is measured too, for the floor), then, with --profile, cProfile's top
functions by their own time (cProfile inflates generator-heavy code such as Jinja's output
several times: read the order, not the absolute figures).

    python benchmarks/render_profile.py [--env micromail] [--path /micromail/folder/inbox]
        [--requests 1000] [--profile 30]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from aiohttp import web
from yarl import URL

from sentinel.core.config import load_config
from sentinel.envs import get_environment
from sentinel.envs.catalog import catalog_scenario
from sentinel.session.live import Session
from sentinel.web.cache import PageCache
from sentinel.web.keys import PAGE_CACHE

LANDING = {"micromail": "/micromail/folder/inbox"}


class Client:
    """HTTP/1.1 keep-alive GETs of one path, reading Content-Length bodies (a few µs each)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, path: str):
        self.reader, self.writer = reader, writer
        self.request = f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode()

    async def get(self) -> bytes:
        self.writer.write(self.request)
        head = await self.reader.readuntil(b"\r\n\r\n")
        length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        return await self.reader.readexactly(length)

    async def cpu_ms(self, count: int) -> float:
        for _ in range(min(50, count)):  # warm up
            await self.get()
        start = time.process_time()
        for _ in range(count):
            await self.get()
        return (time.process_time() - start) / count * 1000


async def connect(url: URL, path: str) -> Client:
    reader, writer = await asyncio.open_connection(url.host, url.port)
    return Client(reader, writer, path)


async def bare_site(path: str, body: bytes) -> tuple[web.AppRunner, URL]:
    async def page(request: web.Request) -> web.Response:
        return web.Response(body=body, content_type="text/html", charset="utf-8")
    app = web.Application()
    app.router.add_get(path, page)
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    host, port = runner.addresses[0][:2]
    return runner, URL(f"http://{host}:{port}")


async def measure(args: argparse.Namespace) -> None:
    config, env = load_config(), get_environment(args.env)
    work = Path(tempfile.mkdtemp(prefix="sentinel-profile-"))
    session = Session(catalog_scenario(env, config), env, config, out_dir=work, speed=1.0,
                      world_start=datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    runner = None
    try:
        await session.setup()
        session.app[PAGE_CACHE] = PageCache(max_pages=0)  # every GET renders
        url = URL(await session.start_site())
        await session.begin()
        session.page_served()
        client = await connect(url, args.path)
        body = await client.get()
        runner, bare_url = await bare_site(args.path, body)
        bare = await (await connect(bare_url, args.path)).cpu_ms(args.requests)
        full = await client.cpu_ms(args.requests)
        print(f"{args.env} {args.path}: {len(body) / 1024:.1f} KB; CPU per request (server + client): "
              f"full render {full:.3f} ms, bare aiohttp with the same bytes {bare:.3f} ms")
        if args.profile:
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(args.requests):
                await client.get()
            profile.disable()
            pstats.Stats(profile).sort_stats("tottime").print_stats(args.profile)
    finally:
        if runner is not None:
            await runner.cleanup()
        await session.abort()
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="micromail")
    parser.add_argument("--path", default=None, help="default: the page an agent lands on")
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print cProfile's top N functions")
    args = parser.parse_args()
    if args.path is None:  # MicroMail's start page redirects to the inbox
        args.path = LANDING.get(args.env) or get_environment(args.env).start_page
    asyncio.run(measure(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
