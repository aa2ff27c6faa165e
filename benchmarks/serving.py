"""Serving speed of the MicroMail inbox (the catalog preloaded, as `sentinel serve` shows it),
measured side by side in one run with wrk against servers in this process:

- re-poll: a conditional GET with the page's ETag (304, no render) vs a bare aiohttp handler
  returning the same bytes (goal: at least 40%);
- plain GET of an unchanged page (200 from the page cache) vs the same bare handler;
- full render: the same session with its page cache disabled (every GET renders, as before the
  cache) vs the cached GET: how much faster an unchanged page is served than it used to be.

Rounds alternate the servers (A B A B ...) and each ratio is the median of its rounds.

    python benchmarks/serving.py [--seconds 3] [--rounds 3] [--connections 10]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from aiohttp import web

from sentinel.config import load_config
from sentinel.envs import get_environment
from sentinel.serve import catalog_scenario
from sentinel.session import Session
from sentinel.web.cache import PageCache
from sentinel.web.keys import PAGE_CACHE

PATH = "/micromail/folder/inbox"


async def wrk(url: str, seconds: float, connections: int, header: str | None = None) -> float:
    args = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", url]
    if header:
        args[1:1] = ["-H", header]
    proc = await asyncio.create_subprocess_exec(*args, stdout=asyncio.subprocess.PIPE)
    out = (await proc.communicate())[0].decode()
    match = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if match is None:
        raise SystemExit(f"wrk printed no rate:\n{out}")
    return float(match.group(1))


async def session_site(work: Path, name: str, cached: bool) -> tuple[Session, str]:
    config = load_config()
    env = get_environment("micromail")
    session = Session(catalog_scenario(env, config), env, config, out_dir=work / name, speed=1.0)
    await session.setup()
    if not cached:
        session.app[PAGE_CACHE] = PageCache(max_pages=0)  # every GET renders
    url = await session.start_site()
    await session.begin()
    session.page_served()
    return session, url + PATH


async def bare_site(body: bytes) -> tuple[web.AppRunner, str]:
    async def page(request: web.Request) -> web.Response:
        return web.Response(body=body, content_type="text/html", charset="utf-8")
    app = web.Application()
    app.router.add_get(PATH, page)
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    host, port = runner.addresses[0][:2]
    return runner, f"http://{host}:{port}{PATH}"


async def measure(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="sentinel-bench-"))
    cached, cached_url = await session_site(work, "cached", True)
    uncached, uncached_url = await session_site(work, "uncached", False)
    try:
        import aiohttp
        async with aiohttp.ClientSession() as client, client.get(cached_url) as first:
            body, tag = await first.read(), first.headers["ETag"]
        runner, bare_url = await bare_site(body)
        print(f"page: {PATH}, {len(body) / 1024:.1f} KB; wrk -c{args.connections}, {args.seconds} s a run, "
              f"{args.rounds} rounds")
        cases = {"re-poll 304": (cached_url, f"If-None-Match: {tag}"), "cached GET": (cached_url, None),
                 "full render": (uncached_url, None), "bare aiohttp": (bare_url, None)}
        rates: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.rounds):
            for name, (url, header) in cases.items():
                rates[name].append(await wrk(url, args.seconds, args.connections, header))
        await runner.cleanup()
    finally:
        for session in (cached, uncached):
            await session.abort()
        shutil.rmtree(work, ignore_errors=True)
    for name, values in rates.items():
        print(f"  {name:13} {statistics.median(values):9.0f} req/s  (rounds: {', '.join(f'{v:.0f}' for v in values)})")

    def ratio(a: str, b: str) -> float:
        return statistics.median(x / y for x, y in zip(rates[a], rates[b], strict=True))
    print(f"re-poll with ETag / bare aiohttp:  {ratio('re-poll 304', 'bare aiohttp'):.0%}  (goal >= 40%)")
    print(f"cached GET / bare aiohttp:         {ratio('cached GET', 'bare aiohttp'):.0%}")
    print(f"cached GET / full render:          {ratio('cached GET', 'full render'):.1f}x  (goal >= 5x)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=10)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is missing: apt-get install -y wrk", file=sys.stderr)
        return 2
    asyncio.run(measure(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
