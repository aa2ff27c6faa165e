"""The Jinja environment every session of a process shares (make_templates), and the layout a
site's pages extend (layout_for)."""

from __future__ import annotations

from pathlib import Path

import jinja2

from sentinel.core.environment import Environment
from sentinel.core.paths import DATA
from sentinel.web.fast_output import PageTemplates
from sentinel.web.filters import FILTERS

TEMPLATES_DIR = DATA.templates


def make_templates(extra_dirs: tuple[Path, ...] = ()) -> jinja2.Environment:
    """The Jinja environment shared by every session of a process (autoescaped). extra_dirs:
    template folders of environments kept outside web/templates (searched after it)."""
    env = PageTemplates(
        loader=jinja2.FileSystemLoader([str(TEMPLATES_DIR), *map(str, extra_dirs)]),
        autoescape=True,  # every page template, and every template made from a string
        undefined=jinja2.StrictUndefined,
        enable_async=False,
        auto_reload=False,  # templates are compiled once per process: no stat per page
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(FILTERS)
    return env


def layout_for(environment: Environment, templates: jinja2.Environment) -> str:
    """The template pages extend: the environment's own layout.html if it has one, else the
    shared one (brand, navigation, search box, self user)."""
    own = f"{environment.name}/layout.html"
    try:
        templates.get_template(own)
        return own
    except jinja2.TemplateNotFound:
        return "base.html"
