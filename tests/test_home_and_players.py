"""The home page for a club after years (leaders, latest matchdays, grids of everyone who played),
the players directory, dates with years, unique table keys, and plain downloads safe to open in a
spreadsheet."""

import csv
import io
import json
import re
from datetime import date

import pytest
from django.urls import reverse
from django.utils import timezone

from league import services as league_services
from league.models import Category, Game, Matchday, Player, Season
from ratings.models import RatingTable, Standing
from ratings.selectors import overview
from ratings.services.catalogue import save_category, save_game
from ratings.services.recompute import rebuild_all
from tests.conftest import csv_bytes, section, table_rows
from web import page_cache
from web.pages.formatting import csv_cell


def test_the_home_page_leads_with_the_leaderboard_and_the_latest_matchdays(client, club):
    html = client.get("/card-games/").content.decode()
    assert html.index('id="leaderboard"') < html.index('id="latest"') < html.index('id="overall"')
    leaders = table_rows(section(html, "leaderboard-heading"))
    assert leaders[0] == ["#", "Move", "Player", "Rating", "Matchdays"]
    assert [row[2:] for row in leaders[1:]] == [
        ["J", "1534", "3"],
        ["I", "1521", "5"],
        ["K", "1494", "4"],
        ["R", "1492", "6"],
        ["GL", "1461", "6"],
    ]
    latest = section(html, "latest-heading")
    # The last three matchdays, newest first, each linking to its page with the changes.
    assert [latest.index(f'href="/card-games/matchdays/{n}/"') for n in (6, 5, 4)] == sorted(
        latest.index(f'href="/card-games/matchdays/{n}/"') for n in (6, 5, 4)
    )
    assert 'href="/card-games/matchdays/3/"' not in latest
    sixth = table_rows(latest[: latest.index('href="/card-games/matchdays/5/"')])
    assert sixth[0] == ["Place", "Player", "Change"]
    assert sixth[1:] == [["1", "I", "+25"], ["2", "R", "+9"], ["3", "K", "\u22129"], ["4", "GL", "\u221224"]]
    assert '<span class="up">+25</span>' in latest


def test_the_leaderboard_moves_players_by_the_places_they_gained_at_the_latest_matchday(club, make_matchday):
    # The club's page, before matchday 6: J 1534, K 1503, I 1496, GL 1485, R 1483.
    overall = RatingTable.objects.get(slug="overall")
    rows = {r.player.short_name: r for r in overview.leaderboard(overall, 10).rows}
    # After matchday 6: J 1534, I 1521, K 1494, R 1492, GL 1461.
    assert {name: (row.rank, row.movement) for name, row in rows.items()} == {
        "J": (1, 0),
        "I": (2, 1),  # 3rd before (1496 < K's 1503)
        "K": (3, -1),
        "R": (4, 1),  # 5th before (1483 < GL's 1485)
        "GL": (5, -1),
    }
    make_matchday(7, "2025-11-20", {"NEW": 1, "GL": 2}, rounds=10)
    # NEW wins at 1500 against GL's 1461 with K 100 and goes top; GL drops below everyone.
    rows = [(r.player.short_name, r.rank, r.movement) for r in overview.leaderboard(overall, 10).rows]
    assert rows == [("NEW", 1, None), ("J", 2, -1), ("I", 3, -1), ("K", 4, -1), ("R", 5, -1), ("GL", 6, -1)]


def test_an_unofficial_matchday_shows_the_change_in_its_games_own_table(client, club, make_matchday):
    tcg = Category(name="Trading card games", slug="trading-card-games")
    save_category(tcg)
    pokemon = Game(name="Pokemon", slug="pokemon", category=tcg, official=False)
    save_game(pokemon)
    make_matchday(7, "2025-11-20", {"I": 1, "R": 2}, game=pokemon, rounds=2)
    latest = overview.latest_matchdays(list(RatingTable.objects.in_page_order()), 3, 6)
    assert latest[0].matchday.number == 7 and latest[0].table.slug == "pokemon"
    assert [(r.player.short_name, r.delta) for r in latest[0].results] == [("I", 10), ("R", -10)]


def test_all_the_matchdays_of_the_newest_day_are_shown_up_to_six(club, make_matchday):
    for number in range(7, 15):
        make_matchday(number, "2025-11-20", {"I": 1, "R": 2})
    latest = overview.latest_matchdays(list(RatingTable.objects.in_page_order()), 3, 6)
    assert [m.matchday.number for m in latest] == [14, 13, 12, 11, 10, 9]


def test_dates_carry_their_year_once_a_table_crosses_into_a_new_year_or_is_not_of_this_year(
    client, club, make_matchday, monkeypatch
):
    with monkeypatch.context() as then:  # seen in the demo's own November: its dates need no year
        then.setattr(timezone, "localdate", lambda *args, **kwargs: date(2025, 11, 30))
        html = client.get("/card-games/").content.decode()
        assert "November 3" in html and "November 3, 2025" not in html
    page_cache.clear()  # a page is kept until the data changes, not the day
    # Seen today, a year or more on: a date of another year shows it (issue 40).
    assert "November 3, 2025" in client.get("/card-games/").content.decode()
    make_matchday(7, "2026-01-05", {"I": 1, "R": 2})
    html = client.get("/card-games/").content.decode()
    overall = table_rows(section(html, "overall-heading"))
    assert overall[-1][:2] == ["7", "January 5, 2026"] and overall[1][1] == "November 3, 2025"
    standings = table_rows(section(client.get("/card-games/standings/").content.decode(), "overall-heading"))
    assert "January 5, 2026" in [row[5] for row in standings]


def test_a_matchday_in_the_future_shows_the_year(client, club, make_matchday):
    # Every way in now refuses a date after today; one stored before that rule still shows as wrong.
    make_matchday(7, "2025-11-20", {"I": 1, "R": 2})
    Matchday.objects.filter(number=7).update(date="2052-11-20")
    overall = table_rows(section(client.get("/card-games/games/hearts/").content.decode(), "hearts-heading"))
    assert overall[-1][:2] == ["7", "November 20, 2052"]


def test_the_players_directory_lists_everyone_and_finds_a_player_by_part_of_the_name(client, club):
    gl = Player.objects.get(short_name="GL")
    gl.name = "Greta Lindqvist"
    league_services.save_player(gl)
    Player.objects.create(name="Newcomer Nell", short_name="NN")
    html = client.get(reverse("league:players")).content.decode()
    rows = table_rows(section(html, "players-heading"))
    # No attempts column: a club without solitaire has none at all (columns zero for everyone are left out).
    assert rows[0] == ["Player", "Name", "Overall", "#", "Matchdays", "Last played"]
    assert [row[0] for row in rows[1:]] == ["GL", "I", "J", "K", "NN", "R"]  # by full name
    assert ["GL", "Greta Lindqvist", "1461", "5", "6", "November 15, 2025"] in rows
    assert ["NN", "Newcomer Nell", "—", "—", "0", "—"] in rows
    found = table_rows(section(client.get("/card-games/players/", {"q": "lindq"}).content.decode(), "players-heading"))
    assert [row[:2] for row in found[1:]] == [["GL", "Greta Lindqvist"]]
    by_rating = table_rows(
        section(client.get("/card-games/players/", {"sort": "rating"}).content.decode(), "players-heading")
    )
    assert [row[0] for row in by_rating[1:]] == ["J", "I", "K", "R", "GL", "NN"]
    assert 'href="/card-games/players/"' in client.get("/card-games/").content.decode()  # in the navigation


def test_the_directory_counts_solitaire_attempts_apart_from_matchdays(client, club):
    from tools.generate_deals import generate_attempts
    from web.deals.importing import ATTEMPT_COLUMNS, import_attempts

    attempts = [[*row[:5], "GL", *row[6:]] for row in generate_attempts(3, 60, 5, end=date(2025, 11, 30))]
    import_attempts(csv_bytes([*ATTEMPT_COLUMNS, "rated"], attempts))
    solitaire = Standing.objects.get(player__short_name="GL", table__game__against_deals=True)
    assert solitaire.played > 6
    rows = client.get("/card-games/players/", {"q": "GL", "export": "json", "table": "players"}).json()
    assert [(r["Player"], r["Matchdays"], r["Attempts"]) for r in rows] == [("GL", 6, solitaire.played)]


def test_the_directory_counts_each_matchday_once_beside_a_fresh_start_seasons_tables(client, club):
    """A fresh-start season keeps its own copy of every table, with rows for the same matchdays: the
    directory's matchdays, ratings and attempts are the club's own tables', never those copies added in."""
    from tools.generate_deals import generate_attempts
    from web.deals.importing import ATTEMPT_COLUMNS, import_attempts

    attempts = [[*row[:5], "GL", *row[6:]] for row in generate_attempts(3, 60, 5, end=date(2025, 11, 30))]
    import_attempts(csv_bytes([*ATTEMPT_COLUMNS, "rated"], attempts))
    Season.objects.create(
        name="Late November", slug="late", first_day=date(2025, 11, 7), last_day=date(2025, 11, 30), start="fresh"
    )
    rebuild_all()
    copy = RatingTable.every.get(season__slug="late", scope="overall")
    # Someone rates higher in the season's copy than all-time: the greater of the two is not the rating.
    assert any(s.rating > copy.parent.standings.get(player=s.player).rating for s in copy.standings.all())
    rows = client.get("/card-games/players/", {"export": "json", "table": "players"}).json()
    shown = {r["Player"]: (r["Matchdays"], r["Overall"], r["Attempts"]) for r in rows}
    overall = RatingTable.objects.get(scope="overall")
    solitaire = Standing.objects.get(player__short_name="GL", table__game__against_deals=True, table__season=None)
    expected = {
        p.short_name: (
            p.results.values("matchday").distinct().count(),
            round(overall.standings.get(player=p).rating),
            solitaire.played if p.short_name == "GL" else 0,
        )
        for p in Player.objects.all()
    }
    assert shown == expected and shown["GL"][0] == 6


def test_the_directory_pages_by_25_and_ignores_an_unknown_sort(client, db):
    for i in range(30):
        Player.objects.create(name=f"Member {i:02d}", short_name=f"M{i:02d}")
    html = client.get("/card-games/players/", {"sort": "nonsense", "q": "member"}).content.decode()
    assert len(table_rows(section(html, "players-heading"))) == 26
    assert 'href="?sort=name&amp;q=member&amp;players-page=2#players"' in html or "players-page=2#players" in html
    assert client.get("/card-games/players/", {"q": "x" * 10_000}).status_code == 200


def test_a_game_named_results_gets_a_table_key_of_its_own(client, club, make_matchday):
    save_game(Game(name="Results", slug="results"))
    make_matchday(7, "2025-11-20", {"I": 1, "R": 2}, game=Game.objects.get(slug="results"))
    html = client.get("/card-games/").content.decode()
    ids = [part.split('"')[0] for part in html.split(' id="')[1:]]
    assert len(ids) == len(set(ids))
    assert 'id="results"' in html and 'id="results-2"' in html
    placings = client.get("/card-games/", {"export": "json", "table": "results"}).json()
    game_grid = client.get("/card-games/", {"export": "json", "table": "results-2"}).json()
    assert len(placings) == 7 and "Game" in placings[0]  # the results grid, every matchday
    assert len(game_grid) == 1 and "Game" not in game_grid[0]  # the game's rating grid
    game_page = client.get("/card-games/games/results/").content.decode()
    game_ids = [part.split('"')[0] for part in game_page.split(' id="')[1:]]
    assert len(game_ids) == len(set(game_ids))


@pytest.mark.parametrize(
    "url",
    [
        "/card-games/",
        "/card-games/standings/",
        "/card-games/games/hearts/",
        "/card-games/matchdays/5/",
        "/card-games/players/",
        "player",
    ],
)
def test_every_download_holds_plain_values_only(client, club, url):
    j = Player.objects.get(short_name="J")
    if url == "player":
        url = reverse("league:player", args=[j.pk])
    html = client.get(url).content.decode()
    keys = set(re.findall(r'export=csv&amp;table=([^"&]+)"', html))
    assert keys
    for key in keys:
        for export_format in ("csv", "json"):
            response = client.get(url, {"export": export_format, "table": key})
            assert response.status_code == 200, (url, key)
            text = response.content.decode()
            assert "<" not in text and "&lt;" not in text and "\u2212" not in text, (url, key, text[:300])


def test_a_provisional_players_standing_downloads_as_plain_values(client, club):
    rows = client.get("/card-games/standings/", {"export": "json", "table": "overall"}).json()
    j = next(row for row in rows if row["Player"] == "J")
    assert j == {
        "#": 1,
        "Player": "J",
        "Rating": 1534,
        "Matchdays": 3,
        "Last played": "2025-11-10",
        "Last change": -10,
        "Provisional": False,
    }
    assert next(row for row in rows if row["Player"] == "R")["Provisional"] is False


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1", "'+1"),
        ("-cmd", "'-cmd"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("GL", "GL"),
        ("", ""),
        (-7, -7),
        (-35.5, -35.5),
        (None, ""),
    ],
)
def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised_and_numbers_stay_numbers(value, cell):
    assert csv_cell(value) == cell


def test_a_player_named_like_a_formula_downloads_as_text(client, club):
    gl = Player.objects.get(short_name="GL")
    gl.short_name = "=1+1"
    league_services.save_player(gl)
    for url, key in [
        ("/card-games/", "overall"),
        ("/card-games/standings/", "overall"),
        ("/card-games/matchdays/5/", "results"),
    ]:
        text = client.get(url, {"export": "csv", "table": key}).content.decode()
        cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
        assert "'=1+1" in cells and "=1+1" not in cells, url
        assert not any(c.startswith(("=", "+", "@")) for c in cells)
    changes = [
        row["Last change"]
        for row in csv.DictReader(
            io.StringIO(client.get("/card-games/standings/", {"export": "csv", "table": "overall"}).content.decode())
        )
    ]
    assert "-24" in changes  # a negative number is a value: written as a number, not neutralised
    exported = json.loads(client.get("/card-games/standings/", {"export": "json", "table": "overall"}).content)
    assert "=1+1" in [row["Player"] for row in exported]  # JSON is not opened by spreadsheets: as it is


def _import_generated(players, matchdays, first, start):
    from datetime import date

    from tools.generate import generate
    from web.importing import COLUMNS, import_results

    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    writer.writerows(generate(players, matchdays, seed=first, first=first, start=date.fromisoformat(start)))
    import_results(out.getvalue().encode())


def test_no_page_reads_more_with_more_rows_to_show(client, db):
    """Every page's query count is fixed: a league four times as long, with more players on each
    grid page, costs the same queries (pages are counted once the league has all its tables)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tcg = Category(name="Trading card games", slug="trading-card-games")
    save_category(tcg)
    save_game(Game(name="Pokemon", slug="pokemon", category=tcg, official=False))
    _import_generated(12, 40, 1, "2024-01-01")
    urls = [
        "/card-games/",
        "/card-games/?overall-page=2&results-page=3",
        "/card-games/standings/",
        "/card-games/games/hearts/",
        "/card-games/players/",
        "/card-games/matchdays/3/",
    ]
    urls.append(reverse("league:player", args=[Player.objects.get(short_name="P00003").pk]))

    def counts():
        found = []
        for url in urls:
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200, url
            found.append(len(queries))
        return found

    before = counts()
    _import_generated(30, 160, 41, "2025-06-01")
    assert counts() == before


def test_export_ratings_neutralises_formula_names_and_keeps_numbers(club):
    from django.core.management import call_command

    gl = Player.objects.get(short_name="GL")
    gl.short_name = "@SUM(1)"
    league_services.save_player(gl)
    hearts = Game.objects.get(slug="hearts")
    hearts.name = "-Hearts"
    save_game(hearts)
    out = io.StringIO()
    call_command("export_ratings", stdout=out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    first = rows[2]  # matchday 1's results as entered: I, R, then GL
    assert first["player"] == "'@SUM(1)" and first["game"] == "'-Hearts"
    assert first["delta"] == "-35"  # a number: not touched
    out = io.StringIO()
    call_command("export_ratings", "--format", "json", stdout=out)
    assert json.loads(out.getvalue())[2]["player"] == "@SUM(1)"


def test_a_club_of_many_games_shows_the_tables_of_those_played_last_and_links_the_rest(client, club, make_matchday):
    from web.league.views import HOME_GAME_TABLES

    assert 'id="more-games"' not in client.get("/card-games/").content.decode()  # the club's page: all of them
    for n in range(1, HOME_GAME_TABLES + 1):  # each played after Hearts, the last on the latest day
        game = Game(name=f"Game {n:02}", slug=f"game-{n:02}")
        save_game(game)
        make_matchday(6 + n, f"2025-12-{n:02}", {"I": 1, "R": 2}, game=game)
    html = client.get("/card-games/").content.decode()
    shown = re.findall(r'<h2 id="(game-\d\d|hearts)-heading"', html)
    assert shown == [f"game-{n:02}" for n in range(1, HOME_GAME_TABLES + 1)]  # in the page's order, by name
    more = section(html, "more-games-heading")
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', more) == [("/card-games/games/hearts/", "Hearts")]
    hearts = client.get("/card-games/games/hearts/").content.decode()
    assert 'id="hearts-heading"' in hearts  # its own page still shows its table
