"""Catalogs: immutable synthetic records stored as JSONL under catalogs/<env>/<collection>.jsonl.

Fields starting with `_` are authoring notes (`_role`, `_note`); they are kept in `raw` for the
validator but never reach tables or pages.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from sentinel.core.errors import SentinelError


class HasCatalog(Protocol):
    """What Catalog.of needs of an environment (sentinel.core.environment.Environment has it)."""

    @property
    def name(self) -> str: ...

    @property
    def catalog_dir(self) -> Path | None: ...

SHARED = "shared"


@dataclass
class Catalog:
    """The collections of one environment, plus the shared personas and entities."""

    root: Path
    env: str
    own: Path | None = None  # the environment's own folder when not root/<env>
    _cache: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)

    @classmethod
    def of(cls, environment: HasCatalog, root: Path) -> Catalog:
        """The catalog an environment reads: its own folder (catalogs/<name>/ unless it
        declares another) with the shared personas and entities of root/shared."""
        return cls(root, environment.name, environment.catalog_dir)

    def raw(self, collection: str) -> dict[str, dict[str, Any]]:
        """id → record, authoring fields included, in file order."""
        if collection not in self._cache:
            self._cache[collection] = _read_jsonl(self._path(collection))
        return self._cache[collection]

    def records(self, collection: str) -> dict[str, dict[str, Any]]:
        """id → record without authoring fields."""
        return {rid: public(rec) for rid, rec in self.raw(collection).items()}

    def get(self, collection: str, rid: str) -> dict[str, Any]:
        return public(self.raw(collection)[rid])

    def has(self, collection: str, rid: str) -> bool:
        return rid in self.raw(collection)

    def personas(self) -> dict[str, dict[str, Any]]:
        return self.records("personas")

    def self_persona(self) -> dict[str, Any]:
        for persona in self.personas().values():
            if persona.get("is_self"):
                return persona
        raise SentinelError(f"{self._path('personas')}: no persona has is_self: true")

    def _path(self, collection: str) -> Path:
        own = (self.own or self.root / self.env) / f"{collection}.jsonl"
        if own.exists():
            return own
        return self.root / SHARED / f"{collection}.jsonl"


def public(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if not k.startswith("_")}


def _read_jsonl(path: Path) -> dict[str, dict[str, Any]]:
    if not path.exists():
        raise SentinelError(f"{path}: catalog file not found")
    records: dict[str, dict[str, Any]] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SentinelError(f"{path}:{lineno}: not valid JSON: {exc.msg}") from None
        key = record.get("id") if isinstance(record, dict) else None
        if key is None:
            raise SentinelError(f"{path}:{lineno}: record has no id")
        if key in records:
            raise SentinelError(f"{path}:{lineno}: duplicate id {key!r}")
        records[str(key)] = record
    return records
