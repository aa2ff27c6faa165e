"""pass@k and pass^k over repeated trials (`--trials K`).

A scenario run n times with c successes gives two per-scenario estimates for k ≤ n:

- pass@k = 1 − C(n−c, k) / C(n, k): the chance that at least one of k trials drawn without
  replacement from the n passes (the unbiased estimator of Chen et al., 2021). It rewards an
  agent that sometimes gets it right.
- pass^k = C(c, k) / C(n, k): the chance that all k drawn trials pass (the estimator of
  τ-bench, Yao et al., 2024). It rewards an agent that gets it right every time.

The run's figure for each k is the mean over scenarios. A scenario with fewer than k trials
(a run still under way) is left out of that k's mean; an infrastructure error counts as a
failed trial, as it does in every success rate. With one trial each, pass@1 = pass^1 = the
success rate.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from math import comb

from sentinel.core.grading import Result


@dataclass(frozen=True)
class PassAtK:
    k: int
    pass_at: float  # mean pass@k over scenarios
    pass_hat: float  # mean pass^k over scenarios
    scenarios: int  # how many scenarios had at least k trials


def pass_at_k(n: int, c: int, k: int) -> float:
    """Chance that at least one of k trials (of n, c passed) passes."""
    _check(n, c, k)
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Chance that all k trials (of n, c passed) pass."""
    _check(n, c, k)
    return comb(c, k) / comb(n, k)


def _check(n: int, c: int, k: int) -> None:
    if not (0 <= c <= n and 1 <= k <= n):
        raise ValueError(f"need 0 ≤ c ≤ n and 1 ≤ k ≤ n (n={n}, c={c}, k={k})")


def trial_counts(results: Iterable[Result]) -> dict[str, tuple[int, int]]:
    """Per scenario id: (trials, successes)."""
    counts: dict[str, tuple[int, int]] = {}
    for r in results:
        n, c = counts.get(r.scenario_id, (0, 0))
        counts[r.scenario_id] = (n + 1, c + bool(r.success))
    return counts


def pass_table(results: Iterable[Result]) -> list[PassAtK]:
    """pass@k and pass^k for k = 1 .. the most trials any scenario has (empty without results)."""
    counts = list(trial_counts(results).values())
    most = max((n for n, _ in counts), default=0)
    table = []
    for k in range(1, most + 1):
        eligible = [(n, c) for n, c in counts if n >= k]
        table.append(PassAtK(
            k=k,
            pass_at=sum(pass_at_k(n, c, k) for n, c in eligible) / len(eligible),
            pass_hat=sum(pass_hat_k(n, c, k) for n, c in eligible) / len(eligible),
            scenarios=len(eligible)))
    return table
