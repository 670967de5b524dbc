"""The glicko2 method: Glickman's worked example, a matchday as a rating period of pairwise games,
and lichess's provisional rule."""

import math

import pytest

from ratings.methods import METHODS, Facts, Seat
from ratings.methods.glicko2 import SCALE, g, new_volatility, rating_period

method = METHODS["glicko2"]
DEFAULTS = method.defaults()
# Glickman, "Example of the Glicko-2 system": a 1500 player (RD 200, volatility 0.06, tau 0.5) beats
# 1400 (RD 30) and loses to 1550 (RD 100) and 1700 (RD 300).
GAMES = [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)]


def test_the_defaults_of_the_issue():
    assert DEFAULTS == {
        "start_rating": 1500,
        "deviation": 350,
        "volatility": 0.06,
        "tau": 0.5,
        "provisional_deviation": 110,
        "round": False,
    }
    assert method.start(DEFAULTS) == (1500, {"rd": 350, "vol": 0.06})


def test_glickmans_worked_example():
    rating, rd, volatility, _ = rating_period(1500, 200, 0.06, GAMES, 0.5)
    # The paper rounds its intermediate steps and prints 1464.06; unrounded it is 1464.0507.
    assert f"{rating:.2f}" == "1464.05"
    assert f"{rd:.2f}" == "151.52"
    assert math.floor(volatility * 1e5) / 1e5 == 0.05999  # 0.0599960, which the paper prints as 0.05999
    assert volatility == pytest.approx(0.05999, abs=1e-5)


def test_the_papers_intermediate_steps():
    mu, phi = 0.0, 200 / SCALE
    assert [round(g(rd / SCALE), 4) for _, rd, _ in GAMES] == [0.9955, 0.9531, 0.7242]
    expected = [1 / (1 + math.exp(-g(rd / SCALE) * (mu - (r - 1500) / SCALE))) for r, rd, _ in GAMES]
    assert [round(e, 3) for e in expected] == [0.639, 0.432, 0.303]
    v = 1 / sum(g(rd / SCALE) ** 2 * e * (1 - e) for (_, rd, _), e in zip(GAMES, expected, strict=True))
    delta = v * sum(g(rd / SCALE) * (s - e) for (_, rd, s), e in zip(GAMES, expected, strict=True))
    # The paper computes these from its rounded E and g (1.7785, -0.4834); unrounded: 1.7790, -0.4839.
    assert (round(v, 4), round(delta, 4)) == (1.7790, -0.4839)
    assert (v, delta) == (pytest.approx(1.7785, abs=0.001), pytest.approx(-0.4834, abs=0.001))
    assert round(new_volatility(0.06, phi, v, delta, 0.5), 5) == 0.06  # 0.05999 in the paper's rounding


def test_a_matchday_rates_the_example_as_one_rating_period():
    # A finishes third of four: ahead of B, behind C and D. A's own games are the paper's.
    seats = [
        Seat(1500, 3, {"rd": 200, "vol": 0.06}),
        Seat(1400, 4, {"rd": 30, "vol": 0.06}),
        Seat(1550, 2, {"rd": 100, "vol": 0.06}),
        Seat(1700, 1, {"rd": 300, "vol": 0.06}),
    ]
    a, b, c, d = method.compute(seats, Facts(), DEFAULTS)
    assert (round(a.rating_after, 2), round(a.state["rd"], 2)) == (1464.05, 151.52)
    assert a.score == 1 and a.k is None
    assert a.expected == pytest.approx(0.639 + 0.432 + 0.303, abs=0.002)
    assert d.score == 3 and d.delta > 0 > b.delta
    assert b.state["rd"] < 35  # a well-known rating barely becomes less sure


def test_ties_are_draws_and_only_the_matchdays_players_change():
    start = method.start(DEFAULTS)
    seats = [Seat(start[0], p, start[1]) for p in (1, 1, 3)]
    first, second, third = method.compute(seats, Facts(), DEFAULTS)
    assert (first.score, second.score, third.score) == (1.5, 1.5, 0)
    assert first.rating_after == second.rating_after > 1500 > third.rating_after
    assert first.state["rd"] < 350


def test_provisional_while_the_deviation_is_at_or_above_110():
    assert method.is_provisional({"rd": 110.0, "vol": 0.06}, DEFAULTS) is True
    assert method.is_provisional({"rd": 109.9, "vol": 0.06}, DEFAULTS) is False
    assert method.is_provisional(None, DEFAULTS) is True
    start = method.start(DEFAULTS)
    seats = [Seat(start[0], p, start[1]) for p in (1, 2, 3, 4)]
    rounds = 0
    while any(method.is_provisional(s.state, DEFAULTS) for s in seats):
        outcomes = method.compute(seats, Facts(), DEFAULTS)
        seats = [Seat(o.rating_after, (i + rounds) % 4 + 1, o.state) for i, o in enumerate(outcomes)]
        rounds += 1
    assert 3 <= rounds <= 10


def test_the_win_probability_uses_both_deviations():
    sure = method.win_probability(
        Seat(1700, 1, {"rd": 50, "vol": 0.06}), Seat(1500, 2, {"rd": 50, "vol": 0.06}), DEFAULTS
    )
    unsure = method.win_probability(
        Seat(1700, 1, {"rd": 350, "vol": 0.06}), Seat(1500, 2, {"rd": 350, "vol": 0.06}), DEFAULTS
    )
    assert 0.5 < unsure < sure < 1
    assert sure == pytest.approx(1 / (1 + 10 ** (-200 * g(math.hypot(50, 50) / SCALE) / 400)))


def test_five_hundred_players_far_apart_give_finite_numbers():
    seats = [Seat(-100_000 + 400 * i, 1 + i, {"rd": 1 + 20 * i, "vol": 0.0001 + i / 600}) for i in range(500)]
    for outcome in method.compute(seats, Facts(), DEFAULTS):
        assert all(math.isfinite(x) for x in (outcome.rating_after, outcome.state["rd"], outcome.state["vol"]))
