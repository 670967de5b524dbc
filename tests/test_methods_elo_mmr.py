"""Elo-MMR (memoryless Gaussian, the package's system mmx): the package's mu and sigma after every
matchday, the rating shown, provisional players, and the refusal of sides and partial play."""

import io
import math
import random

import elo_mmr_py
import pytest
from django.core.management import call_command
from django.urls import reverse

from league.models import Matchday
from ratings.methods import METHODS, Facts, MethodError, Seat
from ratings.methods.elo_mmr import _tail_term, _term, solve_newton
from ratings.models import RatingTable
from tests.conftest import add_url, form_data
from tests.test_import import failure
from tests.test_method_tables import use
from web.importing import import_results

elo_mmr = METHODS["elo-mmr"]

# The package computes the normal distribution with statrs 0.18's erfc, whose interval constants were
# printed to ten digits (fixed in statrs after 0.18); Python's erfc is exact to the last bit. Sigma does
# not use it and agrees to the last bit; mu agrees to about 1e-8 of a point.
MU = {"abs": 1e-6}
SIGMA = {"rel": 1e-12}


def league(seed: int, matchdays: int, pool: int) -> list[list[tuple[str, int]]]:
    """Matchdays of 2 to 8 players drawn from a pool that grows (new players join later), with ties:
    each a list of (name, placing) in finishing order."""
    generator = random.Random(seed)
    days = []
    for number in range(matchdays):
        joined = [f"P{i}" for i in range(min(pool, 3 + number))]
        names = generator.sample(joined, generator.randint(2, min(8, len(joined))))
        finish = sorted(generator.randint(1, len(names)) for _ in names)
        placings = [1 + sum(1 for other in finish if other < mine) for mine in finish]
        days.append(list(zip(names, placings, strict=True)))
    return days


def contest(day: list[tuple[str, int]]) -> elo_mmr_py.Contest:
    """A matchday as the package takes it: zero-based places, a tie spanning the places it covers."""
    placings = [p for _, p in day]
    return elo_mmr_py.Contest([(name, p - 1, p - 2 + placings.count(p)) for name, p in day])


def rate(days, params):
    """Each matchday rated by the method, each player carrying their outcome's state: the states
    after each matchday."""
    start = elo_mmr.start(params)
    current, after = {}, []
    for day in days:
        seats = [Seat(current.get(name, start)[0], placing, current.get(name, start)[1]) for name, placing in day]
        for (name, _), outcome in zip(day, elo_mmr.compute(seats, Facts(), params), strict=True):
            current[name] = (outcome.rating_after, outcome.state)
        after.append({name: state for name, (_, state) in current.items()})
    return after


def assert_equal_to_the_package(days, params, system):
    mine = rate(days, params)
    for n in range(len(days)):
        theirs = elo_mmr_py.rate_latest(
            [contest(day) for day in days[: n + 1]], system=system, mu_noob=params["mu"], sig_noob=params["sigma"]
        )
        # The package skips a matchday everyone tied, so players who played only such matchdays are
        # unknown to it; here they keep the start.
        assert set(theirs) <= set(mine[n])
        for name in set(mine[n]) - set(theirs):
            assert mine[n][name] == elo_mmr.start(params)[1]
        for name, state in mine[n].items():
            if name not in theirs:
                continue
            assert state["mu"] == pytest.approx(theirs[name].mu, **MU), (n, name)
            assert state["sigma"] == pytest.approx(theirs[name].sig, **SIGMA), (n, name)


def test_new_players_start_at_mu_1500_sigma_350_shown_as_690():
    rating, state = elo_mmr.start(elo_mmr.defaults())
    assert (rating, state) == (690, {"mu": 1500, "sigma": 350})
    assert elo_mmr.is_provisional(state, elo_mmr.defaults())


def test_the_worked_example_gives_the_packages_numbers():
    day = [("A", 1), ("B", 2), ("C", 2), ("D", 4)]
    theirs = elo_mmr_py.rate_latest([contest(day)], system="mmx")
    start = elo_mmr.start(elo_mmr.defaults())
    outcomes = elo_mmr.compute([Seat(start[0], p, start[1]) for _, p in day], Facts(), elo_mmr.defaults())
    assert [o.state["mu"] for o in outcomes] == pytest.approx([theirs[n].mu for n, _ in day], **MU)
    assert [o.state["mu"] for o in outcomes] == pytest.approx([1787.651730, 1500, 1500, 1212.348270], abs=1e-6)
    assert [o.state["sigma"] for o in outcomes] == pytest.approx([171.195444] * 4, abs=1e-6)
    first = outcomes[0]
    assert first.rating_after == pytest.approx(first.state["mu"] - 3 * (first.state["sigma"] - 80))
    assert (first.k, first.score, first.expected) == (None, 3, 1.5)
    assert first.extras["mu"] == first.state["mu"] and first.extras["provisional"]


@pytest.mark.parametrize("seed", range(4))
def test_mu_and_sigma_after_every_matchday_equal_the_packages_rate_latest(seed):
    assert_equal_to_the_package(league(seed, matchdays=25, pool=12), elo_mmr.defaults(), "mmx")


def test_other_parameters_equal_the_packages_with_the_same_configuration():
    params = elo_mmr.clean_params({"mu": 1000, "sigma": 200, "weight": 0.5, "sigma_limit": 40, "split_ties": True})
    config = elo_mmr_py.EloMmrConfig("mmx", weight_limit=0.5, sig_limit=40.0, split_ties=True)
    assert_equal_to_the_package(league(11, matchdays=20, pool=9), params, config)


def test_a_matchday_everyone_tied_changes_nobody_as_in_the_package():
    days = [[("A", 1), ("B", 2)], [("A", 1), ("B", 1), ("C", 1)], [("B", 1), ("C", 2)]]
    assert_equal_to_the_package(days, elo_mmr.defaults(), "mmx")
    assert rate(days, elo_mmr.defaults())[1]["A"] == rate(days, elo_mmr.defaults())[0]["A"]


def test_resuming_from_stored_states_equals_rating_every_matchday_in_one_go():
    days = league(5, matchdays=16, pool=8)
    whole = rate(days, elo_mmr.defaults())
    params = elo_mmr.defaults()
    current = dict(whole[7])
    for day in days[8:]:
        seats = [Seat(0, p, current.get(name, elo_mmr.start(params)[1])) for name, p in day]
        for (name, _), outcome in zip(day, elo_mmr.compute(seats, Facts(), params), strict=True):
            current[name] = outcome.state
    assert current == whole[-1]


def test_sigma_settles_and_players_stop_being_provisional_after_two_matchdays():
    params = elo_mmr.defaults()
    state = elo_mmr.start(params)[1]
    provisional = []
    for _ in range(3):
        seats = [Seat(0, 1, state), Seat(0, 2, elo_mmr.start(params)[1])]
        outcome = elo_mmr.compute(seats, Facts(), params)[0]
        state = outcome.state
        provisional.append(outcome.extras["provisional"])
    assert provisional == [True, True, False]
    assert elo_mmr.is_provisional(state, params) is False


def test_the_models_win_chance_is_even_between_equals_and_favours_the_higher_mu():
    params = elo_mmr.defaults()
    a, b = Seat(0, 1, {"mu": 1600.0, "sigma": 100.0}), Seat(0, 2, {"mu": 1500.0, "sigma": 100.0})
    assert elo_mmr.win_probability(a, a, params) == pytest.approx(0.5)
    assert elo_mmr.win_probability(a, b, params) + elo_mmr.win_probability(b, a, params) == pytest.approx(1)
    assert 0.5 < elo_mmr.win_probability(a, b, params) < 0.75


def test_a_rating_given_without_state_is_the_one_shown_at_the_start_sigma():
    params = elo_mmr.defaults()
    assert elo_mmr.state_for(690, {}, params) == {"mu": 1500, "sigma": 350}
    assert elo_mmr.state_for(1500, {"sigmas": 80}, params) == {"mu": 1500, "sigma": 80}
    first, _ = elo_mmr.compute([Seat(1500, 1), Seat(1500, 2)], Facts(), params)
    assert first.rating_before == 1500


@pytest.mark.parametrize("order", [-1, 0, 1])
@pytest.mark.parametrize("split_ties", [False, True])
def test_past_the_tail_the_closed_forms_continue_the_packages_terms(order, split_ties):
    for z in (-36.9, 36.9):
        near = _term(0.0, 100.0, z * 100, order, split_ties)
        assert _tail_term(z, 100.0, order, split_ties) == pytest.approx(near, rel=1e-10)
    # Far out, where the density underflows to 0 and the package divides 0 by 0: finite, never rising.
    for z in (-80.0, 80.0):
        value, slope = _term(0.0, 100.0, z * 100, order, split_ties)
        assert math.isfinite(value) and slope <= 0


def test_the_performance_search_stops_on_a_step_that_no_longer_moves():
    assert solve_newton(lambda x: (1500 - x, -1.0)) == 1500
    for broken in ((float("nan"), -1.0), (1.0, 0.0)):
        with pytest.raises(MethodError, match="too far apart"):
            solve_newton(lambda x, broken=broken: broken)


@pytest.mark.parametrize(
    "seats",
    [
        [Seat(690, 1, side="A"), Seat(690, 1, side="A"), Seat(690, 2, side="B"), Seat(690, 2, side="B")],
        [Seat(690, 1), Seat(690, 2, weight=0.5), Seat(690, 3)],
    ],
    ids=["partners", "partial play"],
)
def test_sides_and_partial_play_are_refused_with_the_reason(seats):
    with pytest.raises(MethodError, match="Elo-MMR rates players alone, not sides or partial play") as refused:
        elo_mmr.compute(seats, Facts(), elo_mmr.defaults())
    assert refused.value.param == "sides"
    with pytest.raises(MethodError, match="rates players alone"):
        elo_mmr.check(seats)
    elo_mmr.check([Seat(690, 1, side="A"), Seat(690, 2, side="B")])  # sides of one: players alone


def test_the_club_table_rated_by_elo_mmr_equals_the_package_after_every_matchday(club):
    table = use("hearts", "elo-mmr")
    days = []
    for matchday in Matchday.objects.order_by("date", "number"):
        rated = [(r.player.short_name, r.play().effective_placing) for r in matchday.results.select_related("player")]
        days.append(sorted(rated, key=lambda result: result[1]))  # rated as placed, penalties included
        theirs = elo_mmr_py.rate_latest([contest(day) for day in days], system="mmx")
        for entry in table.entries.filter(matchday=matchday).select_related("player"):
            name = entry.player.short_name
            assert entry.state["mu"] == pytest.approx(theirs[name].mu, **MU)
            assert entry.state["sigma"] == pytest.approx(theirs[name].sig, **SIGMA)
            assert entry.rating_after == pytest.approx(entry.state["mu"] - 3 * (entry.state["sigma"] - 80))
    assert table.start_rating == 690


def test_a_stored_elo_mmr_table_agrees_with_a_fresh_computation(club):
    use("hearts", "elo-mmr")
    out = io.StringIO()
    call_command("recompute_ratings", "--check", stdout=out)
    assert "agree with a fresh computation" in out.getvalue()


def test_the_admin_switches_a_table_to_elo_mmr_with_its_parameters(admin_client, club):
    table = RatingTable.objects.get(slug="hearts")
    url = reverse("admin:ratings_ratingtable_change", args=[table.pk])
    data = {"name": table.name, "slug": table.slug, "description": "", "method": "elo-mmr"}
    data |= {"start_rating": str(table.start_rating), "k_per_round": str(table.k_per_round)}
    data |= {"elo_mmr__weight": "0.5", "elo_mmr__split_ties": "on"}
    assert admin_client.post(url, data).status_code == 302
    table.refresh_from_db()
    assert (table.method, table.parameters["weight"], table.parameters["split_ties"]) == ("elo-mmr", 0.5, True)
    assert table.start_rating == 690  # the method's own start, as the club left the old one unchanged
    entry = table.entries.get(matchday__number=1, player__short_name="I")
    assert set(entry.state) == {"mu", "sigma"} and entry.k is None


TEAM_HEADER = "matchday,date,game,rounds,player,placing,rated_placing,side"
TEAM_DAY = ["7,2025-11-20,Hearts,1,I,1,,A", "7,2025-11-20,Hearts,1,K,1,,A", "7,2025-11-20,Hearts,1,R,2,,B"]
TEAM_DAY.append("7,2025-11-20,Hearts,1,GL,2,,B")


def team_file() -> bytes:
    return ("\n".join([TEAM_HEADER, *TEAM_DAY]) + "\n").encode()


def test_a_team_matchday_imported_into_an_elo_mmr_table_is_refused_naming_it(club):
    use("hearts", "elo-mmr")
    errors = failure(team_file())
    assert errors == [  # in the admin's words (below), found by the check before anything is written
        "Matchday 7 (lines 2-5): The Hearts rating uses Elo-MMR: Elo-MMR rates players alone, not sides or partial "
        "play."
    ]
    assert not Matchday.objects.filter(number=7).exists()


def test_the_admin_refuses_a_team_matchday_for_an_elo_mmr_table(admin_client, club):
    use("hearts", "elo-mmr")
    rows = [("I", 1, None), ("K", 1, None), ("R", 2, None), ("GL", 2, None)]
    data = form_data(7, "2025-11-20", 1, rows)
    data |= {"results-0-side": "A", "results-1-side": "A", "results-2-side": "B", "results-3-side": "B"}
    response = admin_client.post(add_url(), data)
    assert response.status_code == 200
    assert "The Hearts rating uses Elo-MMR: Elo-MMR rates players alone, not sides or partial play." in (
        response.content.decode()
    )
    assert not Matchday.objects.filter(number=7).exists()


def test_choosing_elo_mmr_for_a_table_holding_a_team_matchday_is_refused_naming_it(admin_client, club):
    import_results(team_file())
    table = RatingTable.objects.get(slug="hearts")
    url = reverse("admin:ratings_ratingtable_change", args=[table.pk])
    data = {"name": table.name, "slug": table.slug, "description": "", "method": "elo-mmr"}
    data |= {"start_rating": "690", "k_per_round": str(table.k_per_round)}
    response = admin_client.post(url, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Elo-MMR cannot rate this table: Matchday 7 (2025-11-20): Elo-MMR rates players alone" in html
    table.refresh_from_db()
    assert table.method == "club"


def test_the_calculator_json_carries_mu_sigma_and_the_performance(client, db):
    query = {"method": "elo-mmr", "ratings": "690,1500", "placings": "2,1", "sigmas": "350,80"}
    data = client.get("/card-games/calculator.json", query).json()
    first, second = data["players"]
    assert first["mu"] == pytest.approx(first["rating_after"] + 3 * (first["sigma"] - 80))
    assert second["sigma"] == pytest.approx(80)  # where a regular player's sigma settles
    assert 80 < first["sigma"] < 350
    assert set(first) >= {"mu", "sigma", "performance", "provisional"}
    refused = client.get("/card-games/calculator.json", {**query, "sigmas": "350,0"})
    assert refused.status_code == 400 and refused.json()["parameter"] == "sigmas"


def test_the_methods_page_cites_the_paper_and_the_comparison_includes_it(client, club):
    html = client.get(reverse("ratings:methods")).content.decode()
    assert 'id="elo-mmr"' in html and "Ebtekar and Liu" in html
    compared = client.get(reverse("ratings:compare"), {"table": "hearts"}).content.decode()
    assert "elo-mmr" in compared
