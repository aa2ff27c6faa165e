"""MicroHub's star kinds (stars_target, stars_gain, stars_unreachable_noop) and the helpers every
MicroHub kind shares: the standard preload, the catalog views and the background fill (new
issues, pull requests and, where a kind allows, star movement).

A star kind draws its whole star path: waypoints in the preload that climb and stall just
short of the limit (the near_miss knob sets how short), then star_waypoint events that reach
the limit exactly at the target time and carry on. checks.py verifies the crossing.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs
from sentinel.generation.kit import (
    background_times,
    choose,
    event,
    ids_where,
    scenario,
    target_time,
    taxonomy,  # noqa: F401  (kinds of this environment use it from here)
    timeline,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from sentinel.core.catalog import Catalog

HOME = "/microhub/"
ISSUES = "/microhub/issues"
PRELOAD_ISSUES = tuple(f"iss{n:03d}" for n in range(1, 21))
PRELOAD_PRS = tuple(f"pr{n:03d}" for n in range(1, 9))
STAR_PATH = ((60, 1850), (300, 1872), (700, 1901))  # the authored issue tasks' slow climb
STARS = "★ ([\\d,]+) stars"


def preload(issues: Iterable[str] = PRELOAD_ISSUES, stars: Iterable[tuple[float, float]] = STAR_PATH,
            initial: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"issues": list(dict.fromkeys(issues)), "pull_requests": list(PRELOAD_PRS)}
    if initial is not None:
        out["initial_stars"] = initial
    out["star_waypoints"] = [[t, v] for t, v in stars]
    return out


def issue_arrivals(catalog: Catalog, where: Callable[[dict[str, Any]], bool] = lambda r: True,
                   exclude: Iterable[str] = ()) -> list[str]:
    return ids_where(catalog, "issues", where, exclude=[*PRELOAD_ISSUES, *exclude])


def issue(catalog: Catalog, iid: str) -> dict[str, Any]:
    return catalog.raw("issues")[iid]


when = target_time  # the target time: see generate_kit.target_time


def fill(rng: random.Random, catalog: Catalog, knobs: Knobs, taken: list[float], used: set[str], *,
         issue_ok: Callable[[str], bool] = lambda iid: True, issues: bool = True, stars: bool = False,
         start: float = 1, stop: float = 715, times: list[int] | None = None,
         note: str | None = None) -> list[dict[str, Any]]:
    """Background at the density knob (or at the given times): new issues that cannot decide the
    task, new pull requests and, with stars=True, small star climbs."""
    slots = times if times is not None else background_times(rng, knobs.density, taken, start, stop)
    pool_i = [i for i in issue_arrivals(catalog, exclude=used) if issue_ok(i)] if issues else []
    pool_p = ids_where(catalog, "pull_requests", lambda r: True, exclude=[*PRELOAD_PRS, *used])
    rng.shuffle(pool_i)
    rng.shuffle(pool_p)
    out = []
    for t in slots:
        kinds = [k for k, ok in (("i", pool_i), ("i", pool_i), ("p", pool_p), ("s", stars)) if ok]
        if not kinds:
            break
        kind = choose(rng, kinds)
        if kind == "i":
            iid = pool_i.pop()
            used.add(iid)
            out.append(event(t, "new_issue", note and f"{note} · {issue(catalog, iid)['title']}", issue_id=iid))
        elif kind == "p":
            pid = pool_p.pop()
            used.add(pid)
            out.append(event(t, "new_pull_request", note and f"{note}: a pull request", pr_id=pid))
        else:
            out.append(event(t, "star_waypoint", note and f"{note}: the stars climb", delta=rng.randint(5, 40),
                             ramp_s=rng.randint(10, 30)))
    return out


# --- stars_target and its no-op ----------------------------------------------------------------

def _star_setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """A climb from the start value that stalls just short of a round limit, reaches it at the
    target time and carries on."""
    start = rng.randint(1200, 4600)
    step = 500 if start < 3000 else 1000
    limit = (start + 100) // step * step + step
    at = when(rng, knobs, lo=60)
    ramp = rng.randint(10, min(40, at - 40))
    short = max(1, round(2 + (1 - knobs.near_miss) * 40))  # near_miss 1: the stall is 2 stars short
    t1, t2, t3 = sorted(rng.sample(range(12, at - ramp - 1), 3))
    v1 = start + (limit - short - start) * rng.randint(40, 80) // 100
    points = [(t1, v1), (t2, limit - short - 1), (t3, limit - short)]
    top = limit + rng.randint(40, 160)
    events = [event(at - ramp, "star_waypoint", f"the stars climb from {limit - short:,} to {limit:,}, reached at "
                                                f"{at} s (the target)", stars=limit, ramp_s=ramp),
              event(at, "star_waypoint", f"on past {limit:,} to {top:,}", stars=top, ramp_s=max(5, 700 - at))]
    events += fill(rng, catalog, knobs, [e["at"] for e in events] + [t1, t2, t3], set())
    return {"start": start, "limit": limit, "at": at, "short": short, "points": points, "events": events}


def draw_stars_target(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _star_setup(rng, catalog, knobs)
    limit, at = s["limit"], s["at"]
    sql = f"SELECT stars >= {limit} FROM repo_stats"
    return scenario(
        description=f"From {s['start']:,} stars the count climbs and stalls {s['short']} short of {limit:,} "
                    f"(near misses); it reaches {limit:,} at {at} s and goes on.",
        prompt=f"Tell me when brightline/atlas-web on MicroHub reaches {limit:,} stars.",
        condition_at=at, start_page=HOME,
        taxonomy=taxonomy("passive", "absolute", "easy", "a stall just short of the target"),
        events=timeline(preload(stars=s["points"], initial=s["start"]), s["events"]), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": HOME, "until": {"number": STARS, "at_least": limit}},
                  {"report": f"The repository has reached {limit:,} stars."}])


def draw_stars_unreachable_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _star_setup(rng, catalog, knobs)
    limit = s["limit"]
    asked = limit * choose(rng, (10, 20, 50))
    events = [{**e, "_note": e["_note"].replace("(the target)", "(the source task's target: the near miss)")}
              if e.get("_note") else e for e in s["events"]]
    return scenario(
        description=f"No-op copy of stars_target: the count reaches {limit:,} at {s['at']} s (the source task's "
                    f"target, the near miss) and tops out far below the {asked:,} asked for.",
        prompt=f"Tell me when brightline/atlas-web on MicroHub reaches {asked:,} stars.",
        condition_at=None, start_page=HOME,
        taxonomy=taxonomy("noop", "absolute", "easy", f"the source task's {limit:,} stars are reached"),
        events=timeline(preload(stars=s["points"], initial=s["start"]), events),
        condition_sql=f"SELECT stars >= {asked} FROM repo_stats",
        near_miss_sql=f"SELECT stars >= {limit} FROM repo_stats",
        solution=[{"watch": HOME, "until": {"number": STARS, "at_least": asked}},
                  {"report": f"The repository has reached {asked:,} stars."}])


# --- stars_gain -------------------------------------------------------------------------------

def draw_stars_gain(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Flat past the agent's first read, then a climb that gains exactly `gain` at the target time."""
    start = rng.randint(1200, 4600)
    gain = choose(rng, (100, 150, 200, 250, 300))
    at = when(rng, knobs, lo=50)
    flat = rng.randint(12, min(25, at - 30))
    short = max(1, round(2 + (1 - knobs.near_miss) * 30))
    t1, t2 = sorted(rng.sample(range(flat + 5, at - 2), 2))
    points = [(flat, start), (t1, start + gain * rng.randint(30, 70) // 100), (t2, start + gain - short),
              (at, start + gain)]
    top = start + gain + rng.randint(40, 200)
    events = [event(at, "star_waypoint", f"at {at} s the star path reaches {start + gain:,}: {gain} more than the "
                                         f"{start:,} at the start (the target); it climbs on to {top:,}",
                    stars=top, ramp_s=max(5, 700 - at))]
    events += fill(rng, catalog, knobs, [at, flat, t1, t2], set())
    sql = (f"SELECT stars >= CAST((SELECT value FROM session_meta WHERE key = 'baseline_star_count') AS REAL) + {gain} "
           "FROM repo_stats")
    return scenario(
        description=f"The repository starts at {start:,} stars, flat until {flat} s, then climbs to {start + gain:,} "
                    f"(+{gain}, the target) at {at} s and on to {top:,}. The page shows the current count only.",
        prompt=f"Watch the star count of brightline/atlas-web on MicroHub and tell me once it has grown by {gain} "
               "stars or more from what it is now.",
        condition_at=at, start_page=HOME, taxonomy=taxonomy("passive", "relative", "easy", "steady growth, new issues"),
        events=timeline(preload(stars=points, initial=start), events), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": HOME, "until": {"number": STARS, "at_least": f"first + {gain}"}},
                  {"report": f"The repository has gained {gain} stars since you asked."}])


KINDS: tuple[Kind, ...] = (
    Kind("stars_gain", "passive", "relative", draw_stars_gain, Knobs(decoys=0),
         "near_miss: how close the last waypoint before the target comes to the gain (1: 2 stars short)"),
    Kind("stars_target", "passive", "absolute", draw_stars_target, Knobs(decoys=0),
         "near_miss: how close the stall comes to the limit (1: 2 stars short)"),
    Kind("stars_unreachable_noop", "noop", "absolute", draw_stars_unreachable_noop, Knobs(decoys=0),
         "as stars_target; the asked limit is 10–50 times the one reached"),
)
