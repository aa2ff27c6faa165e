"""Write MicroScholar's catalogs (papers.jsonl, alerts.jsonl).

    python catalogs/microscholar/generate.py

Deterministic (seeded), standard library only; the text is authored in scholar_text.py. Authors
are shared personas with a `scholar` block (linked to their profiles) or outsiders named inline.

Pools: ordinary indexed papers built from topic banks (the preloaded index and background
arrivals), then the specials the scenarios hinge on (targets, decoys, near misses, trailing
papers), then the alerts. Ids are append-only: a record keeps the id it has in the committed file
(matched by its `_key`), a new record takes the next free id, and the very first build shuffled
the ids with the seed so that they never hint at a role.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import scholar_text as text  # noqa: E402

SEED = 20260309
SNIPPET = 160  # characters of abstract shown in result lists
FILLERS = 104  # ordinary indexed papers
HIDDEN = {"dt_": "downstream tasks", "ue_": "unstructured environments"}
FORBIDDEN_IN_FILLERS = ("downstream tasks", "unstructured environment", "servoing", "in clutter", "jackson")


def load_personas() -> dict[str, dict]:
    path = ROOT / "catalogs" / "shared" / "personas.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {p["id"]: p for p in rows}


def author(ref: str, personas: dict[str, dict]) -> dict:
    if ref in personas:
        return {"name": personas[ref]["name"], "persona_id": ref}
    return {"name": ref, "persona_id": None}


def filler_papers(rng: random.Random, personas: dict[str, dict]) -> list[dict]:
    scholars = [p for p in personas.values() if "scholar" in p and p["id"] not in ("p000", "p013", "p038")]
    out, titles = [], set()
    topics = sorted(text.TOPICS)
    while len(out) < FILLERS:
        key = topics[len(out) % len(topics)]
        topic = text.TOPICS[key]
        m, o = rng.choice(topic["methods"]), rng.choice(topic["objects"])
        title = rng.choice(topic["titles"]).format(m=m, o=o)
        if title in titles:
            continue
        titles.add(title)
        experts = [p for p in scholars if set(p["scholar"]["interests"]) & set(topic["interests"])]
        names = [f"{rng.choice(text.OUTSIDE_FIRST)} {rng.choice(text.OUTSIDE_LAST)}" for _ in range(rng.randint(1, 3))]
        authors = ([rng.choice(experts)["id"]] if experts and rng.random() < 0.7 else []) + names
        rng.shuffle(authors)
        abstract = " ".join(s.format(m=m.lower(), o=o.lower()) for s in topic["abstract"])
        out.append({"_key": f"f{len(out):03d}", "title": title, "authors": [author(a, personas) for a in authors],
                    "venue": rng.choice(text.VENUES), "year": rng.randint(2015, 2024), "abstract": abstract,
                    "cited_by": int(rng.paretovariate(1.2) * 8) - 8 + rng.randint(0, 6),
                    "versions": rng.randint(1, 7), "is_book": rng.random() < 0.04,
                    "age_minutes": rng.randint(600, 400000), "_role": "filler", "_topic": key})
    return out


def special_papers(personas: dict[str, dict]) -> list[dict]:
    out = []
    for key, title, authors, venue, year, abstract, cited, versions, age, role, note in text.SPECIALS:
        out.append({"_key": key, "title": title, "authors": [author(a, personas) for a in authors], "venue": venue,
                    "year": year, "abstract": abstract, "cited_by": cited, "versions": versions, "is_book": False,
                    "age_minutes": age, "_role": role, "_note": note})
    return out


def alerts(paper_ids: dict[str, str]) -> list[dict]:
    out = []
    for key, kind, title, description, paper, read, age, role, note in text.ALERTS:
        record = {"_key": key, "kind": kind, "title": title, "description": description,
                  "paper_id": paper_ids[paper] if paper else None, "read": read, "age_minutes": age, "_role": role}
        if note:
            record["_note"] = note
        out.append(record)
    return out


def assign_ids(records: list[dict], path: Path, prefix: str, width: int, rng: random.Random) -> list[dict]:
    """Keep committed ids (by _key); the first build shuffles, later additions take the next ids."""
    old = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                old[row["_key"]] = row["id"]
    fresh = [r for r in records if r["_key"] not in old]
    if not old:
        rng.shuffle(fresh)
    used = [int(i[len(prefix):]) for i in old.values()]
    next_n = max(used, default=0) + 1
    for record in fresh:
        old[record["_key"]] = f"{prefix}{next_n:0{width}d}"
        next_n += 1
    out = [{"id": old[r["_key"]], **r} for r in records]
    return sorted(out, key=lambda r: r["id"])


def check(papers: list[dict]) -> None:
    for paper in papers:
        low = paper["abstract"].lower()
        if paper["_role"] == "filler" and paper["_key"].startswith("f"):
            bad = [w for w in FORBIDDEN_IN_FILLERS if w in low or w in paper["title"].lower()]
            assert not bad, f"{paper['title']} carries a key phrase {bad}"
        for prefix, phrase in HIDDEN.items():
            if paper["_key"].startswith(prefix) and phrase in low:
                assert low.index(phrase) >= SNIPPET, f"{paper['_key']}: '{phrase}' shows in the snippet"


def write(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def main() -> None:
    rng = random.Random(SEED)
    personas = load_personas()
    papers = filler_papers(rng, personas) + special_papers(personas)
    check(papers)
    papers = assign_ids(papers, HERE / "papers.jsonl", "sp", 4, rng)
    ids = {p["_key"]: p["id"] for p in papers}
    write(HERE / "papers.jsonl", papers)
    write(HERE / "alerts.jsonl", assign_ids(alerts(ids), HERE / "alerts.jsonl", "al", 3, rng))
    print(f"{len(papers)} papers, {len(text.ALERTS)} alerts")


if __name__ == "__main__":
    main()
