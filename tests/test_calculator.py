"""The calculator: its JSON API for scripts and its page, one game or several in a row."""

import pytest
from django.urls import reverse

from ratings import calculator
from ratings.methods import ParamError

URL = "/calculator.json"


def get_json(client, **query):
    response = client.get(URL, query)
    return response.status_code, response.json()


def test_the_json_api_answers_the_hearts_seeds_player_in_the_order_given(client, db):
    status, data = get_json(
        client,
        method="pairwise-placing",
        ratings="1613,1609,1477,1388,1586,1720",
        placings="3,1,3,5,5,1",
        round="1",
    )
    assert status == 200
    assert data["method"] == "pairwise-placing"
    first = data["players"][0]
    assert set(first) == {"rating_before", "placing", "expected", "score", "k", "delta", "rating_after"}
    assert (first["rating_before"], first["placing"], first["score"], first["k"]) == (1613, 3, 2.5, 32)
    assert first["expected"] == pytest.approx(2.867, abs=0.0005)
    assert (first["rating_after"], first["delta"]) == (1601, -12)
    assert [p["placing"] for p in data["players"]] == [3, 1, 3, 5, 5, 1]


def test_two_player_elo_with_k_32(client, db):
    _, data = get_json(client, method="pairwise-placing", ratings="1200,1000", placings="1,2", k="32")
    assert [p["rating_after"] for p in data["players"]] == pytest.approx([1207.688, 992.312], abs=0.0005)


def test_the_club_formula_defaults_to_whole_numbers_and_round_0_keeps_decimals(client, db):
    _, data = get_json(client, method="club", ratings="1500,1500,1500,1500", placings="1,3,4,2", rounds="7")
    assert [p["rating_after"] for p in data["players"]] == [1535, 1488, 1465, 1512]
    assert data["players"][0]["opponents_mean"] == 1500
    _, data = get_json(client, method="club", ratings="1500,1500,1500,1500", placings="1,3,4,2", rounds="7", round="0")
    assert data["players"][1]["rating_after"] == pytest.approx(1488.3333, abs=0.0001)


def test_table_size_takes_the_winners_score(client, db):
    _, data = get_json(client, method="table-size", ratings="1000,1000,1000", placings="1,2,3", winner_score="20")
    assert {p["k"] for p in data["players"]} == {24}


def test_sedma_counts_and_openskill_extras_come_through(client, db):
    _, data = get_json(
        client,
        method="sedma",
        ratings="1200,1000",
        placings="1,2",
        won_by_16="3,0",
        won_by_24="0,1",
        bad_moves="2,0",
    )
    assert [p["rating_after"] for p in data["players"]] == [1208, 991]
    _, data = get_json(client, method="openskill", ratings="0,0", placings="1,2")
    assert data["players"][0]["k"] is None
    assert data["players"][0]["provisional"] is True
    assert data["players"][0]["ordinal"] == data["players"][0]["rating_after"]


def test_left_early_for_the_winner_only_method(client, db):
    _, data = get_json(client, method="pairwise-winner", ratings="1500,1500,1500", placings="1,2,3", left_early="0,0,1")
    assert [p["score"] for p in data["players"]] == [2, 1, 0]


@pytest.mark.parametrize(
    ("query", "parameter"),
    [
        ({"method": "elo", "ratings": "1500,1500", "placings": "1,2"}, "method"),
        ({"method": "club", "placings": "1,2"}, "ratings"),
        ({"method": "club", "ratings": "1500,abc", "placings": "1,2"}, "ratings"),
        ({"method": "club", "ratings": "1500,1500"}, "placings"),
        ({"method": "club", "ratings": "1500,1500", "placings": "1,2,3"}, "placings"),
        ({"method": "club", "ratings": "1500,1500,1500", "placings": "1,1,2"}, "placings"),
        ({"method": "club", "ratings": "1500", "placings": "1"}, "ratings"),
        ({"method": "club", "ratings": "1500,1500", "placings": "1,2", "rounds": "0"}, "rounds"),
        ({"method": "club", "ratings": "1500,1500", "placings": "1,2", "k": "fast"}, "k"),
        ({"method": "rating-band", "ratings": "1500,1500", "placings": "1,2", "k": "32"}, "k"),
        ({"method": "club", "ratings": "1500,1500", "placings": "1,2", "round": "2"}, "round"),
        (
            {"method": "table-size", "ratings": "1500,1500", "placings": "1,2", "winner_score": "x"},
            "winner_score",
        ),
        ({"method": "sedma", "ratings": "1500,1500,1500", "placings": "1,2,3"}, "ratings"),
        ({"method": "sedma", "ratings": "1500,1500", "placings": "1,2", "bad_moves": "1"}, "bad_moves"),
    ],
)
def test_bad_parameters_give_400_naming_the_parameter(client, db, query, parameter):
    status, data = get_json(client, **query)
    assert status == 400
    assert data["parameter"] == parameter
    assert data["error"].startswith(f"{parameter}: ")


def test_several_games_in_a_row_carry_each_players_rating():
    steps, final = calculator.series(
        {"method": "pairwise-placing", "k": "32"}, "A=1200, B=1000", "A:1 B:2\nB:1 A:2 C:3"
    )
    assert [s.line for s in steps] == [1, 2]
    assert steps[0].outcomes[0].rating_after == pytest.approx(1207.688, abs=0.0005)
    assert steps[1].outcomes[1].rating_before == steps[0].outcomes[0].rating_after
    assert steps[1].outcomes[2].rating_before == 1500  # C is new
    assert set(final) == {"A", "B", "C"}


def test_a_bad_line_is_named():
    with pytest.raises(ParamError, match="games: line 2: 'A-1' is not NAME:PLACING"):
        calculator.series({"method": "club"}, "", "A:1 B:2\nA-1 B:2")
    with pytest.raises(ParamError, match="games: line 1: placings 1, 3 are not a ranking"):
        calculator.series({"method": "club"}, "", "A:1 B:3")


def test_the_calculator_page_shows_each_step(client, db, django_assert_num_queries):
    query = {
        "method": "pairwise-placing",
        "ratings": "1613, 1609, 1720",
        "placings": "2, 1, 3",
        "k": "",
        "games": "A:1 B:2\nA:2 B:1",
        "start": "A=1500",
    }
    with django_assert_num_queries(2):  # the navigation's games and pages
        html = client.get(reverse("ratings:calculator"), query).content.decode()
    assert "Expected" in html and "0.856" in html and "+37.13" in html
    assert "Game by game" in html and "Game 2" in html


def test_the_calculator_page_shows_a_bad_parameter(client, db):
    html = client.get(reverse("ratings:calculator"), {"ratings": "1500,x", "placings": "1,2"}).content.decode()
    assert "ratings: value 2 must be a number, not &#x27;x&#x27;" in html
