"""Two Way Street's multiplayer Elo: pairwise by placing, K from the number of players.

K by players: 2: 48, 3-4: 32, 5-6: 24, 7-8: 16, 9-10: 12, 11 or more: 8. When the winner's score was
19-24 (a game to 19) K is one step lower, when it was 12-18 (a game to 12) two steps lower; below 8
the steps go on with 6 and 4. A blank winner's score is a full game to 25. Scores under 12 count as
a game to 12.

Game-length correction (optional). For games to p and 2p points, with x the rating difference for
games to p, the seed derives x(2p) = 2x + 400 log10((10^(x/400) + 3) / (3 * 10^(x/400) + 1)):
a game to 2p is treated as a best two out of three games to p. Ratings are for games to 25, so in a
game to 12 each rating difference is replaced by the inverse of that function before the expectation
is computed: the weaker player's chances are better in a short game. The seed's author never
published the function for games to 19, so games to 19 get the lower K but no correction.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .base import Facts, Method, Outcome, Param, Seat, elo_expected, start_rating_param
from .pairwise import PAIRWISE_EXPLANATION, ROUND, pairwise_outcomes, placing_scores
from .sides import MeanSides

K_STEPS = (48, 32, 24, 16, 12, 8, 6, 4)


def players_step(players: int) -> int:
    """The step on K_STEPS for a table of `players`: 2 -> 48, 3-4 -> 32, ..., 11+ -> 8."""
    if players < 2:
        raise ValueError("a game needs at least two players")
    return min((players - 1) // 2, 5)


def length_steps(winner_score: int | None) -> int:
    """How many steps lower K is for a shorter game: 1 for 19-24, 2 for 18 or less, else 0."""
    if winner_score is None or winner_score >= 25:
        return 0
    return 1 if winner_score >= 19 else 2


def table_size_k(players: int, winner_score: int | None = None) -> int:
    return K_STEPS[min(players_step(players) + length_steps(winner_score), len(K_STEPS) - 1)]


def double_length(x: float) -> float:
    """The rating difference in games to 2p points for a difference `x` in games to p points."""
    if x > 1000:  # 10^(x/400) would overflow past x = 123,000: divide through by it instead
        v = 10 ** (-x / 400)
        return 2 * x + 400 * math.log10((1 + 3 * v) / (3 + v))
    u = 10 ** (x / 400)
    return 2 * x + 400 * math.log10((u + 3) / (3 * u + 1))


def _doubled_and_slope(y: float) -> tuple[float, float]:
    """`double_length(y)` for y >= 0 and its slope, written with v = 10^(-y/400) so that nothing
    overflows however large y is: 2y + 400 log10((1 + 3v) / (3 + v)), slope 2 - 8v / ((3 + v)(1 + 3v))."""
    v = 10 ** (-y / 400)
    return 2 * y + 400 * math.log10((1 + 3 * v) / (3 + v)), 2 - 8 * v / ((3 + v) * (1 + 3 * v))


def halve_length(x: float) -> float:
    """The inverse of `double_length`: the difference in games to p for a difference `x` in games to 2p.

    `double_length` is odd and rises with a slope between 1.5 and 2, so Newton's method from |x| / 1.5
    finds it to the last digits in a few steps, where bisection needs many (a 500-player matchday felt it).
    """
    target = abs(x)
    y = target / 1.5
    for _ in range(50):
        doubled, slope = _doubled_and_slope(y)
        step = (doubled - target) / slope
        y = min(max(y - step, 0.0), target)
        if abs(step) <= 1e-13 * max(1.0, y):
            break
    return math.copysign(y, x)


def short_game_expected(rating: float, opponent: float) -> float:
    """Elo expectation in a game to 12, from ratings for games to 25."""
    return elo_expected(halve_length(rating - opponent), 0.0)


def short_game_expectation() -> Callable[[float, float], float]:
    """`short_game_expected` for one matchday, solving each difference once: a - b is exactly
    -(b - a) and `halve_length` is odd, so each pair of players costs one solve, not two."""
    solved: dict[float, float] = {}

    def expected(rating: float, opponent: float) -> float:
        difference = rating - opponent
        size = abs(difference)
        if size not in solved:
            solved[size] = halve_length(size)
        return elo_expected(math.copysign(solved[size], difference), 0.0)

    return expected


class TableSize(MeanSides, Method):
    slug = "table-size"
    facts_read = ("winner_score",)
    name = "Pairwise, K by table size"
    source = "Two Way Street's multiplayer Elo"
    summary = (
        "Pairwise by placing; K depends on how many played (2: 48, 3-4: 32, 5-6: 24, 7-8: 16, 9-10: 12, "
        "11+: 8) and is one step lower when the winner scored 19-24, two steps lower when 12-18."
    )
    formula = """\
S, E as pairwise by placing
K by players: 2: 48, 3-4: 32, 5-6: 24, 7-8: 16, 9-10: 12, 11+: 8
  winner's score 19-24: one step lower; 12-18: two steps lower (steps below 8: 6, 4)
R' = R + K (S - E)
Game-length correction (games to 12): each difference x = R - Rj is replaced by y
  with 2y + 400 log10((10^(y/400) + 3) / (3 * 10^(y/400) + 1)) = x
"""
    explanation = PAIRWISE_EXPLANATION[:-1] + "; K comes from the number of players and the winner's score."
    params = (
        start_rating_param(1000, "Every player's first rating (Two Way Street: 1000)."),
        Param(
            "length_correction",
            "Game-length correction",
            False,
            "In games to 12 (winner's score 12-18), shrink rating differences as a shorter game would.",
            bool,
        ),
        ROUND,
    )

    def rate_players(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        self.check_players(seats)
        k = table_size_k(len(seats), facts.winner_score)
        short = length_steps(facts.winner_score) == 2
        expect = short_game_expectation() if short and params["length_correction"] else elo_expected
        return pairwise_outcomes(
            seats, scores=placing_scores(seats), k_of=lambda seat: k, whole_numbers=params["round"], expect=expect
        )
