"""The matchday grids: a row per matchday and a column per player shown, each cell the player's
rating after that matchday (or their placing, in a results grid). Declared once, as a django-tables2
table (`grid_table`), which the page renders and the downloads read; a page shows one as a section
(`rating_section`, `results_section`: the league's pages and a season's).
"""

from __future__ import annotations

import django_tables2 as tables
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString

from league.models import Game
from ratings.models import RatingTable
from ratings.selectors import grids
from ratings.selectors.grids import Grid, SideCell
from ratings.selectors.standings import TableSpan
from web.pages.columns import DateColumn, MatchdayColumn
from web.pages.formatting import explain_change, format_rating, plain_number
from web.pages.names import PlayerNames
from web.pages.paging import paginate
from web.pages.sections import Section
from web.pages.tables import SiteTable


class PlayerColumn(tables.Column):
    """One player's cell in a matchday grid; `-` where the row has nothing for them. A rating earned
    at that matchday is marked as played and explains itself on hover; one carried over is not.
    It reads the row's cells by player (`GridRow.cells`), the busiest cells of the site."""

    def __init__(self, player, names: PlayerNames, ratings: bool):
        super().__init__(
            verbose_name=names.html(player),
            accessor="cells",
            empty_values=(),
            orderable=False,
            attrs={"th": {"class": "player-col"}, "td": {"class": "num"}},
        )
        self.player_id = player.pk
        self.ratings = ratings

    def render(self, value, record):
        shown = value.get(self.player_id)
        if shown is None:
            return "-"
        text = format_rating(shown) if self.ratings else shown
        note = record.notes.get(self.player_id)
        # Numbers and fixed words only in the first two (a placing is "4(3)"); a results cell has a
        # side's label and its partners' names, so it is escaped.
        if note:  # the player played this matchday: say how the change came about
            line = explain_change(note.delta, note.rated_placing, note.players, note.expected, note.k, note.placing)
            return SafeString(f'<span class="played" title="{line}">{text}</span>')
        if self.ratings:
            return SafeString(f'<span class="carried">{text}</span>')
        if isinstance(shown, SideCell):  # short in the grid, the partners on hover
            return SafeString(f'<span class="side" title="{escape(shown.partners)}">{escape(text)}</span>')
        return escape(text)

    def value(self, value):
        shown = value.get(self.player_id)
        return plain_number(shown) if self.ratings else shown


class MatchdayGridTable(SiteTable):
    matchday = MatchdayColumn(attrs={"td": {"class": "num sticky"}, "th": {"class": "sticky"}})
    date = DateColumn(accessor="matchday__date")
    # On a phone the game and rounds give way to the ratings; the matchday's page has them.
    game = tables.Column(
        "Game", accessor="matchday__game__name", attrs={"td": {"class": "wide"}, "th": {"class": "wide"}}
    )
    rounds = tables.Column(
        "Rounds", accessor="matchday__rounds", attrs={"td": {"class": "num wide"}, "th": {"class": "wide"}}
    )

    class Meta:
        orderable = False
        attrs = {"class": "grid"}
        empty_text = "No matchdays yet."


def _players(grid: Grid, names: PlayerNames, ratings: bool) -> list[tuple[str, PlayerColumn]]:
    return [(f"player_{p.pk}", PlayerColumn(p, names, ratings)) for p in grid.players]


def grid_table(grid: Grid, names: PlayerNames, *, show_game: bool, ratings: bool, with_year: bool) -> MatchdayGridTable:
    """The grid as a django-tables2 table: the page renders it, its downloads read it."""
    players = _players(grid, names, ratings)
    return MatchdayGridTable(
        grid.rows, names, with_year=with_year, extra_columns=players, exclude=_columns_left_out(show_game)
    )


def _columns_left_out(show_game: bool) -> tuple[str, ...]:
    return () if show_game else ("game",)


def rating_section(
    section: Section, table: RatingTable, span: TableSpan, per_page: int, until=None, since=None
) -> Section:
    """One table's rating grid: the page asked for (the newest first, from `since` up to `until`),
    everyone who played in it."""
    whole = until is None and since is None and table.season_id is None
    count = span.matchdays if whole else None  # as at a day, or a season's: counted within its days
    page = paginate(grids.grid_matchdays(table, span, until, since), section.page_number, per_page, count=count)
    grid = grids.rating_grid(table, page)
    show_game, with_year = table.scope != RatingTable.Scope.GAME, span.needs_year(timezone.localdate())
    return section.show(
        lambda names: grid_table(grid, names, show_game=show_game, ratings=True, with_year=with_year),
        page,
        title=f"{table.name} rating",
        newest_first=True,
        rating_table=table,
        players=grid.players,
    )


def results_section(
    section: Section, game: Game | None, span: TableSpan, per_page: int, table=None, until=None
) -> Section:
    """The placings at every matchday (or `game`'s, up to `until`), a page at a time, newest first, of
    everyone who played in it."""
    count = span.matchdays if until is None else None
    page = paginate(grids.results_matchdays(game, until), section.page_number, per_page, count=count)
    grid = grids.results_grid(page, table)
    show_game, with_year = table is None, span.needs_year(timezone.localdate())
    return section.show(
        lambda names: grid_table(grid, names, show_game=show_game, ratings=False, with_year=with_year),
        page,
        title="Results",
        newest_first=True,
        players=grid.players,
    )
