"""One worked example per method, for the Methods page: the seeds' numbers where they have them."""

from __future__ import annotations

from dataclasses import dataclass

from . import METHODS
from .base import Facts, Outcome, Seat


@dataclass(frozen=True)
class Example:
    caption: str
    names: tuple[str, ...]
    seats: tuple[Seat, ...]
    facts: Facts = Facts()
    params: tuple[tuple[str, object], ...] = ()

    def outcomes(self, slug: str) -> list[Outcome]:
        method = METHODS[slug]
        return method.compute(self.seats, self.facts, method.clean_params(dict(self.params)))


HEARTS = tuple(Seat(r, p) for r, p in ((1512, 1), (1562, 2), (1484, 3), (1417, 4)))

EXAMPLES = {
    "club": Example(
        "The club's matchday 1: four players at 1500, seven rounds (K = 70).",
        ("I", "K", "R", "GL"),
        tuple(Seat(1500, p) for p in (1, 2, 3, 4)),
        Facts(rounds=7),
    ),
    "pairwise-placing": Example(
        "The Hearts seed's table: A, B, C and D, rated 1512, 1562, 1484 and 1417, finish in that order.",
        ("A", "B", "C", "D"),
        HEARTS,
    ),
    "pairwise-winner": Example(
        "The same table under the 2015 rule, with D leaving early: B, C and D lose to A, B and C tie.",
        ("A", "B", "C", "D"),
        HEARTS[:3] + (Seat(1417, 4, left_early=True),),
    ),
    "table-size": Example(
        "Four players in a game to 12 (the winner scored 15): K is 32 two steps lower, 16; with the "
        "game-length correction on.",
        ("A", "B", "C", "D"),
        tuple(Seat(r, p) for r, p in ((1000, 1), (1150, 2), (900, 3), (950, 4))),
        Facts(winner_score=15),
        (("length_correction", True),),
    ),
    "rating-band": Example(
        "Four players from four bands, the lowest rated wins: each has their own K.",
        ("A", "B", "C", "D"),
        tuple(Seat(r, p) for r, p in ((1100, 1), (1500, 2), (1900, 3), (2300, 4))),
    ),
    "sedma": Example(
        "A (1200) wins with three rounds by 16 and two bad moves; B (1000) loses but won a round by 24.",
        ("A", "B"),
        (Seat(1200, 1, won_by_16=3, bad_moves=2), Seat(1000, 2, won_by_24=1)),
    ),
    "openskill": Example(
        "Four new players (mu 25, sigma 8.33, ordinal 0) finish in order.",
        ("A", "B", "C", "D"),
        tuple(Seat(0, p, {"mu": 25.0, "sigma": 25 / 3}) for p in (1, 2, 3, 4)),
    ),
    "player-vs-deal": Example(
        "The seed's example: a 1500 player wins a deal rated 1000 (K = 8). Had she lost: 1492.43, and the "
        "deal 1007.57, with every other deal of its variant and level 0.23 higher (f = 0.03).",
        ("Player", "Deal"),
        (Seat(1500, 1), Seat(1000, 2)),
    ),
}
