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
    "trueskill": Example(
        "Four new players (mu 25, sigma 8.33, rating 0) finish 1st, 2nd, 2nd and 4th: the trueskill package "
        "rates the two tied players slightly apart.",
        ("A", "B", "C", "D"),
        tuple(Seat(0, p, {"mu": 25.0, "sigma": 25 / 3}) for p in (1, 2, 2, 4)),
    ),
    "glicko2": Example(
        "Glickman's own example as a matchday: A (1500, RD 200) finishes ahead of B (1400, RD 30) and behind "
        "C (1550, RD 100) and D (1700, RD 300); all have volatility 0.06, tau 0.5. A ends on 1464.05, RD "
        "151.52, volatility 0.05999, as in the paper.",
        ("A", "B", "C", "D"),
        (
            Seat(1500, 3, {"rd": 200.0, "vol": 0.06}),
            Seat(1400, 4, {"rd": 30.0, "vol": 0.06}),
            Seat(1550, 2, {"rd": 100.0, "vol": 0.06}),
            Seat(1700, 1, {"rd": 300.0, "vol": 0.06}),
        ),
    ),
    "openskill": Example(
        "Four new players (mu 25, sigma 8.33, ordinal 0) finish in order.",
        ("A", "B", "C", "D"),
        tuple(Seat(0, p, {"mu": 25.0, "sigma": 25 / 3}) for p in (1, 2, 3, 4)),
    ),
    "elo-mmr": Example(
        "Four new players (mu 1500, sigma 350, rating 690) finish 1st, 2nd, 2nd and 4th: elo-mmr-py's "
        "rate_latest gives the same mu (1787.65, 1500, 1500, 1212.35) and sigma (171.20).",
        ("A", "B", "C", "D"),
        tuple(Seat(690, p, {"mu": 1500.0, "sigma": 350.0}) for p in (1, 2, 2, 4)),
    ),
    "player-vs-deal": Example(
        "The seed's example: a 1500 player wins a deal rated 1000 (K = 8). Had she lost: 1492.43, and the "
        "deal 1007.57, with every other deal of its variant and level 0.23 higher (f = 0.03).",
        ("Player", "Deal"),
        (Seat(1500, 1), Seat(1000, 2)),
    ),
}


def _pairs(*players: tuple[str, float, int, str], **given) -> tuple[tuple[str, ...], tuple[Seat, ...]]:
    """Names and seats of a partnership game: (name, rating, placing, side) per player."""
    names = tuple(f"{name} (side {side})" for name, _, _, side in players)
    return names, tuple(
        Seat(rating, placing, side=side, **given.get(name, {})) for name, rating, placing, side in players
    )


NEW = {"mu": 25.0, "sigma": 25 / 3}
SPADES = (("GL", 1600, 1, "A"), ("K", 1450, 1, "A"), ("I", 1550, 2, "B"), ("J", 1450, 2, "B"))

# One partnership game per method that rates sides: the Methods page shows it under the method's own example.
TEAM_EXAMPLES = {
    "club": Example(
        "Spades in pairs, 4 rounds (K = 40): GL (1600) and K (1450) beat I (1550) and J (1450). Side A is "
        "rated 1525 and side B 1500, so Expected = 1 / (1 + 10^(-25/400)) = 0.536 for A; each winner gains "
        "40 (1 - 0.536) = 18.6, rounded to 19, and each loser loses as much.",
        *_pairs(*SPADES),
        Facts(rounds=4),
    ),
    "pairwise-placing": Example(
        "The same Spades game: one Elo game of side A against side B, K 32 for each player.",
        *_pairs(*SPADES),
    ),
    "pairwise-winner": Example(
        "Three sides of two; only the winning side wins, the others tie each other.",
        *_pairs(*SPADES, ("R", 1500, 3, "C"), ("M", 1500, 3, "C")),
    ),
    "table-size": Example(
        "The same Spades game: K is that of a table of two sides, 48.",
        *_pairs(*SPADES),
    ),
    "rating-band": Example(
        "A strong player (2300) partners a new one (1100) and they lose: each takes the side's result with "
        "the K of their own band, 16 and 40.",
        *_pairs(("A", 2300, 2, "A"), ("B", 1100, 2, "A"), ("C", 1700, 1, "B"), ("D", 1700, 1, "B")),
    ),
    "sedma": Example(
        "Sedma in pairs: A and B (1200 and 1300) beat C and D (1250 each); A made five bad moves, so A's "
        "score is 0.9 and B's 1. Each player's K is their own band's.",
        *_pairs(("A", 1200, 1, "A"), ("B", 1300, 1, "A"), ("C", 1250, 2, "B"), ("D", 1250, 2, "B"), A={"bad_moves": 5}),
    ),
    "trueskill": Example(
        "Two against two, everyone new: the trueskill package's own team update gives each winner mu 28.108, "
        "sigma 7.774, and each loser 21.892 and 7.774.",
        ("A (side A)", "B (side A)", "C (side B)", "D (side B)"),
        tuple(Seat(0, p, NEW, side=side) for p, side in ((1, "A"), (1, "A"), (2, "B"), (2, "B"))),
    ),
    "glicko2": Example(
        "Two against two: side A (1600, RD 50 and 1400, RD 300) beats side B (two players at 1500, RD 100). "
        "Each player has the side's games at the side's rating with their own deviation: the uncertain "
        "partner moves far more.",
        ("A (side A)", "B (side A)", "C (side B)", "D (side B)"),
        (
            Seat(1600, 1, {"rd": 50.0, "vol": 0.06}, side="A"),
            Seat(1400, 1, {"rd": 300.0, "vol": 0.06}, side="A"),
            Seat(1500, 2, {"rd": 100.0, "vol": 0.06}, side="B"),
            Seat(1500, 2, {"rd": 100.0, "vol": 0.06}, side="B"),
        ),
    ),
    "openskill": Example(
        "Two against two, everyone new: the library's team update gives each winner mu 26.964, sigma 8.178.",
        ("A (side A)", "B (side A)", "C (side B)", "D (side B)"),
        tuple(Seat(0, p, NEW, side=side) for p, side in ((1, "A"), (1, "A"), (2, "B"), (2, "B"))),
    ),
}
