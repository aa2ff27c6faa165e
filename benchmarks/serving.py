"""Serving speed, measured side by side in one run with wrk (the catalog preloaded, as
`sentinel serve` shows it):

- re-poll: a conditional GET of the MicroMail inbox with its ETag (304, no render) vs a bare
  aiohttp handler returning the same bytes (goal: at least 40%);
- plain GET of an unchanged inbox (200 from the page cache) vs the same bare handler;
- full render: pages that must render (page cache off for the inbox; the MicroHood portfolio,
  whose prices move, always renders) served by this tree vs by the code of a baseline commit
  (default: main before the serving work), each in its own server process built from that
  tree (`git archive`), so both run exactly their own code (goal: at least 5x).

Rounds alternate the servers (A B C ... A B C ...) and each ratio is the median of its rounds.

    python benchmarks/serving.py [--seconds 3] [--rounds 3] [--connections 10] [--baseline REV]
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import aiohttp
from lateness_probe import cpu_of  # sibling script: one reader of /proc stat files
from render_profile import bare_site  # noqa: E402 (a sibling script: one bare handler for both)

from sentinel.core.config import load_config
from sentinel.envs import get_environment
from sentinel.envs.catalog import catalog_scenario
from sentinel.session.live import Session

REPO = Path(__file__).resolve().parents[1]
BASELINE = "06f8e56"  # main when the serving work began: one aiosqlite hop per query
INBOX = "/micromail/folder/inbox"
PORTFOLIO = "/microhood/"

# A site whose every GET renders, in its own process: argv = environment name, work folder. The
# world starts at one fixed moment in every process, so both trees can serve the same bytes.
# Only API present in both trees (Session, catalog_scenario, PageCache) is used, found where each
# tree keeps it.
RENDER_SERVER = """
import asyncio, sys
from datetime import UTC, datetime
from pathlib import Path
try:
    from sentinel.core.config import load_config
    from sentinel.session.live import Session
except ImportError:  # a tree from before the layers: sentinel/config.py, sentinel/session.py
    from sentinel.config import load_config
    from sentinel.session import Session
from sentinel.envs import get_environment
try:
    from sentinel.envs.catalog import catalog_scenario
except ImportError:  # a tree from before sentinel/cli/: sentinel/serve.py
    from sentinel.serve import catalog_scenario
from sentinel.web.cache import PageCache
from sentinel.web.keys import PAGE_CACHE

async def main(name, work):
    config, env = load_config(), get_environment(name)
    session = Session(catalog_scenario(env, config), env, config, out_dir=Path(work), speed=1.0,
                      world_start=datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    await session.setup()
    session.app[PAGE_CACHE] = PageCache(max_pages=0)  # every GET renders
    url = await session.start_site()
    await session.begin()
    session.page_served()
    print(url, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until stdin closes
    await session.abort()

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


@dataclass(frozen=True)
class Run:
    rate: float  # requests per second, as wrk counted them
    cpu_ms: float  # CPU time the serving process spent per request (every thread of it)


def cpu_seconds(pid: int) -> float:
    """CPU time every thread of a live process has spent so far: the nanosecond counters of
    /proc/<pid>/task/*/schedstat (user + system time in /proc/<pid>/stat counts whole clock
    ticks, 10 ms: a few percent of a run of a few hundred pages, more when a busy machine
    slows a round down to a few dozen)."""
    total = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with suppress(FileNotFoundError, ProcessLookupError):  # a thread that just ended
                total += int((task / "schedstat").read_text().split()[0])
        return total / 1e9
    except (FileNotFoundError, ValueError):  # no schedstat (kernel without schedstats): ticks
        return cpu_of(f"/proc/{pid}/stat")


async def wrk(url: str, pid: int, seconds: float, connections: int, header: str | None = None) -> Run:
    """One wrk run; besides the rate, the server's CPU per request, which a busy shared machine
    disturbs far less than the rate (waiting for a core costs wall time, not CPU time)."""
    args = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", url]
    if header:
        args[1:1] = ["-H", header]
    cpu = cpu_seconds(pid)
    proc = await asyncio.create_subprocess_exec(*args, stdout=asyncio.subprocess.PIPE)
    out = (await proc.communicate())[0].decode()
    cpu = cpu_seconds(pid) - cpu
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    count = re.search(r"(\d+) requests in", out)
    if rate is None or count is None or int(count.group(1)) == 0:
        raise SystemExit(f"wrk printed no rate:\n{out}")
    return Run(float(rate.group(1)), 1000 * cpu / int(count.group(1)))


def export_tree(rev: str, into: Path) -> Path:
    """The files of commit rev, unpacked into a folder (nothing in this repository changes)."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"cannot export {rev}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


async def render_server(tree: Path, env_name: str, work: Path) -> tuple[asyncio.subprocess.Process, str]:
    """A server process running tree's code (its sentinel package first on the path)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", RENDER_SERVER, env_name, str(work), cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    line = (await proc.stdout.readline()).decode().strip()
    if not line.startswith("http://"):
        raise SystemExit(f"the {env_name} server of {tree} did not start")
    return proc, line


async def stop(proc: asyncio.subprocess.Process) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    try:
        await asyncio.wait_for(proc.wait(), 10)
    except TimeoutError:
        proc.kill()
        await proc.wait()


async def cached_site(work: Path) -> tuple[Session, str]:
    config = load_config()
    env = get_environment("micromail")
    session = Session(catalog_scenario(env, config), env, config, out_dir=work / "cached", speed=1.0)
    await session.setup()
    url = await session.start_site()
    await session.begin()
    session.page_served()
    return session, url + INBOX


def html_layout_free(page: str) -> str:
    """A page with the whitespace a browser ignores taken out: between tags, runs inside text
    (one space left) and around the names of a class attribute. Template changes may move
    whitespace; what a page shows and links must stay the same."""
    page = re.sub(r'class="([^"]*)"', lambda m: 'class="' + " ".join(m.group(1).split()) + '"', page)
    page = re.sub(r">\s+<", "><", page)
    return re.sub(r"\s+", " ", page)


async def same_page(before: str, after: str, digits: bool) -> None:
    """Both trees must serve the same page, up to layout whitespace, or the comparison means
    nothing (digits=False: up to the figures that move with each server's own clock,
    MicroHood's prices, their signs and up/down colours)."""
    async with aiohttp.ClientSession() as client:
        pages = []
        for url in (before, after):
            async with client.get(url) as response:
                text = html_layout_free(await response.text())
            pages.append(text if digits else re.sub(r"[+−]?\$?[0-9][0-9,.]*|\b(up|down)\b", "#", text))
    if pages[0] != pages[1]:
        lines = [page.replace("><", ">\n<").splitlines() for page in pages]
        diff = difflib.unified_diff(lines[0], lines[1], "before", "after", lineterm="", n=0)
        raise SystemExit(f"the baseline and this tree serve different pages at {after} (a render is only compared "
                         "with the same page: give --baseline a commit with these templates, e.g. "
                         "`git log -1 --format=%h -- web/templates`):\n" + "\n".join(list(diff)[:20]))


async def measure(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="sentinel-bench-"))
    procs: list[asyncio.subprocess.Process] = []
    cached, cached_url = await cached_site(work)
    runner = None
    try:
        baseline = export_tree(args.baseline, work / "baseline")
        servers = {}
        for label, tree in (("before", baseline), ("after", REPO)):
            for env_name, path in (("micromail", INBOX), ("microhood", PORTFOLIO)):
                proc, url = await render_server(tree, env_name, work / f"{label}-{env_name}")
                procs.append(proc)
                servers[f"{env_name} {label}"] = (url + path, proc.pid)
        for env_name in ("micromail", "microhood"):
            await same_page(servers[f"{env_name} before"][0], servers[f"{env_name} after"][0], env_name == "micromail")
        async with aiohttp.ClientSession() as client, client.get(cached_url) as first:
            body, tag = await first.read(), first.headers["ETag"]
        runner, bare_root = await bare_site(INBOX, body)
        bare_url = str(bare_root) + INBOX
        print(f"inbox {len(body) / 1024:.1f} KB; wrk -c{args.connections}, {args.seconds} s a run, "
              f"{args.rounds} rounds; baseline {args.baseline}")
        here = os.getpid()
        many = args.connections
        cases = {"re-poll 304": (cached_url, here, many, f"If-None-Match: {tag}"),
                 "cached GET": (cached_url, here, many, None), "bare aiohttp": (bare_url, here, many, None),
                 **{f"render {name} c1": (url, pid, 1, None) for name, (url, pid) in servers.items()},
                 **{f"render {name} c{many}": (url, pid, many, None) for name, (url, pid) in servers.items()}}
        runs: dict[str, list[Run]] = {name: [] for name in cases}
        for _ in range(args.rounds):
            for name, (url, pid, connections, header) in cases.items():
                runs[name].append(await wrk(url, pid, args.seconds, connections, header))
    finally:
        if runner is not None:
            await runner.cleanup()
        for proc in procs:
            await stop(proc)
        await cached.abort()
        shutil.rmtree(work, ignore_errors=True)
    report(runs, args.connections)


def report(runs: dict[str, list[Run]], many: int) -> None:
    print(f"  {'':28} {'req/s':>8} {'CPU ms/req':>11}   rounds (req/s)")
    for name, values in runs.items():
        print(f"  {name:28} {statistics.median(r.rate for r in values):8.0f} "
              f"{statistics.median(r.cpu_ms for r in values):11.2f}   {', '.join(f'{r.rate:.0f}' for r in values)}")

    def ratio(a: str, b: str, cpu: bool = False) -> float:
        pairs = zip(runs[a], runs[b], strict=True)
        return statistics.median(y.cpu_ms / x.cpu_ms if cpu else x.rate / y.rate for x, y in pairs)
    print(f"re-poll with ETag / bare aiohttp:   {ratio('re-poll 304', 'bare aiohttp'):.0%}  (goal >= 40%)")
    print(f"cached GET / bare aiohttp:          {ratio('cached GET', 'bare aiohttp'):.0%}")
    print("full render, after / before (goal >= 5x):")
    for env_name, page in (("micromail", "inbox"), ("microhood", "portfolio")):
        for connections, who in ((1, "one agent waiting for its page"), (many, f"{many} connections at once")):
            a, b = f"render {env_name} after c{connections}", f"render {env_name} before c{connections}"
            print(f"  {page:9} {who:32} {ratio(a, b):5.1f}x req/s, {ratio(a, b, cpu=True):.1f}x less server CPU")
    hood = statistics.median(r.rate for r in runs[f"render microhood after c{many}"])
    print(f"must-render MicroHood portfolio:    {hood:.0f} req/s (-c{many})")


def wrk_options(description: str) -> argparse.ArgumentParser:
    """The options of a script that measures with wrk: seconds a run, rounds, connections."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=10)
    return parser


def run_with_wrk(measure, args: argparse.Namespace) -> int:
    """Run an async measurement if wrk is installed; the exit code."""
    if shutil.which("wrk") is None:
        print("wrk is missing: apt-get install -y wrk", file=sys.stderr)
        return 2
    asyncio.run(measure(args))
    return 0


def main() -> int:
    parser = wrk_options(__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help="commit whose code renders 'before'")
    return run_with_wrk(measure, parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
