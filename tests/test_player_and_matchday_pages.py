"""Player and matchday pages: every rating change explained, the history chart, head to head."""

import csv
import io
import json
import re

import pytest
from django.urls import reverse

from league.models import Player
from tests.conftest import section, table_rows


def player_url(short_name):
    return reverse("league:player", args=[Player.objects.get(short_name=short_name).pk])


def test_the_player_page_shows_current_rating_and_rank_in_every_table(client, club):
    html = client.get(player_url("GL")).content.decode()
    cards = re.findall(r'<li class="card">(.*?)</li>', html, flags=re.S)
    texts = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)).strip() for c in cards]
    assert texts == ["Overall 1461 #5 of 5 · 6 matchdays", "Hearts 1461 #5 of 5 · 6 matchdays"]


def test_the_player_page_explains_every_matchday_so_the_arithmetic_can_be_checked(client, club):
    html = client.get(player_url("R")).content.decode()
    rows = table_rows(section(html, "overall-heading"))
    assert rows[0] == [
        "Date",
        "Matchday",
        "Game",
        "Placing",
        "Before",
        "M",
        "Expected",
        "Score",
        "K",
        "Change",
        "After",
    ]
    assert len(rows) == 7  # R played all six matchdays
    # Matchday 5: R finished 3rd, rated 4th; others' mean (1489 + 1462 + 1544) / 3 = 1498.3.
    assert rows[5] == [
        "November 10",
        "5",
        "Hearts",
        "4(3) of 4",
        "1503",
        "1498.3",
        "0.51",
        "0.00",
        "40",
        "\u221220",
        "1483",
    ]


def test_the_history_chart_has_one_point_per_matchday_played_in_each_table(client, club):
    html = client.get(player_url("J")).content.decode()
    chart = html[html.index("<svg") : html.index("</svg>")]
    for table in ("Overall", "Hearts"):
        series = re.search(rf'data-series="{table}">(.*?)</g>', chart, flags=re.S).group(1)
        assert series.count('class="point"') == 3
    assert "<title>Overall, matchday 4, November 9, 2025: 1544</title>" in chart
    assert ">Nov 6</text>" in chart  # dates on the x axis
    assert ">1510</text>" in chart and ">1550</text>" in chart  # ratings on the y axis


def test_head_to_head_counts_finishes_by_real_placing(client, club):
    html = client.get(player_url("GL")).content.decode()
    rows = table_rows(section(html, "head-to-head-heading"))
    assert rows[0] == ["Opponent", "Game", "Matchdays", "Finished ahead", "Behind", "Tied"]
    assert rows[1] == ["R", "Hearts", "6", "3", "3", "0"]
    # R and J both finished 3rd at matchday 5 (R rated 4th): a tie, not a loss.
    r_rows = table_rows(section(client.get(player_url("R")).content.decode(), "head-to-head-heading"))
    assert ["J", "Hearts", "3", "0", "2", "1"] in r_rows


def test_a_player_without_matchdays_gets_a_friendly_page(client, club):
    Player.objects.create(name="New member", short_name="NM")
    html = client.get(player_url("NM")).content.decode()
    assert "NM has not played a rated matchday yet." in html


def test_the_matchday_page_shows_results_and_each_tables_changes(client, club):
    html = client.get(reverse("league:matchday", args=[5])).content.decode()
    assert "Monday, November 10, 2025" in html
    results = table_rows(section(html, "results-heading"))
    assert [row[:2] for row in results[1:]] == [["1", "GL"], ["2", "I"], ["3", "J"], ["4(3)", "R"]]
    overall = table_rows(section(html, "overall-heading"))
    assert overall[0] == [
        "Player",
        "Placing",
        "Change",
        "After",
        "Before",
        "M",
        "Expected",
        "Score",
        "K",
    ]
    assert overall[1] == ["GL", "1", "+23", "1485", "1462", "1512", "0.43", "1.00", "40"]
    assert 'rel="prev"' in html and 'rel="next"' in html


def test_grid_ratings_explain_their_change_on_hover(client, club):
    html = client.get("/").content.decode()
    overall = section(html, "overall-heading")
    assert 'title="+35: 1st of 4, expected 0.50, K 70">1535<' in overall
    assert 'title="\u221220: 4th (finished 3rd) of 4, expected 0.51, K 40">1483<' in overall
    assert 'href="/matchdays/1/"' in overall


def test_every_player_name_links_to_the_player_page(client, club):
    html = client.get("/standings/").content.decode()
    assert f'href="{player_url("GL")}"' in html


def test_unknown_players_and_matchdays_are_not_found(client, club):
    assert client.get("/players/999/").status_code == 404
    assert client.get("/matchdays/999/").status_code == 404


@pytest.mark.parametrize(
    ("url", "table", "first_row"),
    [
        ("/", "overall", {"Matchday": "1", "Date": "2025-11-03", "I": "1535", "J": "1500"}),
        ("/", "results", {"Matchday": "1", "I": "1", "J": ""}),
        ("/standings/", "overall", {"#": "1", "Player": "J", "Rating": "1534"}),
        ("/matchdays/5/", "results", {"Placing": "1", "Player": "GL"}),
    ],
)
def test_tables_download_as_csv_with_plain_text(client, club, url, table, first_row):
    response = client.get(url, {"export": "csv", "table": table})
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith(f'filename="{table}.csv"')
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert {k: rows[0][k] for k in first_row} == first_row
    assert "<" not in response.content.decode()


def test_tables_download_as_json(client, club):
    response = client.get("/games/hearts/", {"export": "json", "table": "hearts"})
    rows = json.loads(response.content)
    assert rows[-1]["Rounds"] == 5 or rows[-1]["Rounds"] == "5"
    assert rows[-1]["GL"] == 1461  # numbers are numbers in downloads


def test_a_bad_export_request_says_what_is_wrong(client, club):
    response = client.get("/", {"export": "pdf", "table": "overall"})
    assert response.status_code == 400 and b"export must be one of csv, json" in response.content
    response = client.get("/", {"export": "csv", "table": "nope"})
    assert response.status_code == 400 and b"table must be one of" in response.content


@pytest.mark.parametrize(
    ("url", "queries"), [("player", 14), ("matchday", 9)]
)  # the player's: with their partners and honours
def test_player_and_matchday_pages_take_a_fixed_number_of_queries(
    client, club, make_matchday, django_assert_num_queries, url, queries
):
    page = player_url("I") if url == "player" else reverse("league:matchday", args=[6])

    def get():
        return client.get(page)

    with django_assert_num_queries(queries):
        get()
    for number in range(7, 12):
        make_matchday(number, f"2025-11-{number + 13}", {"I": 1, "R": 2, "NEW": 3}, rounds=2)
    with django_assert_num_queries(queries):
        assert get().status_code == 200
