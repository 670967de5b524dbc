"""The openskill method: the library's Plackett-Luce numbers, the ordinal and provisional players."""

import pytest

from ratings.methods import METHODS, Facts, Seat

openskill = METHODS["openskill"]


def test_new_players_start_at_ordinal_0_with_the_librarys_mu_and_sigma():
    rating, state = openskill.start(openskill.defaults())
    assert rating == 0
    assert state == {"mu": 25, "sigma": pytest.approx(25 / 3)}


def test_a_first_four_player_matchday_gives_the_librarys_numbers():
    start = openskill.start(openskill.defaults())
    seats = [Seat(start[0], p, start[1]) for p in (1, 2, 3, 4)]
    first, second, third, last = openskill.compute(seats, Facts(), openskill.defaults())
    # Plackett-Luce, all at mu 25, sigma 25/3: the winner's mu 27.795, sigma 8.264.
    assert first.state == {
        "mu": pytest.approx(27.795253, abs=1e-6),
        "sigma": pytest.approx(8.263572, abs=1e-6),
    }
    assert last.state["mu"] == pytest.approx(20.962413, abs=1e-6)
    assert first.rating_after == pytest.approx(27.795253 - 3 * 8.263572, abs=1e-5)
    assert first.extras["ordinal"] == first.rating_after
    assert first.k is None
    # Pairwise scores and the model's pairwise win chances (all equal: 0.5 each).
    assert [o.score for o in (first, second, third, last)] == [3, 2, 1, 0]
    assert first.expected == pytest.approx(1.5)


def test_players_are_provisional_until_their_sigma_falls_below_the_threshold():
    start = openskill.start(openskill.defaults())
    players = [start] * 4
    provisional = []
    for matchday in range(10):
        seats = [Seat(r, (i + matchday) % 4 + 1, s) for i, (r, s) in enumerate(players)]
        outcomes = openskill.compute(seats, Facts(), openskill.defaults())
        players = [(o.rating_after, o.state) for o in outcomes]
        provisional.append(all(o.extras["provisional"] for o in outcomes))
    assert provisional[0] is True
    assert provisional[-1] is False
    assert all(o.extras["sigma"] < 7 for o in outcomes)


def test_a_rating_without_state_is_taken_as_an_ordinal_at_the_start_sigma():
    a, b = openskill.compute([Seat(10, 1), Seat(0, 2)], Facts(), openskill.defaults())
    assert a.rating_before == pytest.approx(10)
    assert a.expected > 0.5 > b.expected
