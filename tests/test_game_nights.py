"""The game-night page (/nights/YYYY-MM-DD/): every matchday of one day, each one's winners and the
night's biggest movers per rating table, linked from the home page and every matchday page."""

from datetime import date

import pytest
from django.db import connection
from django.db.models import Count, Sum
from django.test.utils import CaptureQueriesContext

from league.models import Category, Game
from ratings.models import RatingEntry
from ratings.selectors.nights import MOVERS
from ratings.services.catalogue import save_category, save_game
from tests.conftest import section, table_rows

NIGHT = "/card-games/nights/2025-11-20/"


@pytest.fixture
def night(club, make_matchday):
    """Three matchdays on November 20 (Hearts twice, one a tie for first; Pokemon, unofficial and the
    only game of its category played), and one the day after."""
    tcg = Category(name="Trading card games", slug="trading-card-games")
    save_category(tcg)
    pokemon = Game(name="Pokemon", slug="pokemon", category=tcg, official=False)
    save_game(pokemon)
    make_matchday(7, "2025-11-20", {"I": 1, "R": 2, "K": 3, "GL": 4}, rounds=3)
    make_matchday(8, "2025-11-20", {"GL": 1, "J": 1, "K": 3}, rounds=2)
    make_matchday(9, "2025-11-20", {"R": 1, "I": 2}, game=pokemon)
    make_matchday(10, "2025-11-21", {"K": 1, "J": 2})


def test_a_night_shows_every_matchday_of_the_day_and_no_other(client, night):
    html = client.get(NIGHT).content.decode()
    assert "<h1>Game night, Thursday, November 20, 2025</h1>" in html
    cards = section(html, "matchdays-heading")
    assert [cards.index(f'href="/card-games/matchdays/{n}/"') for n in (7, 8, 9)] == sorted(
        cards.index(f'href="/card-games/matchdays/{n}/"') for n in (7, 8, 9)
    )  # in the order played
    assert 'href="/card-games/matchdays/10/"' not in cards and 'href="/card-games/matchdays/6/"' not in cards
    assert (
        'href="/card-games/nights/2025-11-15/" rel="prev"' in html
        and 'href="/card-games/nights/2025-11-21/" rel="next"' in html
    )


def test_the_winners_are_everyone_placed_first_at_each_matchday(client, night):
    html = client.get(NIGHT).content.decode()
    winners = section(html, "winners-heading")
    assert table_rows(winners)[0] == ["Matchday", "Game", "Winner"]
    assert 'data-player="GL"' in winners and 'data-player="J"' in winners
    rows = client.get(NIGHT, {"export": "json", "table": "winners"}).json()
    assert rows == [
        {"Matchday": 7, "Game": "Hearts", "Winner": "I"},
        {"Matchday": 8, "Game": "Hearts", "Winner": "GL, J"},
        {"Matchday": 9, "Game": "Pokemon", "Winner": "R"},
    ]


def _nights_changes(table_slug: str) -> dict[str, tuple[int, float]]:
    """Each player's matchdays and summed change on the night in one table, added up by the database."""
    rows = (
        RatingEntry.objects.filter(table__slug=table_slug, matchday_date="2025-11-20")
        .values("player__short_name")
        .annotate(n=Count("pk"), change=Sum("delta"))
    )
    return {r["player__short_name"]: (r["n"], r["change"]) for r in rows}


@pytest.mark.parametrize("table", ["overall", "hearts", "pokemon"])
def test_the_biggest_movers_add_up_each_players_changes_of_the_night(client, night, table):
    changes = _nights_changes(table)
    by_change = sorted(changes.items(), key=lambda item: (-item[1][1], item[0]))
    rises = [(name, n, c) for name, (n, c) in by_change if c > 0][:MOVERS]
    falls = [(name, n, c) for name, (n, c) in by_change if c < 0][-MOVERS:]
    rows = client.get(NIGHT, {"export": "json", "table": f"movers-{table}"}).json()
    assert [(r["Player"], r["Matchdays"], r["Change"]) for r in rows] == [*rises, *falls]
    assert rises and falls


def test_the_movers_show_a_category_that_repeats_its_one_game_once(client, night):
    html = client.get(NIGHT).content.decode()
    assert 'id="movers-pokemon"' in html and 'id="movers-trading-card-games"' not in html
    assert '<h3 id="movers-pokemon-heading">Pokemon · Trading card games rating <span class="badge">unofficial' in html
    overall = table_rows(section(html, "movers-overall-heading"))
    assert overall[0] == ["Player", "Matchdays", "Change"]
    assert overall[1][2].startswith("+") and overall[-1][2].startswith("\u2212")  # rises, then falls


def test_a_night_is_linked_from_the_home_page_and_each_of_its_matchdays(client, night):
    home = section(client.get("/card-games/").content.decode(), "latest-heading")
    assert '<a href="/card-games/nights/2025-11-21/">The whole night of November 21</a>' in home
    for number in (7, 8, 9):
        assert f'href="{NIGHT}"' in client.get(f"/card-games/matchdays/{number}/").content.decode()


@pytest.mark.parametrize(
    ("day", "message"),
    [
        ("2025-11-22", "No matchday was played on November 22, 2025."),
        ("2025-13-40", "There is no night “2025-13-40”"),
        ("2025-2-30", "There is no night “2025-2-30”"),
        ("20251120", "There is no night “20251120”"),
        ("yesterday", "There is no night “yesterday”"),
        ("9" * 3000, "There is no night"),
    ],
)
def test_a_day_without_matchdays_or_a_malformed_date_is_not_found(client, night, day, message):
    response = client.get(f"/card-games/nights/{day}/")
    assert response.status_code == 404
    assert message in response.content.decode()


def test_a_nights_queries_do_not_grow_with_its_matchdays(client, night):
    def count(url):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    assert count("/card-games/nights/2025-11-03/") == count(NIGHT)  # one matchday, and three


def test_the_nights_tables_link_their_players_and_colour_the_changes(night):
    from league.models import Player
    from ratings.models import RatingTable
    from ratings.selectors import nights, standings
    from tests.test_tables import html
    from web.nights.tables import WinnersTable
    from web.pages.names import PlayerNames
    from web.pages.tables import MoversTable

    found = nights.night(date(2025, 11, 20), list(RatingTable.objects.in_page_order()))
    names = PlayerNames(standings.current_ratings(Player.objects.values_list("pk", flat=True)))
    winners = html(WinnersTable(found.winners, names))
    movers = html(MoversTable(found.movers[0].rows, names))
    assert winners.count('<a class="player" href="/card-games/players/') >= len(found.winners)
    assert movers.count('<a class="player" href="/card-games/players/') == len(found.movers[0].rows)
    assert '<td class="num"><span class="up">+' in movers
