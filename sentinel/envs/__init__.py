"""The environments Sentinel serves. Adding one: a package here exporting ENV, its templates
under web/templates/<name>/, its catalog under catalogs/<name>/, its scenarios under
scenarios/verified/<name>/, and its module in BUILT_IN below (docs/adding-an-environment.md).

Environments kept elsewhere (the tests' tiny MicroTodo, or a user's own) are named by module in
the SENTINEL_ENVIRONMENTS variable, comma separated; each module exports ENV.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

from sentinel.core.environment import Environment
from sentinel.core.errors import SentinelError

BUILT_IN = (
    "micromail",
    "microhood",
    "microfy",
    "microgram",
    "microscholar",
    "microchat",
    "microlendar",
    "microhub",
    "microtube",
    "microdin",
)
EXTRA_VARIABLE = "SENTINEL_ENVIRONMENTS"


def environments() -> dict[str, Environment]:
    modules = [f"sentinel.envs.{name}" for name in BUILT_IN]
    modules += [m.strip() for m in os.environ.get(EXTRA_VARIABLE, "").split(",") if m.strip()]
    found: dict[str, Environment] = {}
    for module in modules:
        try:
            env = importlib.import_module(module).ENV
        except (ImportError, AttributeError) as exc:
            raise SentinelError(f"{EXTRA_VARIABLE}: cannot load an environment from {module!r} ({exc})") from None
        found[env.name] = env
    return found


def get_environment(name: str) -> Environment:
    envs = environments()
    if name not in envs:
        raise SentinelError(f"unknown environment {name!r}; known: {', '.join(sorted(envs))}")
    return envs[name]


def template_dirs() -> tuple[Path, ...]:
    """Template folders of environments kept outside web/templates."""
    return tuple(env.templates for env in environments().values() if env.templates)
