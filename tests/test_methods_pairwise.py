"""The pairwise methods on the seed documents' worked examples, without a database."""

import pytest

from ratings.methods import METHODS, Facts, MethodError, Seat
from ratings.methods.base import elo_expected
from ratings.methods.pairwise import band_k

placing = METHODS["pairwise-placing"]
winner = METHODS["pairwise-winner"]
band = METHODS["rating-band"]


def rate(method, ratings, placings, **params):
    seats = [Seat(r, p) for r, p in zip(ratings, placings, strict=True)]
    return method.compute(seats, Facts(), method.clean_params(params))


def test_the_hearts_seeds_1613_player_loses_points_in_a_five_round_tournament():
    # Loses to 1609, draws with 1477, beats 1388 and 1586, loses to 1720: as one table, the player
    # shares 3rd place with 1477, 1609 and 1720 finished ahead, 1388 and 1586 behind.
    (player, *_) = rate(placing, [1613, 1609, 1477, 1388, 1586, 1720], [3, 1, 3, 5, 5, 1], round=True)
    assert player.score == 2.5
    assert player.expected == pytest.approx(2.867, abs=0.0005)
    assert player.k == 32
    assert player.rating_after == 1601


def test_each_pairwise_expectation_of_the_hearts_seed():
    expectations = [elo_expected(1613, r) for r in (1609, 1477, 1388, 1586, 1720)]
    assert expectations == pytest.approx([0.506, 0.686, 0.785, 0.539, 0.351], abs=0.0005)


def test_two_player_elo_1200_beats_1000_with_k_32():
    a, b = rate(placing, [1200, 1000], [1, 2])
    assert a.rating_after == pytest.approx(1207.688, abs=0.0005)
    assert b.rating_after == pytest.approx(992.312, abs=0.0005)
    assert a.delta == pytest.approx(-b.delta)


@pytest.mark.parametrize(("won", "after"), [(True, 1500.43), (False, 1492.43)])
def test_the_freecell_seeds_1500_player_against_a_1000_deal_with_k_8(won, after):
    player, deal = rate(placing, [1500, 1000], [1, 2] if won else [2, 1], k=8)
    assert player.expected == pytest.approx(0.9468, abs=0.00005)
    assert player.rating_after == pytest.approx(after, abs=0.005)
    assert deal.delta == pytest.approx(-player.delta)


def test_by_placing_second_place_beats_third_and_fourth():
    # The Hearts seed's table: A, B, C, D rated 1512, 1562, 1484, 1417 finish 1st to 4th.
    scores = [o.score for o in rate(placing, [1512, 1562, 1484, 1417], [1, 2, 3, 4])]
    assert scores == [3, 2, 1, 0]


def test_winner_only_the_others_lose_to_the_winner_and_tie_with_each_other():
    outcomes = rate(winner, [1512, 1562, 1484, 1417], [1, 2, 3, 4])
    assert [o.score for o in outcomes] == [3, 1, 1, 1]
    # B expected more than 1 (1562 is the highest rating), so B's second place now loses points.
    assert outcomes[1].expected == pytest.approx(1.8792, abs=0.0001)
    assert outcomes[1].delta < 0
    # The expectations are the same as by placing; only the scores differ.
    assert [o.expected for o in outcomes] == [o.expected for o in rate(placing, [1512, 1562, 1484, 1417], [1, 2, 3, 4])]


def test_a_player_who_left_early_loses_to_everyone_still_playing():
    seats = [Seat(1500, 1), Seat(1500, 2), Seat(1500, 3), Seat(1500, 4, left_early=True)]
    outcomes = winner.compute(seats, Facts(), winner.defaults())
    assert [o.score for o in outcomes] == [3, 1.5, 1.5, 0]
    # Had they stayed, they would have tied with 2nd and 3rd: leaving costs 1 point of score, K 32.
    stayed = rate(winner, [1500] * 4, [1, 2, 3, 4])
    assert stayed[3].delta - outcomes[3].delta == pytest.approx(32)


def test_players_who_both_left_early_tie_with_each_other():
    seats = [Seat(1500, 1), Seat(1500, 2), Seat(1500, 3, left_early=True), Seat(1500, 4, left_early=True)]
    assert [o.score for o in winner.compute(seats, Facts(), winner.defaults())] == [3, 2, 0.5, 0.5]


def test_tied_winners_tie_each_other_and_beat_the_rest():
    assert [o.score for o in rate(winner, [1500] * 3, [1, 1, 3])] == [1.5, 1.5, 0]


@pytest.mark.parametrize(
    ("rating", "k"),
    [
        (800, 40),
        (1199, 40),
        (1199.9, 40),
        (1200, 32),
        (1500, 32),
        (1799, 32),
        (1800, 24),
        (2199, 24),
        (2200, 16),
        (2800, 16),
    ],
)
def test_rating_band_k_comes_from_the_players_own_rating(rating, k):
    assert band_k(rating) == k


def test_rating_band_gives_each_player_their_own_k():
    outcomes = rate(band, [1100, 1500, 1900, 2300], [4, 3, 2, 1])
    assert [o.k for o in outcomes] == [40, 32, 24, 16]
    low = outcomes[0]
    assert low.delta == pytest.approx(40 * (0 - low.expected))


def test_whole_numbers_round_half_up_when_asked():
    # 1500 v 1500 with K 33: 1500 + 33 * 0.5 = 1516.5, carried as 1517 and 1484 (1483.5 up).
    a, b = rate(placing, [1500, 1500], [1, 2], k=33, round=True)
    assert (a.rating_after, b.rating_after) == (1517, 1484)


def test_placings_that_are_not_a_ranking_are_refused_naming_them():
    with pytest.raises(MethodError, match="placings 1, 1, 2 are not a ranking of 3 players"):
        rate(placing, [1500] * 3, [1, 1, 2])


# K scaled by the table's size (`k_scale`). The multielo package's numbers, K 32: its linear score
# function normalised over the n(n - 1)/2 pairs moves a rating by 2K/n per opponent.
@pytest.mark.parametrize(
    ("ratings", "placings", "after"),
    [
        ([1200, 1000], [1, 2], [1207.68809835, 992.31190165]),
        ([1200, 1000, 900], [1, 2, 3], [1208.34629612, 1002.55321444, 889.10048944]),
        ([1200, 1000, 800], [1, 2, 2], [1207.06479284, 989.33333333, 803.60187383]),
    ],
)
def test_multielo_scaling_gives_the_multielo_packages_numbers(ratings, placings, after):
    outcomes = rate(placing, ratings, placings, k=32, k_scale="multielo")
    assert [round(o.rating_after, 8) for o in outcomes] == after


@pytest.mark.parametrize(
    ("scale", "k"),
    [("fixed", 32), ("per-opponent", 32 / 3), ("multielo", 2 * 32 / 4)],
)
def test_k_scale_gives_k_per_opponent_for_a_table_of_four(scale, k):
    for method in (placing, winner):
        outcomes = rate(method, [1500, 1500, 1500, 1500], [1, 2, 3, 4], k=32, k_scale=scale)
        assert [o.k for o in outcomes] == pytest.approx([k] * 4)
        first = outcomes[0]
        assert first.delta == pytest.approx(k * (first.score - first.expected))


def test_per_opponent_scaling_moves_a_winner_by_k_whatever_the_table():
    # catan-ranker's K 64 over the n - 1 opponents: beating three equals is worth what beating one is.
    (two,) = rate(placing, [1500, 1500], [1, 2], k=64, k_scale="per-opponent")[:1]
    (four,) = rate(placing, [1500] * 4, [1, 2, 3, 4], k=64, k_scale="per-opponent")[:1]
    assert two.delta == four.delta == 32


def test_an_unknown_k_scale_is_refused_naming_the_choices():
    with pytest.raises(ValueError, match="k_scale: must be fixed or per-opponent or multielo, not 'linear'"):
        placing.clean_params({"k_scale": "linear"})


def test_counted_scores_equal_the_pairwise_definition():
    from ratings.methods.pairwise import by_placing, placing_scores, winner_only, winner_only_scores

    seats = [
        Seat(1500, 1),
        Seat(1500, 1),
        Seat(1500, 3),
        Seat(1500, 3, left_early=True),
        Seat(1500, 5),
        Seat(1500, 5, left_early=True),
        Seat(1500, 7),
    ]
    for counted, pairwise in ((placing_scores, by_placing), (winner_only_scores, winner_only)):
        assert counted(seats) == [sum(pairwise(s, o) for o in seats if o is not s) for s in seats]
