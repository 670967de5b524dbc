"""The registry of methods and how their parameters are read and refused."""

import pytest

from ratings import methods
from ratings.methods import METHODS, ParamError


def test_the_registry_has_the_issues_seven_slugs_and_player_against_deal():
    assert list(METHODS) == [
        "club",
        "pairwise-placing",
        "pairwise-winner",
        "table-size",
        "rating-band",
        "sedma",
        "openskill",
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
    assert params == {"k": 16.0, "round": True, "start_rating": 1200.0}


@pytest.mark.parametrize(
    ("slug", "raw", "message"),
    [
        ("pairwise-placing", {"k": "x"}, "k: must be a number, not 'x'"),
        ("pairwise-placing", {"k": "-3"}, "k: must be above 0"),
        ("club", {"round": "maybe"}, "round: must be 0 or 1"),
        ("rating-band", {"k": "32"}, "k: rating-band has no such parameter"),
        ("openskill", {"sigma": "nan"}, "sigma: must be a finite number"),
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
