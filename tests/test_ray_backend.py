"""--backend ray on a real two-node Ray cluster on this machine: `ray start --head` and a second
node with its own resources, each started with `--block` in its own session (so the test can
kill exactly one node's processes, never `ray stop`, which would end every Ray on the machine).

The cluster is small on purpose (one CPU per node, no dashboard, a small object store): the
machine is shared. Skipped when Ray is not installed (pip install -e '.[ray,test]').
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from sentinel import api
from sentinel.core.errors import SentinelError

pytestmark = pytest.mark.slow

pytest.importorskip("ray")

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "scenarios"
RAY = Path(sys.executable).parent / "ray"
SENTINEL = Path(sys.executable).parent / "sentinel"
OBJECT_STORE = str(80 * 1024 * 1024)
# Ray's own settings (RAY_<name>): a lost node is noticed in about five seconds, not thirty (and
# a live one on a busy shared machine, answering late, is not taken for lost); a
# loopback-only test cluster needs no token (none is written to ~/.ray).
RAY_ENV = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0", "RAY_health_check_period_ms": "1000",
           "RAY_health_check_timeout_ms": "1000", "RAY_health_check_failure_threshold": "4",
           "RAY_health_check_initial_delay_ms": "0"}


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


# Every process that talks to a node's raylet takes one of its worker ports for as long as it
# lives: the driver and the run's channel on the head, and each task's worker (two sessions at a
# time per one-CPU node at num_cpus=0.5, plus the replacements Ray starts after a kill). Too few
# and tasks wait forever for a worker that cannot register ("No available ports").
WORKER_PORTS = 10


PORT_OPTIONS = ("--node-manager-port", "--object-manager-port", "--metrics-export-port",
                "--dashboard-agent-listen-port", "--dashboard-agent-grpc-port", "--runtime-env-agent-port")
PORTS_PER_NODE = len(PORT_OPTIONS) + WORKER_PORTS


def node_ports(ports: list[int]) -> list[str]:
    names = PORT_OPTIONS
    options = [f"{name}={port}" for name, port in zip(names, ports, strict=False)]
    return options + ["--worker-port-list=" + ",".join(map(str, ports[len(names):]))]


def parents() -> dict[int, int]:
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            found[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return found


def session_pids(root: int) -> list[int]:
    """The node's `ray start --block` and every process under it (its raylet, workers, agents)."""
    children: dict[int, list[int]] = {}
    for pid, parent in parents().items():
        children.setdefault(parent, []).append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def kill_node(node: subprocess.Popen) -> None:
    for pid in session_pids(node.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    node.wait(timeout=10)


def wait_for_nodes(cluster: Cluster, count: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        out = subprocess.run([str(RAY), "status", f"--address={cluster.address}"], capture_output=True, text=True,
                             env=cluster.env)
        if out.stdout.count("node_") >= count:
            return
        time.sleep(0.5)
    logs = "".join(f"\n--- {log.name}:\n" + log.read_text()[-3000:] for log in sorted(cluster.temp.glob("node*.log")))
    raise AssertionError(f"the cluster never had {count} nodes: {out.stdout}{out.stderr}{logs}")


def wait_for_port(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError(f"nothing listens on port {port}") from None
            time.sleep(0.2)


class Cluster:
    def __init__(self) -> None:
        self.temp = Path(tempfile.mkdtemp(prefix="sr-"))  # short: Ray's socket paths have a length limit
        self.env = {**os.environ, **RAY_ENV}
        # Every port of both nodes chosen at once: chosen one node at a time, the second node could
        # be handed a port the head has not bound yet.
        *self.free, self.port = free_ports(2 * PORTS_PER_NODE + 1)
        self.address = f"127.0.0.1:{self.port}"
        self.nodes: list[subprocess.Popen] = []

    def start(self, *options: str, head: bool = False) -> subprocess.Popen:
        """Start a node without waiting for it (the head's GCS port answers first, then the rest)."""
        where = [f"--port={self.port}", "--head", "--include-dashboard=false", f"--temp-dir={self.temp}"] \
            if head else [f"--address={self.address}"]
        log = open(self.temp / f"node{len(self.nodes)}.log", "w")  # noqa: SIM115 (kept open by the node)
        node = subprocess.Popen(
            [str(RAY), "start", "--block", "--disable-usage-stats", "--include-log-monitor=false",
             "--node-ip-address=127.0.0.1", f"--object-store-memory={OBJECT_STORE}", *where,
             *node_ports(self.free[:PORTS_PER_NODE]), *options],
            env=self.env, start_new_session=True, stdout=log, stderr=subprocess.STDOUT)
        self.nodes.append(node)
        del self.free[:PORTS_PER_NODE]
        return node

    def close(self) -> None:
        for node in reversed(self.nodes):
            if node.poll() is None:
                kill_node(node)
        subprocess.run(["rm", "-rf", str(self.temp)], check=False)


@pytest.fixture(scope="module")
def cluster():
    cluster = Cluster()
    try:
        cluster.start("--num-cpus=1", head=True)
        wait_for_port(cluster.port, 120)  # the second node starts while the head finishes starting
        cluster.second = cluster.start("--num-cpus=1", '--resources={"second_node": 1}')
        wait_for_nodes(cluster, 2)
        yield cluster
    finally:
        cluster.close()


def write_config(tmp_path: Path, **ray: object) -> Path:
    lines = ["[run]", f'results_dir = "{tmp_path / "results"}"', f'scenarios_dir = "{DATA}"',
             "[timing]", "reaction_window_s = 3", "startup_timeout_s = 20", "term_grace_s = 1", "[ray]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in ray.items()]
    path = tmp_path / "sentinel.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def sentinel(*args: str, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen([str(SENTINEL), *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=REPO)


def session_files(run_dir: Path) -> dict[str, set[str]]:
    """Per session folder: the names of its files (what a run writes, not what they hold; a kept
    page is named by its content, so pages count as one kind of file)."""
    def kind(path: Path) -> str:
        return "pages/*" if path.parent.name == "pages" else str(path)
    return {str(folder.relative_to(run_dir)): {kind(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
            for folder in sorted(run_dir.glob("*/*")) if folder.is_dir()}


def agents_on(node: subprocess.Popen) -> list[int]:
    """Agent processes (the built-in agents, under sentinel.session.reaper) running in a node's session."""
    found = []
    for pid in session_pids(node.pid):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"sentinel.agents" in cmdline or b"sentinel.session.reaper" in cmdline:
            found.append(pid)
    return found


def sessions_on(node: subprocess.Popen) -> set[str]:
    """The sessions (env/name) whose agents run in a node's session: a built-in agent's command line
    holds its scenario file, inside the worker's folder named after the session."""
    found = set()
    for pid in agents_on(node):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        found.update(f"{env}/{name}" for env, name in re.findall(r"sentinel-ray-([^/+]+)\+([^/+]+)\+", cmdline))
    return found


def wait_until(predicate, timeout: float, what: str, run: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if run is not None and run.poll() is not None:
            raise AssertionError(f"the run ended before {what}: {run.communicate()[0]}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


async def test_sessions_spread_over_both_nodes_and_write_what_a_local_run_writes(cluster, tmp_path, monkeypatch):
    from sentinel.run.ray_backend import RayRunner
    from sentinel.run.runner import Runner

    for key, value in RAY_ENV.items():
        monkeypatch.setenv(key, value)
    config, plan = api.prepare_run(agent="oracle", speed=200, trials=2, run_name="on-ray",
                                   config=write_config(tmp_path, num_cpus=0.5), backend="ray",
                                   address=cluster.address)
    runner = RayRunner(config, plan)
    report = await runner.run()
    assert len(set(runner.nodes.values())) == 2, [r.detail for r in report.results]
    assert sorted(runner.nodes) == sorted(job.key for job in plan.jobs())
    local = await Runner(config, plan.__class__(**{**plan.__dict__, "name": "local"})).run()
    assert [r.success for r in report.results] == [r.success for r in local.results] == [True] * 6
    assert session_files(report.run_dir) == session_files(local.run_dir)
    assert not list(report.run_dir.rglob("*.incoming"))
    assert api.grade(report.run_dir).summary.overall.passed == 6


def test_ctrl_c_stops_every_remote_agent_and_keeps_the_run_resumable(cluster, tmp_path):
    config = write_config(tmp_path, num_cpus=0.5)
    run = sentinel("run", "--ci", "--agent", "oracle", "--speed", "20", "--trials", "2", "--run", "stopped",
                   "--config", str(config), "--backend", "ray", "--address", cluster.address, env=cluster.env)
    wait_until(lambda: agents_on(cluster.second) or agents_on(cluster.nodes[0]), 120, "agents running", run)
    run.send_signal(signal.SIGINT)
    out, _ = run.communicate(timeout=60)
    assert run.returncode == 130, out
    wait_until(lambda: not agents_on(cluster.second) and not agents_on(cluster.nodes[0]), 10, "agents to end")
    results = [json.loads(p.read_text()) for p in (tmp_path / "results" / "stopped").glob("*/*/result.json")]
    assert results and all(r["infra_error"] for r in results), out


def test_a_lost_node_costs_only_its_sessions_which_run_again_elsewhere(cluster, tmp_path):
    config = write_config(tmp_path, num_cpus=0.5)
    run = sentinel("run", "--ci", "--agent", "oracle", "--speed", "200", "--trials", "3", "--run", "lossy",
                   "--config", str(config), "--backend", "ray", "--address", cluster.address, env=cluster.env)
    lost: set[str] = set()
    wait_until(lambda: lost.update(sessions_on(cluster.second)) or lost, 120, "sessions on the second node", run)
    kill_node(cluster.second)
    out, _ = run.communicate(timeout=180)
    assert run.returncode == 0, out
    run_dir = tmp_path / "results" / "lossy"
    keys = {f"{f.parent.name}/{f.name}" for f in run_dir.glob("*/*") if f.is_dir()}
    assert len(keys) == 9 and lost <= keys, (keys, lost)
    results = {key: json.loads((run_dir / key / "result.json").read_text()) for key in keys}
    # The lost sessions were running on the node that is gone, yet each has a whole, passing result:
    # Ray ran them again on the node left.
    assert all(results[key]["success"] and not results[key]["infra_error"] for key in lost), out
    assert json.loads((run_dir / "summary.json").read_text())["sessions"] == 9
    graded = re.findall(r"^\[\s*[\d.]+s\] (?:PASS|FAIL) ", out, flags=re.MULTILINE)
    assert len(graded) == 9, out  # every session graded once, the lost ones included
    assert not list(run_dir.rglob("*.incoming"))


def test_an_unreachable_address_is_one_clear_line(tmp_path):
    port = free_ports(1)[0]
    out = subprocess.run([str(SENTINEL), "run", "--agent", "oracle", "--config", str(write_config(tmp_path)),
                          "--backend", "ray", "--address", f"127.0.0.1:{port}"], capture_output=True, text=True,
                         timeout=120)  # generous: only a hang should reach it
    assert out.returncode == 2
    assert out.stderr.strip() == f"sentinel: --address 127.0.0.1:{port}: no Ray cluster answers there " \
                                 f"(Connection refused)"


def test_backend_options_are_checked_before_anything_starts(tmp_path):
    config = write_config(tmp_path)
    with pytest.raises(SentinelError, match="go with --backend ray"):
        api.prepare_run(agent="oracle", config=config, address="127.0.0.1:1")
    with pytest.raises(SentinelError, match="--session-cpus must be a positive"):
        api.prepare_run(agent="oracle", config=config, backend="ray", session_cpus=0)
    loaded, _ = api.prepare_run(agent="oracle", config=config, backend="ray", session_cpus=0.25,
                                session_memory_mb=300)
    assert (loaded.backend, loaded.ray.num_cpus, loaded.ray.memory_mb) == ("ray", 0.25, 300)
