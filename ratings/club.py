"""The club's rating formula, as published on the club page.

Pure Python (no Django) so it can be tested against the club's worked numbers without a database
and reused by the engine, the admin and any later calculator.

Everyone starts at 1500. For each player, M is the mean rating of the *other* participants before the
matchday, S = 1 - (p-1)/(n-1) for rated placing p among n players, and K = 10 x rounds:

    R' = R + K (S - 1 / (1 + 10^((M - R) / 400)))

Tied players share the average score of the places they span (two players tied 2nd of 4 share the
scores of 2nd and 3rd).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

START_RATING = 1500
K_PER_ROUND = 10


@dataclass(frozen=True)
class Change:
    """One player's rating change at one matchday, with every piece of the computation."""

    rating_before: float
    placing: int
    opponents_mean: float
    expected: float
    score: float
    k: float
    delta: float
    rating_after: float


def round_half_up(value: float) -> int:
    """Round to a whole number the way people do by hand (x.5 goes up), not banker's rounding."""
    return math.floor(value + 0.5)


def placing_scores(placings: Sequence[int]) -> list[float]:
    """Actual score of each placing: 1 for first, 0 for last, ties averaged over the places they span.

    Placings are a standard competition ranking (1, 2, 2, 4): a tie of m players at place p spans the
    places p .. p+m-1.
    """
    n = len(placings)
    if n < 2:
        raise ValueError("a matchday needs at least two players")
    tied = Counter(placings)

    def score_of_place(q: int) -> float:
        return 1 - (q - 1) / (n - 1)

    scores = []
    for p in placings:
        span = range(p, p + tied[p])
        if p < 1 or span[-1] > n:
            raise ValueError(f"placings {list(placings)} are not a ranking of {n} players")
        scores.append(sum(score_of_place(q) for q in span) / len(span))
    return scores


def expected_score(rating: float, opponents_mean: float) -> float:
    return 1 / (1 + 10 ** ((opponents_mean - rating) / 400))


def club_changes(
    ratings: Sequence[float],
    placings: Sequence[int],
    *,
    rounds: int,
    k_per_round: float = K_PER_ROUND,
    whole_numbers: bool = True,
) -> list[Change]:
    """New ratings for one matchday, in the order the players were given.

    `placings` are the rated placings (after any penalty). With `whole_numbers` the new rating is
    rounded, which is how the club carries ratings from one matchday to the next.
    """
    if len(ratings) != len(placings):
        raise ValueError("one placing per rating is needed")
    if rounds < 1:
        raise ValueError("rounds must be at least 1")
    n = len(ratings)
    scores = placing_scores(placings)
    k = k_per_round * rounds
    total = sum(ratings)
    changes = []
    for rating, placing, score in zip(ratings, placings, scores, strict=True):
        opponents_mean = (total - rating) / (n - 1)
        expected = expected_score(rating, opponents_mean)
        after = rating + k * (score - expected)
        if whole_numbers:
            after = round_half_up(after)
        changes.append(
            Change(
                rating_before=rating,
                placing=placing,
                opponents_mean=opponents_mean,
                expected=expected,
                score=score,
                k=k,
                delta=after - rating,
                rating_after=after,
            )
        )
    return changes
