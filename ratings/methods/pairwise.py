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

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .base import Facts, Method, Outcome, Param, Seat, elo_expected, finish, pair_score, start_rating_param
from .sides import MeanSides

START = start_rating_param(1500)
ROUND = Param("round", "Whole numbers", False, "Round ratings to whole numbers after every matchday.", bool)
MAX_K = 10_000
FIXED_K = Param("k", "K", 32, "K for every player and every matchday.", positive=True, maximum=MAX_K)
K_SCALES = ("fixed", "per-opponent", "multielo")
K_SCALE = Param(
    "k_scale",
    "K scaled by table size",
    "fixed",
    "fixed: K per opponent (World of Card Games); per-opponent: K / (n - 1) (catan-ranker); "
    "multielo: 2K / n (the multielo package), for n players at the table.",
    str,
    choices=K_SCALES,
)


def scaled_k(k: float, scale: str, players: int) -> float:
    """K per opponent at a table of `players`: K itself, K / (n - 1), or multielo's 2K / n.

    multielo scores a table of n as its n(n - 1)/2 pairs, normalised, and moves a rating by
    K (n - 1) times the normalised difference: per opponent that is 2K / n."""
    if scale == "per-opponent":
        return k / (players - 1)
    if scale == "multielo":
        return 2 * k / players
    return k


PAIRWISE_EXPLANATION = (
    "R′ = R + K (Score − Expected), where Score counts 1 for each other player finished ahead of and ½ for "
    "each tie, and Expected = Σ 1 / (1 + 10^((Rj − R)/400)) over the other players j."
)


# Below this spread of ratings no Elo exponent reaches 10^±300, so `elo_expected`'s clamp never acts
# and the plain formula, written inline for speed, gives the same numbers to the last bit.
UNCLAMPED_SPREAD = 119_000


def pairwise_outcomes(
    seats: Sequence[Seat],
    *,
    scores: Sequence[float],
    k_of: Callable[[Seat], float],
    whole_numbers: bool,
    expect: Callable[[float, float], float] = elo_expected,
) -> list[Outcome]:
    """Each player's sum of pairwise scores (given) and expectations against everyone else at the
    table. The sums run over the other players in the order given: O(n^2), which 500 players still afford."""
    ratings = [seat.rating for seat in seats]
    inline = expect is elo_expected and max(ratings) - min(ratings) <= UNCLAMPED_SPREAD
    outcomes = []
    for i, (seat, score) in enumerate(zip(seats, scores, strict=True)):
        r = seat.rating
        if inline:
            expected = sum(1 / (1 + 10 ** ((o - r) / 400)) for j, o in enumerate(ratings) if j != i)
        else:
            expected = sum(expect(r, o) for j, o in enumerate(ratings) if j != i)
        k = k_of(seat)
        after = finish(r, k * (score - expected), whole_numbers)
        outcomes.append(
            Outcome(
                rating_before=r,
                placing=seat.placing,
                expected=expected,
                score=score,
                k=k,
                delta=after - r,
                rating_after=after,
            )
        )
    return outcomes


def by_placing(seat: Seat, other: Seat) -> float:
    return pair_score(seat.placing, other.placing)


def placing_scores(seats: Sequence[Seat]) -> list[float]:
    """Each player's sum of `by_placing` against the others, counted rather than paired: 1 for each
    player placed behind, 0.5 for each other player on the same place (exact: halves add up exactly)."""
    n = len(seats)
    at = Counter(seat.placing for seat in seats)
    behind, seen = {}, 0
    for placing in sorted(at, reverse=True):
        behind[placing] = seen
        seen += at[placing]
    return [float(behind[s.placing]) + 0.5 * (at[s.placing] - 1) for s in seats] if n else []


class PairwisePlacing(MeanSides, Method):
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
K per opponent, for n players: K (fixed), K / (n - 1) (per-opponent) or 2K / n (multielo)
R' = R + K (S - E)
"""
    explanation = PAIRWISE_EXPLANATION
    params = (START, FIXED_K, K_SCALE, ROUND)

    def rate_players(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        self.check_players(seats)
        k = scaled_k(params["k"], params["k_scale"], len(seats))
        return pairwise_outcomes(
            seats, scores=placing_scores(seats), k_of=lambda seat: k, whole_numbers=params["round"]
        )


def winner_only(seat: Seat, other: Seat) -> float:
    """Only 1st place wins; the others tie each other. A player who left early loses to everyone
    still playing (and ties with others who left)."""
    if seat.left_early or other.left_early:
        return 0.5 if seat.left_early and other.left_early else 0.0 if seat.left_early else 1.0
    won, other_won = seat.placing == 1, other.placing == 1
    return 0.5 if won == other_won else 1.0 if won else 0.0


def winner_only_scores(seats: Sequence[Seat]) -> list[float]:
    """Each player's sum of `winner_only` against the others, counted rather than paired."""
    n = len(seats)
    left = sum(1 for s in seats if s.left_early)
    winners = sum(1 for s in seats if not s.left_early and s.placing == 1)
    losers = n - left - winners  # still playing, not 1st
    scores = []
    for s in seats:
        if s.left_early:
            scores.append(0.5 * (left - 1))
        elif s.placing == 1:
            scores.append(float(left + losers) + 0.5 * (winners - 1))
        else:
            scores.append(float(left) + 0.5 * (losers - 1))
    return scores


class PairwiseWinner(MeanSides, Method):
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
K per opponent, for n players: K (fixed), K / (n - 1) (per-opponent) or 2K / n (multielo)
R' = R + K (S - E)
"""
    explanation = (
        "R′ = R + K (Score − Expected), where Score counts 1 against each other player for the winner and ½ "
        "between the others (0 against everyone still playing for a player who left early), and Expected = "
        "Σ 1 / (1 + 10^((Rj − R)/400)) over the other players j."
    )
    params = (START, FIXED_K, K_SCALE, ROUND)

    def rate_players(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        self.check_players(seats)
        k = scaled_k(params["k"], params["k_scale"], len(seats))
        return pairwise_outcomes(
            seats, scores=winner_only_scores(seats), k_of=lambda seat: k, whole_numbers=params["round"]
        )


def band_k(rating: float) -> int:
    """K from the player's own rating: below 1200: 40, below 1800: 32, below 2200: 24, else 16."""
    if rating < 1200:
        return 40
    if rating < 1800:
        return 32
    if rating < 2200:
        return 24
    return 16


class RatingBand(MeanSides, Method):
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

    def own_k(self, seat: Seat, side: Outcome) -> float:
        return band_k(seat.rating)

    def rate_players(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        self.check_players(seats)
        return pairwise_outcomes(
            seats, scores=placing_scores(seats), k_of=lambda seat: band_k(seat.rating), whole_numbers=params["round"]
        )
