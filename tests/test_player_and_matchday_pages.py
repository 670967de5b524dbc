"""Player and matchday pages: every rating change explained, the history chart, head to head."""

import csv
import io
import json
import re
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Category, Game, Player
from ratings.models import RatingEntry, RatingTable
from ratings.selectors.players import HistoryPoint, record_of
from tests.conftest import section, table_rows
from web.pages.formatting import format_change, format_rating, formula_html


def player_url(short_name):
    return reverse("league:player", args=[Player.objects.get(short_name=short_name).pk])


def card_texts(html):
    cards = re.findall(r'<li class="card">(.*?)</li>', html, flags=re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)).strip() for c in cards]


def test_the_player_page_leads_with_rating_rank_and_record_in_every_table(client, club):
    # GL's November by hand (tests/conftest.py CLUB_PAGE): finished 4, 3, 1, 4, 1, 4; rated 1465,
    # 1463, 1497, 1462, 1485, 1461. Two wins (matchdays 3 and 5), three podiums (2, 3 and 5), 2 of 6
    # won is 33%, the peak is 1497 (November 8), the last change 1485 -> 1461, and nothing in the
    # last 30 days (November 2025 is long past).
    html = client.get(player_url("GL")).content.decode()
    record = "#5 of 5 · 6 matchdays Last 30 days ±0 Peak 1497 Wins 2 Podiums 3 Win % 33%"
    assert card_texts(html) == [f"Overall 1461 \u221224 {record}", f"Hearts 1461 \u221224 {record}"]
    assert 'title="First reached on November 8, 2025">1497<' in html
    # J: won matchdays 2 and 4, third at 5 (1544 -> 1534): two wins of three, 67%, peak 1544.
    j = card_texts(client.get(player_url("J")).content.decode())[0]
    assert j == "Overall 1534 \u221210 #1 of 5 · 3 matchdays Last 30 days ±0 Peak 1544 Wins 2 Podiums 3 Win % 67%"


def test_the_change_over_30_days_sums_the_matchdays_of_the_last_30_days(client, club, make_matchday):
    today = timezone.localdate()
    make_matchday(7, (today - timedelta(days=40)).isoformat(), {"GL": 1, "I": 2})  # before the window
    make_matchday(8, (today - timedelta(days=29)).isoformat(), {"GL": 2, "I": 1})  # its first day
    make_matchday(9, today.isoformat(), {"GL": 1, "K": 2})
    gl, overall = Player.objects.get(short_name="GL"), RatingTable.objects.get(slug="overall")
    change = {e.matchday.number: e.delta for e in RatingEntry.objects.filter(table=overall, player=gl)}
    html = client.get(player_url("GL")).content.decode()
    assert f"Last 30 days {format_change(change[8] + change[9])} Peak" in card_texts(html)[0]
    assert (
        f"{format_rating(gl.standings.get(table=overall).rating)} {format_change(change[9])} #" in card_texts(html)[0]
    )


def test_a_record_is_counted_from_the_history_by_hand():
    day = date(2026, 3, 1)
    points = [
        HistoryPoint(day - timedelta(days=45), 1, 1520, 20, 1, 10),
        HistoryPoint(day - timedelta(days=30), 2, 1530, 10, 3, 11),  # a day before the window
        HistoryPoint(day - timedelta(days=29), 3, 1515, -15, 4, 12),
        HistoryPoint(day, 4, 1530, 15, 1, 13),
    ]
    record = record_of(points, day)
    assert (record.matchdays, record.wins, record.podiums) == (4, 2, 3)
    assert (record.peak, record.peak_day) == (1530, day - timedelta(days=30))  # first reached
    assert (record.last_change, record.recent_change, record.win_share) == (15, 0, 0.5)
    assert record_of([], day) is None


def test_every_matchday_comes_newest_first_in_one_list_with_a_column_per_table(client, club):
    html = client.get(player_url("R")).content.decode()
    assert 'id="overall-heading"' not in html and 'id="hearts-heading"' not in html  # one list, not one per table
    listing = section(html, "matchdays-heading")
    rows = table_rows(listing)
    assert rows[0] == ["Date", "Matchday", "Game", "Placing", "Overall", "Hearts"]
    assert [row[1] for row in rows[1:]] == ["6", "5", "4", "3", "2", "1"]  # R played all six
    # Matchday 5: R finished 3rd, rated 4th: −20 to 1483 in both tables, explained on hover.
    assert rows[2][:4] == ["November 10, 2025", "5", "Hearts", "4(3) of 4"]  # not this year's: with the year
    cell = '<span class="down">\u221220</span><span class="after">1483</span>'
    assert listing.count(f'<span title="\u221220: 4th (finished 3rd) of 4, expected 0.51, K 40">{cell}</span>') == 2
    assert str(formula_html(RatingTable.objects.get(slug="overall").rating_method.explanation)) in listing


def test_a_matchday_that_does_not_count_in_a_table_leaves_its_cell_blank(client, club, make_matchday):
    sedma = Game.objects.create(
        name="Sedma", slug="sedma", official=False, category=Category.objects.create(name="Party", slug="party")
    )
    make_matchday(7, "2025-11-20", {"R": 1, "I": 2}, game=sedma)
    rows = table_rows(section(client.get(player_url("R")).content.decode(), "matchdays-heading"))
    header = rows[0]
    assert header[:4] == ["Date", "Matchday", "Game", "Placing"] and set(header[4:]) == {
        "Overall",
        "Hearts",
        "Sedma",
        "Party",
    }
    newest = dict(zip(header, rows[1], strict=True))
    assert newest["Matchday"] == "7" and newest["Overall"] == newest["Hearts"] == ""
    assert newest["Sedma"].startswith("+") and newest["Party"].startswith("+")


def test_the_list_downloads_each_tables_change_and_rating_after_as_numbers(client, club):
    rows = json.loads(client.get(player_url("R"), {"export": "json", "table": "matchdays"}).content)
    assert [row["Matchday"] for row in rows] == [6, 5, 4, 3, 2, 1]
    five = rows[1]
    assert five["Date"] == "2025-11-10" and five["Placing"] == "4(3)"  # rated 4th, finished 3rd
    assert (five["Overall change"], five["Overall after"], five["Hearts change"], five["Hearts after"]) == (
        -20,
        1483,
        -20,
        1483,
    )
    assert "Overall" not in five  # the page's column of both is for the page


def test_the_history_chart_has_one_point_per_matchday_played_in_each_table(client, club):
    html = client.get(player_url("J")).content.decode()
    chart = html[html.index("<svg") : html.index("</svg>")]
    for table in ("Overall", "Hearts"):
        series = re.search(rf'data-series="{table}">(.*?)</g>', chart, flags=re.S).group(1)
        assert series.count('class="point"') == 3
    assert "<title>Overall, matchday 4, November 9, 2025: 1544</title>" in chart
    assert ">Nov 6</text>" in chart  # dates on the x axis, without years within one
    assert ">1510</text>" in chart and ">1550</text>" in chart  # ratings on the y axis


def test_the_charts_dates_carry_their_year_across_a_new_year(client, club, make_matchday):
    make_matchday(7, "2026-01-10", {"J": 1, "I": 2})
    chart = client.get(player_url("J")).content.decode()
    labels = re.findall(r'class="x-label[^"]*"[^>]*>([^<]*)<', chart)
    assert labels[0] == "Nov 6, 2025" and labels[-1] == "Jan 10, 2026"


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
    html = client.get("/card-games/").content.decode()
    overall = section(html, "overall-heading")
    assert 'title="+35: 1st of 4, expected 0.50, K 70">1535<' in overall
    assert 'title="\u221220: 4th (finished 3rd) of 4, expected 0.51, K 40">1483<' in overall
    assert 'href="/card-games/matchdays/1/"' in overall


def test_every_player_name_links_to_the_player_page(client, club):
    html = client.get("/card-games/standings/").content.decode()
    assert f'href="{player_url("GL")}"' in html


def test_unknown_players_and_matchdays_are_not_found(client, club):
    assert client.get("/card-games/players/999/").status_code == 404
    assert client.get("/card-games/matchdays/999/").status_code == 404


@pytest.mark.parametrize(
    ("url", "table", "first_row"),
    [
        ("/card-games/", "overall", {"Matchday": "1", "Date": "2025-11-03", "I": "1535", "J": "1500"}),
        ("/card-games/", "results", {"Matchday": "1", "I": "1", "J": ""}),
        ("/card-games/standings/", "overall", {"#": "1", "Player": "J", "Rating": "1534"}),
        ("/card-games/matchdays/5/", "results", {"Placing": "1", "Player": "GL"}),
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
    response = client.get("/card-games/games/hearts/", {"export": "json", "table": "hearts"})
    rows = json.loads(response.content)
    assert rows[-1]["Rounds"] == 5 or rows[-1]["Rounds"] == "5"
    assert rows[-1]["GL"] == 1461  # numbers are numbers in downloads


def test_a_bad_export_request_says_what_is_wrong(client, club):
    response = client.get("/card-games/", {"export": "pdf", "table": "overall"})
    assert response.status_code == 400 and b"export must be one of csv, json" in response.content
    response = client.get("/card-games/", {"export": "csv", "table": "nope"})
    assert response.status_code == 400 and b"table must be one of" in response.content


@pytest.mark.parametrize(
    ("url", "queries"),
    [("player", 18), ("matchday", 9)],  # the player's: with their record against the game
)  # the player's: with their partners and honours, and each of their tables' standings (their ranks)
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
