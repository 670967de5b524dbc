"""Methods that treat a table of n players as n-1 two-player Elo games for each player.

For player i with rating R_i, every other player j is one "round" of a tournament:

    S_i = sum over j of the pairwise score (1 win, 0.5 tie, 0 loss)
    E_i = sum over j of 1 / (1 + 10^((R_j - R_i) / 400))
    R_i' = R_i + K (S_i - E_i)

The methods differ in who beats whom and in K. From World of Card Games' Hearts ratings
(`pairwise-placing` before November 2015, `pairwise-winner` since) and the Sedma site's
rating bands (`rating-band`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .base import Facts, Method, Outcome, Param, Seat, elo_expected, finish, pair_score

START = Param("start_rating", "Start rating", 1500, "Every player's first rating.")
ROUND = Param("round", "Whole numbers", False, "Round ratings to whole numbers after every matchday.", bool)
FIXED_K = Param("k", "K", 32, "K for every player and every matchday.", positive=True)
PAIRWISE_EXPLANATION = (
    "R′ = R + K (Score − Expected), where Score counts 1 for each other player finished ahead of and ½ for "
    "each tie, and Expected = Σ 1 / (1 + 10^((Rj − R)/400)) over the other players j."
)


def pairwise_outcomes(
    seats: Sequence[Seat],
    *,
    beats: Callable[[Seat, Seat], float],
    k_of: Callable[[Seat], float],
    whole_numbers: bool,
    expect: Callable[[float, float], float] = elo_expected,
) -> list[Outcome]:
    """Each player's sum of pairwise scores and expectations against everyone else at the table."""
    outcomes = []
    for i, seat in enumerate(seats):
        others = [other for j, other in enumerate(seats) if j != i]
        score = sum(beats(seat, other) for other in others)
        expected = sum(expect(seat.rating, other.rating) for other in others)
        k = k_of(seat)
        after = finish(seat.rating, k * (score - expected), whole_numbers)
        outcomes.append(
            Outcome(
                rating_before=seat.rating,
                placing=seat.placing,
                expected=expected,
                score=score,
                k=k,
                delta=after - seat.rating,
                rating_after=after,
            )
        )
    return outcomes


def by_placing(seat: Seat, other: Seat) -> float:
    return pair_score(seat.placing, other.placing)


class PairwisePlacing(Method):
    slug = "pairwise-placing"
    name = "Pairwise by placing"
    source = "World of Card Games (Hearts), before November 2015"
    summary = (
        "Each other player at the table is one Elo game: you beat everyone you finished ahead of, tie "
        "with those who share your place and lose to the rest. K is fixed."
    )
    formula = """\
S = sum over the other players of 1 (finished ahead), 0.5 (same place), 0 (behind)
E = sum over the other players j of 1 / (1 + 10^((Rj - R) / 400))
R' = R + K (S - E)
"""
    explanation = PAIRWISE_EXPLANATION
    params = (START, FIXED_K, ROUND)

    def compute(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        self.check(seats)
        return pairwise_outcomes(seats, beats=by_placing, k_of=lambda seat: params["k"], whole_numbers=params["round"])


def winner_only(seat: Seat, other: Seat) -> float:
    """Only 1st place wins; the others tie each other. A player who left early loses to everyone
    still playing (and ties with others who left)."""
    if seat.left_early or other.left_early:
        return 0.5 if seat.left_early and other.left_early else 0.0 if seat.left_early else 1.0
    won, other_won = seat.placing == 1, other.placing == 1
    return 0.5 if won == other_won else 1.0 if won else 0.0


class PairwiseWinner(Method):
    slug = "pairwise-winner"
    name = "Pairwise, winner only"
    source = "World of Card Games (Hearts), since November 2015"
    summary = (
        "Each other player is one Elo game, but only 1st place wins: everyone else loses to the winner "
        "(or winners) and ties with each other. A player who left early loses to everyone still playing."
    )
    formula = """\
S = sum over the other players of: 1st beats everyone, the others tie each other
    (a player who left early scores 0 against everyone still playing)
E = sum over the other players j of 1 / (1 + 10^((Rj - R) / 400))
R' = R + K (S - E)
"""
    explanation = (
        "R′ = R + K (Score − Expected), where Score counts 1 against each other player for the winner and ½ "
        "between the others (0 against everyone still playing for a player who left early), and Expected = "
        "Σ 1 / (1 + 10^((Rj − R)/400)) over the other players j."
    )
    params = (START, FIXED_K, ROUND)

    def compute(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        self.check(seats)
        return pairwise_outcomes(seats, beats=winner_only, k_of=lambda seat: params["k"], whole_numbers=params["round"])


def band_k(rating: float) -> int:
    """K from the player's own rating: below 1200: 40, below 1800: 32, below 2200: 24, else 16."""
    if rating < 1200:
        return 40
    if rating < 1800:
        return 32
    if rating < 2200:
        return 24
    return 16


class RatingBand(Method):
    slug = "rating-band"
    name = "Pairwise, K by rating band"
    source = "the Sedma site's dynamic K"
    summary = (
        "Pairwise by placing, but each player's K comes from their own current rating: below 1200: 40, "
        "below 1800: 32, below 2200: 24, from 2200 on: 16. New players move fast, strong ones slowly."
    )
    formula = """\
S, E as pairwise by placing
K = 40 below 1200, 32 below 1800, 24 below 2200, else 16 (from the player's own rating)
R' = R + K (S - E)
"""
    explanation = PAIRWISE_EXPLANATION[:-1] + "; K comes from the player's own rating band."
    params = (START, ROUND)

    def compute(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        self.check(seats)
        return pairwise_outcomes(
            seats, beats=by_placing, k_of=lambda seat: band_k(seat.rating), whole_numbers=params["round"]
        )
