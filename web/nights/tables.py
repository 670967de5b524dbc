"""The game-night page's table of the winners of each matchday (its download holds short names, as
everywhere); each rating table's biggest movers are `web.pages.tables.MoversTable`, as on a season's
page."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from web.pages.columns import MatchdayColumn
from web.pages.formatting import long_date
from web.pages.tables import SiteTable


class WinnersColumn(tables.Column):
    """Everyone placed first at a matchday: partners, or a tie."""

    def __init__(self):
        super().__init__("Winner", accessor="players", empty_values=())

    def render(self, value, table):
        return format_html_join(", ", "{}", ((table.names.html(p),) for p in value)) or "—"

    def value(self, value):
        return ", ".join(p.short_name for p in value)


class WinnersTable(SiteTable):
    matchday = MatchdayColumn()
    game = tables.Column("Game", accessor="matchday__game__name")
    players = WinnersColumn()

    class Meta:
        orderable = False
        attrs = {"class": "winners"}
        empty_text = "No matchday."


class NightColumn(tables.Column):
    """The night's date, linked to its page; the date alone in downloads."""

    def __init__(self):
        super().__init__("Night", accessor="day")

    def render(self, value, table):
        return format_html('<a href="{}">{}</a>', reverse("league:night", args=[value.isoformat()]), long_date(value))

    def value(self, value):
        return value.isoformat()


class NightsTable(SiteTable):
    """Every night, newest first: its date, its number of matchdays and the games played."""

    day = NightColumn()
    matchdays = tables.Column("Matchdays", attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    games = tables.Column("Games", accessor="games")

    class Meta:
        orderable = False
        attrs = {"class": "nights"}
        empty_text = "No matchday yet."

    def render_games(self, value):
        return ", ".join(value)

    def value_games(self, value):
        return ", ".join(value)
