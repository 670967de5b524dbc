"""The seasons' tables: a season's standings and matchdays, the list of seasons and the honours of
each finished season (downloads hold short names and plain numbers, as everywhere)."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html, format_html_join

from web.pages.columns import (
    NUM,
    ChangeColumn,
    DateColumn,
    MatchdayColumn,
    NumberColumn,
    PlayerNameColumn,
    RatingColumn,
)
from web.pages.formatting import format_change, format_rating, plain_number
from web.pages.tables import SiteTable


class SeasonStandingsTable(SiteTable):
    rank = NumberColumn("#")
    player = PlayerNameColumn()
    rating = RatingColumn()
    change = ChangeColumn("Season change")
    played = NumberColumn("Matchdays")

    class Meta:
        orderable = False
        attrs = {"class": "standings"}
        empty_text = "Nobody has played in this season yet."


class SeasonMatchdaysTable(SiteTable):
    matchday = MatchdayColumn(accessor="number")
    date = DateColumn()
    game = tables.Column("Game", accessor="game__name")

    class Meta:
        orderable = False
        attrs = {"class": "matchdays"}
        empty_text = "No matchday yet."


class SeasonLinkColumn(tables.Column):
    def __init__(self, verbose_name="Season", accessor="season", **kwargs):
        super().__init__(verbose_name, accessor=accessor, **kwargs)

    def render(self, value):
        return format_html('<a href="{}">{}</a>', value.get_absolute_url(), value.name)

    def value(self, value):
        return value.name


class PlayersColumn(tables.Column):
    """Everyone who holds a place or an honour: ties share it."""

    def __init__(self, verbose_name, accessor, **kwargs):
        super().__init__(verbose_name, accessor=accessor, empty_values=(), **kwargs)

    def render(self, value, table):
        return format_html_join(", ", "{}", ((table.names.html(p),) for p in value)) or "—"

    def value(self, value):
        return ", ".join(p.short_name for p in value)


class SeasonsTable(SiteTable):
    """Every season: its days, how it starts, whether it is over, and the overall table's winner."""

    season = SeasonLinkColumn()
    first_day = DateColumn("First day")
    last_day = DateColumn("Last day")
    start = tables.Column("Start")
    state = tables.Column("State")
    winners = PlayersColumn("Winner", "winners")

    class Meta:
        orderable = False
        attrs = {"class": "seasons"}
        empty_text = "No seasons yet."


class FigureColumn(tables.Column):
    """What an honour was won with: the rating, the matchdays or the rise."""

    def __init__(self):
        super().__init__("With", accessor="figure", empty_values=(), attrs=NUM)

    def render(self, record):
        kind, number = record.figure
        if kind == "rise":
            return format_change(number)
        if kind == "matchdays":
            return f"{number} matchday{'s' if number != 1 else ''}"
        return format_rating(number)

    def value(self, record):
        return plain_number(record.figure[1])


class HonoursTable(SiteTable):
    """A finished season's honours, table by table."""

    table = tables.Column("Table")
    what = tables.Column("Honour")
    players = PlayersColumn("Players", "players")
    figure = FigureColumn()

    class Meta:
        orderable = False
        attrs = {"class": "honours"}
        empty_text = "Nobody played a matchday in this season."
