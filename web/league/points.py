"""A game's score sheets on its page: each player's average and best points, and the club's record
scores (league.selectors.game_points reads them)."""

from __future__ import annotations

import django_tables2 as tables

from web.pages.columns import NUM, DateColumn, MatchdayColumn, NumberColumn, PlayerNameColumn
from web.pages.tables import SiteTable


class AverageColumn(NumberColumn):
    """An average of points, to one decimal; the number itself in downloads."""

    def render(self, value):
        return f"{value:,.1f}"

    def value(self, value):
        return value


class PlayerPointsTable(SiteTable):
    player = PlayerNameColumn()
    results = NumberColumn("Score sheets")
    average = AverageColumn("Average")
    best = NumberColumn("Best")

    class Meta:
        orderable = False


class RecordScoresTable(SiteTable):
    score = NumberColumn("Points")
    player = PlayerNameColumn()
    date = DateColumn(accessor="matchday__date")
    matchday = MatchdayColumn(attrs=NUM)
    placing = tables.Column("Placing", accessor="display_placing", attrs=NUM)

    class Meta:
        orderable = False
