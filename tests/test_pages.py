"""The public pages, rendered: the club's numbers, the tooltips and a fixed number of queries."""

import re

import pytest
from django.urls import reverse

from league.models import Category, Game, Page, Player
from ratings.models import Standing
from ratings.services.catalogue import save_category, save_game
from tests.conftest import CLUB_PAGE, PLAYERS, section, table_rows


def test_the_home_page_shows_the_club_tables_with_the_published_numbers(client, club):
    html = client.get(reverse("league:home")).content.decode()
    overall = table_rows(section(html, "overall-heading"))
    assert overall[0] == ["Matchday", "Date", "Game", "Rounds", *PLAYERS]
    assert overall[1][:4] == ["1", "November 3, 2025", "Hearts", "7"]  # not this year's: with the year
    assert [[int(x) for x in row[4:]] for row in overall[1:]] == CLUB_PAGE

    hearts = table_rows(section(html, "hearts-heading"))
    assert hearts[0] == ["Matchday", "Date", "Rounds", *PLAYERS]
    assert hearts[6][:3] == ["6", "November 15, 2025", "5"]
    assert [[int(x) for x in row[3:]] for row in hearts[1:]] == CLUB_PAGE


def test_the_results_grid_uses_the_club_notation(client, club):
    html = client.get(reverse("league:home")).content.decode()
    results = table_rows(section(html, "results-heading"))
    assert results[1][4:] == ["1", "3", "4", "2", "-"]
    assert results[5][4:] == ["2", "4(3)", "1", "-", "3"]


def test_an_unofficial_category_gets_its_own_table_labelled_as_such(client, club):
    tcg = Category(name="Trading card games", slug="trading-card-games", description="Not part of the official rating.")
    save_category(tcg)
    save_game(Game(name="Pokemon", slug="pokemon", category=tcg, official=False))
    html = client.get(reverse("league:home")).content.decode()
    tcg_section = section(html, "trading-card-games-heading")
    assert "Trading card games rating" in tcg_section and "unofficial" in tcg_section
    assert "No matchdays yet." in tcg_section


def test_every_player_name_carries_a_tooltip_with_their_ratings(client, club):
    html = client.get(reverse("league:home")).content.decode()
    tip = re.search(
        r'data-player="I" aria-describedby="(tip\.[^"]+)">I</a>'
        r'<span class="tip" role="tooltip" id="\1">(.*?)</span></span>',
        html,
        flags=re.S,
    )
    assert tip, "the I column header should carry a tooltip"
    assert tip.group(2) == "I\nOverall 1521\nHearts 1521"
    ids = re.findall(r'role="tooltip" id="([^"]+)"', html)
    assert len(ids) == len(set(ids)) > 10


def test_the_standings_rank_the_players_by_current_rating(client, club):
    html = client.get(reverse("league:standings")).content.decode()
    overall = table_rows(section(html, "overall-heading"))
    assert overall[0] == ["#", "Player", "Rating", "Last change", "Matchdays", "Last played"]
    assert [[*row[:3], row[4]] for row in overall[1:]] == [
        ["1", "J", "1534", "3"],
        ["2", "I", "1521", "5"],
        ["3", "K", "1494", "4"],
        ["4", "R", "1492", "6"],
        ["5", "GL", "1461", "6"],
    ]
    assert overall[2][3:] == ["+25", "5", "November 15, 2025"]  # not this year's: with the year
    assert overall[5][3] == "\u221224"


def test_a_game_page_shows_its_table_standings_and_results(client, club):
    html = client.get(reverse("league:game", args=["hearts"])).content.decode()
    assert "<h1>Hearts</h1>" in html
    hearts = table_rows(section(html, "hearts-heading"))
    assert [[int(x) for x in row[3:]] for row in hearts[1:]] == CLUB_PAGE
    assert "4(3)" in section(html, "results-heading")


def test_unknown_games_and_pages_are_not_found(client, club):
    assert client.get("/card-games/games/poker/").status_code == 404
    assert client.get("/card-games/pages/nothing/").status_code == 404


def test_constitution_markdown_is_rendered_and_scripts_are_removed(client, db):
    Page.objects.create(
        slug="constitution", title="Constitution", body="# Rules\n\n* **one**\n\n<script>alert(1)</script>"
    )
    html = client.get(reverse("league:page", args=["constitution"])).content.decode()
    assert "<strong>one</strong>" in html
    assert "<script>alert" not in html
    assert 'href="/card-games/pages/constitution/"' in html  # in the navigation


def test_player_names_with_html_are_shown_as_text(client, club):
    Player.objects.filter(short_name="GL").update(name="<b>Greg</b>")
    html = client.get(reverse("league:home")).content.decode()
    assert "&lt;b&gt;Greg&lt;/b&gt;" in html
    assert "<b>Greg</b>" not in html


@pytest.mark.parametrize(
    ("url", "queries"),
    [
        ("/card-games/", 23),
        ("/card-games/standings/", 10),
        # the club's latest day, whence the standings' inactive (ranks); the game's record against the players
        ("/card-games/games/hearts/", 17),
        ("/card-games/players/", 13),  # the overall standings' board (ranks); whether there are attempts at all
        ("/card-games/odds/", 5),
    ],
)
def test_pages_take_a_fixed_number_of_queries(client, club, make_matchday, django_assert_num_queries, url, queries):
    with django_assert_num_queries(queries):
        client.get(url)
    for number in range(7, 12):  # more matchdays and a new player cost no extra query
        make_matchday(number, f"2025-11-{number + 13}", {"I": 1, "R": 2, "NEW": 3}, rounds=2)
    with django_assert_num_queries(queries):
        assert client.get(url).status_code == 200


def test_a_download_holds_the_whole_table_not_the_page_shown(client, club, settings):
    """Issue 40: a paged table's CSV held only the page shown."""
    settings.LEAGUE_HOME_GRID_PAGE_SIZE = settings.LEAGUE_GRID_PAGE_SIZE = settings.LEAGUE_STANDINGS_PAGE_SIZE = 2
    for url, table, query in [
        ("/card-games/", "overall", {"overall-page": "2"}),
        ("/card-games/games/hearts/", "results", {"results-page": "3"}),
        ("/card-games/standings/", "overall", {"overall-page": "2"}),
        ("/card-games/players/", "players", {}),
    ]:
        shown = client.get(url, query).content.decode()
        assert "-page=" in shown, url  # the page is paged
        rows = client.get(url, {**query, "export": "json", "table": table}).json()
        expected = {"overall": 6, "results": 6, "players": Player.objects.count()}[table]
        if url.endswith("standings/"):
            expected = Standing.objects.filter(table__slug="overall").count()
        assert len(rows) == expected, url
