"""The site's tables as django-tables2 renders them through `tables/table.html`: their markup, their
escaping, their cells' attributes, and the two per-cell costs `web.pages.tables.SiteRow` takes off
django-tables2 without changing a cell."""

import inspect
import re
from datetime import date

import django_tables2
import pytest
from django.core.paginator import Paginator
from django.test import RequestFactory
from django.utils.encoding import force_str
from django_tables2.columns.base import BoundColumns
from django_tables2.rows import BoundRow
from django_tables2.utils import Accessor

from league.models import Game, Matchday, Player, Result
from league.selectors import head_to_head_counts, head_to_head_records
from ratings.methods import METHODS
from ratings.models import RatingTable
from ratings.selectors import grids, overview, standings
from ratings.selectors.players import matchday_rows, played_matchdays, rating_history
from tests.conftest import grid_page, section
from web.deals import tables as deal_tables
from web.league import points
from web.league import tables as league_tables
from web.nights import tables as night_tables
from web.pages import grid_table, tables
from web.pages.names import PlayerNames
from web.players import partners
from web.players import tables as player_tables
from web.seasons import tables as season_tables

HOSTILE = 'G <"&> L'  # a name that must be escaped wherever it is shown


def names():
    return PlayerNames(standings.current_ratings(Player.objects.values_list("pk", flat=True)))


def _rated(player) -> list:
    """The tables of matchdays the player has played in, in page order: their list's columns."""
    return [t for t in RatingTable.objects.in_page_order().filter(standings__player=player) if not t.against_deals]


def _rows(player):
    """Every matchday of the player's with their row in every table, as their page reads a page of them."""
    history = rating_history(player, [t.pk for t in _rated(player)])
    return matchday_rows(player, played_matchdays(history), Game.objects.in_bulk())


def html(table) -> str:
    """The table as its page shows it, without the whitespace between elements that django-tables2's
    template keeps around the table."""
    return re.sub(r">\s+<", "><", table.as_html(RequestFactory().get("/"))).strip()


def _cases():
    """One table of each class of web.pages.tables, web.pages.grid_table, web.league.tables and
    web.players.tables, built from the club's data as the
    pages build them."""
    overall = RatingTable.objects.get(slug="overall")
    matchday = Matchday.objects.get(number=5)
    r = Player.objects.get(short_name="R")
    entries = [e for _, es in standings.matchday_entries(matchday) for e in es]
    latest = overview.latest_matchdays(list(RatingTable.objects.in_page_order()), 3, 6)
    directory = Paginator(overview.player_directory("", "rating"), 25).page(1)
    return {
        "rating grid": lambda: grid_table.grid_table(
            grid_page(overall), names(), show_game=True, ratings=True, with_year=False
        ),
        "results grid": lambda: grid_table.grid_table(
            grids.results_grid(Paginator(grids.results_matchdays(), 25).page(1)),
            names(),
            show_game=False,
            ratings=False,
            with_year=False,
        ),
        "standings": lambda: tables.StandingsTable(
            standings.standing_rows(overall, Paginator(standings.ranked_standings(overall), 25).page(1), 3), names()
        ),
        "leaderboard": lambda: league_tables.LeaderboardTable(overview.leaderboard(overall, 10, 3).rows, names()),
        "latest matchday": lambda: tables.LatestResultsTable(latest[0].results, names()),
        "players directory": lambda: player_tables.PlayersTable(
            overview.directory_rows(directory, date.today()), names(), with_year=True
        ),
        "entries": lambda: league_tables.EntryTable(entries, names(), method=METHODS["club"]),
        "player matchdays": lambda: player_tables.PlayerMatchdaysTable(
            _rows(r), extra_columns=player_tables.matchday_columns(_rated(r), sides=False, downloads=True)
        ),
        "head to head": lambda: player_tables.HeadToHeadTable(head_to_head_records(head_to_head_counts(r)), names()),
        "matchday results": lambda: league_tables.MatchdayResultsTable(
            list(Result.objects.filter(matchday=matchday).select_related("player")), names()
        ),
    }


def test_every_table_of_the_site_is_a_site_table():
    """Its rows and its cells' attributes are what `tables/table.html` reads (`SiteRow`,
    `SiteTable.shown_columns`)."""
    modules = (
        tables,
        grid_table,
        league_tables,
        points,
        player_tables,
        partners,
        deal_tables,
        season_tables,
        night_tables,
    )
    found = {
        cls
        for module in modules
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, django_tables2.Table) and cls.__module__ == module.__name__
    }
    assert len(found) > 15
    assert [cls.__name__ for cls in found if not issubclass(cls, tables.SiteTable)] == []


@pytest.mark.parametrize("case", ["standings", "leaderboard"])
def test_a_table_scrolls_in_its_own_box_with_its_columns_attributes(club, case):
    table = _cases()[case]()
    written = html(table)
    assert written.startswith('<div class="table-scroll" tabindex="0">') and written.endswith("</div>")
    assert '<th class="num">Rating</th>' in written and '<td class="num">' in written
    assert 'class="even"' not in written and 'class="odd"' not in written  # no use for them


@pytest.mark.parametrize("case", ["rating grid", "results grid", "standings", "entries", "player matchdays"])
def test_each_row_has_a_cell_per_column_shown_with_its_attributes(club, case):
    table = _cases()[case]()
    written = html(table)
    shown = table.shown_columns
    assert written.count("<th ") == len(shown) and written.count("<tr>") == len(table.rows) + 1
    assert written.count("<td ") == len(shown) * len(table.rows) > 10
    for column in shown:
        assert column.td_attrs == column.attrs["td"].as_html()  # what django-tables2 writes per cell


def test_grids_mark_ratings_earned_and_carried_and_name_players_with_their_tooltips(club):
    written = html(_cases()["rating grid"]())
    assert '<table class="grid">' in written and '<th class="player-col">' in written
    assert '<td class="num sticky"><a href="/card-games/matchdays/' in written
    assert '<span class="played" title="' in written and '<span class="carried">' in written
    assert written.count('role="tooltip"') == written.count('<th class="player-col">') > 3
    assert '<td class="num">-</td>' in html(_cases()["results grid"]())  # who did not play that matchday


def test_names_in_tables_and_grids_are_escaped(club):
    Player.objects.filter(short_name="GL").update(name=HOSTILE, short_name='G<"&>L')
    r = Player.objects.get(short_name="R")
    for written in (
        html(_cases()["rating grid"]()),
        html(player_tables.HeadToHeadTable(head_to_head_records(head_to_head_counts(r)), names())),
    ):
        assert "G&lt;&quot;&amp;&gt;L" in written and 'G<"&>L' not in written and HOSTILE not in written


def test_an_empty_table_says_so_across_its_columns(club):
    written = html(tables.StandingsTable([], names()))
    assert (
        f'<tr><td colspan="{len(tables.StandingsTable([]).shown_columns)}">Nobody has played yet.</td></tr>' in written
    )
    written = html(grid_table.grid_table(grids.Grid([], []), names(), show_game=True, ratings=True, with_year=False))
    assert '<td colspan="4">No matchdays yet.</td>' in written  # matchday, date, game and rounds


def test_a_players_matchdays_explain_each_change_on_hover(club, make_matchday):
    sedma = Game.objects.create(name="Sedma", slug="sedma", official=False)  # counts in neither Overall nor Hearts
    make_matchday(7, "2025-11-20", {"R": 1, "I": 2}, game=sedma)
    r = Player.objects.get(short_name="R")
    rows, rated = _rows(r), _rated(r)
    rows[1].changes[rated[0].pk].k = None  # a method without K says so on hover
    written = html(player_tables.PlayerMatchdaysTable(rows, extra_columns=player_tables.matchday_columns(rated, False)))
    assert written.count("<tr>") == 8 and 'class="after"' in written
    titles = [part.split('"')[0] for part in written.split('<span title="')[1:]]
    assert any(", K " not in title for title in titles) and any(", K " in title for title in titles)


def test_site_rows_render_the_cells_django_tables2_renders(club):
    """`SiteRow` finds each cell's column and its render method's arguments once rather than per
    cell; every cell of every table of the club's pages is the one django-tables2's own row gives."""

    def cells(row):  # a tooltip's id counts the names written on the page
        return [(column.name, re.sub(r"tip\.\d+\.\d+", "tip", str(cell))) for column, cell in row.items()]

    for build in _cases().values():
        table = build()
        assert all(type(row) is tables.SiteRow for row in table.rows)
        for row in table.rows:
            assert cells(row) == cells(BoundRow(row.record, table))


def test_site_rows_give_the_download_values_django_tables2_gives(club):
    """A download (`as_values`) reads its cells through `SiteRow` too: every value of every table
    is the one django-tables2's own row gives."""
    for build in _cases().values():
        table = build()
        header, *rows = table.as_values()
        names = [c.name for c in table.columns.iterall() if not c.column.exclude_from_export]
        own = [[BoundRow(row.record, table).get_cell_value(name) for name in names] for row in table.rows]
        assert len(header) == len(names) and rows == [[force_str(v, strings_only=True) for v in r] for r in own]


def test_a_download_finds_each_column_and_its_value_arguments_once_not_per_cell(club, monkeypatch):
    """A player's matchdays in a club of 150 games (a BG Stats import) has 300 columns: looking each
    cell's column up by name among them, and its value method's arguments, took half a minute."""
    lookups, signatures = [], []
    find, read = BoundColumns.__getitem__, django_tables2.utils.signature
    monkeypatch.setattr(BoundColumns, "__getitem__", lambda self, name: lookups.append(name) or find(self, name))
    monkeypatch.setattr(django_tables2.utils, "signature", lambda fn: signatures.append(fn) or read(fn))
    table = _cases()["player matchdays"]()
    header, *rows = table.as_values()
    assert len(rows) == 6 and len(header) == 8
    assert len(lookups) < len(header) and len(signatures) < len(header)


def failed_lookups(monkeypatch) -> list:
    """The accessors whose lookups fail from now on. A failed lookup makes django-tables2 write out
    the record for its error message (a model's related rows included, a query each), for every cell
    of the column, so each column names what its cells are made from."""
    failed = []

    class Failure(str):
        def format(self, **parts):
            failed.append(parts["accessor"])
            return "failed"

    monkeypatch.setattr(Accessor, "LOOKUP_ERROR_FMT", Failure())
    return failed


@pytest.mark.parametrize(
    "url",
    [
        "/card-games/",
        "/card-games/standings/",
        "/card-games/games/hearts/",
        "/card-games/matchdays/5/",
        "/card-games/players/",
        "/card-games/seasons/",
    ],
)
def test_no_cell_of_a_page_looks_up_what_its_record_lacks(club, client, monkeypatch, url):
    failed = failed_lookups(monkeypatch)
    r = Player.objects.get(short_name="R")
    for page in (url, f"/card-games/players/{r.pk}/") if url == "/card-games/" else (url,):
        assert client.get(page).status_code == 200
    assert failed == []


def test_the_home_page_shows_every_table_through_the_site_template(club, client):
    page = re.sub(r">\s+<", "><", client.get("/card-games/").content.decode())
    assert section(page, "overall-heading").count('<div class="table-scroll" tabindex="0">') == 1
    assert page.count('<div class="table-scroll" tabindex="0"><table') >= 5


@pytest.mark.parametrize(
    "value", [0, 0.0, -0.0, 1535, 1535.0, -7.0, 1498.25, 2.5, -0.04, 1e20, 10**30, float("nan"), float("inf"), True]
)
def test_a_rating_is_written_as_its_whole_number_or_to_a_tenth(value):
    from web.pages.formatting import format_rating

    assert format_rating(value) == (str(int(value)) if float(value).is_integer() else f"{value:.1f}")


def test_a_column_whose_cells_attributes_vary_by_cell_is_refused():
    """The template writes each column's cells' attributes once per table (`shown_columns`)."""

    class Varying(tables.SiteTable):
        rating = django_tables2.Column(attrs={"td": {"class": lambda record: "new" if record else "old"}})

    with pytest.raises(TypeError, match="rating"):
        html(Varying([{"rating": 1}]))
