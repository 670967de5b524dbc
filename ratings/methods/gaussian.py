"""The Gaussian performance model's win chances, which TrueSkill, openskill and Elo-MMR share: a
performance of a player (or a side) is normally distributed around their mean, and one beats another
with the chance that their difference is above zero."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def normal_win(mu: float, sigma: float, other_mu: float, other_sigma: float, beta: float) -> float:
    """The chance that a performance of N(mu, sigma^2 + beta^2) beats one of N(other_mu, ...): the
    pairwise win probability of TrueSkill, and openskill's `predict_win` for two players, written as
    openskill writes it so that the two agree to the last bit."""
    x = (mu - other_mu) / math.sqrt(2 * beta**2 + sigma**2 + other_sigma**2)
    return 0.5 * math.erfc(-x / SQRT2)


SQRT2 = math.sqrt(2.0)


def side_performance(
    states: Sequence[Mapping[str, float]], weights: Sequence[float], beta: float
) -> tuple[float, float]:
    """A side's performance in TrueSkill's model: the weighted sum of its players' performances, each
    N(mu, sigma^2 + beta^2); returns its mean and variance."""
    mean = sum(w * s["mu"] for s, w in zip(states, weights, strict=True))
    variance = sum(w * w * (s["sigma"] ** 2 + beta**2) for s, w in zip(states, weights, strict=True))
    return mean, variance


def side_win(side: tuple[float, float], other: tuple[float, float]) -> float:
    """The chance that the performance `side` (mean, variance) beats `other`: TrueSkill's and
    openskill's win probability for two teams."""
    x = (side[0] - other[0]) / math.sqrt(side[1] + other[1])
    return 0.5 * math.erfc(-x / SQRT2)
