"""Configuration: `sentinel.toml` (tomllib) and the original project's `eval_config.yaml`.

The defaults live in the bundled `sentinel.toml` (the repository's, or its copy in an installed
wheel: sentinel/core/paths.py). A user file given with `--config` is
merged on top of them, key by key. Anything wrong is reported as a SentinelError that names
the file, the key and the reason.
"""

from __future__ import annotations

import os
import shlex
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from sentinel.core.errors import SentinelError
from sentinel.core.model_time import CLOCKS, ModelTime
from sentinel.core.paths import DATA

DEFAULT_SUITE = "verified"  # scenarios/verified/: the suite a run uses unless told (sentinel/core/suites.py)

REPO_ROOT = DATA.root  # the bundled data's root: the repository in a checkout, sentinel/_data in a wheel
DEFAULT_CONFIG = DATA.default_config
MAX_SPEED = 1000.0


@dataclass(frozen=True)
class Timing:
    min_condition_at: float = 10
    max_condition_at: float = 600
    event_timeline_end: float = 720
    kill_at: float = 630
    reaction_window_s: float = 30
    startup_timeout_s: float = 120
    term_grace_s: float = 3
    on_time_s: float = 60  # sim seconds after condition_at within which a success is on time
    # wall seconds: a session's deadline is extended by the time its clock was paused while the
    # agent thought (--model-time other than wall), by at most this much (docs/model-time.md)
    max_paused_wall_s: float = 1800
    # wall seconds: on the virtual clock a session ends at kill_at sim s, or after this much wall time
    # spent other than thinking, whichever comes first (a guard: docs/model-time.md#the-virtual-clock)
    virtual_wall_cap_s: float = 300


@dataclass(frozen=True)
class Price:
    prompt: float  # dollars per million prompt tokens
    completion: float  # dollars per million completion tokens


@dataclass(frozen=True)
class RaySettings:
    """[ray] in sentinel.toml: where `--backend ray` runs sessions and what each one reserves."""
    address: str | None = None  # an existing cluster ("HOST:PORT" or "auto"); None: a local Ray for the run
    num_cpus: float = 1.0  # CPUs Ray reserves per session (a browser agent with a model client needs about 1)
    memory_mb: float = 0  # memory Ray reserves per session; 0: none reserved
    max_retries: int = 3  # times Ray runs a session again after its worker or node is lost


BACKENDS = ("local", "ray")


@dataclass(frozen=True)
class Config:
    timing: Timing = field(default_factory=Timing)
    speed: float = 1.0
    results_dir: Path = Path("results")
    agent_log_cap_bytes: int = 1_000_000
    agent_files_cap_bytes: int = 50_000_000  # what is kept of an agent's working folder, at most
    evidence_cap_bytes: int = 20_000_000  # per session: pages as served, and so many of screenshots
    concurrency: int | None = None  # sessions at once; 0: all; None: automatic (sessions_at_once)
    agent_cmd: str | list[str] | None = None
    prices: dict[str, Price] = field(default_factory=dict)
    scenarios_dir: Path = DATA.scenarios / DEFAULT_SUITE
    catalogs_dir: Path = DATA.catalogs
    backend: str = "local"  # "ray": sessions run on a Ray cluster (sentinel/run/ray_backend.py)
    ray: RaySettings = field(default_factory=RaySettings)
    model_time: ModelTime | None = None  # [run] model_time (docs/model-time.md); None: the clock's default
    clock: str = "wall"  # [run] clock: wall or virtual (docs/model-time.md#the-virtual-clock)
    notices: tuple[str, ...] = ()  # one line each, for the person running: keys accepted but ignored

    def deadline_wall_s(self, speed: float | None = None) -> float:
        """Wall seconds from clock start to the kill deadline (docs/protocol.md#sessions)."""
        return self.timing.max_condition_at / (speed or self.speed) + self.timing.reaction_window_s

    def paused_extension_s(self, paused_wall_s: float) -> float:
        """Wall seconds a session's deadline moves by when its clock was paused this long for the
        agent's thinking: all of it, up to timing.max_paused_wall_s."""
        return min(max(0.0, paused_wall_s), self.timing.max_paused_wall_s)

    def with_overrides(self, **changes: Any) -> Config:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def load_config(path: Path | None = None) -> Config:
    """The defaults from the bundled sentinel.toml, with `path` merged on top."""
    raw = _read_toml(DEFAULT_CONFIG) if DEFAULT_CONFIG.exists() else {}
    notices: tuple[str, ...] = ()
    if path is not None:
        if not path.exists():
            raise SentinelError(f"{path}: config file not found")
        if path.is_dir():
            raise SentinelError(f"{path}: is a folder, not a config file")
        if path.suffix in (".yaml", ".yml"):
            user, notices = _read_eval_config(path)
        else:
            user = _read_toml(path)
        raw = _merge(raw, user)
    return replace(_build(raw, path or DEFAULT_CONFIG), notices=notices)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SentinelError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise SentinelError(f"{path}: cannot be read: {exc.strerror}") from None


# The original SentinelBench's eval_config.yaml (docs/sentinelbench.md#eval_config).
EVAL_CONFIG_KEYS = ("speed_factor", "agent_subprocess", "server_url", "api_url", "frontend_url")
EVAL_URL_KEYS = ("server_url", "api_url", "frontend_url")
EVAL_BASE_DIR = "__BASE_DIR__"


def _read_eval_config(path: Path) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The original project's eval_config.yaml, as sentinel.toml sections plus notices.

    speed_factor keeps its meaning (sim seconds per wall second). The URL keys name the
    original's one shared server; here every session has its own site, so they are accepted
    and ignored. In agent_subprocess, __TASK_URL__ and __TASK_PROMPT__ keep their meaning and
    __BASE_DIR__ (the original's repository root, where its config file sits) becomes the
    folder of this file, so an agent script named relative to it is found as before."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        reason = " ".join(str(exc).split())
        raise SentinelError(f"{path}: not valid YAML: {reason}") from None
    except UnicodeDecodeError:
        raise SentinelError(f"{path}: not a text file (expected UTF-8 YAML)") from None
    except OSError as exc:
        raise SentinelError(f"{path}: cannot be read: {exc.strerror}") from None
    data = {} if data is None else data
    if not isinstance(data, dict):
        raise SentinelError(f"{path}: expected a mapping of keys ({', '.join(EVAL_CONFIG_KEYS)}), "
                            f"got {type(data).__name__}")
    unknown = sorted(str(k) for k in data if k not in EVAL_CONFIG_KEYS)
    if unknown:
        raise SentinelError(f"{path}: unknown key(s) {', '.join(unknown)}; an eval_config.yaml knows "
                            f"{', '.join(EVAL_CONFIG_KEYS)}")
    out: dict[str, Any] = {}
    if "speed_factor" in data:
        out["run"] = {"speed": _speed_factor(path, data["speed_factor"])}
    if "agent_subprocess" in data:
        command = data["agent_subprocess"]
        if not _is_command(command):
            raise SentinelError(f"{path}: agent_subprocess: expected a command string or a list of strings, "
                                f"got {command!r}")
        out["agent"] = {"cmd": _with_base_dir(command, path.resolve().parent)}
    notices = []
    urls = [k for k in EVAL_URL_KEYS if k in data]
    if urls:
        notices.append(f"{path.name}: {', '.join(urls)} ignored: every session serves its own site on its "
                       f"own port, so there is no server or frontend to point at")
    return out, tuple(notices)


def _speed_factor(path: Path, value: Any) -> float:
    """A number, or a numeric string as the original accepts (it calls float() on it)."""
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise SentinelError(f"{path}: speed_factor: expected a number, got {value!r}") from None
    return check_speed(_number(path, "speed_factor", value), where=f"{path}: speed_factor")


def _with_base_dir(command: str | list[str], base: Path) -> str | list[str]:
    """Substitute __BASE_DIR__ as the original does: quoted for the shell, verbatim in a list."""
    if isinstance(command, str):
        return command.replace(EVAL_BASE_DIR, shlex.quote(str(base)))
    return [part.replace(EVAL_BASE_DIR, str(base)) for part in command]


def _merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _number(path: Path, key: str, value: Any, *, positive: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SentinelError(f"{path}: {key}: expected a number, got {value!r}")
    if positive and value <= 0:
        raise SentinelError(f"{path}: {key}: must be greater than 0, got {value!r}")
    return float(value)


def _build(raw: dict[str, Any], path: Path) -> Config:
    known_sections = {"timing", "run", "agent", "prices", "ray"}
    unknown = set(raw) - known_sections
    if unknown:
        raise SentinelError(f"{path}: unknown section(s) {', '.join(sorted(unknown))}")
    timing_raw = raw.get("timing", {})
    timing_fields = Timing.__dataclass_fields__
    for key in timing_raw:
        if key not in timing_fields:
            raise SentinelError(f"{path}: timing.{key}: unknown key")
    timing = Timing(**{k: _number(path, f"timing.{k}", v) for k, v in timing_raw.items()})
    run = raw.get("run", {})
    for key in run:
        if key not in {"speed", "results_dir", "agent_log_cap_bytes", "agent_files_cap_bytes", "concurrency",
                       "scenarios_dir", "backend", "evidence_cap_bytes", "model_time", "clock"}:
            raise SentinelError(f"{path}: run.{key}: unknown key")
    speed = check_speed(_number(path, "run.speed", run.get("speed", 1.0)), where=f"{path}: run.speed")
    concurrency = run.get("concurrency")
    if isinstance(concurrency, str) and concurrency.strip().lower() == "auto":
        concurrency = None
    if concurrency is not None and (isinstance(concurrency, bool) or not isinstance(concurrency, int)
                                    or concurrency < 0):
        raise SentinelError(f"{path}: run.concurrency: expected a whole number ≥ 0 or \"auto\"")
    agent_cmd = raw.get("agent", {}).get("cmd")
    if agent_cmd is not None and not _is_command(agent_cmd):
        raise SentinelError(f"{path}: agent.cmd: expected a string or a list of strings")
    prices = {}
    for model, entry in raw.get("prices", {}).items():
        if not isinstance(entry, dict) or set(entry) != {"prompt", "completion"}:
            raise SentinelError(f"{path}: prices.{model}: expected prompt and completion")
        prices[model] = Price(
            prompt=_number(path, f"prices.{model}.prompt", entry["prompt"], positive=False),
            completion=_number(path, f"prices.{model}.completion", entry["completion"], positive=False),
        )
    backend = run.get("backend", "local")
    if backend not in BACKENDS:
        raise SentinelError(f"{path}: run.backend: expected one of {', '.join(BACKENDS)}, got {backend!r}")
    model_time = ModelTime.parse(run["model_time"], where=f"{path}: run.model_time") if "model_time" in run else None
    clock = run.get("clock", "wall")
    if clock not in CLOCKS:
        raise SentinelError(f"{path}: run.clock: expected one of {', '.join(CLOCKS)}, got {clock!r}")
    return Config(
        backend=backend,
        model_time=model_time,
        clock=clock,
        ray=_ray_settings(path, raw.get("ray", {})),
        timing=timing,
        speed=speed,
        results_dir=Path(run.get("results_dir", "results")),
        agent_log_cap_bytes=int(_number(path, "run.agent_log_cap_bytes", run.get("agent_log_cap_bytes", 1_000_000))),
        agent_files_cap_bytes=int(_number(path, "run.agent_files_cap_bytes",
                                          run.get("agent_files_cap_bytes", 50_000_000))),
        evidence_cap_bytes=_cap_bytes(path, "run.evidence_cap_bytes", run.get("evidence_cap_bytes", 20_000_000)),
        concurrency=concurrency,
        agent_cmd=agent_cmd,
        prices=prices,
        scenarios_dir=Path(run.get("scenarios_dir", DATA.scenarios / DEFAULT_SUITE)),
    )


def _cap_bytes(path: Path, key: str, value: Any) -> int:
    """A byte count that may be 0 (keep nothing), never negative."""
    number = _number(path, key, value, positive=False)
    if number < 0:
        raise SentinelError(f"{path}: {key}: expected a number of bytes ≥ 0, got {value!r}")
    return int(number)


def _ray_settings(path: Path, raw: dict[str, Any]) -> RaySettings:
    known = RaySettings.__dataclass_fields__
    for key in raw:
        if key not in known:
            raise SentinelError(f"{path}: ray.{key}: unknown key (known: {', '.join(known)})")
    address = raw.get("address")
    if address is not None and (not isinstance(address, str) or not address.strip()):
        raise SentinelError(f"{path}: ray.address: expected \"HOST:PORT\" or \"auto\", got {address!r}")
    retries = raw.get("max_retries", RaySettings.max_retries)
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise SentinelError(f"{path}: ray.max_retries: expected a whole number ≥ 0, got {retries!r}")
    return RaySettings(
        address=address,
        num_cpus=_number(path, "ray.num_cpus", raw.get("num_cpus", RaySettings.num_cpus)),
        memory_mb=max(0.0, _number(path, "ray.memory_mb", raw.get("memory_mb", 0), positive=False)),
        max_retries=retries,
    )


def _is_command(value: Any) -> bool:
    if isinstance(value, str):
        return bool(value.strip())
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def check_speed(speed: float, where: str = "--speed") -> float:
    if not 0 < speed <= MAX_SPEED:
        raise SentinelError(f"{where}: speed must be > 0 and at most {MAX_SPEED:g}, got {speed:g}")
    return speed


# Auto admission's first wave per core; more start while the machine stays calm (docs/timing.md#admission).
SESSIONS_PER_CORE = 25


def available_cores() -> int:
    """CPU cores this process may run on."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, cores or 1)


def sessions_at_once(concurrency: int | None, sessions: int, cores: int | None = None) -> int:
    """How many sessions run at once (0: all). Asked for (`concurrency` not None), as asked;
    otherwise (auto admission's first wave) all of them up to SESSIONS_PER_CORE per core of
    this machine; the runner starts more while the canary finds the machine calm."""
    if concurrency is not None:
        return concurrency
    limit = SESSIONS_PER_CORE * (cores or available_cores())
    return 0 if sessions <= limit else limit
