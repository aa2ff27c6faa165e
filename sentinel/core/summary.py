"""Aggregates over a run's results: success and on-time rates by group, reaction percentiles, cost.

The on-time rate (docs/protocol.md#grading) counts only normal tasks: no-ops have no condition time to
be on time for, so they are neither in its numerator nor in its denominator.

Infrastructure errors are counted in totals and reported apart; they are never silently
dropped from the success rate (a crashed session counts as not passed).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from sentinel.core.grading import Result
from sentinel.core.trials import PassAtK, pass_table


@dataclass(frozen=True)
class Group:
    name: str
    total: int
    passed: int
    infra_errors: int
    on_time: int = 0  # normal sessions that passed within on_time_s of condition_at
    normal: int = 0  # normal (not no-op) sessions: the on-time rate's denominator

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0

    @property
    def on_time_rate(self) -> float | None:
        """Share of normal sessions on time; None for a group of no-ops only."""
        return self.on_time / self.normal if self.normal else None

    @property
    def stderr(self) -> float:
        """Standard error of the success rate (binomial)."""
        if self.total == 0:
            return 0.0
        return math.sqrt(self.rate * (1 - self.rate) / self.total)


@dataclass(frozen=True)
class Summary:
    overall: Group
    by_environment: list[Group] = field(default_factory=list)
    by_activity: list[Group] = field(default_factory=list)
    by_criteria: list[Group] = field(default_factory=list)
    reaction_p50: float | None = None  # wall seconds (reaction_s)
    reaction_p90: float | None = None
    reaction_sim_p50: float | None = None  # sim seconds (reaction_sim_s): comparable across speeds and policies
    reaction_sim_p90: float | None = None
    model_calls: int | None = None  # totals of what the model-time meter saw; None: no result recorded it
    paused_wall_s: float | None = None
    charged_sim_s: float | None = None
    cost_median: float | None = None
    cost_total: float | None = None
    tokens_median: float | None = None
    requests_median: float | None = None
    infra_errors: int = 0
    pass_k: tuple[PassAtK, ...] = ()  # pass@k and pass^k for k = 1 .. trials (sentinel/core/trials.py)

    @property
    def trials(self) -> int:
        """The most trials any scenario had (1 for an ordinary run)."""
        return len(self.pass_k) or 1

    def to_dict(self) -> dict:
        def group(g: Group) -> dict:
            on_time = None if g.on_time_rate is None else round(g.on_time_rate, 4)
            return {**asdict(g), "rate": round(g.rate, 4), "stderr": round(g.stderr, 4), "on_time_rate": on_time}
        return {
            "overall": group(self.overall),
            "by_environment": [group(g) for g in self.by_environment],
            "by_activity": [group(g) for g in self.by_activity],
            "by_criteria": [group(g) for g in self.by_criteria],
            "reaction_p50": self.reaction_p50, "reaction_p90": self.reaction_p90,
            "reaction_sim_p50": self.reaction_sim_p50, "reaction_sim_p90": self.reaction_sim_p90,
            "model_calls": self.model_calls, "paused_wall_s": self.paused_wall_s, "charged_sim_s": self.charged_sim_s,
            "cost_median": self.cost_median, "cost_total": self.cost_total,
            "tokens_median": self.tokens_median, "requests_median": self.requests_median,
            "infra_errors": self.infra_errors,
            "pass_k": [{"k": p.k, "pass_at": round(p.pass_at, 4), "pass_hat": round(p.pass_hat, 4),
                        "scenarios": p.scenarios} for p in self.pass_k],
        }


def percentile(values: Iterable[float], q: float) -> float | None:
    """The q-th percentile (0–100) by linear interpolation between order statistics."""
    ordered = sorted(values)
    if not ordered:
        return None
    pos = (len(ordered) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def _group(name: str, results: list[Result]) -> Group:
    return Group(name, len(results), sum(r.success for r in results), sum(r.is_infra_error for r in results),
                 on_time=sum(bool(r.on_time) for r in results if r.is_normal),
                 normal=sum(r.is_normal for r in results))


def _groups(results: list[Result], key) -> list[Group]:
    names = sorted({key(r) for r in results})
    return [_group(n, [r for r in results if key(r) == n]) for n in names]


def summarize(results: list[Result]) -> Summary:
    reactions = [r.reaction_s for r in results if r.reaction_s is not None]
    costs = [r.cost_usd for r in results if r.cost_usd is not None]
    tokens = [r.prompt_tokens + r.completion_tokens for r in results]
    sim_reactions = [r.reaction_sim_s for r in results if r.reaction_sim_s is not None]
    return Summary(
        overall=_group("all", results),
        by_environment=_groups(results, lambda r: r.environment),
        by_activity=_groups(results, lambda r: r.activity),
        by_criteria=_groups(results, lambda r: r.criteria if r.activity != "noop" else "noop"),
        reaction_p50=_rounded(percentile(reactions, 50)),
        reaction_p90=_rounded(percentile(reactions, 90)),
        reaction_sim_p50=_rounded(percentile(sim_reactions, 50)),
        reaction_sim_p90=_rounded(percentile(sim_reactions, 90)),
        model_calls=None if (calls := _total([r.model_calls for r in results])) is None else int(calls),
        paused_wall_s=_rounded(_total([r.paused_wall_s for r in results])),
        charged_sim_s=_rounded(_total([r.charged_sim_s for r in results])),
        cost_median=round(statistics.median(costs), 6) if costs else None,
        cost_total=round(sum(costs), 6) if costs else None,
        tokens_median=statistics.median(tokens) if tokens else None,
        requests_median=statistics.median([r.requests for r in results]) if results else None,
        infra_errors=sum(r.is_infra_error for r in results),
        pass_k=tuple(pass_table(results)),
    )


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _total(values: list[float | None]) -> float | None:
    """The sum of the values that are recorded; None when none is (results from before the field)."""
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def passed_within(results: Iterable[Result], tau: float) -> float | None:
    """Share of normal sessions that passed with contact at most tau sim seconds after
    condition_at (None without normal sessions). At tau = on_time_s this is the on-time rate."""
    normal = [r for r in results if r.is_normal]
    if not normal:
        return None
    hits = sum(1 for r in normal if r.success and r.contact_at is not None and r.condition_at is not None
               and r.contact_at - r.condition_at <= tau)
    return hits / len(normal)


def on_time_curve(results: Iterable[Result], taus: Iterable[float]) -> list[tuple[float, float]]:
    """(tau, share of normal sessions passed within tau sim s) for each tau; empty without normal sessions."""
    kept = list(results)
    points = [(tau, passed_within(kept, tau)) for tau in taus]
    return [(tau, share) for tau, share in points if share is not None]
