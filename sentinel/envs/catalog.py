"""An environment filled with its whole catalog, as a scenario with no task (what `sentinel
serve` browses, and what the tests crawl)."""

from __future__ import annotations

from sentinel.core.catalog import Catalog
from sentinel.core.config import Config
from sentinel.core.environment import Environment
from sentinel.core.scenario import Event, Scenario, Taxonomy


def catalog_scenario(env: Environment, config: Config) -> Scenario:
    """A scenario with no task: only a preload of the environment's whole catalog."""
    preload = env.serve_preload(Catalog.of(env, config.catalogs_dir))
    return Scenario(
        id=f"{env.name}-catalog", environment=env.name, prompt=f"Browse {env.title}.", condition_at=None,
        start_page=env.start_page, taxonomy=Taxonomy("noop", "absolute"),
        events=(Event(at=0.0, type="preload", fields=preload),), eval_sql=None, solution=(),
        path=config.scenarios_dir / env.name / "catalog.yaml")
