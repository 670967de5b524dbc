"""The matchday grids: a row per matchday and a column per player shown, each cell the player's
rating after that matchday (or their placing, in a results grid). Declared once, as a django-tables2
table: downloads build it (`grid_table`), pages write it from the declaration (`grid_html`).
"""

from __future__ import annotations

import html

import django_tables2 as tables
from django.utils.safestring import SafeString

from ratings.selectors.grids import Grid
from web.columns import DateColumn, MatchdayColumn
from web.formatting import explain_change, format_rating, plain_number
from web.names import PlayerNames
from web.render import Shown, declared_html
from web.tables import SiteTable


def grid_cell(record, player_id: int, ratings: bool) -> str:
    """One player's cell of a grid row, as escaped HTML. The busiest cell of the site (a game's page
    has thousands): written without format_html or mark_safe's lazy-string check, as everything in
    it is made of numbers and fixed words (a placing is "4(3)")."""
    value = record.cells.get(player_id)
    if value is None:
        return "-"
    text = format_rating(value) if ratings else value
    note = record.notes.get(player_id)
    if note:  # the player played this matchday: say how the change came about
        line = explain_change(note.delta, note.rated_placing, note.players, note.expected, note.k, note.placing)
        return f'<span class="played" title="{line}">{text}</span>'  # numbers only
    if ratings:
        return f'<span class="carried">{text}</span>'  # a number
    return html.escape(text)


class PlayerColumn(tables.Column):
    """One player's cell in a matchday grid; `-` where the row has nothing for them. A rating earned
    at that matchday is marked as played and explains itself on hover; one carried over is not."""

    def __init__(self, player, names: PlayerNames, ratings: bool):
        super().__init__(
            verbose_name=names.html(player),
            empty_values=(),
            orderable=False,
            attrs={"th": {"class": "player-col"}, "td": {"class": "num"}},
        )
        self.player_id = player.pk
        self.ratings = ratings

    def render(self, record):
        return SafeString(self.cell_html(record, None))

    def cell_html(self, record, table) -> str:
        return grid_cell(record, self.player_id, self.ratings)

    def value(self, record):
        value = record.cells.get(self.player_id)
        return plain_number(value) if self.ratings else value


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
    """The grid as a django-tables2 table, for its downloads."""
    players = _players(grid, names, ratings)
    return MatchdayGridTable(
        grid.rows, names, with_year=with_year, extra_columns=players, exclude=_columns_left_out(show_game)
    )


def grid_html(grid: Grid, names: PlayerNames, *, show_game: bool, ratings: bool, with_year: bool) -> SafeString:
    """`table_html(grid_table(...))`, written without building the table (a game's page has thousands
    of cells in grids of a column per player)."""
    players, shown = _players(grid, names, ratings), Shown(names, with_year)
    return declared_html(MatchdayGridTable, grid.rows, shown, exclude=_columns_left_out(show_game), extra=players)


def _columns_left_out(show_game: bool) -> tuple[str, ...]:
    return () if show_game else ("game",)
