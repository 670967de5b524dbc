"""The club's rating formula, as published on the club page.

Everyone starts at 1500. For each player, M is the mean rating of the *other* participants before the
matchday, S = 1 - (p-1)/(n-1) for rated placing p among n players, and K = 10 x rounds:

    R' = R + K (S - 1 / (1 + 10^((M - R) / 400)))

Tied players share the average score of the places they span (two players tied 2nd of 4 share the
scores of 2nd and 3rd).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from .base import Facts, Method, Outcome, Param, PlainOutcome, Seat, elo_expected, round_half_up, start_rating_param
from .sides import MeanSides

START_RATING = 1500
K_PER_ROUND = 10
MAX_K_PER_ROUND = 1000  # times at most 100 rounds: K stays within 100,000


def placing_scores(placings: Sequence[int]) -> list[float]:
    """Actual score of each placing: 1 for first, 0 for last, ties averaged over the places they span.

    Placings are a standard competition ranking (1, 2, 2, 4): a tie of m players at place p spans the
    places p .. p+m-1. Linear in the number of players: each place's players are counted once and
    each tie's average is computed once, not once per tied player.
    """
    return list(_scores(tuple(placings)))


@lru_cache(maxsize=1024)
def _scores(placings: tuple[int, ...]) -> tuple[float, ...]:
    """`placing_scores`, remembered: a recompute scores the same few orders of placings again and again."""
    n = len(placings)
    if n < 2:
        raise ValueError("a matchday needs at least two players")
    if len(set(placings)) == n:  # no ties: the common case
        if min(placings) < 1 or max(placings) > n:
            raise ValueError(f"placings {_shown(placings)} are not a ranking of {n} players")
        return tuple(1 - (p - 1) / (n - 1) for p in placings)
    tied = Counter(placings)

    def score_of_place(q: int) -> float:
        return 1 - (q - 1) / (n - 1)

    # The sum is taken place by place, as before, so that ratings are the same to the last bit.
    average: dict[int, float] = {}
    for p, m in tied.items():
        span = range(p, p + m)
        if p < 1 or span[-1] > n:
            raise ValueError(f"placings {_shown(placings)} are not a ranking of {n} players")
        average[p] = sum(score_of_place(q) for q in span) / m
    return tuple(average[p] for p in placings)


def _shown(placings: Sequence[int]) -> str:
    return str(list(placings[:20])) + (f" ... ({len(placings)} in all)" if len(placings) > 20 else "")


def club_changes(
    ratings: Sequence[float],
    placings: Sequence[int],
    *,
    rounds: int,
    k_per_round: float = K_PER_ROUND,
    whole_numbers: bool = True,
) -> list[Outcome]:
    """New ratings for one matchday, in the order the players were given.

    `placings` are the rated placings (after any penalty). With `whole_numbers` the new rating is
    rounded, which is how the club carries ratings from one matchday to the next.
    """
    pieces = club_pieces(ratings, placings, rounds=rounds, k_per_round=k_per_round, whole_numbers=whole_numbers)
    return [
        Outcome(rating, placing, expected, score, k, delta, after, mean)
        for rating, placing, (mean, expected, score, k, delta, after) in zip(ratings, placings, pieces, strict=True)
    ]


def club_pieces(
    ratings: Sequence[float],
    placings: Sequence[int],
    *,
    rounds: int,
    k_per_round: float = K_PER_ROUND,
    whole_numbers: bool = True,
) -> list[PlainOutcome]:
    """`club_changes` as plain tuples (M, E, S, K, change, new rating), which a full recompute
    writes without making an Outcome of each."""
    if len(ratings) != len(placings):
        raise ValueError("one placing per rating is needed")
    if rounds < 1:
        raise ValueError("rounds must be at least 1")
    others = len(ratings) - 1
    k = k_per_round * rounds
    total = sum(ratings)
    pieces = []
    for rating, score in zip(ratings, _scores(tuple(placings)), strict=True):
        opponents_mean = (total - rating) / others
        expected = elo_expected(rating, opponents_mean)
        after = rating + k * (score - expected)
        if whole_numbers:
            after = round_half_up(after)
        pieces.append((opponents_mean, expected, score, k, after - rating, after))
    return pieces


class ClubFormula(MeanSides, Method):
    slug = "club"
    facts_read = ("rounds",)
    name = "Club formula"
    source = "the club's own page"
    summary = (
        "One game against the mean rating M of the other players: S runs from 1 for the winner to 0 for "
        "last, K is a multiplier times the rounds played."
    )
    formula = """\
M = mean rating of the other players
S = 1 - (p - 1) / (n - 1)   (ties share the average of their places)
E = 1 / (1 + 10^((M - R) / 400))
K = K per round x rounds
R' = R + K (S - E)
"""
    explanation = (
        "R′ = R + K (Score − Expected), where Expected = 1 / (1 + 10^((M − R)/400)) and M is the mean "
        "rating of the other players."
    )
    pieces = ("opponents_mean", "expected", "score", "k")
    params = (
        start_rating_param(START_RATING),
        Param(
            "k",
            "K per round",
            K_PER_ROUND,
            "K is this number times the matchday's rounds.",
            positive=True,
            maximum=MAX_K_PER_ROUND,
        ),
        Param("round", "Whole numbers", True, "Round ratings to whole numbers after every matchday.", bool),
    )

    rates_plainly = True

    def rate_players(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        self.check_players(seats)
        return club_changes(
            [s.rating for s in seats],
            [s.placing for s in seats],
            rounds=facts.rounds,
            k_per_round=params["k"],
            whole_numbers=params["round"],
        )

    def plain_outcomes(
        self, ratings: Sequence[float], placings: Sequence[int], facts: Facts, params: Mapping[str, Any]
    ) -> list[PlainOutcome]:
        self.check_placings(placings)
        return club_pieces(
            ratings, placings, rounds=facts.rounds, k_per_round=params["k"], whole_numbers=params["round"]
        )
