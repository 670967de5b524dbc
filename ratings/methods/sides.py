"""Sides for the Elo family: a side is one player whose rating is the mean of its players' ratings.

Partnerships (Spades, Bridge, Sedma in pairs) and team games (Codenames) are rated as a game of the
sides: each side's rating is the mean of its players' ratings, weighted by partial play, and the
method rates the sides as it rates players (the club formula's M is then the mean of the other sides,
the pairwise methods count the other sides, table-size's K is that of a table of that many sides).
Each player then takes their side's change, times their weight:

    R_side = sum (w_i R_i) / sum w_i
    R_i' = R_i + w_i K_i (S_side - E_side)

with K_i and any per-player score (the Sedma bonuses) from the player's own rating and counts. Two
against two in the club formula, 1 round (K 10): GL 1600 and K 1400 (side 1500) beat I 1550 and
J 1450 (side 1500): E = 0.5, S = 1, so each winner gains 5 and each loser loses 5; R at weight 0.5
in place of K would gain 2.5, and the side would be rated at (1600 + 0.5 x 1400) / 1.5 = 1533.3.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .base import Facts, Outcome, Seat, finish


def side_rating(seats: Sequence[Seat], group: Sequence[int]) -> float:
    """The side's rating: its players' ratings averaged with their weights as shares."""
    total = sum(seats[i].weight for i in group)
    return sum(seats[i].weight * seats[i].rating for i in group) / total


class MeanSides:
    """Rates sides as single players at their mean rating; each player takes the side's change.

    Methods override `own_k` and `own_score` where K or the score is the player's own, and
    `rounded` where they round otherwise than half up."""

    side_explanation = (
        "In sides, a side's rating is the mean of its players' ratings (weighted by the share of the game each "
        "played); each player takes the side's change times their weight, with K from their own rating."
    )

    def rate_sides(
        self, seats: Sequence[Seat], groups: list[list[int]], facts: Facts, params: Mapping[str, Any]
    ) -> list[Outcome]:
        self.check_sides(seats, groups)
        as_players = [replace(seats[group[0]], rating=side_rating(seats, group), weight=1.0) for group in groups]
        exact = {**params, "round": False}
        by_side = self.rate_players(as_players, facts, exact)
        outcomes: list[Outcome | None] = [None] * len(seats)
        for group, side, rated in zip(groups, as_players, by_side, strict=True):
            for i in group:
                seat = seats[i]
                k = self.own_k(seat, rated)
                score = self.own_score(seat, side, rated)
                change = seat.weight * k * (score - rated.expected)
                after = self.rounded(seat.rating + change, params)
                extras = {**self.own_extras(seat, side, rated), "side_rating": side.rating, "weight": seat.weight}
                outcomes[i] = Outcome(
                    rating_before=seat.rating,
                    placing=seat.placing,
                    expected=rated.expected,
                    score=score,
                    k=k,
                    delta=after - seat.rating,
                    rating_after=after,
                    opponents_mean=rated.opponents_mean,
                    extras=extras,
                )
        return outcomes

    def own_k(self, seat: Seat, side: Outcome) -> float:
        """The player's K: the side's, unless the method takes K from the player's own rating."""
        return side.k

    def own_score(self, seat: Seat, side: Seat, rated: Outcome) -> float:
        """The player's score: the side's, unless the method adds the player's own (Sedma's bonuses)."""
        return rated.score

    def own_extras(self, seat: Seat, side: Seat, rated: Outcome) -> dict[str, Any]:
        return {}

    def rounded(self, rating: float, params: Mapping[str, Any]) -> float:
        """The new rating, rounded half up when the table carries whole numbers."""
        return finish(rating, 0, params.get("round", False))
