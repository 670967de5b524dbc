"""web.render writes the site's tables without django-tables2's per-cell machinery; for every table
class its HTML must be django-tables2's own rendering of the same table (the same elements, attributes
and text, whitespace aside)."""

import inspect
from html.parser import HTMLParser

import django_tables2
import pytest
from django.core.paginator import Paginator
from django.test import RequestFactory
from django.utils.safestring import mark_safe

from league.models import Game, Matchday, Player, Result
from league.selectors import head_to_head_counts, head_to_head_records
from ratings.methods import METHODS
from ratings.models import RatingTable
from ratings.selectors import grids, overview, standings
from ratings.selectors.players import matchday_rows, played_matchdays, rating_history
from tests.conftest import grid_page
from web import grid_table, tables
from web.names import PlayerNames
from web.render import table_html


class _Tree(HTMLParser):
    """Elements with their attributes and the text between them, whitespace collapsed."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items = []

    def handle_starttag(self, tag, attrs):
        self.items.append(("<", tag, sorted((k, " ".join((v or "").split())) for k, v in attrs)))

    def handle_endtag(self, tag):
        self.items.append((">", tag))

    def handle_data(self, data):
        text = " ".join(data.split())
        if text:
            self.items.append(("text", text))


def tree(html: str) -> list:
    parser = _Tree()
    parser.feed(html)
    return parser.items


def names():
    return PlayerNames(standings.current_ratings(Player.objects.values_list("pk", flat=True)))


def _rated(player) -> list:
    """The tables of matchdays the player has played in, in page order: their list's columns."""
    return [t for t in RatingTable.objects.in_page_order().filter(standings__player=player) if not t.against_deals]


def _rows(player):
    """Every matchday of the player's with their row in every table, as their page reads a page of them."""
    history = rating_history(player, [t.pk for t in _rated(player)])
    return matchday_rows(player, played_matchdays(history), Game.objects.in_bulk())


def _cases():
    """One table of each class the site renders, built from the club's data as the pages build them."""
    overall = RatingTable.objects.get(slug="overall")
    matchday = Matchday.objects.get(number=5)
    r = Player.objects.get(short_name="R")
    grid = grid_page(overall)
    results_page = Paginator(grids.results_matchdays(), 25).page(1)
    standings_page = Paginator(standings.ranked_standings(overall), 25).page(1)
    entries = [e for _, es in standings.matchday_entries(matchday) for e in es]
    rows, rated = _rows(r), _rated(r)
    counts = head_to_head_counts(r)
    rating_tables = list(RatingTable.objects.in_page_order())
    latest = overview.latest_matchdays(rating_tables, 3, 6)
    directory = Paginator(overview.player_directory("", "rating"), 25).page(1)
    return {
        "rating grid": lambda: grid_table.grid_table(grid, names(), show_game=True, ratings=True, with_year=False),
        "rating grid with years": lambda: grid_table.grid_table(
            grid, names(), show_game=False, ratings=True, with_year=True
        ),
        "results grid": lambda: grid_table.grid_table(
            grids.results_grid(results_page), names(), show_game=False, ratings=False, with_year=False
        ),
        "standings": lambda: tables.StandingsTable(standings.standing_rows(overall, standings_page, 3), names()),
        "leaderboard": lambda: tables.LeaderboardTable(overview.leaderboard(overall, 10, 3).rows, names()),
        "latest matchday": lambda: tables.LatestResultsTable(latest[0].results, names()),
        "players directory": lambda: tables.PlayersTable(overview.directory_rows(directory), names(), with_year=True),
        "entries": lambda: tables.EntryTable(entries, names(), method=METHODS["club"]),
        "entries without M or K": lambda: tables.EntryTable(entries, names(), method=METHODS["openskill"]),
        "player matchdays": lambda: tables.PlayerMatchdaysTable(
            rows, extra_columns=tables.matchday_columns(rated, sides=False, downloads=True)
        ),
        "head to head": lambda: tables.HeadToHeadTable(head_to_head_records(counts), names()),
        "matchday results": lambda: tables.MatchdayResultsTable(
            list(Result.objects.filter(matchday=matchday).select_related("player")), names()
        ),
        "empty standings": lambda: tables.StandingsTable([], names()),
    }


# Which case stands for each table class of web.tables and web.grid_table.
CLASSES = {
    "MatchdayGridTable": "rating grid",
    "StandingsTable": "standings",
    "LeaderboardTable": "leaderboard",
    "LatestResultsTable": "latest matchday",
    "PlayersTable": "players directory",
    "EntryTable": "entries",
    "PlayerMatchdaysTable": "player matchdays",
    "HeadToHeadTable": "head to head",
    "MatchdayResultsTable": "matchday results",
}


def test_every_table_class_of_the_site_has_a_case():
    classes = {
        name
        for module in (tables, grid_table)
        for name, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, django_tables2.Table)
        and cls.__module__ == module.__name__
        and name not in ("SiteTable", "ExplainedColumns")
    }
    assert classes == set(CLASSES)


@pytest.mark.parametrize(
    "case",
    [
        "rating grid",
        "rating grid with years",
        "results grid",
        "standings",
        "leaderboard",
        "latest matchday",
        "players directory",
        "entries",
        "entries without M or K",
        "player matchdays",
        "head to head",
        "matchday results",
        "empty standings",
    ],
)
def test_the_fast_renderer_writes_what_django_tables2_writes(club, case):
    request = RequestFactory().get("/")
    build = _cases()[case]
    ours = tree(table_html(build()))
    theirs = tree(build().as_html(request))
    assert len(ours) > 10
    assert ours == theirs


class _Record:
    """A record as the tables get them: attributes, related objects, a method, a missing relation."""

    def __init__(self, **values):
        self.__dict__.update(values)

    def shout(self):
        return self.name.upper()


@pytest.mark.parametrize(
    "accessor",
    ["name", "matchday__date", "matchday__game__name", "missing", "matchday__missing", "nothing__name", "shout",
     "scores__ahead", "name__upper"],
)  # fmt: skip
@pytest.mark.parametrize("as_dict", [False, True])
def test_the_fast_accessor_resolves_what_django_tables2_resolves(accessor, as_dict):
    from datetime import date

    from django_tables2.utils import A

    from web.render import _Resolver

    game = _Record(name="Hearts")
    values = {
        "name": "Ann",
        "matchday": _Record(date=date(2025, 11, 3), game=game),
        "nothing": None,
        "scores": {"ahead": 3},
    }
    record = dict(values) if as_dict else _Record(**values)
    assert _Resolver(A(accessor))(record) == A(accessor).resolve(record, quiet=True)


@pytest.mark.parametrize(
    "attrs",
    [
        {"class": "num"},
        {"class": "grid", "id": "hearts"},
        {"title": 'say "hi" & <go>', "data-x": 3},
        {"title": mark_safe("<b>already safe</b>")},
        {"title": "<b>already safe</b>"},  # the same text, not safe: written apart
        {"class": None, "hidden": False, "th": {"class": "x"}, "td": {"class": "y"}},
        {"class": lambda: "from a callable"},
        {"data-list": ["not", "hashable"]},
    ],
)
def test_table_attributes_are_written_as_django_tables2_writes_them(attrs):
    from django_tables2.utils import AttributeDict

    from web.render import _attributes

    assert _attributes(attrs) == AttributeDict(attrs).as_html()
    assert _attributes(attrs) == AttributeDict(attrs).as_html()  # the second time from the cache


@pytest.mark.parametrize("name,number", [("league:player", 7), ("league:matchday", 123456), ("league:player", 0)])
def test_number_paths_are_the_paths_django_reverses(name, number):
    from django.urls import reverse, set_script_prefix

    from web.paths import number_path

    assert number_path(name, number) == reverse(name, args=[number])
    set_script_prefix("/club/")  # a site served under a prefix gets its own paths
    try:
        assert number_path(name, number) == reverse(name, args=[number])
        assert number_path(name, number).startswith("/club/")
    finally:
        set_script_prefix("/")


@pytest.mark.parametrize("name", ["league:home", "ratings:methods", "admin:index"])
def test_fixed_paths_are_the_paths_django_reverses(name):
    from django.urls import reverse, set_script_prefix

    from web.paths import fixed_path

    assert fixed_path(name) == reverse(name)
    set_script_prefix("/club/")  # a site served under a prefix gets its own paths
    try:
        assert fixed_path(name) == reverse(name) and fixed_path(name).startswith("/club/")
    finally:
        set_script_prefix("/")


@pytest.mark.parametrize("show_game", [True, False])
@pytest.mark.parametrize("with_year", [True, False])
@pytest.mark.parametrize("kind", ["ratings", "results", "empty"])
def test_grids_written_straight_from_their_rows_are_the_grid_tables_byte_for_byte(club, kind, show_game, with_year):
    Player.objects.filter(short_name="GL").update(name='G <"&> L', short_name='G<"&>L')  # escaped alike
    overall = RatingTable.objects.get(slug="overall")
    if kind == "ratings":
        grid = grid_page(overall)
    elif kind == "results":
        grid = grids.results_grid(Paginator(grids.results_matchdays(), 4).page(2))
    else:
        grid = grids.Grid([], [])
    ratings = kind != "results"
    shown = dict(show_game=show_game, ratings=ratings, with_year=with_year)
    ours = grid_table.grid_html(grid, names(), **shown)
    assert ours == table_html(grid_table.grid_table(grid, names(), **shown))
    assert (len(grid.rows), len(grid.players)) != (0, 0) or kind == "empty"


@pytest.mark.parametrize("with_year", [True, False])
def test_a_players_matchdays_written_straight_are_the_list_byte_for_byte(club, make_matchday, with_year):
    sedma = Game.objects.create(name="Sedma", slug="sedma", official=False)  # counts in neither Overall nor Hearts
    make_matchday(7, "2025-11-20", {"R": 1, "I": 2}, game=sedma)
    r = Player.objects.get(short_name="R")
    rows, rated = _rows(r), _rated(r)
    rows[1].changes[rated[0].pk].k = None  # a method without K says so on hover
    written = tables.PlayerMatchdaysTable.list_html(rows, rated, with_year=with_year)
    built = table_html(
        tables.PlayerMatchdaysTable(rows, with_year=with_year, extra_columns=tables.matchday_columns(rated, False))
    )
    assert written == built and written.count("<tr>") == 8 and 'class="after"' in written


@pytest.mark.parametrize("opponents", ["all", "none"])
def test_head_to_head_written_straight_is_the_head_to_head_table_byte_for_byte(club, opponents):
    Player.objects.filter(short_name="GL").update(name='G <"&> L', short_name='G<"&>L')  # escaped alike
    records = head_to_head_records(head_to_head_counts(Player.objects.get(short_name="R")))
    records = records if opponents == "all" else []
    written = tables.HeadToHeadTable.page_html(records, names())
    assert written == table_html(tables.HeadToHeadTable(records, names()))
    assert ("&lt;" in written) == (opponents == "all")


def test_a_table_with_render_methods_of_its_own_is_not_written_from_its_declaration():
    from web.deals.tables import AttemptTable
    from web.render import Shown, declared_html

    with pytest.raises(TypeError, match="AttemptTable"):
        declared_html(AttemptTable, [], Shown())  # its deal, result and explanation cells are its own methods


def test_extra_columns_each_keep_their_own_attributes_when_written_from_the_declaration(club):
    from web.render import Shown, declared_html

    records = head_to_head_records(head_to_head_counts(Player.objects.get(short_name="R")))
    extra = [
        ("first", django_tables2.Column("First", accessor="met", attrs={"td": {"class": "a"}})),
        ("second", django_tables2.Column("Second", accessor="ahead", attrs={"td": {"class": "a"}})),
        ("third", django_tables2.Column("Third", accessor="tied", attrs={"th": {"class": "c"}})),
    ]
    written = declared_html(tables.HeadToHeadTable, records, Shown(names()), extra=extra)
    assert written == table_html(tables.HeadToHeadTable(records, names(), extra_columns=extra))
    assert '<th class="c">Third</th>' in written and '<td class="a">' in written


@pytest.mark.parametrize(
    "value", [0, 0.0, -0.0, 1535, 1535.0, -7.0, 1498.25, 2.5, -0.04, 1e20, 10**30, float("nan"), float("inf"), True]
)
def test_a_rating_is_written_as_its_whole_number_or_to_a_tenth(value):
    from web.formatting import format_rating

    assert format_rating(value) == (str(int(value)) if float(value).is_integer() else f"{value:.1f}")
