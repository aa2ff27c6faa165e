"""One live run of one scenario: its database, clock, scheduler and web site.

Lifecycle: `setup()` builds the database (schema, personas, preload, baselines) and the app;
`start_site()` binds 127.0.0.1 on a free port; the agent's first GET of /start (or of any other
page of the site: docs/protocol.md#sessions) starts the clock and the scheduler; while the agent
thinks, the run's model-time policy pauses and charges the clock (sentinel/session/thinking.py);
the first GET of /contact records the report and freezes the world (the site still serves, so
the contact form's POST adds the message to that report);
`verdict()` writes the derived tables and reads eval_sql (the one way to ask "does the
scenario's condition hold now"); `finish()` freezes the world if needed, takes the final
verdict, stops the site and moves the database into the result folder.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite
import jinja2
from aiohttp import web

from sentinel.core.bus import AgentRequest, Bus, Contacted, EventFired, SessionStarted
from sentinel.core.catalog import Catalog
from sentinel.core.clock import SimClock
from sentinel.core.config import Config
from sentinel.core.environment import Environment
from sentinel.core.errors import SentinelError
from sentinel.core.files import write_jsonl_atomic
from sentinel.core.grading import Verdict, open_read_only, verdict_on
from sentinel.core.model_time import ModelTime
from sentinel.core.scenario import Event, Scenario
from sentinel.core.scheduler import DueBoard, FiredEvent, Scheduler
from sentinel.session.pages import PageStore
from sentinel.session.shots import collect_shots
from sentinel.session.thinking import SessionThinking
from sentinel.session.virtual import ToolsWatch, VirtualTime
from sentinel.web.app import create_app
from sentinel.web.keys import TimeWaits
from sentinel.web.waiting import WallWaits
from sentinel.world import inline_db
from sentinel.world.state import World, iso, open_page_reader

COMMON_SCHEMA = """
CREATE TABLE personas (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, username TEXT, email TEXT, title TEXT, company TEXT,
  location TEXT, bio TEXT, avatar_color TEXT, is_self INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE session_meta (key TEXT PRIMARY KEY, value TEXT);
"""
PERSONA_COLUMNS = ("id", "name", "username", "email", "title", "company", "location", "bio",
                   "avatar_color", "is_self")
EVENT_HOLD_S = 0.008  # a session's scheduler holds the loop this long before each event (core/scheduler.py)
SETUP_SLICE = 25  # preload events applied between two turns of the loop while a session is built
BUILD_QUIET_S = 0.01  # ... each step waits for a moment this long with no event due (at most BUILD_WAIT_S)
BUILD_WAIT_S = 0.2
WALL = ModelTime()  # the model-time policy of a session that is not told otherwise: the clock runs on


def create_database(path: Path, schema: Path) -> None:
    """A session's database file with its tables, in WAL mode (it stays so): pages read on the
    loop's thread (World.reader) while the writer writes."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.executescript(COMMON_SCHEMA + schema.read_text(encoding="utf-8"))
    finally:
        db.close()


@dataclass
class Contact:
    sim: float  # sim seconds at the first GET of /contact
    wall_s: float  # wall seconds after clock start
    message: str | None = None


@dataclass
class RequestStats:
    requests: int = 0  # the agent's own requests (no live refreshes, no static files)
    live_requests: int = 0
    bytes_sent: int = 0
    log: list[dict] = field(default_factory=list)


class Session:
    def __init__(self, scenario: Scenario, environment: Environment, config: Config, *,
                 out_dir: Path, speed: float | None = None, clock: SimClock | None = None,
                 bus: Bus | None = None, templates: jinja2.Environment | None = None,
                 world_start: datetime | None = None, key: str | None = None,
                 catalog: Catalog | None = None, board: DueBoard | None = None,
                 model_time: ModelTime = WALL, virtual: bool = False):
        self.scenario = scenario
        self.environment = environment
        self.config = config
        self.out_dir = out_dir
        self.speed = speed or config.speed
        self.clock = clock or SimClock(self.speed, virtual=virtual)
        self.bus = bus or Bus()
        self.key = key or f"{scenario.environment}/{scenario.short_id}"
        self.templates = templates
        self.catalog = catalog or Catalog.of(environment, config.catalogs_dir)
        # Shared by every session of a run, so a page of one session applies events due in any
        # (sentinel/core/scheduler.py); on the session's own clock's wall time.
        self.board = board or DueBoard(self.clock.wall)
        # what the clock does while the agent thinks (wall: nothing; the others pause and charge)
        self.thinking = SessionThinking(model_time, self.clock, lambda: self.scheduler, self.clock.wall)
        # how its waits pass time: wall time, or the virtual clock's jumps (session/virtual.py)
        self.virtual = VirtualTime(self.clock, lambda: self.scheduler, self.thinking, config.timing.kill_at) \
            if self.clock.virtual else None
        self.waits: TimeWaits = self.virtual or WallWaits()
        self.world_start = world_start or datetime.now(UTC)
        self.start_page = scenario.start_page
        self.started = asyncio.Event()
        self.is_set_up = False  # setup() completed: the world, its scheduler and its site exist
        self._reader: sqlite3.Connection | None = None  # read-only, for verdicts (see read)
        self.start_line: Callable[[], Awaitable[None]] | None = None  # set by the runner
        self.contacted = asyncio.Event()
        self.contact_record: Contact | None = None
        self.message_sent = asyncio.Event()  # the contact form's message was posted (after contact)
        self.stats = RequestStats()
        self.baselines: dict[str, float] = {}
        self.url: str | None = None
        self.final_verdict: Verdict | None = None  # set by finish()
        self._work_dir = Path(tempfile.mkdtemp(prefix="sentinel-"))
        self._db_path = self._work_dir / "state.db"
        self.pages = PageStore(self._work_dir, config.evidence_cap_bytes)  # bodies served (pages.py)
        self._db: aiosqlite.Connection | None = None
        self._runner: web.AppRunner | None = None
        self._scheduler_task: asyncio.Task | None = None
        self.world: World
        self.scheduler: Scheduler
        self.app: web.Application

    # --- building ---------------------------------------------------------
    async def setup(self) -> None:
        catalog = self.catalog
        # The tables are made on a worker thread (SQLite lets the loop run meanwhile): a session
        # of a later wave is built while others run, and its 2-5 ms of DDL held their timers.
        await asyncio.to_thread(create_database, self._db_path, self.environment.schema)
        # Every other statement runs on the event loop's thread (sentinel/world/inline_db.py): no
        # thread hand-off per statement, so an event is applied the moment its timer fires.
        self._db = await inline_db.connect(self._db_path, isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        # A live session's database needs no crash durability (a crashed session runs again),
        # and skipping fsync on every commit keeps event writes to a fraction of a millisecond.
        await self._db.execute("PRAGMA synchronous = OFF")
        self.world = World(self.environment.name, self._db, catalog, self.clock, self.world_start)
        # building a world runs on the loop's thread: its steps wait for a moment between events
        await self.board.quiet_moment(BUILD_QUIET_S, BUILD_WAIT_S)
        async with self.world.write() as db:
            await self._load_personas(db, catalog)
            for count, event in enumerate(self.scenario.preload, 1):
                if count % SETUP_SLICE == 1:
                    await self.board.quiet_moment(BUILD_QUIET_S, BUILD_WAIT_S)  # other sessions' events first
                await self._apply(event)
            self.baselines = await self.environment.baselines(self.world)
            meta: dict[str, object] = {f"baseline_{k}": v for k, v in self.baselines.items()}
            meta.update(speed_factor=self.speed, self_id=self.world.self_persona["id"],
                        world_start=iso(self.world.world_start), scenario_id=self.scenario.id)
            for key, value in meta.items():
                await self.world.set_meta(key, value)
            await self.board.quiet_moment(BUILD_QUIET_S, BUILD_WAIT_S)  # the commit that ends the block
        await asyncio.sleep(0)
        self.world.reader = open_page_reader(self._db_path)
        self.scheduler = Scheduler(self.clock, self.scenario.timeline, self._apply_in_transaction,
                                   self.config.timing.event_timeline_end, on_fired=self._on_fired,
                                   board=self.board, hold_s=EVENT_HOLD_S)
        await asyncio.sleep(0)
        self.app = create_app(self.world, self.environment, self, self.templates)
        self.is_set_up = True

    async def _load_personas(self, db: aiosqlite.Connection, catalog: Catalog) -> None:
        rows = [tuple(int(bool(p.get(c))) if c == "is_self" else p.get(c) for c in PERSONA_COLUMNS)
                for p in catalog.personas().values()]
        placeholders = ", ".join("?" for _ in PERSONA_COLUMNS)
        await db.executemany(f"INSERT INTO personas ({', '.join(PERSONA_COLUMNS)}) VALUES ({placeholders})", rows)

    async def _apply(self, event: Event) -> None:
        try:
            await self.environment.event_types[event.type].apply(self.world, event)
        except (KeyError, TypeError, ValueError) as exc:  # a catalog record or field not as the event needs
            raise SentinelError(f"{self.scenario.id}: events[{event.index}] ({event.type}) could not be applied: "
                                f"{type(exc).__name__}: {exc} (a catalog record without a field it needs?)") from exc

    async def _apply_in_transaction(self, event: Event) -> None:
        async with self.world.write():
            await self._apply(event)

    def _on_fired(self, fired: FiredEvent) -> None:
        self.bus.publish(EventFired(key=self.key, record=fired.as_record(), pending=len(self.scheduler.pending)))

    async def start_site(self, port: int = 0) -> str:
        """Serve the app on 127.0.0.1 (a free port unless one is given); return the base URL."""
        await asyncio.sleep(0)  # let timers due since setup's last step in (a later wave runs among others)
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port, reuse_address=False)
        await site.start()
        host, bound = self._runner.addresses[0][:2]
        self.url = f"http://{host}:{bound}"
        return self.url

    @property
    def task_url(self) -> str:
        return f"{self.url}/start"

    @property
    def contact_url(self) -> str:
        return f"{self.url}/contact"

    @property
    def tool_watch(self) -> ToolsWatch:
        """What its MCP server tells the session of the agent's tool calls."""
        return ToolsWatch(self.thinking, self.virtual)

    # --- SiteHooks: what the pages report ----------------------------------
    async def begin(self) -> None:
        """The agent's GET of /start: wait at the run's start line if there is one (so that
        clocks start together, after every agent of the wave has booted), then start the clock."""
        if not self.clock.started and self.start_line is not None:
            await self.start_line()
        self.open_start()

    async def agent_request(self) -> None:
        """Any request of the agent (no static file, no live refresh), before its handler: the
        agent is no longer thinking (the gap after an MCP tool's answer ends), and a page asked
        for before /start starts the session as /start would, so no agent waits on a clock that
        never started."""
        self.thinking.agent_acts()
        if not self.clock.started:
            await self.begin()

    def open_start(self) -> None:
        """Start the clock held at sim 0: it runs from the moment the agent's first page has
        been rendered (page_served), so a page queued behind other sessions' pages still shows
        the world at sim 0 and the queue is never charged to the agent."""
        if self.clock.start(held=True):
            self.started.set()
            self._scheduler_task = asyncio.create_task(self.scheduler.run(), name=f"scheduler {self.key}")
            if self.virtual is not None:
                self.virtual.start()

    async def catch_up(self) -> None:
        """Before a handler reads the world: apply every event due by now, so a timer that
        fires late never shows a stale page; and, while at it, every event due by now in the
        other sessions of the run (the board), so no timer waits behind a burst of pages."""
        await self.thinking.settled()  # a model call's charge still being moved through comes first
        await self.board.fire_due()
        if self.is_set_up:
            await self.scheduler.fire_due()

    def page_served(self) -> None:
        """A page has been rendered: a held clock starts running from this moment."""
        if self.clock.release():
            self.bus.publish(SessionStarted(key=self.key))

    async def contact(self) -> None:
        if self.contact_record is not None:
            return
        if not self.clock.started:
            self.open_start()
        self.page_served()
        sim = self.clock.freeze()
        self.contact_record = Contact(sim=sim, wall_s=(self.clock.frozen_wall or 0) - (self.clock.started_wall or 0))
        await self.scheduler.fire_due()  # events due by the frozen moment still happen
        self.contacted.set()
        self.bus.publish(Contacted(key=self.key, sim=sim))

    async def contact_message(self, message: str) -> None:
        if self.contact_record is not None and self.contact_record.message is None:
            self.contact_record.message = message
            self.message_sent.set()

    def log_request(self, method: str, path: str, status: int, size: int, live: bool,
                    body: bytes | None = None, digest: str | None = None) -> None:
        static = path.startswith("/static/")
        sim = round(self.clock.now(), 4)
        record = {"wall": round(time.time(), 3), "wall_s": round(self.clock.wall_elapsed(), 4),
                  "sim": sim, "method": method, "path": path,
                  "status": status, "bytes": size, "live": live}
        if body is not None and not static:
            sha = self.pages.record(body, sim, digest)
            record.update({"body": sha} if sha else {"body": None, "body_cap": True})
        self.stats.log.append(record)
        if live:
            self.stats.live_requests += 1
        elif not static:
            self.stats.requests += 1
            self.stats.bytes_sent += size
            self.bus.publish(AgentRequest(key=self.key, method=method, path=path, status=status))

    # --- ending -------------------------------------------------------------
    async def verdict(self) -> Verdict:
        """Finalize the world, then read eval_sql: the verdict grading would give at this moment."""
        await self.finalize_world()
        return self.read(self.scenario.grading_sql())

    async def finalize_world(self) -> None:
        """Write the environment's derived tables (current prices, ...) for this moment."""
        async with self.world.write():
            if self.environment.finalize:
                await self.environment.finalize(self.world)

    def read(self, sql: str | None) -> Verdict:
        """The value of a read-only SELECT (eval_sql, condition_sql, ...) on a read-only connection;
        call finalize_world() first for derived tables to be current. The read-only connection is
        opened once and kept until close_db (a replay reads thousands of times)."""
        if sql is None:
            return Verdict(value=None)
        if self._reader is None:
            try:
                self._reader = open_read_only(self._db_path)
            except sqlite3.Error as exc:
                return Verdict(value=None, error=f"cannot open the session database: {exc}")
        return verdict_on(self._reader, sql)

    async def finish(self) -> Path:
        """Freeze the world, take the final verdict (final_verdict), write the logs; return the
        database's final path."""
        if not self.clock.started:
            self.clock.start()
        self.clock.freeze()
        self.thinking.end()  # what is open closes; a frozen clock is charged nothing
        await self.thinking.settled()
        if self.virtual is not None:
            await self.virtual.stop()
        await self.scheduler.fire_due()
        if self._scheduler_task:
            self._scheduler_task.cancel()
            await asyncio.gather(self._scheduler_task, return_exceptions=True)
        async with self.world.write():
            await self.world.set_meta("sim_time_end", round(self.clock.now(), 6))
        self.final_verdict = await self.verdict()
        await self.stop_site()
        await self.close_db()
        await self.pages.flush()
        # files in a thread: moving and writing never stall other sessions' timers
        return await asyncio.to_thread(self._store)

    def _store(self) -> Path:
        """Move the database into the result folder and write the logs; return its final path."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        final = self.out_dir / "state.db"
        shutil.move(str(self._db_path), final)
        write_jsonl_atomic(self.out_dir / "events.jsonl", [f.as_record() for f in self.scheduler.fired])
        self.pages.move_to(self.out_dir, self.pages.state())
        write_jsonl_atomic(self.out_dir / "requests.jsonl", self.stats.log)
        collect_shots(self.out_dir, self.speed, self.clock.now(), self.stats.log)  # a browser agent's
        shutil.rmtree(self._work_dir, ignore_errors=True)
        return final

    async def stop_site(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def close_db(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._db is not None:
            world = getattr(self, "world", None)
            if world is not None and world.reader is not None:
                world.close_reader()
                try:  # the results' state.db is one self-contained file again, not WAL
                    await self._db.execute("PRAGMA journal_mode = DELETE")
                except sqlite3.OperationalError:
                    pass  # a transaction left by a failure: the WAL is still checkpointed on close
            await self._db.close()
            self._db = None

    async def abort(self) -> None:
        """Release everything after a failure, keeping nothing half-written. The clock is frozen
        first, so every wait still open (a long-poll, a /sleep) answers before the site stops."""
        if self.clock.started:
            self.clock.freeze()
        await self.thinking.stop()
        if self.virtual is not None:
            await self.virtual.stop()
        if self._scheduler_task:
            self._scheduler_task.cancel()
            await asyncio.gather(self._scheduler_task, return_exceptions=True)
        await self.stop_site()
        await self.close_db()
        await self.pages.flush()  # no write lands in the folder after it is gone
        shutil.rmtree(self._work_dir, ignore_errors=True)

    @property
    def db_path(self) -> Path:
        """Where the live database is while the session runs (outside the agent's folder)."""
        return self._db_path
