"""What one environment provides. Each package under sentinel/envs/ exports `ENV`.

An environment is: a schema (schema.sql beside its package), event types that change the
state, baselines computed after the preload, routes (views and actions) under /<name>/,
header context for its pages, optional derived tables written at grading time, and optional
scenario checks that need its own knowledge (e.g. recomputing a price crossing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Mapping

if TYPE_CHECKING:  # only for annotations: the core never needs aiohttp at import time
    from aiohttp import web

    from sentinel.catalog import Catalog
    from sentinel.scenario import Event, Scenario
    from sentinel.world import World


@dataclass(frozen=True)
class EventType:
    """One kind of scripted event.

    apply:   writes the event's change into the world's tables (runs inside world.write()).
    refs:    field name → catalog collection its id(s) must exist in; a field may hold one id,
             a list of ids, or "*" for the whole collection. Checked by `sentinel validate`.
    inserts: the field whose id(s) this event inserts, so validate can reject an id
             inserted twice in one scenario (preload included).
    """

    apply: Callable[["World", "Event"], Awaitable[None]]
    refs: Mapping[str, str] = field(default_factory=dict)
    inserts: tuple[str, ...] = ()
    required: tuple[str, ...] = ()  # fields that must be present
    optional: tuple[str, ...] = ()  # further fields allowed


@dataclass(frozen=True)
class Environment:
    name: str  # "micromail": URL prefix, folder names, scenario id prefix
    title: str  # "MicroMail": brand shown in the header
    schema: Path  # schema.sql with the environment's tables
    event_types: Mapping[str, EventType]
    baselines: Callable[["World"], Awaitable[dict[str, float]]]
    add_routes: Callable[["web.Application"], None]
    chrome: Callable[["World"], Awaitable[dict[str, Any]]]
    serve_preload: Callable[["Catalog"], dict[str, Any]]  # preload fields for `sentinel serve`
    finalize: Callable[["World"], Awaitable[None]] | None = None
    check_scenario: Callable[["Scenario", "Catalog"], list[tuple[str, str]]] | None = None

    @property
    def start_page(self) -> str:
        return f"/{self.name}/"
