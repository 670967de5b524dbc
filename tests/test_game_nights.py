"""The game-night page (/nights/YYYY-MM-DD/): every matchday of one day, each one's winners and the
night's biggest movers per rating table, linked from the home page and every matchday page."""

from datetime import date

import pytest
from django.db import connection
from django.db.models import Count, Sum
from django.test.utils import CaptureQueriesContext

from league.models import Category, Game, Matchday
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
    assert '<a href="/card-games/nights/2025-11-21/">The whole night of November 21, 2025</a>' in home
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


def test_everyone_tied_at_the_movers_cut_is_shown():
    """Summer's +3 ties Phoebe's at the cut of three rises: both are shown (issue 40), and so are the
    falls tied at theirs."""
    from types import SimpleNamespace

    from ratings.selectors.nights import Mover, biggest

    def mover(name, change, guest=False):
        return Mover(SimpleNamespace(short_name=name, guest=guest, ranked=not guest), 1, change)

    changes = [mover("Mia", 9), mover("Olly", 5), mover("Phoebe", 3.0), mover("Summer", 3.02), mover("Tara", 1)]
    changes += [mover("Bosco", -2), mover("Garrick", -6), mover("Jovan", -6), mover("Nicole", -6), mover("Vic", -6)]
    changes.append(mover("Guest", 12, guest=True))  # rated, but never a mover
    shown = [(m.player.short_name, m.change) for m in biggest(changes)]
    assert shown[:4] == [("Mia", 9), ("Olly", 5), ("Summer", 3.02), ("Phoebe", 3.0)]
    assert [name for name, _ in shown[4:]] == ["Garrick", "Jovan", "Nicole", "Vic"]  # four tied at −6
    assert [m.player.short_name for m in biggest(changes[:3])] == ["Mia", "Olly", "Phoebe"]
    assert [m.player.short_name for m in biggest([mover("A", 3.04), mover("B", 3.06)], fine=True)] == ["B", "A"]


def test_the_nights_are_listed_newest_first_paged_and_each_downloads_whole(client, night, settings):
    settings.LEAGUE_STANDINGS_PAGE_SIZE = 2
    response = client.get("/card-games/nights/")
    assert response.status_code == 200
    html = response.content.decode()
    rows = table_rows(section(html, "nights-heading"))
    assert rows[0] == ["Night", "Matchdays", "Games"]
    assert rows[1:] == [["November 21, 2025", "1", "Hearts"], ["November 20, 2025", "3", "Hearts, Pokemon"]]
    assert f'<a href="{NIGHT}">November 20, 2025</a>' in html
    assert "nights-page=2" in html  # the demo's six nights before them are on the next pages
    older = table_rows(
        section(client.get("/card-games/nights/", {"nights-page": 2}).content.decode(), "nights-heading")
    )
    assert [row[0] for row in older[1:]] == ["November 15, 2025", "November 10, 2025"]
    whole = client.get("/card-games/nights/", {"export": "json", "table": "nights", "nights-page": 2}).json()
    days = list(Matchday.objects.order_by("-date").values_list("date", flat=True).distinct())
    assert [row["Night"] for row in whole] == [day.isoformat() for day in days] and len(days) > 2
    assert client.get("/card-games/nights/", {"nights-page": 99}).status_code == 404
