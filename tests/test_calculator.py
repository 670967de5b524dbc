"""The calculator: its JSON API for scripts and its page, one game or several in a row."""

import re

import pytest
from django.urls import reverse

from league.models import Player
from ratings import calculator
from ratings.methods import METHODS, ParamError
from tests.conftest import table_rows

URL = "/card-games/calculator.json"


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
    with pytest.raises(
        ParamError, match=r"games: line 1: placing 3 for B is outside 1\.\.2 \(2 players took part\)\.$"
    ):
        calculator.series({"method": "club"}, "", "A:1 B:3")
    with pytest.raises(ParamError, match=r"games: line 1: The placings 1, 3, 3 are not a ranking of the players"):
        calculator.series({"method": "club"}, "", "A:1 B:3 C:3")
    with pytest.raises(ParamError, match=r"games: line 1: a is entered twice\.$"):  # names compared as everywhere
        calculator.series({"method": "club"}, "", "A:1 a:2")


def test_the_calculator_page_shows_each_step(client, db, django_assert_num_queries):
    query = {
        "method": "pairwise-placing",
        "ratings": "1613, 1609, 1720",
        "placings": "2, 1, 3",
        "k": "",
        "games": "A:1 B:2\nA:2 B:1",
        "start": "A=1500",
    }
    with django_assert_num_queries(
        4
    ):  # the club's revision, the navigation's games and pages, the rating tables to pick from
        html = client.get(reverse("ratings:calculator"), query).content.decode()
    assert "Expected" in html and "0.856" in html and "+37.13" in html
    assert "Game by game" in html and "Game 2" in html


def test_the_calculator_page_shows_a_bad_parameter(client, db):
    html = client.get(reverse("ratings:calculator"), {"ratings": "1500,x", "placings": "1,2"}).content.decode()
    assert "ratings: value 2 must be a number, not &#x27;x&#x27;" in html


PAGE = "/card-games/calculator/"


def answer_rows(html: str) -> list[list[str]]:
    start = html.index('id="answer"')
    return table_rows(html[start : html.index("</section>", start)])


def test_members_are_named_by_commas_or_lines_each_once():
    assert calculator.member_names(" Ada N., GL\nR ,") == ["Ada N.", "GL", "R"]
    with pytest.raises(ParamError, match="^players: 'gl' is named twice$"):
        calculator.member_names("GL, R, gl")
    with pytest.raises(ParamError, match="^players: "):
        calculator.member_names("G\u200bL, R")  # an invisible character, refused as every way in does
    with pytest.raises(ParamError, match=f"^players: names more than {calculator.MAX_PLAYERS} players"):
        calculator.member_names(", ".join(f"P{i}" for i in range(calculator.MAX_PLAYERS + 1)))
    with pytest.raises(ParamError, match="^players: is longer than"):
        calculator.member_names("A" * (calculator.MAX_TEXT + 1))


def test_members_picked_by_name_fill_the_ratings_from_their_table(client, club):
    response = client.get(PAGE, {"players": "j, I, gl", "placings": "1, 2, 3", "games": "A:1 B:2"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="ratings" value="1534, 1521, 1461"' in html  # the overall table's, the first
    rows = answer_rows(html)
    assert [(row[0], row[4]) for row in rows[1:]] == [("J", "1534"), ("I", "1521"), ("GL", "1461")]
    assert "each with their current rating in Overall" in html
    assert "Game by game" in html  # the series beside it takes no members


def test_a_member_new_to_the_table_chosen_starts_at_its_start_rating(client, club):
    Player.objects.create(name="New member", short_name="NM")
    html = client.get(PAGE, {"players": "New member, K", "table": "hearts", "placings": "2, 1"}).content.decode()
    assert 'name="ratings" value="1500, 1494"' in html
    assert [row[0] for row in answer_rows(html)[1:]] == ["NM", "K"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"players": "GLL, I"}, "players: no member is called GLL (did you mean GL?)"),
        ({"players": "Zebedee, I"}, "players: no member is called Zebedee"),
        ({"players": "farid omar, I"}, "players: farid omar could be FO, FOm"),
        ({"players": "GL, gl"}, "players: &#x27;gl&#x27; is named twice"),
        ({"players": "Farid Q, FQ"}, "players: names one member twice"),
        (
            {"players": "GL, I", "table": "nope"},
            "table: there is no rating table &#x27;nope&#x27; to take ratings from",
        ),
    ],
)
def test_a_name_that_finds_no_member_or_several_is_refused_naming_the_field(client, club, query, message):
    Player.objects.create(name="Farid Omar", short_name="FO")
    Player.objects.create(name="Farid Omar", short_name="FOm")
    Player.objects.create(name="Farid Q", short_name="FQ")
    response = client.get(PAGE, {**query, "placings": "1, 2"})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert 'id="answer"' not in response.content.decode()


def test_picking_members_costs_three_queries_more(client, club, django_assert_num_queries):
    # the club's revision, navigation (2), the tables, the players and their former names
    # (web/pages/typed_names.py), their standings
    with django_assert_num_queries(7):
        client.get(PAGE, {"players": "J, I", "placings": "1, 2"})


def test_the_page_shows_the_chosen_methods_parameters_only(client, db):
    html = client.get(PAGE, {"method": "glicko2", "tau": "0.4"}).content.decode()
    assert re.findall(r'<fieldset class="calc-fields" data-method="([^"]+)">', html) == ["glicko2"]
    hidden = re.findall(r'<fieldset class="calc-fields" data-method="([^"]+)" hidden disabled>', html)
    assert sorted(hidden) == sorted(slug for slug in METHODS if slug != "glicko2")
    start = html.index('data-method="glicko2"')
    fields = html[start : html.index("</fieldset>", start)]
    assert set(re.findall(r'name="([a-z_0-9]+)"', fields)) == {p.name for p in METHODS["glicko2"].params}
    assert 'name="tau" value="0.4"' in fields
    # Without a method, the club formula's; every method's fields are in the page for the script to show.
    html = client.get(PAGE).content.decode()
    assert re.findall(r'<fieldset class="calc-fields" data-method="([^"]+)">', html) == ["club"]


def test_choosing_another_method_lets_the_parameters_of_the_one_before_go(client, db):
    query = {"method": "rating-band", "k": "32", "ratings": "1500, 1500", "placings": "1, 2"}
    refused = client.get(PAGE, query)
    assert refused.status_code == 400 and "k: rating-band has no such parameter" in refused.content.decode()
    chosen = client.get(PAGE, {**query, "choose": "1"})
    assert chosen.status_code == 200
    assert 'name="k" value="32"' not in chosen.content.decode()
    assert answer_rows(chosen.content.decode())[1][0] == "1"


def test_the_answer_comes_before_the_form(client, db):
    html = client.get(PAGE, {"ratings": "1613, 1609", "placings": "2, 1", "games": "A:1 B:2"}).content.decode()
    assert html.index('id="answer"') < html.index('id="series"') < html.index("<form")
