"""Two Way Street's table-size K and game-length correction, case by case."""

import pytest

from ratings.methods import METHODS, Facts, Seat
from ratings.methods.base import elo_expected
from ratings.methods.table_size import double_length, halve_length, short_game_expected, table_size_k

table_size = METHODS["table-size"]


@pytest.mark.parametrize(
    ("players", "k"),
    [(2, 48), (3, 32), (4, 32), (5, 24), (6, 24), (7, 16), (8, 16), (9, 12), (10, 12), (11, 8), (30, 8)],
)
def test_k_comes_from_the_number_of_players_in_a_full_game(players, k):
    assert table_size_k(players) == k
    assert table_size_k(players, 25) == k
    assert table_size_k(players, 31) == k


@pytest.mark.parametrize(("players", "k"), [(2, 32), (4, 24), (6, 16), (8, 12), (10, 8), (11, 6)])
def test_a_winners_score_of_19_to_24_lowers_k_one_step(players, k):
    assert table_size_k(players, 19) == k
    assert table_size_k(players, 24) == k


@pytest.mark.parametrize(("players", "k"), [(2, 24), (3, 16), (5, 12), (7, 8), (9, 6), (11, 4), (20, 4)])
def test_a_winners_score_of_12_to_18_lowers_k_two_steps_down_to_6_and_4(players, k):
    assert table_size_k(players, 12) == k
    assert table_size_k(players, 18) == k


def test_a_winners_score_below_12_counts_as_a_game_to_12():
    assert table_size_k(4, 7) == table_size_k(4, 12) == 16


def test_new_players_start_at_1000_and_the_k_of_the_table_is_used():
    params = table_size.clean_params({})
    assert params["start_rating"] == 1000
    outcomes = table_size.compute([Seat(1000, p) for p in (1, 2, 3, 4, 5)], Facts(winner_score=20), params)
    assert {o.k for o in outcomes} == {16}
    # Pairwise by placing: the winner beat four players expected to score 2: +16 * 2.
    assert outcomes[0].score == 4 and outcomes[0].delta == 32


def test_doubling_the_game_length_widens_a_100_point_difference_to_151():
    # 2 * 100 + 400 log10((10^0.25 + 3) / (3 * 10^0.25 + 1)) = 151.0144
    assert double_length(100) == pytest.approx(151.0144, abs=0.0001)
    assert double_length(0) == 0


@pytest.mark.parametrize("x", [-700, -151.0144, -1, 0, 1, 50, 151.0144, 400, 1200])
def test_halving_the_game_length_inverts_doubling(x):
    assert double_length(halve_length(x)) == pytest.approx(x, abs=1e-9)
    assert abs(halve_length(x)) <= abs(x)


def test_in_a_game_to_12_the_weaker_player_has_better_chances_with_the_correction():
    assert halve_length(151.0144) == pytest.approx(100, abs=0.0001)
    assert short_game_expected(1151.0144, 1000) == pytest.approx(elo_expected(1100, 1000), abs=1e-6)
    params = table_size.clean_params({"length_correction": "1"})
    strong, weak = table_size.compute([Seat(1400, 2), Seat(1000, 1)], Facts(winner_score=15), params)
    plain = table_size.compute([Seat(1400, 2), Seat(1000, 1)], Facts(winner_score=15), table_size.defaults())
    assert weak.expected > plain[1].expected
    assert weak.delta < plain[1].delta  # the upset is less of a surprise in a short game


def test_games_to_19_get_the_lower_k_but_no_length_correction():
    params = table_size.clean_params({"length_correction": True})
    corrected = table_size.compute([Seat(1400, 1), Seat(1000, 2)], Facts(winner_score=19), params)
    assert corrected[0].expected == elo_expected(1400, 1000)
    assert corrected[0].k == 32
