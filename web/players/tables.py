"""The players' tables: the directory, a player's matchdays with their change in each table, and
head to head (the partners' table is in `web.players.partners`)."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.safestring import SafeString

from web.pages.columns import (
    NUM,
    DateColumn,
    MatchdayColumn,
    NumberColumn,
    PlacingOfColumn,
    PlayerNameColumn,
    RatingColumn,
    SideColumn,
    WeightColumn,
    change_html,
)
from web.pages.formatting import explain_change, format_rating, plain_number
from web.pages.tables import SiteTable


class PlayersTable(SiteTable):
    """The players directory: every player, their overall rating and rank, and when they last played."""

    player = PlayerNameColumn("Player")
    name = tables.Column("Name", accessor="player__name")
    rating = RatingColumn("Overall")
    rank = NumberColumn("#")
    matchdays = NumberColumn("Matchdays")
    attempts = NumberColumn("Attempts")  # at deals (solitaire): not matchdays
    last_played = DateColumn("Last played")

    class Meta:
        orderable = False
        attrs = {"class": "players"}
        empty_text = "No player matches."


class PlayerMatchdaysTable(SiteTable):
    """A player's matchdays, newest first, in one list: where they finished and their change in each
    table the matchday counted in (`matchday_columns`: a column per table, then their side)."""

    date = DateColumn(accessor="matchday__date")
    matchday = MatchdayColumn(attrs=NUM)
    game = tables.Column("Game", accessor="matchday__game__name")
    placing = PlacingOfColumn()

    class Meta:
        orderable = False
        attrs = {"class": "player-matchdays"}
        empty_text = "No matchdays yet."


def matchday_columns(
    rating_tables, sides: bool, downloads: bool = False, points: bool = False
) -> list[tuple[str, tables.Column]]:
    """The player's list's columns after the matchday's own: their points where the list shows a
    score sheet, a change per table (with, for the downloads, the change and the rating after as
    numbers), then their side and weight where it shows a matchday played in sides or with partial
    play."""
    columns = [("points", NumberColumn("Points"))] if points else []
    for table in rating_tables:
        columns.append((f"change_{table.pk}", TableChangeColumn(table)))
        if downloads:
            columns.append((f"delta_{table.pk}", TableValueColumn(table, "delta", f"{table.name} change")))
            columns.append((f"after_{table.pk}", TableValueColumn(table, "rating_after", f"{table.name} after")))
    if sides:
        columns += [("side", SideColumn()), ("weight", WeightColumn())]
    return columns


class TableChangeColumn(tables.Column):
    """One table's change at the player's matchday in green or red, the rating after beneath it, and
    how the change came about on hover; blank where the matchday did not count in the table."""

    def __init__(self, table):
        th = {"class": "num", "title": f"Change in {table.name}, the rating after beneath"}
        super().__init__(
            table.name, accessor="changes", empty_values=(), attrs={**NUM, "th": th}, exclude_from_export=True
        )
        self.table_id = table.pk

    def render(self, value):
        entry = value.get(self.table_id)
        if entry is None:
            return ""
        rated = entry.rated_placing if entry.rated_placing is not None else entry.placing
        line = explain_change(entry.delta, rated, entry.players, entry.expected, entry.k, entry.placing)
        after = format_rating(entry.rating_after)
        # Numbers and fixed words only: nothing to escape.
        return SafeString(f'<span title="{line}">{change_html(entry.delta)}<span class="after">{after}</span></span>')


class TableValueColumn(tables.Column):
    """One number of the player's row in one table, for the downloads (hidden on the page)."""

    def __init__(self, table, field: str, header: str):
        super().__init__(header, accessor="changes", empty_values=(), visible=False)
        self.table_id, self.field = table.pk, field

    def value(self, value):
        entry = value.get(self.table_id)
        return None if entry is None else plain_number(getattr(entry, self.field))


class HeadToHeadTable(SiteTable):
    opponent = PlayerNameColumn("Opponent", accessor="opponent")
    game = tables.Column("Game", accessor="game__name")
    met = NumberColumn("Matchdays")
    ahead = NumberColumn("Finished ahead")
    behind = NumberColumn("Behind")
    tied = NumberColumn("Tied")

    class Meta:
        orderable = False
        empty_text = "No opponents yet."
