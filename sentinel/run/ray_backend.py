"""`--backend ray`: sessions placed on the nodes of a Ray cluster (docs/ray.md).

The driver is an ordinary Runner (resume, run.json, summary.json, the displays) whose
run_session hands each session to Ray as one task instead of running it here:

- placement, queueing and retries are Ray's: every session is a task reserving the CPUs and
  memory of sentinel.toml [ray] (or --session-cpus / --session-memory); a task whose worker or
  node is lost is run again elsewhere (max_retries), so a lost node costs only its unfinished
  sessions.
- on the worker, the same Runner.run_session runs the session in one event loop, writing its
  files into a temporary folder; the folder comes back as tar bytes through the object store and
  the driver places it at results/<run>/<env>/<scenario>/ with one rename, so a folder there is
  always a whole session and grade, report and --resume see what a local run writes.
- bus messages travel through one small actor (RunChannel), pinned to the driver's node so that
  no other node's loss takes it along: workers post their messages in batches, the driver
  drains them into its local Bus, so the displays see every session as if it ran here. The same
  actor carries Ctrl-C (and the dashboard's "stop this session") back to the workers, whose
  runners stop their agents as they do locally.
- code, catalogs and templates reach the workers as Ray's runtime_env working_dir (the
  repository without results, tests or virtualenvs), or from an installed wheel as its py_modules
  (the installed package, whose data is inside it); a scenario travels as its pickled dataclass
  and the bytes of its file. No shared filesystem is assumed.

Ray is an optional extra (`pip install 'sentinel-bench[ray]'`, in a checkout `pip install -e '.[ray]'`);
this module imports it only when used.
"""

from __future__ import annotations

import asyncio
import io
import os
import shutil
import socket
import tarfile
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sentinel.agents import builtin_command
from sentinel.core.bus import Bus, Message, SessionGraded
from sentinel.core.config import Config, RaySettings
from sentinel.core.errors import SentinelError
from sentinel.core.grading import Result
from sentinel.core.paths import DATA, package_dir
from sentinel.outputs.results import write_result
from sentinel.run.plan import Job, RunPlan
from sentinel.run.runner import Runner
from sentinel.run.tuning import short_switch_interval

POST_EVERY_S = 0.1  # how often a worker posts its bus messages (and learns of a stop)
DRAIN_EVERY_S = 0.1  # how often the driver drains them into its bus
PROBE_TIMEOUT_S = 3.0  # an --address that does not answer within this is unreachable
LOCAL_OBJECT_STORE_BYTES = 100 * 1024 * 1024  # a local Ray for one run: session folders are small
SHIPPED_EXCLUDES = [".git", ".venv", "venv", "results", "tests", "benchmarks", "__pycache__", "*.pyc",
                    ".pytest_cache", ".mypy_cache", ".ruff_cache", "*.egg-info", "node_modules"]


@dataclass(frozen=True)
class RemoteSession:
    """What a worker hands back: the session's result and its folder as tar bytes."""
    result: Result
    folder_tar: bytes
    node: str  # the Ray node id that ran it


# --- connecting ---------------------------------------------------------------------------

def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SentinelError("--backend ray needs Ray: pip install 'sentinel-bench[ray]' "
                            "(in a checkout: pip install -e '.[ray]')") from None
    return ray


def probe(address: str) -> None:
    """One clear line when nothing answers at HOST:PORT (ray.init itself would retry for minutes)."""
    if address == "auto":
        return
    target = address.removeprefix("ray://")
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise SentinelError(f"--address {address}: expected HOST:PORT (the head's GCS port, 6379 by default) "
                            f"or auto")
    try:
        with socket.create_connection((host, int(port)), timeout=PROBE_TIMEOUT_S):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise SentinelError(f"--address {address}: no Ray cluster answers there ({reason})") from None


def runtime_env() -> dict[str, Any]:
    """Code, catalogs and templates for every worker: from a checkout, the repository as the
    working folder; from an installed wheel, the installed package (its data inside it)."""
    if DATA.checkout is None:
        return {"py_modules": [str(package_dir())], "excludes": SHIPPED_EXCLUDES}
    return {"working_dir": str(DATA.checkout), "excludes": SHIPPED_EXCLUDES}


def connect(settings: RaySettings) -> bool:
    """Connect this process to Ray: the cluster at settings.address, or a local instance for the
    run. True if this call started or joined Ray (and so should shut it down at the end)."""
    ray = import_ray()
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"runtime_env": runtime_env(), "log_to_driver": False,
                               "logging_level": "ERROR", "configure_logging": True}
    if settings.address:
        probe(settings.address)
        options["address"] = settings.address
    else:
        options.update(num_cpus=os.cpu_count() or 1, include_dashboard=False,
                       object_store_memory=LOCAL_OBJECT_STORE_BYTES)
    try:
        ray.init(**options)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = f"--address {settings.address}" if settings.address else "a local Ray instance"
        raise SentinelError(f"{where}: Ray could not start or connect: {str(exc).splitlines()[0]}") from None
    return True


def task_options(settings: RaySettings) -> dict[str, Any]:
    # SPREAD: sessions compete for a node's CPU and timers, so they go to the least loaded nodes
    # rather than filling the driver's node first.
    options: dict[str, Any] = {"num_cpus": settings.num_cpus, "max_retries": settings.max_retries,
                               "scheduling_strategy": "SPREAD"}
    if settings.memory_mb:
        options["memory"] = int(settings.memory_mb * 1024 * 1024)
    return options


# --- the channel: bus messages to the driver, stops to the workers -----------------------

def channel_options(ray: Any) -> dict[str, Any]:
    """The channel lives on the driver's own node: left to Ray it may land on any node, and a lost
    node would take the channel with it and leave every other session without its driver. The
    driver's node is the one node the run cannot outlive anyway."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    here = ray.get_runtime_context().get_node_id()
    return {"num_cpus": 0, "scheduling_strategy": NodeAffinitySchedulingStrategy(node_id=here, soft=False)}


class RunChannel:
    """A Ray actor: workers post bus messages, the driver drains them; the driver's stops go the
    other way as the answer to each post."""

    def __init__(self) -> None:
        self._messages: list[Message] = []
        self._stop_all = False
        self._stopped: set[str] = set()

    def post(self, messages: list[Message]) -> tuple[bool, tuple[str, ...]]:
        self._messages.extend(messages)
        return self._stop_all, tuple(self._stopped)

    def drain(self) -> list[Message]:
        taken, self._messages = self._messages, []
        return taken

    def stop(self, key: str | None = None) -> None:
        if key is None:
            self._stop_all = True
        else:
            self._stopped.add(key)


# --- on the worker ------------------------------------------------------------------------

def builtin_options(plan: RunPlan) -> list[str] | None:
    """A built-in agent's options after its command, or None for any other agent: on the worker
    the command is built again with that node's interpreter (its path may differ from ours)."""
    builtin = builtin_command(plan.agent)
    if not plan.gets_scenario_file or builtin is None or not isinstance(plan.command, list):
        return None
    return plan.command[len(builtin):]


def worker_plan(plan: RunPlan, job: Job, options: list[str] | None) -> RunPlan:
    command = plan.command
    if options is not None:
        command = [*(builtin_command(plan.agent) or []), *options]
    return replace(plan, command=command, scenarios=(job.scenario,), resume=False, concurrency=0)


def run_remote_session(config: Config, plan: RunPlan, job: Job, scenario_file: bytes, options: list[str] | None,
                       channel: Any) -> RemoteSession | None:
    """A Ray task: one session, run by the same runner code as locally, in its own event loop.
    options: builtin_options(plan), worked out on the driver. None if the run was stopped before
    this session began."""
    with short_switch_interval():
        return asyncio.run(_run_remote(config, worker_plan(plan, job, options), job, scenario_file, channel))


async def _run_remote(config: Config, plan: RunPlan, job: Job, scenario_file: bytes,
                      channel: Any) -> RemoteSession | None:
    import ray

    with tempfile.TemporaryDirectory(prefix=worker_folder_prefix(job)) as tmp:
        root = Path(tmp)
        scenario_path = root / "scenario" / job.scenario.path.name
        scenario_path.parent.mkdir()
        scenario_path.write_bytes(scenario_file)
        job = replace(job, scenario=replace(job.scenario, path=scenario_path))
        config = replace(config, results_dir=root / "results", scenarios_dir=scenario_path.parent,
                         catalogs_dir=DATA.catalogs)
        plan = replace(plan, scenarios=(job.scenario,))
        relay = WorkerRelay(channel, job.key)
        runner = Runner(config, plan, Bus())
        runner.bus.subscribe(relay.collect)
        if await relay.post(runner):
            return None
        pump = asyncio.create_task(relay.pump(runner))
        try:
            result = await runner.run_session(job)
        finally:
            pump.cancel()
        await relay.post(runner)
        folder = job.dir_in(runner.run_dir)
        return RemoteSession(result, pack(folder), ray.get_runtime_context().get_node_id())


def worker_folder_prefix(job: Job) -> str:
    """The worker's temporary folder names its session, so that on a node `ps` tells which session
    an agent belongs to (a built-in agent's command line holds its scenario file, kept there)."""
    return f"sentinel-ray-{job.scenario.environment}+{job.name}+"


class WorkerRelay:
    """Collects a worker's bus messages and posts them to the channel in batches; applies the
    driver's stops to the worker's runner."""

    def __init__(self, channel: Any, key: str):
        self.channel = channel
        self.key = key
        self.pending: list[Message] = []

    def collect(self, message: Message) -> None:
        if not isinstance(message, SessionGraded):  # the driver announces it once the files are placed
            self.pending.append(message)

    async def post(self, runner: Runner) -> bool:
        """Send what was collected; True if the run (or this session) is to stop."""
        batch, self.pending = self.pending, []
        stop_all, stopped = await asyncio.wrap_future(self.channel.post.remote(batch).future())
        if stop_all:
            runner.stop()
        elif self.key in stopped:
            runner.stop_session(self.key)
        return stop_all or self.key in stopped

    async def pump(self, runner: Runner) -> None:
        while True:
            await asyncio.sleep(POST_EVERY_S)
            await self.post(runner)


def pack(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=1) as tar:
        tar.add(folder, arcname=".")
    return buffer.getvalue()


# --- on the driver ------------------------------------------------------------------------

def place(folder_tar: bytes, target: Path) -> None:
    """Unpack a session folder beside its place, then rename it into place: the folder under
    results/ is either absent or whole, as a local run leaves it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    incoming = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".incoming", dir=target.parent))
    try:
        with tarfile.open(fileobj=io.BytesIO(folder_tar), mode="r:gz") as tar:
            tar.extractall(incoming, filter="data")
        if target.exists():
            shutil.rmtree(target)  # a half-finished earlier attempt
        os.rename(incoming, target)
    except BaseException:
        shutil.rmtree(incoming, ignore_errors=True)
        raise


class RayRunner(Runner):
    """A Runner whose sessions run as Ray tasks (module docstring)."""

    def __init__(self, config: Config, plan: RunPlan, bus: Bus | None = None):
        super().__init__(config, plan, bus)
        self.nodes: dict[str, str] = {}  # session key → the Ray node that ran it
        self._channel: Any = None
        self._task: Any = None
        self._drain_lock = asyncio.Lock()
        self._owns_ray = False

    def connect(self) -> None:
        """Join Ray (idempotent); call it from the main thread before a dashboard starts."""
        if self._channel is not None:
            return
        self._owns_ray = connect(self.config.ray) or self._owns_ray
        ray = import_ray()
        self._channel = ray.remote(RunChannel).options(**channel_options(ray)).remote()
        self._task = ray.remote(run_remote_session).options(**task_options(self.config.ray))

    async def run(self):
        self.connect()
        pump = asyncio.create_task(self._pump())
        try:
            return await super().run()
        finally:
            pump.cancel()
            await self._drain()
            if self._owns_ray:
                import_ray().shutdown()

    def stop(self) -> None:
        super().stop()
        if self._channel is not None:
            self._channel.stop.remote()

    def stop_session(self, key: str) -> None:
        if self._channel is not None:
            self._channel.stop.remote(key)

    async def run_session(self, job: Job) -> Result:
        ray = import_ray()
        out_dir = job.dir_in(self.run_dir)
        ref = self._task.remote(self.config, self.plan, job, job.scenario.path.read_bytes(),
                                builtin_options(self.plan), self._channel)
        try:
            remote: RemoteSession | None = await asyncio.wrap_future(ref.future())
        except ray.exceptions.RayError as exc:  # retries exhausted, or the task itself failed
            await self._drain()
            out_dir.mkdir(parents=True, exist_ok=True)
            crashed = replace(self._crashed(job.scenario, failure_text(exc)), trial=job.trial)
            return await self._record(out_dir, job.key, crashed)
        if remote is None:  # stopped before it began
            return None  # type: ignore[return-value]
        await asyncio.to_thread(place, remote.folder_tar, out_dir)
        self.nodes[job.key] = remote.node
        await self._drain()  # the session's last messages come before its grade, as locally
        # the worker's runner saw one scenario; the result carries the whole run's suite and digest
        result = replace(remote.result, suite=self.suite, suite_digest=self.suite_digest)
        await asyncio.to_thread(write_result, out_dir, result)
        self.bus.publish(SessionGraded(key=job.key, result=result))
        return result

    async def _drain(self) -> None:
        if self._channel is None:
            return
        async with self._drain_lock:
            messages = await asyncio.wrap_future(self._channel.drain.remote().future())
            for message in messages:
                self.bus.publish(message)

    async def _pump(self) -> None:
        while True:
            await asyncio.sleep(DRAIN_EVERY_S)
            await self._drain()


def failure_text(exc: BaseException) -> str:
    """One line for a session Ray could not finish: the worker's own error when it raised one."""
    cause = getattr(exc, "cause", None)
    if isinstance(cause, SentinelError):
        return str(cause)
    if isinstance(cause, BaseException):
        return f"on the Ray worker: {cause!r}"
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return f"ray: {type(exc).__name__}: {lines[0] if lines else 'no detail'}"


def make_runner(config: Config, plan: RunPlan, bus: Bus | None = None) -> Runner:
    """The runner of config.backend: local (one process) or ray."""
    if config.backend == "ray":
        import_ray()
        return RayRunner(config, plan, bus)
    return Runner(config, plan, bus)
