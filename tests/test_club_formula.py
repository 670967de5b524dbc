"""The club formula on hand-worked cases, without a database."""

import pytest

from ratings.methods.base import elo_expected, round_half_up
from ratings.methods.club import club_changes, placing_scores


def test_scores_run_from_one_for_the_winner_to_zero_for_last():
    assert placing_scores([1, 2, 3, 4]) == pytest.approx([1, 2 / 3, 1 / 3, 0])


def test_tied_players_share_the_average_score_of_the_places_they_span():
    # Two players tied 2nd of 4 span 2nd and 3rd: (2/3 + 1/3) / 2 = 1/2 each.
    assert placing_scores([1, 2, 2, 4]) == pytest.approx([1, 0.5, 0.5, 0])
    # Everyone tied: everyone gets the average of all places.
    assert placing_scores([1, 1, 1]) == pytest.approx([0.5, 0.5, 0.5])
    # Two players of two tied for first.
    assert placing_scores([1, 1]) == pytest.approx([0.5, 0.5])


def test_placings_that_are_not_a_ranking_are_refused():
    with pytest.raises(ValueError, match="not a ranking"):
        placing_scores([1, 3, 3, 3])


def test_a_matchday_with_fewer_than_two_players_is_refused():
    with pytest.raises(ValueError, match="at least two players"):
        club_changes([1500], [1], rounds=3)


def test_equal_ratings_expect_half():
    assert elo_expected(1500, 1500) == 0.5
    # 400 points above the others' mean: 10 times as likely, 10/11.
    assert elo_expected(1900, 1500) == pytest.approx(10 / 11)


def test_first_matchday_of_the_club_reproduces_the_published_ratings():
    # Matchday 1: I 1st, R 3rd, GL 4th, K 2nd, 7 rounds so K = 70; everyone at 1500 expects 0.5.
    changes = club_changes([1500] * 4, [1, 3, 4, 2], rounds=7)
    assert [c.rating_after for c in changes] == [1535, 1488, 1465, 1512]
    first = changes[0]
    assert (first.k, first.expected, first.score, first.opponents_mean) == (70, 0.5, 1, 1500)
    assert first.delta == 35


def test_a_penalised_player_is_scored_at_the_rated_placing():
    # Club matchday 5: R finished 3rd but is rated 4th, so J alone is 3rd (rated placings 2,4,1,3).
    ratings = [1489, 1503, 1462, 1544]  # I, R, GL, J after matchday 4
    changes = club_changes(ratings, [2, 4, 1, 3], rounds=4)
    assert [c.rating_after for c in changes] == [1496, 1483, 1485, 1534]
    assert changes[1].score == 0


def test_hand_worked_tie_with_unequal_ratings():
    # A 1600 wins; B 1500 and C 1400 tie for 2nd of 3 (they share (1/2 + 0) / 2 = 1/4). K = 20.
    a, b, c = club_changes([1600, 1500, 1400], [1, 2, 2], rounds=2, whole_numbers=False)
    # A: M = 1450, E = 1/(1+10^(-150/400)) = 0.703385...; 1600 + 20 * (1 - 0.703385) = 1605.932
    assert a.opponents_mean == 1450
    assert a.expected == pytest.approx(0.703385, abs=1e-6)
    assert a.rating_after == pytest.approx(1605.9323, abs=1e-4)
    # B: M = 1500, E = 0.5; 1500 + 20 * (0.25 - 0.5) = 1495
    assert b.score == 0.25 and b.rating_after == pytest.approx(1495)
    # C: M = 1550, E = 1/(1+10^(150/400)) = 0.296615; 1400 + 20 * (0.25 - 0.296615) = 1399.068
    assert c.rating_after == pytest.approx(1399.0677, abs=1e-4)


def test_whole_numbers_round_half_up_like_a_person_does():
    assert [round_half_up(x) for x in (1.5, 2.5, -0.5, 1499.49, 1499.5)] == [2, 3, 0, 1499, 1500]


def test_k_is_the_multiplier_times_the_rounds():
    changes = club_changes([1500, 1500], [1, 2], rounds=3, k_per_round=16, whole_numbers=False)
    assert [c.k for c in changes] == [48, 48]
    assert [c.delta for c in changes] == [24, -24]
