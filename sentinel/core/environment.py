"""What one environment declares. Each package under sentinel/envs/ exports `ENV`.

An environment is its domain and nothing else: a schema (schema.sql in its package), event
types that change the state, baselines (SQL counts, optionally computed ones), routes (views and
actions, named, relative to /<name>), a header (navigation, search, counters), and optionally
derived tables written at grading time and scenario checks that need its own knowledge.
The shared machinery (app factory, layout, paging, 404s, live refresh, validation) reads this
declaration; nothing here imports aiohttp. What most environments share is a default: a
declaration names only what its environment does differently.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, check_kinds

if TYPE_CHECKING:  # only for annotations: the core never needs aiohttp at import time
    from sentinel.core.catalog import Catalog
    from sentinel.core.config import Timing
    from sentinel.core.scenario import Event, Scenario
    from sentinel.world.state import World

ROUTE_METHODS = ("GET", "POST")
BUILT_IN_PACKAGES = Path(__file__).parents[1] / "envs"  # sentinel/envs/<name>/: the built-in environments


@dataclass(frozen=True)
class EventType:
    """One kind of scripted event.

    apply:   writes the event's change into the world's tables (runs inside the session's write
             transaction: it only executes statements and never opens world.write() itself).
    refs:    field name → catalog collection its id(s) must exist in; a field may hold one id,
             a list of ids, or "*" for the whole collection. Checked by `sentinel validate`.
    inserts: the field whose id(s) this event inserts, so validate can reject an id
             inserted twice in one scenario (preload included).
    preload: True for the environment's `preload` type: validate then checks the shared preload
             rules (time 0, id lists or "*", age_offset_minutes ≥ 0). Build it with
             `sentinel.envs.kit.preload_type`.
    """

    apply: Callable[[World, Event], Awaitable[None]]
    refs: Mapping[str, str] = field(default_factory=dict)
    inserts: tuple[str, ...] = ()
    required: tuple[str, ...] = ()  # fields that must be present
    optional: tuple[str, ...] = ()  # further fields allowed
    preload: bool = False

    @property
    def fields(self) -> frozenset[str]:
        """Every field an event of this type may carry."""
        return frozenset(self.required) | frozenset(self.optional) | frozenset(self.refs)


@dataclass(frozen=True)
class Route:
    """One page or action: `path` is relative to /<env> ("/message/{id}"); `name` is what
    templates and handlers pass to `url(...)` / `url_for(...)` instead of writing the path."""

    method: str
    path: str
    handler: Callable[..., Awaitable[Any]]
    name: str


class Routes:
    """Collects a module's routes with decorators: `@routes.get("/", "home")`. An environment
    whose actions sit in a module of their own declares both tables: `views.routes + actions.routes`."""

    def __init__(self, routes: Iterable[Route] = ()) -> None:
        self._routes: list[Route] = list(routes)

    def get(self, path: str, name: str) -> Callable[[Any], Any]:
        return self._add("GET", path, name)

    def post(self, path: str, name: str) -> Callable[[Any], Any]:
        return self._add("POST", path, name)

    def _add(self, method: str, path: str, name: str) -> Callable[[Any], Any]:
        def register(handler: Any) -> Any:
            self._routes.append(Route(method, path, handler, name))
            return handler
        return register

    def __iter__(self) -> Iterator[Route]:
        return iter(tuple(self._routes))

    def __len__(self) -> int:
        return len(self._routes)

    def __add__(self, other: Iterable[Route]) -> Routes:
        """Both tables' routes, this one's first (the order the app adds them in)."""
        return Routes([*self, *other])


@dataclass(frozen=True)
class NavItem:
    """One entry of the header's main navigation: a label and a named GET route. With `count`,
    the label carries that counter from the Header as text: "Inbox (3)"."""

    label: str
    route: str
    count: str | None = None
    parts: Mapping[str, str] = field(default_factory=dict)  # path parameters of the route


@dataclass(frozen=True)
class Header:
    """What an environment's header shows at this moment.

    unread: the environment's main unread count; when above 0 the <title> starts with "(N) ".
    counts: counters the navigation shows beside labels (NavItem.count names one).
    extra:  anything an environment's own layout adds (MicroMail's folder sidebar).
    """

    unread: int = 0
    counts: Mapping[str, int] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)


def check_routes(routes: Iterable[Route], env_name: str) -> None:
    """Every route's method is GET or POST, its path starts with "/" and its name is its own."""
    names: set[str] = set()
    for route in routes:
        if route.method not in ROUTE_METHODS or not route.path.startswith("/"):
            raise ValueError(f"{env_name}: route {route.name!r} must be GET or POST on a path starting with /")
        if route.name in names:
            raise ValueError(f"{env_name}: two routes are named {route.name!r}")
        names.add(route.name)


async def no_header(world: World) -> Header:
    return Header()


async def no_baselines(world: World) -> dict[str, float]:
    return {}


@dataclass(frozen=True)
class Environment:
    name: str  # "micromail": URL prefix, folder names, scenario id prefix
    title: str  # "MicroMail": brand shown in the header
    event_types: Mapping[str, EventType]
    routes: Iterable[Route]  # views.routes, or views.routes + actions.routes (kept as a tuple)
    serve_preload: Callable[[Catalog], dict[str, Any]]  # preload fields for `sentinel serve`
    # The environment's tables. A relative path is read from its package, sentinel/envs/<name>/;
    # an environment kept outside the repository names its own (as it names its templates and catalog).
    schema: Path = Path("schema.sql")
    nav: tuple[NavItem, ...] = ()
    search: str | None = None  # the named route the header's search box submits to (GET ?q=)
    header: Callable[[World], Awaitable[Header]] = no_header
    baseline_sql: Mapping[str, str] = field(default_factory=dict)  # metric → SELECT of one number
    baselines_extra: Callable[[World], Awaitable[dict[str, float]]] = no_baselines
    finalize: Callable[[World], Awaitable[None]] | None = None
    # (scenario, catalog, timing) → [(field, reason)]; timing None means the repository's sentinel.toml
    check_scenario: Callable[[Scenario, Catalog, Timing | None], list[tuple[str, str]]] | None = None
    templates: Path | None = None  # extra template folder (environments kept outside web/templates)
    catalog_dir: Path | None = None  # its own catalog folder, when not catalogs/<name>/
    # The coarsest clock granularity its pages show, in sim seconds (1.0: time shows only as
    # relative times such as "3 min ago" of whole-second timestamps): an unchanged world within one
    # such step reuses the rendered page. None: some text follows time continuously (interpolated
    # prices), so every request renders.
    page_time_step_s: float | None = 1.0
    # Scenario kinds `sentinel generate` draws from (sentinel/envs/<name>/kinds.py exports KINDS:
    # sentinel.core.kinds.Kind objects with unique names). Empty: the environment has none yet.
    kinds: tuple[Kind, ...] = ()

    def __post_init__(self) -> None:
        # frozen: the two normalisations below set the fields once, as a constructor would
        object.__setattr__(self, "routes", tuple(self.routes))
        if not self.schema.is_absolute():
            object.__setattr__(self, "schema", BUILT_IN_PACKAGES / self.name / self.schema)
        check_routes(self.routes, self.name)
        check_kinds(self.kinds, self.name)

    @property
    def start_page(self) -> str:
        return f"/{self.name}/"

    async def baselines(self, world: World) -> dict[str, float]:
        """Every baseline metric right after the preload: computed ones, then the SQL counts."""
        values = dict(await self.baselines_extra(world))
        for name, sql in self.baseline_sql.items():
            values[name] = float(await world.fetch_value(sql) or 0)
        return values

    def route_named(self, name: str) -> Route:
        for route in self.routes:
            if route.name == name:
                return route
        raise KeyError(f"{self.name} has no route named {name!r}")
