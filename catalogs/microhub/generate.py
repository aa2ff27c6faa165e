"""Writes the MicroHub catalogs for the one repository brightline/atlas-web (TypeScript).

Deterministic: `python catalogs/microhub/generate.py` rewrites every file byte for byte the same.
Standard library only; every person is a shared persona with a `hub` block, everything else is
invented here. Ids are opaque and append-only: new records go at the end of their list.

Scenario roles (authoring fields `_role` / `_note`, never loaded):
- Issue bodies carry the hidden facts (compliance, steps to reproduce, unresponsive, TOTP); the
  issue list never shows a body. Decoys put the word only in the title, or say something close
  ("2FA via SMS", "could not reproduce", "not responsive on small screens").
- No issue body anywhere mentions telemetry (the no-op asks for it); one title does.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from texts import COMMITS, FILES, ISSUES, PULLS, REPLIES

HERE = Path(__file__).resolve().parent
SEED = 7_2026
PERSONAS = HERE.parent / "shared" / "personas.jsonl"


def hub_people() -> list[str]:
    ids = []
    for line in PERSONAS.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if "hub" in record and not record.get("is_self"):
            ids.append(record["id"])
    return ids


def sha(seed: str) -> str:
    return hashlib.sha1(seed.encode()).hexdigest()


def repo() -> list[dict]:
    return [{
        "id": "repo", "owner": "brightline", "name": "atlas-web",
        "description": "Atlas web client: maps, routing and offline tiles for the Atlas platform.",
        "topics": ["typescript", "maps", "react", "offline-first", "pwa"], "license": "Apache-2.0",
        "visibility": "public", "default_branch": "main", "branches": 14, "tags": 4,
        "homepage": "https://atlas.brightline.example",
        "languages": [["TypeScript", 78.4], ["CSS", 12.1], ["JavaScript", 6.3], ["HTML", 3.2]],
        "traffic": {"views": 4812, "unique_visitors": 1290, "clones": 377, "unique_cloners": 141,
                    "referrers": [["github.example", 1802], ["news.ycombinator.example", 611],
                                  ["dev.to.example", 244], ["google.example", 198]]},
        "deployments": [["production", "success", "2 h ago"], ["staging", "success", "35 min ago"],
                        ["preview-pr-412", "failure", "yesterday"]],
        "packages": [["@brightline/atlas-tiles", "2.3.0"], ["@brightline/atlas-ui", "0.9.4"]],
        "initial_stars": 1843, "initial_forks": 212, "initial_watchers": 57,
    }]


def files() -> list[dict]:
    out = []
    for n, (path, kind, content) in enumerate(FILES, 1):
        parent = path.rsplit("/", 1)[0] if "/" in path else ""
        ext = path.rsplit(".", 1)[-1] if "." in path else ""
        language = {"ts": "TypeScript", "tsx": "TypeScript", "css": "CSS", "md": "Markdown", "json": "JSON",
                    "yml": "YAML", "js": "JavaScript", "html": "HTML"}.get(ext, "Text")
        out.append({"id": f"f{n:03d}", "path": path, "parent_path": parent, "kind": kind,
                    "size": len(content.encode()) if kind == "file" else 0,
                    "language": language if kind == "file" else "", "content": content})
    return out


def commits(rng: random.Random, people: list[str]) -> list[dict]:
    out = []
    paths = [p for p, kind, _ in FILES if kind == "file"]
    for n, message in enumerate(COMMITS, 1):
        changed = rng.sample(paths, rng.randint(1, 3))
        out.append({"id": f"c{n:03d}", "sha": sha(f"atlas-{n}-{message}"), "message": message,
                    "author_id": rng.choice(people), "additions": rng.randint(2, 240),
                    "deletions": rng.randint(0, 120), "files_changed": changed,
                    "age_minutes": 60 * 24 * 40 - n * (60 * 24 * 40 // (len(COMMITS) + 1))})
    return out


def issues(rng: random.Random, people: list[str]) -> list[dict]:
    out = []
    for n, item in enumerate(ISSUES, 1):
        record = {"id": f"iss{n:03d}", "title": item["title"], "body": item["body"],
                  "author_id": item.get("author", rng.choice(people)), "labels": item.get("labels", []),
                  "state": item.get("state", "open"), "milestone": item.get("milestone"),
                  "age_minutes": item.get("age", rng.randint(90, 60 * 24 * 30))}
        for key in ("_role", "_note"):
            if key in item:
                record[key] = item[key]
        out.append(record)
    return out


def pull_requests(rng: random.Random, people: list[str]) -> list[dict]:
    out = []
    for n, item in enumerate(PULLS, 1):
        out.append({"id": f"pr{n:03d}", "title": item["title"], "body": item["body"],
                    "author_id": rng.choice(people), "state": item.get("state", "open"),
                    "source_branch": item["branch"], "target_branch": "main",
                    "checks_status": item.get("checks", "success"),
                    "reviewers": rng.sample(people, 2), "labels": item.get("labels", []),
                    "age_minutes": item.get("age", rng.randint(120, 60 * 24 * 12)),
                    **({"_arrival": True} if item.get("arrival") else {})})
    return out


def comments(rng: random.Random, people: list[str], issue_rows: list[dict], pr_rows: list[dict]) -> list[dict]:
    """Comments on preloaded-looking items (those not kept for arrivals), 0–4 each."""
    out = []
    targets = [("issue", r) for r in issue_rows if r.get("_role") not in ("arrival",)]
    targets += [("pr", r) for r in pr_rows if not r.get("_arrival")]
    for kind, row in targets:
        for k in range(rng.choice([0, 0, 1, 1, 2, 3, 4])):
            out.append({"id": f"cm{len(out) + 1:03d}", "target_kind": kind, "target_id": row["id"],
                        "author_id": rng.choice(people), "body": rng.choice(REPLIES),
                        "age_minutes": max(1, row["age_minutes"] - 20 * (k + 1) - rng.randint(0, 15))})
    return out


def side() -> dict[str, list[dict]]:
    labels = [("bug", "d73a4a"), ("enhancement", "a2eeef"), ("documentation", "0075ca"), ("security", "b60205"),
              ("performance", "fbca04"), ("accessibility", "7057ff"), ("offline", "0e8a16"),
              ("good first issue", "7057ff"), ("needs triage", "ededed"), ("question", "d876e3"),
              ("dependencies", "0366d6"), ("ui", "c5def5"), ("maps", "bfd4f2"), ("auth", "5319e7")]
    workflows = [("wf1", "CI", ".github/workflows/ci.yml"), ("wf2", "Deploy", ".github/workflows/deploy.yml"),
                 ("wf3", "CodeQL", ".github/workflows/codeql.yml"), ("wf4", "Release", ".github/workflows/release.yml")]
    runs = []
    outcomes = ["success", "success", "failure", "success", "cancelled", "success"]
    branches = ["main", "fix/tile-cache", "feat/route-export", "main", "deps/vite-5", "main"]
    for n in range(1, 13):
        wf = workflows[(n - 1) % 4][0]
        runs.append({"id": f"run{n:03d}", "workflow_id": wf, "run_number": 300 + n,
                     "status": "completed", "conclusion": outcomes[n % 6], "branch": branches[n % 6],
                     "actor": ["p007", "p035", "p040", "p042"][n % 4], "duration_s": 40 + (n * 97) % 600,
                     "title": COMMITS[-n], "age_minutes": n * 170})
    releases = [("rel1", "v2.4.0", "Atlas 2.4: offline regions", "Offline regions you can pin, faster tile decoding,"
                 " and a new route export dialog.", True, False, 60 * 24 * 3),
                ("rel2", "v2.5.0-rc.1", "2.5 release candidate 1", "Vector tiles by default; please report"
                 " rendering differences.", False, True, 60 * 20),
                ("rel3", "v2.3.2", "Atlas 2.3.2", "Fixes a crash when the service worker updates mid-session.",
                 False, False, 60 * 24 * 21),
                ("rel4", "v2.3.0", "Atlas 2.3", "Dark map style, keyboard navigation for the layer panel.",
                 False, False, 60 * 24 * 44)]
    wiki = [("w1", "home", "Home", "Welcome to the Atlas web wiki. Start with Getting started, then read the"
             " Architecture page before your first pull request."),
            ("w2", "getting-started", "Getting started", "Install Node 20, run npm ci, then npm run dev. The"
             " dev server proxies tile requests to the staging tile server."),
            ("w3", "architecture", "Architecture", "The app is a React shell around a map engine. Tiles flow"
             " from the service worker cache to a decoding worker, then to the WebGL layer."),
            ("w4", "release-process", "Release process", "Release candidates are cut from main every"
             " second Tuesday. A release needs two approvals and a green CI run."),
            ("w5", "offline-mode", "Offline mode", "Pinned regions are stored in IndexedDB; each region"
             " keeps tiles for zoom levels 8 to 15."),
            ("w6", "troubleshooting", "Troubleshooting", "If tiles stay blank, clear site data and reload;"
             " check that the service worker is active in the browser's application panel.")]
    advisories = [("adv1", "high", "vite", "Dev server file disclosure via crafted path", "open"),
                  ("adv2", "moderate", "semver", "Regular expression denial of service", "fixed"),
                  ("adv3", "low", "postcss", "Line return parsing error", "dismissed"),
                  ("adv4", "moderate", "undici", "Proxy-Authorization header kept on redirect", "open"),
                  ("adv5", "low", "nanoid", "Predictable results with non-integer sizes", "fixed")]
    alerts = [("sa1", "js/xss-through-dom", "high", "src/ui/SearchBox.tsx", 42, "open"),
              ("sa2", "js/incomplete-sanitization", "medium", "src/routing/export.ts", 18, "open"),
              ("sa3", "js/unused-local-variable", "note", "src/map/layers.ts", 77, "fixed"),
              ("sa4", "js/insecure-randomness", "medium", "src/offline/regions.ts", 9, "dismissed"),
              ("sa5", "js/prototype-pollution", "high", "src/util/merge.ts", 12, "open")]
    projects = [("prj1", "Roadmap 2.5"), ("prj2", "Accessibility audit"), ("prj3", "Bug triage")]
    cards = [("prj1", "Todo", "Vector tiles by default"), ("prj1", "In progress", "Route export to GPX"),
             ("prj1", "In progress", "Offline region size estimate"), ("prj1", "Done", "Dark map style"),
             ("prj2", "Todo", "Focus order in layer panel"), ("prj2", "Todo", "Contrast of map labels"),
             ("prj2", "Done", "Screen reader names for zoom buttons"),
             ("prj3", "Needs triage", "Blank tiles on Safari 16"),
             ("prj3", "Needs triage", "Search suggestions flicker"),
             ("prj3", "Confirmed", "Memory grows with long sessions")]
    return {
        "labels": [{"id": f"lb{n:02d}", "name": name, "color": color} for n, (name, color) in enumerate(labels, 1)],
        "workflows": [{"id": i, "name": name, "path": path, "state": "active"} for i, name, path in workflows],
        "workflow_runs": runs,
        "releases": [{"id": i, "tag": t, "name": name, "body": body, "is_latest": latest, "is_prerelease": pre,
                      "age_minutes": age, "assets": [f"atlas-web-{t}.tar.gz", f"atlas-web-{t}.zip"]}
                     for i, t, name, body, latest, pre, age in releases],
        "wiki_pages": [{"id": i, "slug": s, "title": t, "body": b} for i, s, t, b in wiki],
        "advisories": [{"id": i, "severity": s, "package": p, "title": t, "state": st}
                       for i, s, p, t, st in advisories],
        "scanning_alerts": [{"id": i, "rule": r, "severity": s, "file": f, "line": ln, "state": st}
                            for i, r, s, f, ln, st in alerts],
        "projects": [{"id": i, "name": name} for i, name in projects],
        "project_cards": [{"id": f"card{n:02d}", "project_id": p, "column_name": col, "title": t}
                          for n, (p, col, t) in enumerate(cards, 1)],
    }


def check(collections: dict[str, list[dict]]) -> None:
    """The catalog rules the scenarios rely on (see the module docstring)."""
    for issue in collections["issues"]:
        assert "telemetry" not in issue["body"].lower(), issue["id"]
    ids = [r["id"] for rows in collections.values() for r in rows]
    assert len(ids) == len(set(ids)), "duplicate id"


def write(name: str, rows: list[dict]) -> None:
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    (HERE / f"{name}.jsonl").write_text(text, encoding="utf-8")


def main() -> None:
    rng = random.Random(SEED)
    people = hub_people()
    collections = {"repo": repo(), "files": files(), "commits": commits(rng, people)}
    collections["issues"] = issues(rng, people)
    collections["pull_requests"] = pull_requests(rng, people)
    collections["comments"] = comments(rng, people, collections["issues"], collections["pull_requests"])
    collections.update(side())
    check(collections)
    for name, rows in collections.items():
        write(name, rows)


if __name__ == "__main__":
    main()
