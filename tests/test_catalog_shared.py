"""The shared catalogs (personas, entities) are well formed and reproducible by their generator."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1] / "catalogs" / "shared"
GENERATOR = SHARED / "generate.py"
FILES = ("personas.jsonl", "entities.jsonl")


def load(name: str) -> list[dict]:
    lines = (SHARED / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="module")
def personas() -> list[dict]:
    return load("personas.jsonl")


@pytest.fixture(scope="module")
def entities() -> list[dict]:
    return load("entities.jsonl")


def test_hundred_personas_with_expected_ids(personas):
    assert len(personas) == 100
    assert [p["id"] for p in personas] == [f"p{i:03d}" for i in range(100)]


@pytest.mark.parametrize("key", ["id", "username", "email"])
def test_persona_keys_unique(personas, key):
    values = [p[key] for p in personas]
    assert len(set(values)) == len(values)


def test_persona_names_unique(personas):
    names = [p["name"] for p in personas]
    assert len(set(names)) == len(names)


def test_persona_fields(personas):
    required = ["id", "name", "username", "email", "title", "company", "location", "bio",
                "avatar_color", "is_self"]
    for p in personas:
        assert list(p)[: len(required)] == required, p["id"]
        assert re.fullmatch(r"#[0-9a-f]{6}", p["avatar_color"]), p["id"]
        assert p["email"].endswith(".example"), p["id"]


def test_exactly_one_self_and_it_is_p000(personas):
    selves = [p for p in personas if p["is_self"] is True]
    assert [p["id"] for p in selves] == ["p000"]
    assert all(p["is_self"] is False for p in personas if p["id"] != "p000")
    me = selves[0]
    assert me["name"] == "Alex Morgan"
    assert me["username"] == "alex.morgan"
    assert me["email"] == "alex.morgan@northwind.example"
    assert me["title"] == "Product Manager"
    assert me["company"] == "Northwind Labs"


def test_din_company_ids_refer_to_companies(personas, entities):
    companies = {e["id"] for e in entities if e["kind"] == "company"}
    din = [p for p in personas if "din" in p]
    assert din
    for p in din:
        assert p["din"]["company_id"] in companies, p["id"]


def test_entity_ids_unique(entities):
    ids = [e["id"] for e in entities]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"e\d{3}", i) for i in ids)
    assert {e["kind"] for e in entities} <= {"company", "channel", "band", "issuer"}


def test_issuer_symbols_unique(entities):
    symbols = [e["symbol"] for e in entities if e["kind"] == "issuer"]
    assert len(set(symbols)) == len(symbols)
    assert all(re.fullmatch(r"[A-Z]{3,4}", s) for s in symbols)
    by_symbol = {e["symbol"]: e for e in entities if e["kind"] == "issuer"}
    for symbol in ("HALO", "NEOX", "VLTA", "DRNX", "CHPX", "AGRX", "LTHM"):
        assert symbol in by_symbol


def test_generator_reproduces_committed_files(tmp_path):
    subprocess.run([sys.executable, str(GENERATOR), str(tmp_path)], check=True,
                   capture_output=True)
    for name in FILES:
        assert (tmp_path / name).read_bytes() == (SHARED / name).read_bytes(), name
