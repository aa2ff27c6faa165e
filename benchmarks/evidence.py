"""What keeping pages as served costs (docs/evidence.md#cost), measured in one run:

- serving: wrk against two MicroMail sites of this tree in this process, one keeping every
  body it serves (sentinel/session/pages.py), one keeping none; a plain GET answered from the
  page cache, and a GET that renders every time (page cache off). Rounds alternate the two
  sites; each ratio (kept / not kept, req/s) is the median of its rounds;
- the hook: µs per logged request with and without its page kept (in process, steadier than
  wrk on a busy machine);
- a new body: the loop thread's share (hash, hand-off) and the writer thread's (gzip, write)
  for bodies never seen before;
- disk: with --run RUN, the pages and screenshots each session of a finished run keeps, and
  that times 100 sessions.

    python benchmarks/evidence.py [--seconds 3] [--rounds 3] [--connections 10] [--run RUN]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from serving import Run, cached_site, run_with_wrk, wrk, wrk_options  # sibling script: site and wrk

from sentinel.core.config import load_config
from sentinel.core.evidence import PAGES_FOLDER, SHOTS_FOLDER
from sentinel.session.pages import PageStore
from sentinel.web.cache import MAX_PAGES
from sentinel.web.keys import PAGE_CACHE

NEW_BODIES = 200
HOOK_CALLS = 20_000


class NoStore(PageStore):
    """Keeps nothing: the site as it served before pages were kept."""

    def record(self, body: bytes, sim: float, digest: str | None = None) -> str | None:
        return None


async def serving(args: argparse.Namespace, work: Path) -> dict[str, list[Run]]:
    kept, kept_url = await cached_site(work / "kept")
    bare, bare_url = await cached_site(work / "bare")
    bare.pages = NoStore(work / "none", 0)
    rendering = {"kept": kept_url, "not kept": bare_url}
    try:
        here = os.getpid()
        runs: dict[str, list[Run]] = {f"{case} {who}": [] for case in ("cached GET", "render") for who in rendering}
        for _ in range(args.rounds):
            for case in ("cached GET", "render"):
                for who, session in (("kept", kept), ("not kept", bare)):
                    session.app[PAGE_CACHE].max_pages = 0 if case == "render" else MAX_PAGES
                    runs[f"{case} {who}"].append(await wrk(rendering[who], here, args.seconds, args.connections))
        async with aiohttp.ClientSession() as client, client.get(kept_url) as page:
            size = len(await page.read())
        print(f"inbox {size / 1024:.1f} KB; wrk -c{args.connections}, {args.seconds} s a run, {args.rounds} rounds; "
              f"distinct bodies kept: {kept.pages.state().stored}")
        return runs
    finally:
        await kept.abort()
        await bare.abort()


async def hook_cost(work: Path) -> tuple[float, float]:
    """µs per logged request on the loop, without a body and with a page body already kept
    (named by its ETag's digest, as every cached or rendered page is): the hook's own cost,
    which a loaded machine disturbs far less than a wrk rate."""
    session, url = await cached_site(work / "hook")
    try:
        async with aiohttp.ClientSession() as client, client.get(url) as page:
            body, tag = await page.read(), page.headers["ETag"].strip('"')
        costs = []
        for kept in (False, True):
            started = time.perf_counter()
            for _ in range(HOOK_CALLS):
                session.log_request("GET", "/micromail/folder/inbox", 200, len(body), False,
                                    body if kept else None, tag if kept else None)
            costs.append((time.perf_counter() - started) * 1e6 / HOOK_CALLS)
        return costs[0], costs[1]
    finally:
        await session.abort()


async def new_bodies(work: Path) -> tuple[float, float, int]:
    """ms on the loop thread and on the writer thread per body never seen before; bytes kept each."""
    config = load_config()
    store = PageStore(work / "new", config.evidence_cap_bytes)
    page = (Path(__file__).resolve().parents[1] / "README.md").read_bytes()[:17_000]
    bodies = [page + str(n).encode() for n in range(NEW_BODIES)]
    started = time.perf_counter()
    for n, body in enumerate(bodies):
        store.record(body, float(n))
    loop_ms = (time.perf_counter() - started) * 1000 / NEW_BODIES
    started = time.perf_counter()
    state = await store.flush()
    writer_ms = (time.perf_counter() - started) * 1000 / NEW_BODIES  # what was left after the loop's share
    return loop_ms, writer_ms, state.stored_bytes // max(1, state.stored)


def disk(run_dir: Path) -> None:
    sizes = []
    for folder in sorted(run_dir.glob("*/*")):
        if (folder / "result.json").is_file():
            total = sum(p.stat().st_size for sub in (PAGES_FOLDER, SHOTS_FOLDER) for p in (folder / sub).glob("*"))
            sizes.append(total)
    if not sizes:
        raise SystemExit(f"{run_dir}: no finished sessions")
    mean = statistics.mean(sizes)
    print(f"disk, {run_dir.name}: {len(sizes)} sessions, pages + screenshots {mean / 1024:.0f} KB a session "
          f"(median {statistics.median(sizes) / 1024:.0f} KB, max {max(sizes) / 1024:.0f} KB); "
          f"100 sessions: {mean * 100 / 1024 / 1024:.1f} MB")


def report(runs: dict[str, list[Run]]) -> None:
    print(f"  {'':22} {'req/s':>8} {'CPU ms/req':>11}   rounds (req/s)")
    for name, values in runs.items():
        print(f"  {name:22} {statistics.median(r.rate for r in values):8.0f} "
              f"{statistics.median(r.cpu_ms for r in values):11.3f}   {', '.join(f'{r.rate:.0f}' for r in values)}")
    for case in ("cached GET", "render"):
        pairs = zip(runs[f"{case} kept"], runs[f"{case} not kept"], strict=True)
        pairs = list(pairs)
        rate = statistics.median(a.rate / b.rate for a, b in pairs)
        cpu = statistics.median(a.cpu_ms / b.cpu_ms for a, b in pairs)
        print(f"{case + ', pages kept / not kept:':36} {rate:.0%} of the rate, {cpu:.0%} of the CPU per request")


async def measure(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="sentinel-evidence-"))
    try:
        report(await serving(args, work))
        plain_us, kept_us = await hook_cost(work)
        print(f"logging a request: {plain_us:.1f} µs, with its page kept {kept_us:.1f} µs "
              f"(+{kept_us - plain_us:.1f} µs a request)")
        loop_ms, writer_ms, kept = await new_bodies(work)
        print(f"a new 17 KB body: {loop_ms:.3f} ms on the loop (hash, hand-off), then {writer_ms:.3f} ms more until "
              f"written (gzip, write, on the writer thread); {kept / 1024:.1f} KB kept")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.run:
        disk(args.run)


def main() -> int:
    parser = wrk_options(__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, help="a finished run's folder: disk per session")
    return run_with_wrk(measure, parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
