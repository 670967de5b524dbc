"""Players rated against the deals they play: freecell.net's Elo for solitaire (December 2020).

Pure Python (no Django). Players never meet: every deal (a numbered game of a variant at a difficulty
level) has a rating, and a player and a deal exchange points when the player wins or loses it:

    E  = 1 / (1 + 10^((D - R) / 400))         the player's chance to win
    R' = R + K (W - E)                         W = 1 for a win, 0 for a loss; K = 8
    D' = D - K (W - E)                         the deal gets exactly the opposite

Level boost: a fraction f (0.03) of every deal's change d also moves every other deal of the same
variant and level. A deal's rating is its own base plus its level's offset; a change d moves the
offset by f·d and the played deal's base by d - f·d, so the deal moves by d and its level by f·d.

A deal played for the first time starts at the mean rating of the level's known deals (seeded, or
first played earlier), 1500 when there are none. A deal seeded from a prior record of plays and
wins starts where a 1500 player would win it at its win rate pulled toward the level's average.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from league.validation import INACTIVITY_WINDOW

from .base import (
    Facts,
    Method,
    MethodError,
    Outcome,
    Param,
    Seat,
    elo_expected,
    pair_score,
    start_rating_param,
)

SLUG = "player-vs-deal"
START_RATING = 1500.0
K = 8.0
LEVEL_BOOST = 0.03
INACTIVE_DAYS = 14
SEED_PLAYS = 5  # fictitious plays at the level's average win rate added to a deal's record
WIN_RATE_BOUNDS = (0.001, 0.999)


class ExactSum:
    """A sum of floats kept exactly (Shewchuk's partials, as in math.fsum), so that the mean of a
    level's deals depends only on their current ratings, never on the order of the changes that led
    there: a recompute resumed mid-history gets the very same mean as one from the start."""

    def __init__(self, values: Iterable[float] = ()):
        self.partials: list[float] = []
        for value in values:
            self.add(value)

    def add(self, x: float) -> None:
        partials, i = self.partials, 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            high = x + y
            low = y - (high - x)
            if low:
                partials[i] = low
                i += 1
            x = high
        partials[i:] = [x]

    def remove(self, x: float) -> None:
        self.add(-x)

    @property
    def value(self) -> float:
        return math.fsum(self.partials)


@dataclass
class Level:
    """One variant and level: its offset, and the exact sum and number of its known deals' bases."""

    offset: float = 0.0
    known: int = 0
    total: ExactSum = field(default_factory=ExactSum)

    def add(self, base: float) -> None:
        self.known += 1
        self.total.add(base)

    def new_base(self, start: float = START_RATING) -> float:
        """The base of a deal played for the first time: the mean rating of the known deals, offset
        included (the start rating when there are none), less the offset."""
        if not self.known:
            return start - self.offset
        return self.total.value / self.known

    @property
    def mean(self) -> float | None:
        """The average rating of the level's known deals, offset included."""
        return self.total.value / self.known + self.offset if self.known else None


@dataclass(frozen=True)
class AttemptChange:
    """Every number of one rated attempt."""

    player_before: float
    deal_before: float
    won: bool
    expected: float
    k: float
    delta: float  # the player's change; the deal's is exactly -delta
    player_after: float
    deal_after: float
    base_after: float  # the deal's own part of its rating
    offset_after: float  # its level's offset, which every deal of the level carries


def expected(player: float, deal: float) -> float:
    """The player's chance to win the deal: 1 / (1 + 10^((deal - player) / 400))."""
    return elo_expected(player, deal)


def play(
    player: float, base: float, level: Level, won: bool, k: float = K, boost: float = LEVEL_BOOST
) -> AttemptChange:
    """Rate one attempt of a player rated `player` at a deal whose base is `base`, and move `level`
    (its offset and the sum of its bases) along. The deal's new base is in the result."""
    deal = base + level.offset
    chance = expected(player, deal)
    delta = k * ((1.0 if won else 0.0) - chance)
    d = -delta  # what the deal gets
    shared = boost * d
    new_base = base + (d - shared)
    level.total.remove(base)
    level.total.add(new_base)
    level.offset += shared
    return AttemptChange(
        player, deal, won, chance, k, delta, player + delta, new_base + level.offset, new_base, level.offset
    )


def seed_rating(plays: int, wins: int, level_average: float, start: float = START_RATING) -> float:
    """The rating at which a `start` player wins the deal with its win rate pulled toward the level's
    average by five fictitious plays: w = (wins + 5 avg) / (plays + 5), clamped to [0.001, 0.999],
    rating = start + 400 log10((1 - w) / w). 10 wins in 100 plays at a 64% level: 1837."""
    low, high = WIN_RATE_BOUNDS
    rate = min(max((wins + SEED_PLAYS * level_average) / (plays + SEED_PLAYS), low), high)
    return start + 400 * math.log10((1 - rate) / rate)


def seed_level(records: Mapping[Any, tuple[int, int]], start: float = START_RATING) -> dict[Any, float]:
    """Ratings of one level's seeded deals from their (plays, wins): the level's average win rate is
    its total wins over its total plays."""
    plays = sum(p for p, _ in records.values())
    if not plays:
        return {}
    average = sum(w for _, w in records.values()) / plays
    return {deal: seed_rating(p, w, average, start) for deal, (p, w) in records.items()}


def power_ranking(wins: int, attempts: int, average_rating: float) -> float:
    """The seed's power ranking of a variant and level: its win rate times its average deal rating
    (92.57% of 1315.947 is 1218.128)."""
    return wins / attempts * average_rating if attempts else 0.0


class PlayerVsDeal(Method):
    slug = SLUG
    name = "Player against deal"
    source = "freecell.net's Elo ratings for solitaire (December 2020)"
    summary = (
        "Players never meet: every deal has a rating, and a player and a deal exchange points when the "
        "player wins or loses it. A few hundredths of each deal's change move every other deal of its "
        "variant and level, so whole levels find their difficulty quickly. For games played against deals."
    )
    formula = """\
E  = 1 / (1 + 10^((D - R) / 400))      R: the player's rating, D: the deal's
R' = R + K (W - E)                     W: 1 for a win, 0 for a loss
D' = D - K (W - E)                     the deal gets exactly the opposite
every other deal of the same variant and level moves by f (D' - D)
a deal played for the first time starts at the mean rating of its level's known deals (1500 if none)
a seeded deal: w = (wins + 5 avg) / (plays + 5), clamped to [0.001, 0.999]; D = 1500 + 400 log10((1 - w) / w)
    avg: the level's wins over its plays; 10 wins in 100 plays at a 64% level: 13.2 / 105, D = 1837
power ranking of a variant and level: win rate there x average deal rating there (92.57% x 1315.947 = 1218.128)
"""
    explanation = (
        "R′ = R + K (Won − Expected), Expected = 1 / (1 + 10^((D − R)/400)) where D is the deal's rating; "
        "the deal gets the opposite change, and f of it moves every other deal of its variant and level."
    )
    pieces = ("expected", "score", "k")
    params = (
        start_rating_param(START_RATING, "Every player's first rating, and a level's first deal's."),
        Param("k", "K", K, "The most points a player and a deal exchange in one attempt.", positive=True, maximum=1000),
        Param(
            "level_boost",
            "Level boost f",
            LEVEL_BOOST,
            "The share of a deal's change that also moves every other deal of its variant and level.",
            minimum=0,
            maximum=1,
        ),
        Param(
            "first_attempt_only",
            "First attempt only",
            False,
            "Rate only a player's first rated attempt at each deal (as Lichess rates puzzles).",
            bool,
        ),
        Param(
            "inactive_days",
            "Inactive after",
            INACTIVE_DAYS,
            "Standings hide players with no attempt in this many days before the latest session (0: never).",
            int,
            unit="days",
            minimum=INACTIVITY_WINDOW.lowest,
            maximum=INACTIVITY_WINDOW.highest,
        ),
    )
    two_players_only = True
    against_deals = True
    # Parameters that only change what pages show: changing them recomputes nothing.
    display_only = ("inactive_days",)

    def check_players(self, seats: Sequence[Seat]) -> None:
        super().check_players(seats)
        if seats[0].placing == seats[1].placing:
            raise MethodError("an attempt is won or lost, never tied")

    def rate_players(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        """One attempt as two seats, the player and the deal (placing 1 wins): each gets K (S - E),
        which is the opposite of the other's. The level boost moves the deal's other deals, which
        are not seats here."""
        k = params["k"]
        outcomes = []
        for seat, other in ((seats[0], seats[1]), (seats[1], seats[0])):
            chance = expected(seat.rating, other.rating)
            score = pair_score(seat.placing, other.placing)
            delta = k * (score - chance)
            outcomes.append(Outcome(seat.rating, seat.placing, chance, score, k, delta, seat.rating + delta))
        return outcomes
