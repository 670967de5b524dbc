"""Extreme but well-formed numbers in every method: anywhere inside the documented ranges the results
are finite numbers; the calculator's JSON and page refuse anything outside, naming the parameter."""

import json
import math

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ratings.methods import METHODS, Facts, MethodError, Seat
from ratings.methods.base import RATING_LIMIT

URL = "/card-games/calculator.json"


def strict_json(text):
    """JSON as a strict reader takes it: Infinity and NaN are not JSON."""

    def refuse(constant):
        raise ValueError(f"{constant} in the JSON")

    return json.loads(text, parse_constant=refuse)


def in_range(param):
    """Any value of a parameter's range, its edges and tiny values included."""
    if param.type is bool:
        return st.booleans()
    if param.choices:
        return st.sampled_from(param.choices)
    low = 0.0 if param.positive else param.minimum
    if param.type is int:
        return st.integers(int(max(low, 1 if param.positive else low)), int(param.maximum))
    edges = [param.maximum, param.default] + ([param.minimum] if not param.positive else [1e-300, 5e-324])
    return st.one_of(st.sampled_from(edges), st.floats(low, param.maximum, exclude_min=param.positive))


@st.composite
def matchdays(draw, method):
    n = 2 if method.two_players_only else draw(st.integers(2, 7))
    raw = draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
    placings = [1 + sum(1 for q in raw if q < p) for p in raw]  # a standard competition ranking
    if method.slug == "sedma":
        placings = [1, 2]
    rating = st.one_of(
        st.sampled_from([-RATING_LIMIT, RATING_LIMIT, 0.0, 1e-300]), st.floats(-RATING_LIMIT, RATING_LIMIT)
    )
    ratings = draw(st.lists(rating, min_size=n, max_size=n))
    params = {p.name: draw(in_range(p)) for p in method.params}
    inputs = [{p.name: draw(in_range(p)) for p in method.player_inputs} for _ in range(n)]
    rounds = draw(st.sampled_from([1, 100]))
    return (
        ratings,
        placings,
        params,
        inputs,
        Facts(rounds=rounds, winner_score=draw(st.sampled_from([None, 1, 15, 1000]))),
    )


@pytest.mark.parametrize("slug", list(METHODS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_method_gives_finite_numbers_anywhere_in_its_ranges(slug, data):
    method = METHODS[slug]
    ratings, placings, raw, inputs, facts = data.draw(matchdays(method))
    params = method.clean_params(raw)
    seats = [
        Seat(r, p, method.state_for(r, given, params), won_by_16=3, bad_moves=1000)
        for r, p, given in zip(ratings, placings, inputs, strict=True)
    ]
    try:
        outcomes = method.compute(seats, facts, params)
    except MethodError:
        assume(False)  # a matchday the method cannot rate is refused with a message, which is fine
    for o in outcomes:
        numbers = [o.rating_before, o.expected, o.score, o.delta, o.rating_after, *(o.state or {}).values()]
        assert all(math.isfinite(x) for x in numbers), (slug, o)


@pytest.mark.parametrize(
    ("query", "parameter"),
    [
        ({"ratings": "1e308,0"}, "ratings"),
        ({"ratings": "1e400,0"}, "ratings"),
        ({"ratings": "-100001,0"}, "ratings"),
        ({"ratings": "nan,0"}, "ratings"),
        ({"ratings": "Infinity,0"}, "ratings"),
        ({"ratings": "1_500,1500"}, "ratings"),
        ({"ratings": ",".join(["1500"] * 501), "placings": ",".join(["1"] * 501)}, "ratings"),
        ({"placings": "1,99999999999999999999"}, "placings"),
        ({"rounds": "101"}, "rounds"),
        ({"rounds": "99999999999"}, "rounds"),
        ({"rounds": "1e2"}, "rounds"),
        ({"method": "club", "k": "1e308"}, "k"),
        ({"method": "club", "k": "5e-324", "round": "maybe"}, "round"),  # "x" is a yes, as in a file
        ({"method": "pairwise-placing", "k": "10001"}, "k"),
        ({"method": "pairwise-placing", "k_scale": "quadratic"}, "k_scale"),
        ({"method": "openskill", "sigma": "0"}, "sigma"),
        ({"method": "openskill", "mu": "1e300"}, "mu"),
        ({"method": "trueskill", "beta": "0"}, "beta"),
        ({"method": "trueskill", "draw_probability": "1"}, "draw_probability"),
        ({"method": "trueskill", "sigmas": "0,1"}, "sigmas"),
        ({"method": "glicko2", "volatility": "1e-9"}, "volatility"),
        ({"method": "glicko2", "deviations": "350,1e9"}, "deviations"),
        ({"method": "glicko2", "tau": "1e308"}, "tau"),
        ({"method": "elo-mmr", "weight": "0"}, "weight"),
        ({"method": "elo-mmr", "sigma_limit": "1e300"}, "sigma_limit"),
        ({"method": "elo-mmr", "sigmas": "350,-1"}, "sigmas"),
        ({"method": "table-size", "winner_score": "0"}, "winner_score"),
        ({"method": "sedma", "bad_moves": "0,1001"}, "bad_moves"),
        ({"method": "pairwise-winner", "left_early": "0,2"}, "left_early"),
        ({"method": "club", "sigmas": "1,1"}, "sigmas"),
    ],
)
def test_numbers_outside_their_range_get_400_naming_the_parameter(client, db, query, parameter):
    response = client.get(URL, {"ratings": "1500,1400", "placings": "1,2", **query})
    assert response.status_code == 400
    data = strict_json(response.content)
    assert data["parameter"] == parameter
    assert data["error"].startswith(f"{parameter}: ")
    assert len(data["error"]) < 200  # a long value is not echoed whole


@pytest.mark.parametrize(
    "query",
    [
        {"method": "club", "ratings": "100000,-100000", "k": "1000", "rounds": "100"},
        {"method": "pairwise-placing", "ratings": "100000,-100000,0", "placings": "3,2,1", "k": "10000"},
        {"method": "pairwise-placing", "ratings": "1e-300,5e-324", "k": "5e-324", "k_scale": "multielo"},
        {"method": "table-size", "ratings": "100000,-100000", "winner_score": "12", "length_correction": "1"},
        {"method": "openskill", "ratings": "100000,-100000", "mu": "100000", "sigma": "0.001", "sigmas": "10000,0.001"},
        {"method": "trueskill", "ratings": "-100000,100000", "beta": "0.01", "sigmas": "0.01,0.01", "tau": "0"},
        {
            "method": "trueskill",
            "ratings": "5,5",
            "placings": "1,1",
            "draw_probability": "0.001",
            "sigmas": "10000,0.01",
        },
        {"method": "glicko2", "ratings": "-100000,100000", "deviations": "1,10000", "volatilities": "0.0001,1"},
        {"method": "glicko2", "ratings": "1500,1500", "placings": "1,1", "tau": "0.01", "volatilities": "1,1"},
        {"method": "sedma", "ratings": "100000,-100000", "won_by_16": "100,100", "bad_moves": "1000,0"},
        {
            "method": "elo-mmr",
            "ratings": "100000,-100000",
            "sigmas": "0.01,10000",
            "sigma_limit": "1",
            "weight": "0.01",
        },
        {"method": "elo-mmr", "ratings": "-100000,100000", "sigmas": "0.01,0.01", "sigma_limit": "500", "weight": "1"},
        {"method": "elo-mmr", "ratings": "5,5", "placings": "1,1", "sigmas": "10000,0.01", "split_ties": "1"},
    ],
)
def test_extreme_numbers_inside_the_ranges_give_finite_json(client, db, query):
    response = client.get(URL, {"placings": "1,2", **query})
    assert response.status_code in (200, 400), response.content
    data = strict_json(response.content)  # never Infinity or NaN
    if response.status_code == 400:
        assert data["parameter"] and data["error"]
    else:
        assert all(math.isfinite(p["rating_after"]) for p in data["players"])


def test_the_page_refuses_an_extreme_number_with_400_and_the_message(client, db):
    response = client.get(reverse("ratings:calculator"), {"ratings": "1500,1e308", "placings": "1,2"})
    assert response.status_code == 400
    assert "ratings: value 2 must be -100,000 to 100,000, not 1e+308" in response.content.decode()
    response = client.get(reverse("ratings:calculator"), {"method": "glicko2", "games": "A:1 B:2", "start": "A=1e300"})
    assert response.status_code == 400
    assert "start: A: must be -100,000 to 100,000, not 1e+300" in response.content.decode()


@pytest.mark.parametrize(
    ("games", "message"),
    [
        ("A:1 B:2 rounds=1000", "games: line 1: rounds: must be 1 to 100, not 1000"),
        ("A:1 B:99999999999999999999", "games: line 1: placing: must be a whole number"),
        ("\n".join(["A:1 B:2"] * 201), "games: has more than 200 games"),
        ("\n".join([" ".join(f"P{i}:{i}" for i in range(1, 301))] * 4), "games: line 4: more than 1,000 players"),
        (f"{'N' * 41}:1 B:2", "is not NAME:PLACING"),
        ("A:1 B:2 " * 3000, "games: is longer than 20,000 characters"),
    ],
)
def test_a_series_is_bounded_and_names_the_line(client, db, games, message):
    response = client.get(reverse("ratings:calculator"), {"method": "pairwise-placing", "games": games})
    assert response.status_code == 400
    assert message in response.content.decode().replace("&#x27;", "'")
