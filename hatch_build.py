"""Build hook (pyproject.toml [tool.hatch.build.targets.wheel.hooks.custom]): the defaults file
sentinel.toml goes into a built wheel as sentinel/_data/sentinel.toml, beside the data folders
that `sources` maps there. A file cannot be mapped with `sources`, and a force-include in
pyproject.toml would also copy it into site-packages on an editable install, where the
checkout's own sentinel.toml is the one read (sentinel/core/paths.py)."""

from __future__ import annotations

from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "standard":
            build_data["force_include"]["sentinel.toml"] = "sentinel/_data/sentinel.toml"
