"""The registry of methods and how their parameters are read and refused."""

import re

import pytest

from ratings import methods
from ratings.methods import METHODS, ParamError


def test_the_registry_has_the_ten_methods_and_player_against_deal():
    assert list(METHODS) == [
        "club",
        "pairwise-placing",
        "pairwise-winner",
        "table-size",
        "rating-band",
        "sedma",
        "openskill",
        "trueskill",
        "glicko2",
        "elo-mmr",
        "player-vs-deal",
    ]
    assert [slug for slug, method in METHODS.items() if method.against_deals] == ["player-vs-deal"]


def test_every_method_declares_its_parameters_with_a_default_and_help():
    for method in METHODS.values():
        assert method.params, method.slug
        for param in method.params:
            assert param.help and param.label
            assert param.parse(param.default) == param.default


def test_defaults_of_the_issue():
    assert METHODS["club"].defaults() == {"start_rating": 1500, "k": 10, "round": True}
    assert METHODS["pairwise-placing"].defaults()["k"] == 32
    assert METHODS["table-size"].defaults()["start_rating"] == 1000
    assert METHODS["sedma"].defaults()["round"] is True


def test_parameters_from_a_query_string_are_parsed():
    params = METHODS["pairwise-winner"].clean_params({"k": "16", "round": "1", "start_rating": "1200"})
    assert params == {"k": 16.0, "k_scale": "fixed", "round": True, "start_rating": 1200.0}


@pytest.mark.parametrize(
    ("slug", "raw", "message"),
    [
        ("pairwise-placing", {"k": "x"}, "k: must be a number, not 'x'"),
        ("pairwise-placing", {"k": "-3"}, "k: must be above 0"),
        ("club", {"round": "maybe"}, "round: must be yes or no"),
        ("rating-band", {"k": "32"}, "k: rating-band has no such parameter"),
        ("openskill", {"sigma": "nan"}, "sigma: must be a number, not 'nan'"),
    ],
)
def test_bad_parameters_are_refused_naming_the_parameter(slug, raw, message):
    with pytest.raises(ParamError, match=message):
        METHODS[slug].clean_params(raw)


def test_an_unknown_method_is_refused_naming_the_method_parameter():
    with pytest.raises(ParamError, match="method: unknown method 'elo'") as error:
        methods.get("elo")
    assert error.value.name == "method"


def test_a_method_describes_its_parameters_in_words():
    assert METHODS["club"].describe(METHODS["club"].defaults()) == "Start rating 1500, K per round 10, whole numbers"


def test_every_number_a_method_takes_in_has_a_documented_range():
    for method in METHODS.values():
        for param in (*method.params, *method.player_inputs):
            if param.type is bool or param.choices:
                continue
            assert param.maximum is not None, (method.slug, param.name)
            assert param.positive or param.minimum is not None, (method.slug, param.name)
            assert param.parse(param.default) == param.default
            assert param.range_text, (method.slug, param.name)


@pytest.mark.parametrize(
    ("slug", "raw", "message"),
    [
        ("pairwise-placing", {"k": "1e308"}, "k: must be above 0, at most 10,000, not 1e+308"),
        ("pairwise-placing", {"k": "1e-400"}, "k: must be above 0, at most 10,000, not 0"),
        ("club", {"k": "0"}, "k: must be above 0, at most 1,000, not 0"),
        ("club", {"start_rating": "-1e6"}, "start_rating: must be -100,000 to 100,000, not -1e+06"),
        ("openskill", {"sigma": "1e-300"}, "sigma: must be 0.001 to 10,000, not 1e-300"),
        ("trueskill", {"beta": "1e400"}, "beta: must be a number, not '1e400'"),
        ("trueskill", {"draw_probability": "1"}, "draw_probability: must be 0.001 to 0.99, not 1"),
        ("trueskill", {"tau": "-0.1"}, "tau: must be 0 to 10,000, not -0.1"),
        ("glicko2", {"volatility": "5"}, "volatility: must be 0.0001 to 1, not 5"),
        ("glicko2", {"deviation": "0"}, "deviation: must be 1 to 10,000, not 0"),
        ("glicko2", {"tau": "inf"}, "tau: must be a number, not 'inf'"),
        ("elo-mmr", {"weight": "0"}, "weight: must be 0.01 to 1, not 0"),
        ("elo-mmr", {"mu": "5000"}, "mu: must be 0 to 3,000, not 5000"),
        ("pairwise-placing", {"k": "1_0"}, "k: must be a number, not '1_0'"),
        ("pairwise-placing", {"k": "³²"}, "k: must be a number, not '³²'"),
        ("pairwise-placing", {"k": "9" * 400}, "k: must be a number, not '99999999999999999999…'"),
    ],
)
def test_numbers_outside_their_range_or_written_oddly_are_refused_naming_the_parameter(slug, raw, message):
    with pytest.raises(ParamError, match=re.escape(message)):
        METHODS[slug].clean_params(raw)


def test_stored_json_numbers_are_read_as_they_are():
    assert METHODS["trueskill"].clean_params({"beta": 3, "round": True})["beta"] == 3


@pytest.mark.parametrize("slug", [slug for slug, method in METHODS.items() if not method.against_deals])
def test_a_method_reads_exactly_the_matchday_facts_it_declares(slug):
    """The entry page asks only for the facts a game's tables read (`facts_read`): each fact changes a
    method's changes if and only if the method declares it."""
    method = METHODS[slug]
    params = method.clean_params({})

    def deltas(facts):
        rating = method.start(params)[0]
        state = method.start(params)[1]
        seats = [methods.Seat(rating + 80, 1, state), methods.Seat(rating, 2, state)]
        return [o.delta for o in method.compute(seats, facts, params)]

    plain = deltas(methods.Facts())
    read = {
        "rounds": deltas(methods.Facts(rounds=7)) != plain,
        "winner_score": deltas(methods.Facts(winner_score=15)) != plain,
    }
    assert {fact for fact, changes in read.items() if changes} == set(method.facts_read)
    assert set(method.facts_read) <= set(methods.Facts.__dataclass_fields__)
