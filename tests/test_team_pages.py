"""Team play on the pages: the results grid names partners, the matchday page groups players by side
with each side's rating and weights, every method says how it rates sides, head to head counts
opponents only, the player page lists partners, and downloads and the export carry sides and weights
(the export imports back to the same ratings)."""

import csv
import io
import json
import re

import pytest
from django.core.management import call_command
from django.core.paginator import Paginator
from django.urls import reverse

from league.models import Game, Matchday, Player, Result
from league.services import delete_players
from ratings import engine, methods
from ratings.methods import METHODS, Facts, Seat
from ratings.models import RatingEntry, RatingTable
from ratings.selectors import grids
from ratings.selectors.sides import add_partners, partnerships, with_sides
from ratings.selectors.standings import matchday_entries
from ratings.services.matchdays import delete_matchdays
from tests.conftest import section, table_rows
from tests.team_play import setup_team_tables
from tests.test_tables import _rated, _rows, html, names
from web.importing import import_results
from web.league import tables as league_tables
from web.pages import grid_table
from web.pages.columns import PlacingOfColumn
from web.pages.formatting import format_change, format_rating, formula_html
from web.players import tables as player_tables
from web.players.partners import PartnersTable

TEAM_CSV = """matchday,date,game,rounds,player,placing,rated_placing,side,weight
7,2025-11-20,Spades,1,GL,1,,A,1
7,2025-11-20,Spades,1,K,1,,A,1
7,2025-11-20,Spades,1,I,2,,B,1
7,2025-11-20,Spades,1,J,2,,B,1
8,2025-11-21,Spades,1,GL,2,,A,1
8,2025-11-21,Spades,1,I,2,,A,1
8,2025-11-21,Spades,1,K,1,,B,1
8,2025-11-21,Spades,1,J,1,,B,1
9,2025-11-22,Spades,1,R,1,,A,0.5
9,2025-11-22,Spades,1,GL,1,,A,1
9,2025-11-22,Spades,1,K,1,,A,1
9,2025-11-22,Spades,1,I,2,,B,1
9,2025-11-22,Spades,1,J,2,,B,1
"""


@pytest.fixture
def teams(club):
    """The club's November (Hearts, everyone alone), then three Spades matchdays in sides: GL and K
    beat I and J, K and J beat GL and I, and R (half the game), GL and K beat I and J."""
    import_results(TEAM_CSV.encode())


def player_url(short_name):
    return reverse("league:player", args=[Player.objects.get(short_name=short_name).pk])


def matchday_html(client, number):
    return client.get(reverse("league:matchday", args=[number])).content.decode()


def stored_side_ratings(table: RatingTable, number: int) -> dict[str, float]:
    """Each player's side rating at matchday `number` in `table`, as the table's method rates it from
    the stored ratings before (Outcome.extras of the Elo family)."""
    matchday = Matchday.objects.get(number=number)
    results = list(Result.objects.filter(matchday=matchday).select_related("player"))
    before = {e.player_id: e for e in RatingEntry.objects.filter(table=table, matchday=matchday)}
    seats = [Seat.of(r.play(), before[r.player_id].rating_before) for r in results]
    outcomes = table.rating_method.compute(seats, Facts(matchday.rounds), table.method_params())
    for result, outcome in zip(results, outcomes, strict=True):  # the stored change is the method's
        assert outcome.delta == pytest.approx(before[result.player_id].delta)
    return {r.player.short_name: o.extras["side_rating"] for r, o in zip(results, outcomes, strict=True)}


def test_the_results_grid_gives_each_players_side_short_with_the_partners_in_its_tooltip(client, teams):
    """A team's cell is short, `1 (A)`: a cell naming every partner made a grid of three players
    1280 px wide (issue 40). The partners are in the cell's tooltip; the download has the short form."""
    html = section(client.get("/card-games/games/spades/").content.decode(), "results-heading")
    rows = table_rows(html)
    header = rows[0]
    by_matchday = {row[0]: dict(zip(header, row, strict=True)) for row in rows[1:]}
    assert by_matchday["7"]["GL"] == "1 (A)" and by_matchday["7"]["J"] == "2 (B)"
    assert by_matchday["9"]["R"] == "1 (A) ×0.5"
    assert by_matchday["9"]["GL"] == "1 (A)"
    assert '<span class="side" title="with K, R">1 (A)</span>' in html
    assert '<span class="side" title="with GL, K">1 (A) ×0.5</span>' in html
    assert all(len(cell) <= 10 for row in rows[1:] for cell in row[1:] if cell[:1].isdigit())
    download = client.get("/card-games/games/spades/", {"export": "csv", "table": "results"}).content.decode()
    assert "1 (A) ×0.5" in download and " with " not in download
    hearts = table_rows(section(client.get("/card-games/games/hearts/").content.decode(), "results-heading"))
    assert all("with" not in cell for row in hearts for cell in row)  # players alone: placings as before


def test_the_matchday_page_groups_players_by_side_with_the_sides_rating_and_weights(client, teams):
    html = matchday_html(client, 9)
    results = table_rows(section(html, "results-heading"))
    assert results[0] == ["Placing", "Player", "Name", "Side", "Weight", "Note"]
    assert sorted(row[:2] + row[3:5] for row in results[1:]) == [
        ["1", "GL", "A", ""],
        ["1", "K", "A", ""],
        ["1", "R", "A", "0.5"],  # a weight is shown where below 1
        ["2", "I", "B", ""],
        ["2", "J", "B", ""],
    ]
    for slug in ("overall", "spades"):
        rows = table_rows(section(html, f"{slug}-heading"))
        assert rows[0][:8] == ["Player", "Placing", "Change", "After", "Side", "Side rating", "Weight", "Before"]
        by_player = {row[0]: row for row in rows[1:]}
        assert [row[4][0] for row in rows[1:]] == ["A", "A", "A", "B", "B"]  # side by side, winners first
        assert by_player["GL"][4] == "A, with K, R" and by_player["J"][4] == "B, with I"
        assert by_player["R"][6] == "0.5" and by_player["GL"][6] == ""
        sides = stored_side_ratings(RatingTable.objects.get(slug=slug), 9)
        for name, row in by_player.items():
            assert row[5] == format_rating(sides[name])
        # The side's rating weighs R's rating by half: not the plain mean of its players'
        before = {name: float(row[7]) for name, row in by_player.items()}
        assert sides["GL"] == pytest.approx((before["GL"] + before["K"] + 0.5 * before["R"]) / 2.5)
        assert sides["I"] == pytest.approx((before["I"] + before["J"]) / 2)


def test_a_matchday_of_players_alone_shows_no_side_columns(client, teams):
    html = matchday_html(client, 5)
    assert table_rows(section(html, "results-heading"))[0] == ["Placing", "Player", "Name", "Note"]
    assert "Side rating" not in html and "In sides" not in html


SIDED = [m for m in methods.METHODS.values() if type(m).rate_sides is not methods.Method.rate_sides]


@pytest.mark.parametrize("method", SIDED, ids=[m.slug for m in SIDED])
def test_every_method_explains_a_team_change_on_the_matchday_and_player_pages(client, teams, method):
    RatingTable.objects.filter(slug="spades").update(method=method.slug)
    engine.recompute([RatingTable.objects.get(slug="spades")])
    said = str(formula_html(f"{method.explanation} {method.side_explanation}"))
    assert method.side_explanation.startswith("In sides, ")
    assert said in section(matchday_html(client, 7), "spades-heading")
    listing = section(client.get(player_url("GL")).content.decode(), "matchdays-heading")
    methods = dict(re.findall(r"<li><b>([^<]+)<\/b>: (.*?)<\/li>", listing, flags=re.S))
    assert said in methods["Spades"]
    assert "In sides" not in methods["Hearts"]  # Hearts is played alone


def test_the_sides_sentence_says_how_each_family_rates_a_side():
    assert "mean of its players' ratings" in methods.get("club").side_explanation
    assert "K from their own rating" in methods.get("rating-band").side_explanation
    assert "composite" in methods.get("glicko2").side_explanation
    for slug in ("trueskill", "openskill"):
        assert "library's team rating" in methods.get(slug).side_explanation


def test_head_to_head_counts_opponents_only_and_partners_apart(client, teams):
    html = client.get(player_url("GL")).content.decode()
    rows = {(row[0], row[1]): row[2:] for row in table_rows(section(html, "head-to-head-heading"))[1:]}
    # GL met J as an opponent at matchdays 7, 8 and 9; I at 7 and 9 (they were partners at 8);
    # K only at 8 (partners at 7 and 9).
    assert rows["J", "Spades"] == ["3", "2", "1", "0"]
    assert rows["I", "Spades"] == ["2", "2", "0", "0"]
    assert rows["K", "Spades"] == ["1", "0", "1", "0"]
    assert ("R", "Spades") not in rows  # R played only on GL's side
    assert rows["K", "Hearts"] == ["4", "1", "3", "0"]  # play alone counts as before


def test_the_player_page_shows_partners_games_wins_and_change_together(client, teams):
    html = client.get(player_url("GL")).content.decode()
    rows = table_rows(section(html, "partners-heading"))
    assert rows[0] == ["Partner", "Game", "Matchdays together", "Won together", "Change together"]
    spades = RatingTable.objects.get(slug="spades")
    gl = Player.objects.get(short_name="GL")
    change = {e.matchday.number: e.delta for e in RatingEntry.objects.filter(table=spades, player=gl)}
    expected = {
        "K": ["2", "2", format_change(change[7] + change[9])],
        "I": ["1", "0", format_change(change[8])],
        "R": ["1", "1", format_change(change[9])],
    }
    assert {row[0]: row[2:] for row in rows[1:]} == expected
    assert [row[0] for row in rows[1:]] == ["K", "I", "R"]  # most matchdays together first
    entries = listed(html)
    assert list(entries[0])[:4] == ["Date", "Matchday", "Game", "Placing"] and list(entries[0])[-2:] == [
        "Side",
        "Weight",
    ]
    spades = [row for row in entries if row["Game"] == "Spades"]  # newest first
    assert [(row["Matchday"], row["Placing"], row["Side"]) for row in spades] == [
        ("9", "1 of 2", "A, with K, R"),
        ("8", "2 of 2", "A, with I"),
        ("7", "1 of 2", "A, with K"),
    ]
    assert {row["Side"] for row in entries if row["Game"] == "Hearts"} == {""}  # alone
    r_entries = listed(client.get(player_url("R")).content.decode())
    assert (r_entries[0]["Matchday"], r_entries[0]["Side"], r_entries[0]["Weight"]) == ("9", "A, with GL, K", "0.5")


def listed(html) -> list[dict]:
    """The rows of a player's list of matchdays, by column."""
    header, *rows = table_rows(section(html, "matchdays-heading"))
    return [dict(zip(header, row, strict=True)) for row in rows]


def test_partners_share_their_sides_wins_on_the_player_page(client, teams):
    # Spades by hand: GL and K won matchday 7, K and J matchday 8, R, GL and K matchday 9.
    def spades_card(short_name):
        html = client.get(player_url(short_name)).content.decode()
        card = next(c for c in re.findall(r'<li class="card">(.*?)</li>', html, flags=re.S) if ">Spades<" in c)
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", card[card.index("Wins") :])).strip()

    assert spades_card("K") == "Wins 3 Podiums 3 Win % 100%"
    assert spades_card("GL") == "Wins 2 Podiums 3 Win % 67%"
    assert spades_card("R") == "Wins 1 Podiums 1 Win % 100%"
    assert spades_card("I") == "Wins 0 Podiums 3 Win % 0%"  # second of two sides is still in the first three


def test_a_player_who_never_played_in_sides_has_no_partners_section(client, teams):
    Player.objects.create(name="Newcomer", short_name="NC")
    import_results(
        b"matchday,date,game,rounds,player,placing,rated_placing\n10,2025-11-23,Hearts,1,NC,1,\n10,2025-11-23,Hearts,1,R,2,\n"
    )
    html = client.get(player_url("NC")).content.decode()
    assert 'id="partners-heading"' not in html and "Side" not in section(html, "matchdays-heading")


def test_downloads_carry_side_and_weight(client, teams):
    matchday = reverse("league:matchday", args=[9])
    results = list(
        csv.DictReader(io.StringIO(client.get(matchday, {"export": "csv", "table": "results"}).content.decode()))
    )
    assert {(r["Player"], r["Side"], r["Weight"]) for r in results} == {
        ("R", "A", "0.5"),
        ("GL", "A", "1"),
        ("K", "A", "1"),
        ("I", "B", "1"),
        ("J", "B", "1"),
    }
    changes = json.loads(client.get(matchday, {"export": "json", "table": "overall"}).content)
    by_player = {row["Player"]: row for row in changes}
    assert by_player["R"]["Side"] == "A" and by_player["R"]["Weight"] == 0.5 and by_player["J"]["Weight"] == 1
    assert by_player["GL"]["Side rating"] == pytest.approx(
        stored_side_ratings(RatingTable.objects.get(slug="overall"), 9)["GL"]
    )
    mine = json.loads(client.get(player_url("R"), {"export": "json", "table": "matchdays"}).content)
    spades = [(row["Matchday"], row["Side"], row["Weight"]) for row in mine if row["Spades change"] is not None]
    assert spades == [(9, "A", 0.5)] and {row["Weight"] for row in mine} == {0.5, 1}
    grid = json.loads(client.get("/card-games/games/spades/", {"export": "json", "table": "results"}).content)
    assert {row["Matchday"]: row["R"] for row in grid if "R" in row and row["R"] is not None} == {9: "1 (A) ×0.5"}


MORE_SIDES = """matchday,date,game,rounds,player,placing,rated_placing,side,weight
10,2025-11-23,Spades,1,GL,2,,A,1
10,2025-11-23,Spades,1,J,2,,A,0.5
10,2025-11-23,Spades,1,R,1,,B,1
10,2025-11-23,Spades,1,I,1,,B,1
"""


# The player's: with each of their tables' standings, which their cards' ranks are read from, and their
# record against the game.
@pytest.mark.parametrize(("url", "queries"), [("player", 21), ("matchday", 9)])
def test_team_pages_take_a_fixed_number_of_queries(client, teams, django_assert_num_queries, url, queries):
    """The player's page reads their partners, and the partners at each of its rows; the matchday's
    page works its sides out of the results and rating rows it reads anyway."""
    page = player_url("GL") if url == "player" else reverse("league:matchday", args=[9])
    with django_assert_num_queries(queries):
        assert client.get(page).status_code == 200
    import_results(MORE_SIDES.encode())  # more matchdays, partners and sides cost no extra query
    with django_assert_num_queries(queries):
        assert client.get(page).status_code == 200


def test_an_export_with_sides_imports_back_to_the_same_ratings(teams):
    """Export the overall and each game's table, empty the league, import the exports: every rating
    row is as it was, sides and partial play included."""
    tables = ["overall", "hearts", "spades"]
    before = {slug: ratings_of(slug) for slug in tables}
    exported = {slug: export(slug) for slug in tables}
    assert "side" in exported["spades"].splitlines()[0] and ",A,0.5," in exported["spades"]
    delete_matchdays(Matchday.objects.all())
    delete_players(Player.objects.all())
    assert not RatingEntry.objects.exists()
    import_results(exported["overall"].encode())  # every matchday is in an official game's table
    for slug in tables:
        assert ratings_of(slug) == before[slug]
    assert Result.objects.get(matchday__number=9, player__short_name="R").weight == 0.5


def test_an_export_of_tables_rated_by_the_libraries_teams_imports_back(teams):
    """The same round trip for TrueSkill and openskill teams: set before the import, as a new league's
    tables would be."""
    exported = export("overall")
    delete_matchdays(Matchday.objects.all())
    delete_players(Player.objects.all())
    setup_team_tables()
    import_results(exported.encode())
    spades = ratings_of("spades")
    again = export("spades")
    delete_matchdays(Matchday.objects.all())
    delete_players(Player.objects.all())
    import_results(again.encode())
    assert ratings_of("spades") == spades
    assert RatingTable.objects.get(slug="spades").method == "openskill"


def export(slug: str) -> str:
    out = io.StringIO()
    call_command("export_ratings", "--table", slug, stdout=out)
    return out.getvalue()


def ratings_of(slug: str) -> dict[tuple[int, str], tuple[float, float]]:
    """(matchday number, player) -> (rating before, after) of every row of a table."""
    rows = RatingEntry.objects.filter(table__slug=slug).values_list(
        "matchday__number", "player__short_name", "rating_before", "rating_after"
    )
    return {(number, name): (before, after) for number, name, before, after in rows}


def _sided_tables():
    """Each table that shows sides, built from the team matchdays as the pages build them."""
    overall = RatingTable.objects.get(slug="overall")
    matchday = Matchday.objects.get(number=9)
    results = list(Result.objects.filter(matchday=matchday).select_related("player"))
    entries = with_sides([e for t, es in matchday_entries(matchday) if t == overall for e in es], results)
    r = Player.objects.get(short_name="R")
    rows, rated = _rows(r), _rated(r)
    add_partners(r, rows)
    grid = grids.results_grid(Paginator(grids.results_matchdays(), 25).page(1))
    return {
        "entries": lambda: league_tables.EntryTable(entries, names(), method=METHODS["club"], sides=True),
        "results": lambda: league_tables.MatchdayResultsTable(results, names(), sides=True),
        "player matchdays": lambda: player_tables.PlayerMatchdaysTable(
            rows, extra_columns=player_tables.matchday_columns(rated, sides=True, downloads=True)
        ),
        "partners": lambda: PartnersTable(partnerships(r, Game.objects.in_bulk()), names()),
        "results grid": lambda: grid_table.grid_table(grid, names(), show_game=True, ratings=False, with_year=False),
    }


@pytest.mark.parametrize("case", ["entries", "results", "player matchdays", "partners", "results grid"])
def test_tables_of_sides_show_each_players_side_and_partners(teams, case):
    written = html(_sided_tables()[case]())
    marks = {"entries": "Side rating", "results": ">0.5<", "player matchdays": "A, with GL, K", "partners": ">GL<"}
    assert marks.get(case, 'title="with GL, K">1 (A) ×0.5') in written


def test_a_players_rows_in_sides_show_the_side_and_weight(teams):
    r = Player.objects.get(short_name="R")
    rows, rated = _rows(r), _rated(r)
    add_partners(r, rows)
    written = html(
        player_tables.PlayerMatchdaysTable(rows, extra_columns=player_tables.matchday_columns(rated, sides=True))
    )
    assert "A, with GL, K" in written and ">0.5<" in written


def test_the_player_pages_placing_counts_sides_not_players(teams):
    """In a two-against-two GL finished 1st of 2 sides, not "of 4"; alone at Hearts, of the players."""
    rows = {row.matchday.number: row for row in _rows(Player.objects.get(short_name="GL"))}
    assert {n: rows[n].players for n in (7, 8, 9)} == {7: 2, 8: 2, 9: 2}
    assert rows[1].players == 4
    assert PlacingOfColumn().render(rows[7]) == "1 of 2"
    spades, overall = RatingTable.objects.get(slug="spades"), RatingTable.objects.get(slug="overall")
    assert rows[7].changes.keys() == {spades.pk, overall.pk}  # one row, every table it counted in
