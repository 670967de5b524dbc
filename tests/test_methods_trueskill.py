"""The trueskill method: the trueskill package's own numbers, its rating mu - 3 sigma, provisional
players, and matchdays too large for the package's normal tails."""

import math

import pytest
import trueskill as package

from ratings.methods import METHODS, Facts, Seat
from ratings.methods.trueskill_ffa import TAIL, Environment, mills_ratio

method = METHODS["trueskill"]
DEFAULTS = method.defaults()


def new_players(*placings):
    rating, state = method.start(DEFAULTS)
    return [Seat(rating, p, state) for p in placings]


def test_the_defaults_are_the_packages():
    assert DEFAULTS == {
        "mu": 25.0,
        "sigma": pytest.approx(25 / 3),
        "beta": pytest.approx(25 / 6),
        "tau": pytest.approx(25 / 300),
        "draw_probability": 0.1,
        "provisional_sigma": 4.0,
        "round": False,
    }
    assert method.start(DEFAULTS) == (pytest.approx(0), {"mu": 25.0, "sigma": pytest.approx(25 / 3)})


def test_four_new_players_ranked_1_2_2_4_get_the_packages_numbers():
    outcomes = method.compute(new_players(1, 2, 2, 4), Facts(), DEFAULTS)
    assert [round(o.state["mu"], 6) for o in outcomes] == [31.563972, 24.993094, 25.006906, 18.436028]
    assert [round(o.state["sigma"], 6) for o in outcomes] == [6.404703, 5.559362, 5.559362, 6.404703]
    # The package rates the two tied players slightly apart (it passes messages in finishing order).
    assert outcomes[1].state["mu"] != outcomes[2].state["mu"]


def test_the_rating_is_mu_minus_three_sigma_and_there_is_no_k():
    first, *_, last = method.compute(new_players(1, 2, 3, 4), Facts(), DEFAULTS)
    assert first.rating_after == pytest.approx(first.state["mu"] - 3 * first.state["sigma"])
    assert first.rating_before == pytest.approx(0)
    assert first.delta == first.rating_after - first.rating_before
    assert first.k is None and last.delta < 0 < first.delta
    # Pairwise scores, and the model's chances of finishing ahead (all equal: a half each).
    assert (first.score, first.expected) == (3, pytest.approx(1.5))


def test_the_same_numbers_as_the_package_called_directly():
    env = package.TrueSkill(mu=25, sigma=25 / 3, beta=25 / 6, tau=25 / 300, draw_probability=0.1, backend=None)
    states = [{"mu": 30.0, "sigma": 4.0}, {"mu": 22.0, "sigma": 7.5}, {"mu": 27.5, "sigma": 2.0}]
    seats = [Seat(s["mu"] - 3 * s["sigma"], p, s) for s, p in zip(states, (2, 1, 3), strict=True)]
    ours = method.compute(seats, Facts(), DEFAULTS)
    theirs = env.rate([(env.create_rating(**s),) for s in states], ranks=[2, 1, 3])
    assert [(o.state["mu"], o.state["sigma"]) for o in ours] == [(t.mu, t.sigma) for (t,) in theirs]


def test_players_are_provisional_while_sigma_is_above_the_threshold():
    seats = new_players(1, 2, 3, 4)
    flags = []
    for matchday in range(6):
        outcomes = method.compute(seats, Facts(), DEFAULTS)
        flags.append([o.extras["provisional"] for o in outcomes])
        seats = [Seat(o.rating_after, (i + matchday) % 4 + 1, o.state) for i, o in enumerate(outcomes)]
    assert all(flags[0]) and all(flags[1])
    assert not any(flags[-1])
    assert method.is_provisional(None, DEFAULTS) is True
    assert method.is_provisional({"mu": 25, "sigma": 4.0}, DEFAULTS) is False


def test_a_rating_without_state_is_taken_as_mu_minus_three_start_sigmas():
    a, b = method.compute([Seat(10, 1), Seat(0, 2)], Facts(), DEFAULTS)
    assert a.rating_before == pytest.approx(10)
    assert a.expected > 0.5 > b.expected
    assert method.state_for(10, {"sigmas": 2.0}, DEFAULTS) == {"mu": 16.0, "sigma": 2.0}


def test_the_continued_fraction_agrees_with_erfc_where_both_hold():
    for t in (5.0, 10.0, 30.0, 37.0):
        direct = 0.5 * math.erfc(t / math.sqrt(2)) / (math.exp(-t * t / 2) / math.sqrt(2 * math.pi))
        assert mills_ratio(t) == pytest.approx(direct, rel=1e-12)


def test_the_tails_take_over_only_where_the_package_cannot_compute():
    ours, theirs = Environment(backend=None), package.TrueSkill(backend=None)
    for x in (-36.9, -20.0, 0.0, 5.0):
        assert ours.v_win(x, 0) == theirs.v_win(x, 0)
        assert ours.w_win(x, 0) == theirs.w_win(x, 0)
    with pytest.raises(FloatingPointError):
        theirs.w_win(TAIL - 1.5, 0)
    assert 0 < ours.w_win(TAIL - 1.5, 0) < 1
    assert ours.w_win(1e6, 0) == 0  # a sure win: nothing to learn
    v, w = ours._far_draw(45.0, 0.5)
    assert v < 0 and 0 < w < 1


def test_five_hundred_new_players_are_rated_where_the_package_alone_gives_up():
    seats = new_players(*range(1, 501))
    env = package.TrueSkill(backend=None)
    with pytest.raises(FloatingPointError):
        env.rate([(env.create_rating(),) for _ in seats], ranks=list(range(500)))
    outcomes = method.compute(seats, Facts(), DEFAULTS)
    mus = [o.state["mu"] for o in outcomes]
    assert mus == sorted(mus, reverse=True)
    assert all(math.isfinite(o.rating_after) and o.state["sigma"] > 0 for o in outcomes)


def test_ties_among_many_players_far_apart_are_rated():
    seats = [Seat(0, 1 + (i // 2) * 2, {"mu": 25.0 + 40 * (i % 2), "sigma": 1.0}) for i in range(300)]
    outcomes = method.compute(seats, Facts(), DEFAULTS)
    assert all(math.isfinite(o.state["mu"]) and math.isfinite(o.state["sigma"]) for o in outcomes)
