"""Pages as they stood at the end of a day (`?as_at=`), and the standings' comparison of two days
(`?from=&to=`), on the club's November: its published table gives every rating of every day."""

from datetime import date, timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext

from league.models import Player
from ratings.models import HISTORY_INDEX, PLAY_ORDER_INDEX, RatingEntry, RatingTable
from ratings.selectors.as_at import last_rows, window_rows
from tests.conftest import CLUB_PAGE, PLAYERS, section, table_rows
from web.page_cache.params import PageParams

# The club's matchdays 1-6 were played on these days.
DAYS = ["2025-11-03", "2025-11-06", "2025-11-08", "2025-11-09", "2025-11-10", "2025-11-15"]
# Who played which matchday (the club's file): a player's rating on a day is their last matchday's.
PLAYED = {
    "I": {1, 3, 4, 5, 6},
    "R": {1, 2, 3, 4, 5, 6},
    "GL": {1, 2, 3, 4, 5, 6},
    "K": {1, 2, 3, 6},
    "J": {2, 4, 5},
}


def overall(client, **params):
    response = client.get("/card-games/standings/", params)
    html = response.content.decode()
    return response, html, table_rows(section(html, "overall-heading"))


def expected_on(matchday: int) -> dict[str, tuple[int, int]]:
    """Player -> (rating, matchdays played) at the end of `matchday`'s day, from the club's page."""
    return {
        name: (CLUB_PAGE[matchday - 1][PLAYERS.index(name)], len({n for n in PLAYED[name] if n <= matchday}))
        for name in PLAYERS
        if min(PLAYED[name]) <= matchday
    }


@pytest.mark.parametrize("matchday", range(1, 7))
def test_the_standings_as_at_each_day_are_the_club_pages_ratings_of_that_day(client, club, matchday, settings):
    settings.LEAGUE_PROVISIONAL_MATCHDAYS = 0  # ranks among everyone: the club's page has no provisional mark
    response, html, rows = overall(client, as_at=DAYS[matchday - 1])
    assert response.status_code == 200
    played = rows[0].index("Matchdays")
    shown = {row[1].split()[0]: (int(row[2]), int(row[played])) for row in rows[1:]}
    assert shown == expected_on(matchday)
    ratings = [rating for rating, _ in shown.values()]
    assert ratings == sorted(ratings, reverse=True)
    day = date.fromisoformat(DAYS[matchday - 1])
    assert f"Standings as at {day:%B} {day.day}, 2025" in html
    assert '<a href="?">Back to today</a>' in html


def test_a_day_between_matchdays_shows_the_day_before(client, club):
    _, _, between = overall(client, as_at="2025-11-12")  # after matchday 5, before 6
    _, _, day_of_five = overall(client, as_at=DAYS[4])
    assert between[1:] == day_of_five[1:]


def test_today_as_a_date_is_todays_standings(client, club):
    _, _, today = overall(client, as_at=date.today().isoformat())
    _, _, current = overall(client)
    assert today[1:] == current[1:]


def test_a_blank_date_from_the_picker_is_todays_page(client, club):
    response, html, _ = overall(client, as_at="")
    assert response.status_code == 200 and "Back to today" not in html


def test_the_standings_have_a_date_picker_and_a_comparison_form(client, club):
    html = client.get("/card-games/standings/").content.decode()
    assert '<form class="search" method="get" action="">' in html
    assert 'type="date" name="as_at"' in html and 'min="2025-11-03"' in html
    assert f'max="{date.today().isoformat()}"' in html
    assert 'name="from"' in html and 'name="to"' in html


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"as_at": "2025-11-02"}, "as_at November 2, 2025 is before the first matchday, November 3, 2025."),
        ({"as_at": "2025-13-01"}, "as_at &#x27;2025-13-01&#x27; is not a date like 2025-11-03"),
        ({"as_at": "8 November"}, "as_at &#x27;8 November&#x27; is not a date like 2025-11-03"),
        ({"as_at": "20251108"}, "is not a date like 2025-11-03"),
        (
            {"from": "2025-11-10", "to": "2025-11-06"},
            "from (November 10, 2025) must not be after to (November 6, 2025).",
        ),
        ({"to": "2025-11-06"}, "to needs from: the day to compare with."),
        ({"as_at": "2025-11-06", "from": "2025-11-03"}, "give one or the other"),
        ({"from": "2024-01-01"}, "from January 1, 2024 is before the first matchday"),
        ({"from": "2025-11-03", "to": "x" * 5000}, "to &#x27;xxxxxxxxxxxxxxxxxxxx…&#x27; is not a date"),
    ],
)
def test_a_date_the_standings_cannot_show_gets_a_clear_message(client, club, params, message):
    response = client.get("/card-games/standings/", params)
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html
    assert 'type="date" name="as_at"' in html  # the picker, to try another day


def test_a_date_after_today_gets_a_clear_message(client, club):
    tomorrow = date.today() + timedelta(days=1)
    response = client.get("/card-games/standings/", {"as_at": tomorrow.isoformat()})
    assert response.status_code == 400
    assert f"is after today, {date.today():%B} {date.today().day}, {date.today().year}." in response.content.decode()


def test_a_league_with_no_matchday_says_so(client, db):
    response = client.get("/card-games/standings/", {"as_at": "2025-11-08"})
    assert response.status_code == 400
    assert "the league has no matchday yet" in response.content.decode()


def test_equal_ratings_share_the_days_rank(client, club, settings):
    settings.LEAGUE_PROVISIONAL_MATCHDAYS = 0  # ranks among everyone: the club's page has no provisional mark
    _, _, rows = overall(client, as_at="2025-11-09")  # K (from November 8) and R both at 1503
    assert [(row[0], row[1].split()[0], row[2]) for row in rows[1:]] == [
        ("1", "J", "1544"),
        ("2", "K", "1503"),
        ("2", "R", "1503"),
        ("4", "I", "1489"),
        ("5", "GL", "1462"),
    ]


def test_inactive_players_are_those_of_the_day(client, club, settings):
    settings.LEAGUE_INACTIVE_DAYS = 1  # on November 10, K last played November 8
    _, html, rows = overall(client, as_at="2025-11-10")
    assert [(row[0], row[1].split()[0]) for row in rows[1:]] == [("1", "J"), ("2", "I"), ("3", "GL"), ("4", "R")]
    assert '<a href="?as_at=2025-11-10&amp;all=1">Show everyone</a>' in html
    _, html, everyone = overall(client, as_at="2025-11-10", all="1")
    assert [row[1].split()[0] for row in everyone[1:]] == ["J", "K", "I", "GL", "R"]
    assert '<a href="?as_at=2025-11-10&amp;">Hide players inactive for 1 days</a>' in html


def test_provisional_marks_are_those_of_the_day(client, club, settings):
    settings.LEAGUE_PROVISIONAL_MATCHDAYS = 3
    html = client.get("/card-games/standings/", {"as_at": DAYS[2]}).content.decode()
    rows = section(html, "overall-heading").split("<tr")[2:]
    marked = {row.split('data-player="')[1].split('"')[0] for row in rows if "provisional</span>" in row}
    assert marked == {"I", "J"}  # two matchdays and one by November 8; the others three


def test_the_comparison_shows_each_players_change_of_rating_and_places(client, club, settings):
    settings.LEAGUE_PROVISIONAL_MATCHDAYS = 0  # ranks among everyone: the club's page has no provisional mark
    response, html, rows = overall(client, **{"from": DAYS[1], "to": DAYS[4]})
    assert response.status_code == 200
    assert rows[0][:5] == ["#", "Move", "Player", "Rating", "Since November 6, 2025"]
    moves = {row[2].split()[0]: (row[1], row[4]) for row in rows[1:]}
    assert moves == {
        "J": ("▲2 up places", "+24"),
        "K": ("–no change", "−12"),
        "I": ("▼2 down places", "−39"),
        "GL": ("▲1 up place", "+22"),
        "R": ("▼1 down place", "+5"),
    }
    assert "with each player's change since November 6, 2025" in html


def test_a_player_new_since_the_earlier_day_is_marked_new(client, club, settings):
    settings.LEAGUE_PROVISIONAL_MATCHDAYS = 0  # ranks among everyone: the club's page has no provisional mark
    _, _, rows = overall(client, **{"from": DAYS[0], "to": DAYS[1]})
    moves = {row[2].split()[0]: (row[1], row[4]) for row in rows[1:]}
    assert moves["J"] == ("new", "—")


def test_from_alone_compares_with_today(client, club):
    _, _, alone = overall(client, **{"from": DAYS[1]})
    _, _, today = overall(client, **{"from": DAYS[1], "to": date.today().isoformat()})
    assert alone == today


def test_the_comparison_downloads_with_its_columns(client, club, settings):
    settings.LEAGUE_PROVISIONAL_MATCHDAYS = 0  # ranks among everyone: the club's page has no provisional mark
    response = client.get(
        "/card-games/standings/", {"from": DAYS[1], "to": DAYS[4], "export": "csv", "table": "overall"}
    )
    header = response.content.decode().splitlines()[0]
    assert header == '#,Move,Player,Rating,"Since November 6, 2025",Matchdays,Last played,Last change,Provisional'
    assert response.content.decode().splitlines()[1].startswith("1,2,J,1534,24,")


def test_a_players_page_as_at_a_day(client, club):
    gl = Player.objects.get(short_name="GL")
    response = client.get(f"/card-games/players/{gl.pk}/", {"as_at": DAYS[2]})
    html = response.content.decode()
    assert response.status_code == 200
    assert "GL as at November 8, 2025: as they stood at the end of that day." in html
    assert '<span class="card-rating">1497 <span class="card-change"' in html
    assert "#2 of 3 · 3 matchdays" in html  # as that day's standings rank GL, among the established
    assert "<dt>Peak</dt>" in html
    assert "/card-games/matchdays/4/" not in html  # nothing after the day
    assert "Head to head" not in html  # counted over every matchday: today's page only
    assert client.get(f"/card-games/players/{gl.pk}/", {"as_at": "2025-11-02"}).status_code == 400


def test_a_player_who_had_not_played_yet(client, club):
    j = Player.objects.get(short_name="J")
    html = client.get(f"/card-games/players/{j.pk}/", {"as_at": DAYS[0]}).content.decode()
    assert "J had not played a rated matchday by then." in html


def test_a_games_page_as_at_a_day(client, club):
    response = client.get("/card-games/games/hearts/", {"as_at": DAYS[2]})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Hearts as at November 8, 2025" in html
    standings = {row[1].split()[0]: row[2] for row in table_rows(section(html, "standings-heading"))[1:]}
    assert standings == {"J": "1510", "K": "1503", "I": "1501", "GL": "1497", "R": "1490"}
    assert "/card-games/matchdays/3/" in html and "/card-games/matchdays/4/" not in html
    assert client.get("/card-games/games/hearts/", {"as_at": "nonsense"}).status_code == 400


def test_the_players_directory_as_at_a_day(client, club):
    response = client.get("/card-games/players/", {"as_at": DAYS[0], "sort": "rating"})
    html = response.content.decode()
    assert response.status_code == 200
    rows = table_rows(section(html, "players-heading"))
    assert [row[0].split()[0] for row in rows[1:]] == ["I", "K", "R", "GL"]  # J had not played
    assert "The players as at November 3, 2025" in html
    assert 'name="as_at" value="2025-11-03"' in html  # a search keeps the day
    assert client.get("/card-games/players/", {"as_at": "2099-01-01"}).status_code == 400


def test_an_as_at_page_is_cached_apart_from_todays(client, club):
    first = client.get("/card-games/standings/", {"as_at": DAYS[2]}).content
    assert client.get("/card-games/standings/", {"as_at": DAYS[2]}).content == first
    assert client.get("/card-games/standings/").content != first


def test_the_days_are_declared_parameters_read_one_way():
    def no_tables():
        raise AssertionError("not a page of tables")

    declared = PageParams(dates=("as_at",))
    assert declared.read(QueryDict("as_at=%202025-11-08%20"), no_tables) == {"as_at": "2025-11-08"}
    assert declared.read(QueryDict("as_at="), no_tables) == {}  # the picker left blank: today
    assert declared.read(QueryDict("as_at=2025-02-30"), no_tables) is None  # refused by the view, never stored
    assert declared.read(QueryDict("from=2025-11-08"), no_tables) == {}  # not this page's


def query_plan(queryset) -> list[str]:
    """SQLite's plan of `queryset`, one line per step."""
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
        return [row[-1] for row in cursor.fetchall()]


ROWS = RatingEntry._meta.db_table


def test_the_as_at_read_steps_down_the_history_index(club):
    """Each player's last row is found through the (table, player, date, number) index: no scan of
    the rating rows (docs/performance.md has PostgreSQL's plan)."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's plan; PostgreSQL's is in docs/performance.md")
    table = RatingTable.objects.get(scope=RatingTable.Scope.OVERALL)
    details = query_plan(last_rows(table, date(2025, 11, 8)))
    # The rows of the outer query are read by their ids; the inner query's (U0) by the history index.
    assert any(f"{HISTORY_INDEX} (table_id=? AND player_id=? AND matchday_date<?)" in d for d in details), details
    assert any(d.startswith(f"SEARCH {ROWS} USING INTEGER PRIMARY KEY") for d in details), details
    assert not any(d.startswith(("SCAN ratings", "SCAN U0")) for d in details), details


def test_the_standings_hiding_inactive_players_read_the_window_alone(club):
    """With inactive players hidden, the read is one range of the (table, date, number) index,
    never a rating row: SQLite, which has no statistics to tell the two indexes apart, takes the one
    naming more of the query's columns; and a player's own history still goes to the players' index
    (both hold the same columns)."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's plan")
    table = RatingTable.objects.get(scope=RatingTable.Scope.OVERALL)
    details = query_plan(window_rows(table, *(date.fromisoformat(day) for day in DAYS[:2])))
    newest = RatingEntry.objects.filter(table=table, player_id=1).order_by("-matchday_date", "-matchday_number")
    history = query_plan(newest.values("rating_after")[:1])
    window = f"COVERING INDEX {PLAY_ORDER_INDEX} (table_id=? AND matchday_date>? AND matchday_date<?)"
    assert any(window in d for d in details), details
    assert not any(d.startswith(f"SCAN {ROWS}") or HISTORY_INDEX in d for d in details), details
    assert any(f"COVERING INDEX {HISTORY_INDEX} (table_id=? AND player_id=?)" in d for d in history), history


def test_the_as_at_standings_cost_the_same_queries_however_long_the_history(client, club, make_matchday):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/card-games/standings/", {"as_at": DAYS[2]}).status_code == 200
        return len(captured)

    before = queries()
    for number in range(7, 27):
        make_matchday(number, f"2025-11-{number - 3:02d}", {"I": 1, "R": 2, "GL": 3, "K": 4})
    cache.clear()
    assert queries() == before


def test_a_provisional_player_comes_after_the_ranked_ones_as_on_todays_boards(client, club):
    """On November 9 J had played twice: provisional, listed after the ranked players without a
    rank, as today's standings list a newcomer."""
    _, html, rows = overall(client, as_at=DAYS[3])
    ranks = {row[1].split()[0]: row[0] for row in rows[1:]}
    assert ranks["J"] == "—" and [row[1].split()[0] for row in rows[1:]][-1] == "J"
    assert ranks == {"J": "—", "K": "1", "R": "1", "I": "3", "GL": "4"}  # K and R tie at 1503
    last_row = section(html, "overall-heading").split("<tr")[-1]
    assert 'data-player="J"' in last_row and "provisional</span>" in last_row


def test_the_mixed_leagues_standings_as_at_today_are_todays(client, mixed_league):
    """Every board of the mixed league (provisional members, categories, solitaire, sides) reads the
    same as at today as today's page shows it."""
    today = date.today().isoformat()
    now = client.get("/card-games/standings/").content.decode()
    then = client.get("/card-games/standings/", {"as_at": today}).content.decode()
    for heading in ("overall-heading", "pokemon-heading", "spades-heading", "codenames-heading"):
        assert table_rows(section(then, heading)) == table_rows(section(now, heading)), heading
    assert "—" in [row[0] for row in table_rows(section(now, "pokemon-heading"))]  # a provisional member
