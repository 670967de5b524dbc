"""django-tables2 tables for the grids and standings.

The grids have one column per player, so their classes are built per page from the players shown.
Cells are rendered from data already loaded by `ratings.selectors`: no column runs a query or a
template per cell.
"""

from __future__ import annotations

import django_tables2 as tables

from league.names import PlayerNames, format_change, format_rating
from ratings.selectors import Grid, Standing


class PlayerColumn(tables.Column):
    """One player's cell in a matchday grid; `-` where the row has nothing for them."""

    def __init__(self, player, names: PlayerNames, formatter=str):
        super().__init__(
            verbose_name=names.html(player),
            empty_values=(),
            orderable=False,
            attrs={"th": {"class": "player-col"}, "td": {"class": "num"}},
        )
        self.player_id = player.pk
        self.formatter = formatter

    def render(self, record):
        value = record.cells.get(self.player_id)
        return "-" if value is None else self.formatter(value)

    def value(self, record, value):
        return record.cells.get(self.player_id, "")


class MatchdayGridTable(tables.Table):
    matchday = tables.Column("Matchday", accessor="matchday__number", attrs={"td": {"class": "num"}})
    date = tables.DateColumn("F j", verbose_name="Date", accessor="matchday__date")
    game = tables.Column("Game", accessor="matchday__game__name")
    rounds = tables.Column("Rounds", accessor="matchday__rounds", attrs={"td": {"class": "num"}})

    class Meta:
        orderable = False
        attrs = {"class": "grid"}
        empty_text = "No matchdays yet."


def grid_table(grid: Grid, names: PlayerNames, *, show_game: bool, ratings: bool) -> MatchdayGridTable:
    formatter = format_rating if ratings else str
    players = [(f"player_{p.pk}", PlayerColumn(p, names, formatter)) for p in grid.players]
    return MatchdayGridTable(grid.rows, extra_columns=players, exclude=() if show_game else ("game",))


class StandingsTable(tables.Table):
    rank = tables.Column("#", attrs={"td": {"class": "num"}})
    player = tables.Column("Player", empty_values=())
    rating = tables.Column("Rating", attrs={"td": {"class": "num"}})
    played = tables.Column("Matchdays", attrs={"td": {"class": "num"}})
    last_played = tables.DateColumn("F j, Y", verbose_name="Last played", accessor="last_played__date")
    last_change = tables.Column("Last change", attrs={"td": {"class": "num"}})

    class Meta:
        orderable = False
        attrs = {"class": "standings"}
        empty_text = "Nobody has played yet."

    def __init__(self, data: list[Standing], names: PlayerNames, **kwargs):
        super().__init__(data, **kwargs)
        self.names = names

    def render_player(self, record):
        return self.names.html(record.player)

    def render_rating(self, value):
        return format_rating(value)

    def render_last_change(self, value):
        return format_change(value)
