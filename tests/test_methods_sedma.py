"""The Sedma method against the branches of its C# code, in single precision like the C#."""

import pytest

from ratings.methods import METHODS, Facts, MethodError, Seat
from ratings.methods.sedma import adjusted_score, bonus, f32, malus

sedma = METHODS["sedma"]


def rate(a, b, **params):
    return sedma.compute([a, b], Facts(), sedma.clean_params(params))


def test_a_plain_win_is_two_player_elo_with_band_k_and_whole_numbers():
    # 1200 beats 1000: A has K 32 (1200-1799), B has K 40 (below 1200).
    a, b = rate(Seat(1200, 1), Seat(1000, 2))
    assert (a.k, b.k) == (32, 40)
    assert (a.score, b.score) == (1, 0)
    assert (a.rating_after, b.rating_after) == (1208, 990)  # 1207.688 and 990.390, rounded


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ({"won_by_16": 1}, f32(0.05)),
        ({"won_by_16": 3}, f32(0.15)),
        ({"won_by_16": 7}, f32(0.15)),  # capped at 0.15
        ({"won_by_24": 1}, f32(0.1)),
        ({"won_by_24": 5}, f32(0.2)),  # capped at 0.2
        ({"won_by_4_and_last": 2}, f32(f32(0.03) * 2)),
        ({"won_by_4_and_last": 9}, f32(0.09)),  # capped at 0.09
        (
            {"won_by_16": 9, "won_by_24": 9, "won_by_4_and_last": 9},
            f32(f32(f32(0.15) + f32(0.2)) + f32(0.09)),
        ),
    ],
)
def test_the_winners_bonuses_are_capped_per_kind(counts, expected):
    assert bonus(Seat(1500, 1, **counts), won=True) == expected


def test_a_loser_gets_a_tenth_of_the_bonuses():
    assert bonus(Seat(1500, 2, won_by_24=1), won=False) == f32(f32(0.1) * f32(0.1))
    assert bonus(Seat(1500, 2, won_by_24=1), won=False) == pytest.approx(0.01)


@pytest.mark.parametrize(
    ("bad_moves", "expected"),
    [
        (0, 0),
        (1, f32(0.02)),
        (10, f32(10 * f32(0.02))),
        (15, f32(15 * f32(0.02))),
        (16, f32(0.3)),
        (40, f32(0.3)),
    ],
)
def test_bad_moves_cost_002_each_at_most_03(bad_moves, expected):
    assert malus(Seat(1500, 1, bad_moves=bad_moves)) == expected


def test_fifteen_bad_moves_stay_just_under_the_cap_in_single_precision_as_in_the_c_sharp():
    assert malus(Seat(1500, 1, bad_moves=15)) == 0.29999998211860657 < f32(0.3)


def test_the_score_is_clamped_between_0_and_1():
    assert adjusted_score(Seat(1500, 1, won_by_16=3), won=True) == 1  # 1.15 -> 1
    assert adjusted_score(Seat(1500, 2, bad_moves=5), won=False) == 0  # -0.1 -> 0
    # A win with 20 bad moves (malus capped at 0.3) scores 0.7 in single precision.
    assert adjusted_score(Seat(1500, 1, bad_moves=20), won=True) == f32(f32(1.0) - f32(0.3))
    assert adjusted_score(Seat(1500, 1, bad_moves=20), won=True) == pytest.approx(0.7, abs=1e-7)


def test_a_strong_loss_still_counts_and_a_reckless_win_counts_less():
    # The seed's example: B loses but won a round by 24, so scores 0.01 instead of 0.
    a, b = rate(Seat(1200, 1, won_by_16=3, bad_moves=2), Seat(1000, 2, won_by_24=1))
    assert a.score == 1  # 1 + 0.15 - 0.04, clamped
    assert b.score == f32(f32(0.1) * f32(0.1)) == 0.010000000707805157
    assert (a.rating_after, b.rating_after) == (1208, 991)  # 990.79 rounds up
    reckless, _ = rate(Seat(1500, 1, bad_moves=15), Seat(1500, 2))
    assert reckless.rating_after == 1506  # 1500 + 32 * (0.7 - 0.5) = 1506.4


def test_ratings_are_rounded_like_math_round_and_can_be_kept_exact():
    a, _ = rate(Seat(1200, 1), Seat(1000, 2), round=False)
    assert a.rating_after == pytest.approx(1207.688, abs=0.0005)
    assert round(2.5) == 2  # Python's round() halves to even, as C#'s Math.Round does


def test_only_two_players_and_no_draws():
    with pytest.raises(MethodError, match="two-player games only, not 3 players"):
        sedma.compute([Seat(1500, 1), Seat(1500, 2), Seat(1500, 3)], Facts(), sedma.defaults())
    with pytest.raises(MethodError, match="no draws"):
        rate(Seat(1500, 1), Seat(1500, 1))
