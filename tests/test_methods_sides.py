"""Every method rates sides (partnerships, team games) and partial play: the libraries' own team numbers
for TrueSkill and openskill, the side's mean rating for the Elo family and Glicko-2."""

import math

import pytest
from openskill.models import PlackettLuce

from ratings.methods import METHODS, Facts, Method, MethodError, Seat
from ratings.methods.examples import TEAM_EXAMPLES

NEW = {"mu": 25.0, "sigma": 25 / 3}
ELO_FAMILY = ["club", "pairwise-placing", "pairwise-winner", "table-size", "rating-band", "sedma"]
RATES_SIDES = [slug for slug, m in METHODS.items() if type(m).rate_sides is not Method.rate_sides]


def rate(slug, seats, facts=None, **params):
    method = METHODS[slug]
    return method.compute(seats, facts or Facts(), method.clean_params(params))


def new(placing, side="", weight=1.0):
    return Seat(0, placing, dict(NEW), side=side, weight=weight)


def mu_sigma(outcomes):
    return [(round(o.state["mu"], 3), round(o.state["sigma"], 3)) for o in outcomes]


def test_every_method_but_the_solitaire_one_rates_sides():
    assert set(RATES_SIDES) >= {*ELO_FAMILY, "trueskill", "openskill", "glicko2"}
    assert "player-vs-deal" not in RATES_SIDES


# TrueSkill: the trueskill package's team groups and weights, to the digits the issue gives.


def test_trueskill_two_against_two_at_the_defaults():
    outcomes = rate("trueskill", [new(1, "A"), new(1, "A"), new(2, "B"), new(2, "B")])
    assert mu_sigma(outcomes) == [(28.108, 7.774)] * 2 + [(21.892, 7.774)] * 2


def test_trueskill_one_against_two():
    outcomes = rate("trueskill", [new(1), new(2, "B"), new(2, "B")])
    assert mu_sigma(outcomes) == [(33.731, 7.317), (16.269, 7.317), (16.269, 7.317)]


def test_trueskill_partial_play_is_the_packages_weight():
    outcomes = rate("trueskill", [new(1), new(2, "B", 0.5), new(2, "B")])
    assert mu_sigma(outcomes) == [(32.417, 7.056), (21.291, 8.033), (17.583, 7.056)]


def test_trueskill_rates_a_side_of_one_at_weight_one_as_a_player_alone():
    alone = rate("trueskill", [new(1), new(2), new(2), new(4)])
    labelled = rate("trueskill", [new(1, "A"), new(2, "B"), new(2, "C"), new(4, "D")])
    assert [o.state for o in labelled] == [o.state for o in alone]


# openskill: the library's team rating; a weight scales the change (the library's own weights differ).


def test_openskill_two_against_two_at_the_defaults():
    outcomes = rate("openskill", [new(1, "A"), new(1, "A"), new(2, "B"), new(2, "B")])
    assert outcomes[0].state == {"mu": 26.964294621803063, "sigma": 8.177962604389991}
    assert outcomes[1].state == outcomes[0].state


def test_openskill_partial_play_scales_the_players_change_not_the_librarys_weights():
    outcomes = rate("openskill", [new(1), new(2, "B", 0.5), new(2, "B")])
    model = PlackettLuce()
    full = model.rate([[model.rating()], [model.rating(), model.rating()]])
    half = outcomes[1].state
    assert half["mu"] == pytest.approx(25 + 0.5 * (full[1][0].mu - 25))
    assert half["sigma"] == pytest.approx(25 / 3 + 0.5 * (full[1][0].sigma - 25 / 3))
    assert outcomes[2].state["mu"] == pytest.approx(full[1][1].mu)
    # The library's `weights` would move the half-time player more than the full-time partner.
    weighted = model.rate([[model.rating()], [model.rating(), model.rating()]], weights=[[1], [0.5, 1]])
    assert round(weighted[1][0].mu, 3) == 21.292 and round(weighted[1][1].mu, 3) == 23.146
    assert abs(half["mu"] - 25) < abs(outcomes[2].state["mu"] - 25)


# The Elo family: a side is one player at its players' mean rating; each takes the side's change.


def test_the_club_formulas_worked_two_against_two_example():
    outcomes = TEAM_EXAMPLES["club"].outcomes("club")
    expected = 1 / (1 + 10 ** (-25 / 400))  # side A 1525 against side B 1500
    assert [o.expected for o in outcomes] == pytest.approx([expected, expected, 1 - expected, 1 - expected])
    assert round(40 * (1 - expected), 1) == 18.6
    assert [o.rating_after for o in outcomes] == [1619, 1469, 1531, 1431]
    assert outcomes[0].opponents_mean == 1500 and outcomes[2].opponents_mean == 1525
    assert outcomes[0].extras["side_rating"] == 1525


@pytest.mark.parametrize("slug", ["club", "pairwise-placing", "pairwise-winner", "table-size"])
def test_each_partner_takes_the_change_of_a_game_between_the_sides_ratings(slug):
    """Where K is the table's, a partner's change is that of the side rated as one player."""
    sides = [Seat(1600, 1, side="A"), Seat(1450, 1, side="A"), Seat(1530, 2, side="B"), Seat(1470, 2, side="B")]
    one_on_one = rate(slug, [Seat(1525, 1), Seat(1500, 2)], Facts(rounds=3), round=False)
    outcomes = rate(slug, sides, Facts(rounds=3), round=False)
    assert [o.delta for o in outcomes] == pytest.approx([one_on_one[0].delta] * 2 + [one_on_one[1].delta] * 2)


@pytest.mark.parametrize("slug", ["club", "pairwise-placing", "table-size", "rating-band"])
def test_a_partial_player_weighs_in_the_sides_rating_and_takes_their_share_of_the_change(slug):
    seats = [Seat(1600, 1, side="A"), Seat(1300, 1, side="A", weight=0.5), Seat(1500, 2), Seat(1500, 3)]
    outcomes = rate(slug, seats, Facts(rounds=2), round=False)
    assert outcomes[0].extras["side_rating"] == pytest.approx((1600 + 0.5 * 1300) / 1.5)
    full_k, half_k = outcomes[0].k, outcomes[1].k
    assert outcomes[1].delta == pytest.approx(0.5 * outcomes[0].delta * half_k / full_k)
    assert outcomes[1].extras["weight"] == 0.5


def test_rating_band_gives_each_partner_the_k_of_their_own_band():
    outcomes = TEAM_EXAMPLES["rating-band"].outcomes("rating-band")
    assert [o.k for o in outcomes] == [16, 40, 32, 32]
    assert [o.delta for o in outcomes] == [-8, -20, 16, 16]  # K (0 - 0.5) and K (1 - 0.5): equal sides


def test_sedma_in_pairs_takes_each_partners_own_band_and_bad_moves():
    outcomes = TEAM_EXAMPLES["sedma"].outcomes("sedma")
    assert [o.score for o in outcomes] == pytest.approx([0.9, 1, 0, 0])
    # Side A 1250 against side B 1250: E 0.5; A: 32 (0.9 - 0.5) = 12.8, rounded to 13.
    assert [o.rating_after for o in outcomes] == [1213, 1316, 1234, 1234]
    assert outcomes[0].extras["malus"] == pytest.approx(0.1)


def test_sedma_still_rates_two_sides_only():
    seats = [Seat(1500, 1, side="A"), Seat(1500, 1, side="A"), Seat(1500, 2, side="B"), Seat(1500, 3, side="C")]
    with pytest.raises(MethodError, match="two-player games only, not 3"):
        rate("sedma", seats)


# Glicko-2: each side is a composite opponent; each player keeps their own deviation and volatility.


def test_glicko2_two_against_two_of_equal_players_is_their_game_one_against_one():
    state = {"rd": 120.0, "vol": 0.06}
    alone = rate("glicko2", [Seat(1600, 1, dict(state)), Seat(1450, 2, dict(state))])
    sides = [Seat(1600, 1, dict(state), side="A"), Seat(1600, 1, dict(state), side="A")]
    sides += [Seat(1450, 2, dict(state), side="B"), Seat(1450, 2, dict(state), side="B")]
    outcomes = rate("glicko2", sides)
    assert [o.rating_after for o in outcomes] == pytest.approx(
        [alone[0].rating_after] * 2 + [alone[1].rating_after] * 2
    )
    assert outcomes[0].state["rd"] == pytest.approx(alone[0].state["rd"])


def test_glicko2_moves_the_uncertain_partner_more():
    outcomes = TEAM_EXAMPLES["glicko2"].outcomes("glicko2")
    assert outcomes[1].delta > outcomes[0].delta > 0
    assert outcomes[1].state["rd"] < 300  # the game tells much about the uncertain partner
    assert outcomes[0].state["rd"] == pytest.approx(50, abs=1)  # and next to nothing about the known one
    assert outcomes[0].extras["side_rating"] == 1500  # (1600 + 1400) / 2


# Every method that rates sides: a matchday without partners keeps its numbers; wrong sides are refused.


@pytest.mark.parametrize("slug", RATES_SIDES)
def test_unique_side_labels_change_nothing(slug):
    method = METHODS[slug]
    params = method.clean_params({})
    rating, state = method.start(params)
    placings = [1, 2] if method.two_players_only else [1, 2, 2, 4]
    alone = method.compute([Seat(rating, p, state) for p in placings], Facts(), params)
    labelled = [Seat(rating, p, state, side=f"S{i}") for i, p in enumerate(placings)]
    assert method.compute(labelled, Facts(), params) == alone


@pytest.mark.parametrize("slug", RATES_SIDES)
def test_partners_with_different_placings_are_refused(slug):
    seats = [Seat(1500, 1, side="A"), Seat(1500, 2, side="A"), Seat(1500, 3, side="B")]
    with pytest.raises(MethodError, match="partners share their side's placing"):
        METHODS[slug].compute(seats, Facts(), METHODS[slug].defaults())


@pytest.mark.parametrize("slug", RATES_SIDES)
def test_one_side_only_is_refused(slug):
    seats = [Seat(1500, 1, side="A"), Seat(1500, 1, side="A")]
    with pytest.raises(MethodError, match="two sides or more"):
        METHODS[slug].compute(seats, Facts(), METHODS[slug].defaults())


@pytest.mark.parametrize("slug", RATES_SIDES)
def test_a_side_nobody_played_for_is_refused(slug):
    seats = [Seat(1500, 1, side="A", weight=0), Seat(1500, 1, side="A", weight=0), Seat(1500, 2)]
    with pytest.raises(MethodError, match="no player with a weight above 0"):
        METHODS[slug].compute(seats, Facts(), METHODS[slug].defaults())


@pytest.mark.parametrize("slug", RATES_SIDES)
def test_five_against_four_gives_finite_numbers_and_partners_share_the_result(slug):
    method = METHODS[slug]
    if method.two_players_only:
        pytest.skip("two sides of one player each only")
    params = method.clean_params({})
    rating, state = method.start(params)
    seats = [Seat(rating + 10 * i, 1 if i < 5 else 2, state, side="A" if i < 5 else "B") for i in range(9)]
    outcomes = method.compute(seats, Facts(), params)
    assert all(math.isfinite(o.rating_after) for o in outcomes)
    assert all(o.delta >= 0 for o in outcomes[:5]) and all(o.delta <= 0 for o in outcomes[5:])
    assert len({o.score for o in outcomes[:5]}) == 1
