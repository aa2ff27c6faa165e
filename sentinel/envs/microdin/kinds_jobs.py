"""MicroDin's apply kinds: apply_kubernetes, apply_api_docs, apply_python_two, apply_react_two and
apply_cobol_noop. A skill is asked for; the target postings list it among their requirements
(shown on the job page only); look-alikes name it in their title or description, or share
requirement words with the targets. The skill is any term of SKILLS the catalog's jobs ask for."""

from __future__ import annotations

import random
import re
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.envs.microdin.kinds_kit import (
    FIRST_READ_S,
    PHONE,
    fill,
    free_times,
    preload,
    room,
    spaced,
    taxonomy,
    unit_event,
)
from sentinel.generation.kit import choose, nearest, sample, scenario, sql_text, target_time, timeline

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

SKILLS = ("Kubernetes", "API documentation", "Python", "React", "Terraform", "Docker", "TypeScript", "Java",
          "SQL", "Excel", "Looker", "Figma", "Salesforce", "Tableau", "Airflow", "Django", "PostgreSQL",
          "Storybook", "Playwright", "Swift", "Vue", "Spark", "Angular", "Elasticsearch", "gRPC", "dbt",
          "Prometheus", "Nomad", "Consul", "Braze", "German", "Spanish", "COBOL", "Fortran", "Rust", "Haskell")
LOOKALIKE = {"React": "React Native", "Java": "JavaScript"}  # what a skill's requirement must not be
TARGET_GAP_S = 12  # between two postings the oracle applies to in turn
JOBS_PAGE = "/microdin/jobs"


def job(catalog: Catalog, jid: str) -> dict[str, Any]:
    return catalog.raw("jobs")[jid]


def requirements(catalog: Catalog, jid: str) -> str:
    req = job(catalog, jid)["requirements"]
    return "\n".join(req) if isinstance(req, list) else str(req)


def asks(catalog: Catalog, jid: str, skill: str) -> bool:
    req = requirements(catalog, jid)
    if skill in LOOKALIKE:
        req = req.replace(LOOKALIKE[skill], "")
    return skill.lower() in req.lower()


def mentions(catalog: Catalog, jid: str, skill: str) -> bool:
    """The skill's name anywhere on the posting (title, description or a look-alike requirement)."""
    rec = job(catalog, jid)
    return skill.lower() in f"{rec['title']} {rec['description']} {requirements(catalog, jid)}".lower()


def req_sql(skill: str) -> str:
    column = f"replace(requirements, {sql_text(LOOKALIKE[skill])}, '')" if skill in LOOKALIKE else "requirements"
    return f"{column} LIKE {sql_text(f'%{skill}%')}"


def words(text: str) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", text.lower()) if len(w) > 2}


def arrivals(catalog: Catalog, load: dict[str, Any]) -> list[str]:
    return [j for j in catalog.raw("jobs") if j not in load["jobs"]]


def skill_jobs(catalog: Catalog, load: dict[str, Any], need: int) -> dict[str, list[str]]:
    """Skill → arriving postings that ask for it without naming it in their title (at least `need`)."""
    out = {}
    for skill in SKILLS:
        found = [j for j in arrivals(catalog, load) if asks(catalog, j, skill)
                 and skill.lower() not in job(catalog, j)["title"].lower()]
        if len(found) >= need:
            out[skill] = found
    return out


def apply_steps(catalog: Catalog, skill: str, n: int, jobs: list[str] | None = None) -> list[dict[str, Any]]:
    """Watch the board for a new posting whose requirements name the skill and apply, n times; with
    `jobs`, watch each target's own page instead (two targets may arrive seconds apart, faster than
    one open-and-apply round at high speeds)."""
    tail = f"(?! {LOOKALIKE[skill].split()[-1]})" if skill in LOOKALIKE else ""
    until = {"matches": f"(?si)Requirements(?:(?!About the company).)*{re.escape(skill)}{tail}"}
    watches = ([{"watch": f"{JOBS_PAGE}/{j}", "until": until} for j in jobs] if jobs else
               [{"watch": JOBS_PAGE, "open_new": "^/microdin/jobs/dj[0-9]+$", "until": until}] * n)
    return [s for w in watches for s in (w, {"submit": "/apply$", "fields": {"phone": PHONE}})]


def _setup(rng: random.Random, catalog: Catalog, knobs: Knobs, need: int, trailing: int,
           banned: Collection[str] = ()) -> dict[str, Any]:
    """The skill, its target postings (need by the target time, `trailing` after), the look-alikes."""
    load = preload(catalog)
    def clean(j: str) -> bool:  # asks for none of the banned skills
        return not any(asks(catalog, j, b) for b in banned)

    found = {s: [j for j in js if clean(j)] for s, js in skill_jobs(catalog, load, need + trailing).items()
             if s not in banned}
    skill = choose(rng, sorted(s for s, js in found.items() if len(js) >= need + trailing),
                   f"skill asked by {need + trailing} postings")
    targets = sample(rng, found[skill], need + trailing, "postings")
    others = [j for j in arrivals(catalog, load) if not asks(catalog, j, skill) and clean(j)]
    mine = words(" ".join(requirements(catalog, j) for j in targets))
    k = room(knobs, need, FIRST_READ_S, 3)
    decoys = nearest(rng, others, k, lambda j: 2.0 * mentions(catalog, j, skill)
                     + len(words(requirements(catalog, j)) & mine) / max(1, len(mine)), knobs.near_miss)
    at = target_time(rng, knobs, lo=FIRST_READ_S + 2 + (need - 1) * TARGET_GAP_S + len(decoys))
    first = spaced(rng, need - 1, FIRST_READ_S, at - TARGET_GAP_S + 1, TARGET_GAP_S)
    key = [unit_event(("new_job", j), t, f"target {i + 1} of {need}: asks for {skill} (detail page only) · "
                                         f"{job(catalog, j)['title']}")
           for i, (t, j) in enumerate(zip([*first, at], targets, strict=False))]
    if need == 1:
        key[0]["_note"] = f"target: asks for {skill} (detail page only) · {job(catalog, targets[0])['title']}"
    dtimes = free_times(rng, len(decoys), 1, at, [e["at"] for e in key])
    key += [unit_event(("new_job", j), t, f"decoy: {skill} {'named' if mentions(catalog, j, skill) else 'absent'}, "
                                          f"not asked in the requirements · {job(catalog, j)['title']}")
            for t, j in zip(dtimes, decoys, strict=False)]
    later = free_times(rng, trailing, at + 5, 700, [])
    key += [unit_event(("new_job", j), t, f"target {need + i + 1}: asks for {skill}, after the target time · "
                                          f"{job(catalog, j)['title']}")
            for i, (t, j) in enumerate(zip(later, targets[need:], strict=True))]
    return {"skill": skill, "targets": targets, "at": at, "key": key, "load": load, "decoys": decoys}


def _background(rng: random.Random, catalog: Catalog, knobs: Knobs, s: dict[str, Any], banned: set[str]
                ) -> list[dict[str, Any]]:
    """Background of every family; jobs only those that ask for none of the banned skills."""
    return fill(rng, catalog, knobs, s["key"], s["load"], lambda u, t: u[0] != "new_job" or not any(
        asks(catalog, u[1], b) for b in banned))


def only_applied(targets: list[str], at_least: int | None = None) -> str:
    listed = ", ".join(f"'{j}'" for j in targets)
    n = len(targets) if at_least is None else at_least
    op = "=" if at_least is None else ">="
    return (f"SELECT (SELECT COUNT(*) FROM jobs WHERE id IN ({listed}) AND applied = 1) {op} {n} "
            f"AND NOT EXISTS (SELECT 1 FROM jobs WHERE applied = 1 AND id NOT IN ({listed}))")


def draw_apply_kubernetes(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _setup(rng, catalog, knobs, 1, 0)
    skill, target, at = s["skill"], s["targets"][0], s["at"]
    until = min(at + int(knobs.hold_s), 712)
    key = s["key"] + [{"at": until, "type": "close_job", "job_id": target,
                       "_note": "the posting stops accepting applications (condition_until)"}]
    s["key"] = key
    key += _background(rng, catalog, knobs, s, {skill})
    title = job(catalog, target)["title"]
    return scenario(
        description=f"{len(s['decoys'])} look-alike postings come first; {title} ({target}, {at} s) lists {skill} "
                    f"among its requirements, shown on the job page only. It closes at {until} s. Applying anywhere "
                    "else fails.",
        prompt=f"I'm looking for a new role working with {skill}. Watch the MicroDin job board: when a new posting "
               f"appears whose requirements ask for {skill} experience, apply to it (only that one) through its Easy "
               f"Apply form, using my phone number {PHONE}, then tell me.",
        condition_at=at, condition_until=until, start_page=JOBS_PAGE,
        taxonomy=taxonomy("active", "absolute", "medium", f"{skill} in descriptions or titles, similar stacks, "
                                                          "posting closes"),
        events=timeline(s["load"], key),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM jobs WHERE origin = 'event' AND closed = 0 AND {req_sql(skill)})",
        eval_sql=only_applied([target]),
        solution=[*apply_steps(catalog, skill, 1), {"report": f"A {skill} role was posted; I applied to it."}])


def draw_apply_api_docs(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _setup(rng, catalog, knobs, 1, 0)
    skill, target, at = s["skill"], s["targets"][0], s["at"]
    key = s["key"] + _background(rng, catalog, knobs, s, {skill})
    return scenario(
        description=f"Look-alike postings name {skill} in a title or description, or share the stack; "
                    f"{job(catalog, target)['title']} ({target}) at {at} s asks for {skill} in its requirements. "
                    "Applying to any other fails.",
        prompt=f"I want a job that involves {skill}. Watch the MicroDin job board: when a new posting's requirements "
               f"ask for experience with {skill}, apply to it through Easy Apply with my phone number {PHONE} (and "
               "apply to nothing else), then tell me.",
        condition_at=at, start_page=JOBS_PAGE,
        taxonomy=taxonomy("active", "absolute", "medium", f"'{skill}' in a title or description"),
        events=timeline(s["load"], key),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM jobs WHERE origin = 'event' AND {req_sql(skill)})",
        eval_sql=only_applied([target]),
        solution=[*apply_steps(catalog, skill, 1), {"report": f"A role asking for {skill} was posted; I applied."}])


def draw_apply_python_two(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _setup(rng, catalog, knobs, 2, 0)
    skill, targets, at = s["skill"], s["targets"], s["at"]
    key = s["key"] + _background(rng, catalog, knobs, s, {skill})
    return scenario(
        description=f"Two postings ask for {skill} in their requirements ({', '.join(targets)}), the second at {at} s; "
                    f"look-alikes mention {skill} elsewhere or share the stack. Applying to a look-alike fails.",
        prompt=f"I'm after {skill}-heavy roles. Watch the MicroDin job board and apply, through Easy Apply with my "
               f"phone number {PHONE}, to each new posting whose requirements ask for {skill} (a mention in the "
               "description is not enough). When you have applied to two such roles, tell me.",
        condition_at=at, start_page=JOBS_PAGE,
        taxonomy=taxonomy("active", "relative", "hard", f"{skill} mentioned outside the requirements"),
        events=timeline(s["load"], key),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM jobs WHERE origin = 'event' AND {req_sql(skill)}) >= 2",
        eval_sql=only_applied(targets),
        solution=[*apply_steps(catalog, skill, 2, targets),
                  {"report": f"Two {skill} roles were posted; I applied to both."}])


def _react(rng: random.Random, catalog: Catalog, knobs: Knobs, banned: Collection[str] = ()) -> dict[str, Any]:
    return _setup(rng, catalog, knobs, 2, 1, banned)


def draw_apply_react_two(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _react(rng, catalog, knobs)
    skill, targets, at = s["skill"], s["targets"], s["at"]
    key = s["key"] + _background(rng, catalog, knobs, s, {skill})
    return scenario(
        description=f"Three postings ask for {skill} ({', '.join(targets)}); the second arrives at {at} s, the third "
                    f"after it. Look-alikes name {skill} outside the requirements. Applying to a look-alike fails.",
        prompt=f"I want a {skill} job. Watch the MicroDin job board and apply, through Easy Apply with my phone number "
               f"{PHONE}, to new postings whose requirements ask for {skill}"
               f"{f' ({LOOKALIKE[skill]} alone does not count)' if skill in LOOKALIKE else ''}. Once you have applied "
               "to two of them, tell me; don't apply to anything else.",
        condition_at=at, start_page=JOBS_PAGE,
        taxonomy=taxonomy("active", "relative", "hard", f"{skill} outside the requirements, look-alike stacks"),
        events=timeline(s["load"], key),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM jobs WHERE origin = 'event' AND {req_sql(skill)}) >= 2",
        eval_sql=only_applied(targets, 2),
        solution=[*apply_steps(catalog, skill, 2, targets[:2]),
                  {"report": f"Two {skill} roles were posted; I applied to both."}])


def draw_apply_cobol_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """A skill no posting on the timeline asks for; one names it in its title or description."""
    load = preload(catalog)
    named = {sk: [j for j in arrivals(catalog, load) if mentions(catalog, j, sk) and not asks(catalog, j, sk)]
             for sk in SKILLS}
    asked = choose(rng, sorted(sk for sk, js in named.items() if js), "skill named outside requirements")
    s = _react(rng, catalog, knobs, {asked})
    if any(asks(catalog, j, asked) for j in s["targets"] + s["decoys"]):
        raise NoDraw(f"a drawn posting asks for {asked}")
    near = choose(rng, [j for j in named[asked] if j not in s["targets"] + s["decoys"]], "near-miss posting")
    t = choose(rng, free_times(rng, 40, 20, 700, [e["at"] for e in s["key"]]), "time")
    s["key"].append(unit_event(("new_job", near), t, f"near miss: {asked} in the title or description, not in the "
                                                     f"requirements · {job(catalog, near)['title']}"))
    key = s["key"] + _background(rng, catalog, knobs, s, {asked, s["skill"]})
    like = sql_text(f"%{asked}%")
    return scenario(
        description=f"Copy of apply_react_two asking for {asked}. No posting's requirements ask for it; "
                    f"{job(catalog, near)['title']} ({t} s) names it outside them. The {s['skill']} roles still "
                    "arrive. Refrain check: no new posting gets an application.",
        prompt=f"I'm looking for {asked} work. Watch the MicroDin job board and apply, through Easy Apply with my "
               f"phone number {PHONE}, to new postings whose requirements ask for {asked}. Once you have applied to "
               "two of them, tell me; don't apply to anything else.",
        condition_at=None, start_page=JOBS_PAGE,
        taxonomy=taxonomy("noop", "relative", "hard", f"{asked} in a title or description, not in the requirements"),
        events=timeline(s["load"], key),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM jobs WHERE origin = 'event' AND {req_sql(asked)})",
        near_miss_sql=f"SELECT EXISTS (SELECT 1 FROM jobs WHERE origin = 'event' AND (title LIKE {like} OR "
                      f"description LIKE {like}))",
        eval_sql="SELECT NOT EXISTS (SELECT 1 FROM jobs WHERE origin = 'event' AND applied = 1)",
        solution=[*apply_steps(catalog, asked, 2), {"report": f"Two {asked} roles were posted; I applied to both."}])


JOB_KINDS: tuple[Kind, ...] = (
    Kind("apply_api_docs", "active", "absolute", draw_apply_api_docs, Knobs(decoys=3),
         "decoys: postings before the target (near_miss: naming the skill outside the requirements, then sharing "
         "requirement words)"),
    Kind("apply_kubernetes", "active", "absolute", draw_apply_kubernetes, Knobs(decoys=3),
         "as apply_api_docs; hold_s: until the posting closes"),
    Kind("apply_python_two", "active", "relative", draw_apply_python_two, Knobs(decoys=2),
         "as apply_api_docs, two target postings"),
    Kind("apply_react_two", "active", "relative", draw_apply_react_two, Knobs(decoys=2),
         "as apply_api_docs, three target postings (the third after the target time)"),
    Kind("apply_cobol_noop", "noop", "relative", draw_apply_cobol_noop, Knobs(decoys=2),
         "as apply_react_two; the asked skill is named only outside a posting's requirements (the near miss)"),
)
