"""The environments Sentinel serves. Adding one: a package here exporting ENV, its templates
under web/templates/<name>/, its catalog under catalogs/<name>/, its scenarios under
scenarios/<name>/, and its module in the list below."""

from __future__ import annotations

from sentinel.envs.base import Environment
from sentinel.errors import SentinelError


def environments() -> dict[str, Environment]:
    from sentinel.envs import microhood, micromail

    return {env.name: env for env in (micromail.ENV, microhood.ENV)}


def get_environment(name: str) -> Environment:
    envs = environments()
    if name not in envs:
        raise SentinelError(f"unknown environment {name!r}; known: {', '.join(sorted(envs))}")
    return envs[name]
