"""The Sedma site's two-player Elo with performance bonuses, exactly as its published C# code.

    K from each player's own rating (below 1200: 40, below 1800: 32, below 2200: 24, else 16)
    bonus = min(0.05 x rounds won by 16, 0.15) + min(0.1 x rounds won by 24, 0.2)
            + min(0.03 x rounds won with 4 and last, 0.09),   x 0.1 for the loser
    malus = min(0.02 x bad moves, 0.3)
    S = clamp(1 or 0 + bonus - malus, 0, 1)
    R' = round(R + K (S - E))

The C# code computes the bonuses and scores in single precision (`float`) and the rest in double,
and rounds with Math.Round (halves to even); so does this module, so that every rating matches.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from typing import Any

from .base import Facts, Method, MethodError, Outcome, Param, Seat, elo_expected, start_rating_param
from .pairwise import band_k
from .sides import MeanSides


def f32(value: float) -> float:
    """`value` rounded to single precision, as C#'s float holds it."""
    return struct.unpack("f", struct.pack("f", value))[0]


BONUS_PER_16 = f32(0.05)
BONUS_PER_24 = f32(0.1)
BONUS_PER_4_AND_LAST = f32(0.03)
MALUS_PER_BAD_MOVE = f32(0.02)
MAX_BONUS_16 = f32(0.15)
MAX_BONUS_24 = f32(0.2)
MAX_BONUS_4_AND_LAST = f32(0.09)
MAX_MALUS = f32(0.3)
LOSER_SHARE = f32(0.1)


def bonus(seat: Seat, won: bool) -> float:
    """The capped bonuses, at 10% strength in a loss (single precision, as the C# code)."""
    total = f32(
        f32(
            min(f32(seat.won_by_16 * BONUS_PER_16), MAX_BONUS_16)
            + min(f32(seat.won_by_24 * BONUS_PER_24), MAX_BONUS_24)
        )
        + min(f32(seat.won_by_4_and_last * BONUS_PER_4_AND_LAST), MAX_BONUS_4_AND_LAST)
    )
    return f32(total * (1.0 if won else LOSER_SHARE))


def malus(seat: Seat) -> float:
    return min(f32(seat.bad_moves * MALUS_PER_BAD_MOVE), MAX_MALUS)


def adjusted_score(seat: Seat, won: bool) -> float:
    base = 1.0 if won else 0.0
    return min(max(f32(f32(base + bonus(seat, won)) - malus(seat)), 0.0), 1.0)


class Sedma(MeanSides, Method):
    slug = "sedma"
    name = "Sedma: rating bands with bonuses"
    source = "the Sedma site's C# code"
    summary = (
        "Two players; K from each player's own rating band; the winner's score of 1 gets bonuses for "
        "rounds won by 16, by 24 and with 4 and last (a loser gets 10% of theirs), less 0.02 per bad "
        "move; the score is kept between 0 and 1; ratings are whole numbers."
    )
    formula = """\
K from each player's own rating: 40 below 1200, 32 below 1800, 24 below 2200, else 16
bonus = min(0.05 x won by 16, 0.15) + min(0.1 x won by 24, 0.2) + min(0.03 x won with 4 and last, 0.09)
        (x 0.1 for the loser)
malus = min(0.02 x bad moves, 0.3)
S = clamp((1 if won else 0) + bonus - malus, 0, 1)
E = 1 / (1 + 10^((Ropponent - R) / 400))
R' = round(R + K (S - E))
"""
    explanation = (
        "R′ = R + K (Score − Expected), where Score is 1 for a win or 0 for a loss plus bonuses less bad moves "
        "(kept between 0 and 1), Expected = 1 / (1 + 10^((Ropponent − R)/400)) and K comes from the player's "
        "own rating band."
    )
    side_explanation = (
        "In sides, a side's rating is the mean of its players' ratings (weighted by the share of the game each "
        "played); each player takes the side's change times their weight, with K from their own rating and the "
        "bonuses and bad moves from their own counts."
    )
    params = (
        start_rating_param(1500),
        Param("round", "Whole numbers", True, "Round ratings as the C# code does (halves to even).", bool),
    )
    two_players_only = True

    def own_k(self, seat: Seat, side: Outcome) -> float:
        return band_k(seat.rating)

    def own_score(self, seat: Seat, side: Seat, rated: Outcome) -> float:
        return adjusted_score(seat, rated.placing < 2)

    def own_extras(self, seat: Seat, side: Seat, rated: Outcome) -> dict[str, Any]:
        won = rated.placing < 2
        return {"bonus": bonus(seat, won), "malus": malus(seat)}

    def rounded(self, rating: float, params: Mapping[str, Any]) -> float:
        return round(rating) if params["round"] else rating  # halves to even, like Math.Round

    def check_players(self, seats: Sequence[Seat]) -> None:
        super().check_players(seats)
        if seats[0].placing == seats[1].placing:
            raise MethodError("Sedma has no draws: one player must be 1st and the other 2nd")

    def rate_players(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        self.check_players(seats)
        outcomes = []
        first, second = seats
        for seat, other in ((first, second), (second, first)):
            won = seat.placing < other.placing
            k = band_k(seat.rating)
            score = adjusted_score(seat, won)
            expected = elo_expected(seat.rating, other.rating)
            after = seat.rating + k * (score - expected)
            if params["round"]:
                after = round(after)  # Python's round() halves to even, like Math.Round
            outcomes.append(
                Outcome(
                    rating_before=seat.rating,
                    placing=seat.placing,
                    expected=expected,
                    score=score,
                    k=k,
                    delta=after - seat.rating,
                    rating_after=after,
                    extras={"bonus": bonus(seat, won), "malus": malus(seat)},
                )
            )
        return outcomes
