"""django-tables2 tables: the standings, explanations and head to head on the pages, and every
table's CSV and JSON download.

The grids have one column per player, so their classes are built per page from the players shown.
Pages render these tables with web.render (same markup, much faster); downloads use django-tables2.
Links and dates are written by `render_*` methods, which both renderers call. Cells are rendered from
data already loaded by the selectors: no column runs a query or a template per cell.
"""

from __future__ import annotations

import django_tables2 as tables
from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html

from ratings.methods import Method
from ratings.selectors import Grid
from web.formatting import explain_change, format_change, format_rating, long_date, month_day
from web.names import PlayerNames


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
        if value is None:
            return "-"
        note = record.notes.get(self.player_id)
        if note:  # the player played this matchday: say how the change came about
            line = explain_change(note.delta, note.rated_placing, note.players, note.expected, note.k, note.placing)
            return format_html('<span class="played" title="{}">{}</span>', line, self.formatter(value))
        return self.formatter(value)

    def value(self, record, value):
        value = record.cells.get(self.player_id)
        return "" if value is None else self.formatter(value)


class PlayerNameColumn(tables.Column):
    """A player's name linking to their page with their ratings in a tooltip; the short name in
    downloads. The table supplies the names (`NamedTable`)."""

    def __init__(self, verbose_name="Player", accessor="player", **kwargs):
        super().__init__(verbose_name, accessor=accessor, empty_values=(), **kwargs)

    def render(self, value, table):
        return table.names.html(value)

    def value(self, value):
        return value.short_name


class DateColumn(tables.Column):
    """A date as the club writes it ("November 3", or "November 3, 2025" `with_year`); ISO 8601 in
    downloads."""

    def __init__(self, verbose_name="Date", *, with_year: bool = False, **kwargs):
        super().__init__(verbose_name, **kwargs)
        self.with_year = with_year

    def render(self, value):
        return long_date(value) if self.with_year else month_day(value)

    def value(self, value):
        return value.isoformat()


class NamedTable(tables.Table):
    """A table whose player names are rendered by the page's `PlayerNames`."""

    def __init__(self, data, names: PlayerNames, **kwargs):
        super().__init__(data, **kwargs)
        self.names = names


class MatchdayGridTable(tables.Table):
    matchday = tables.Column(
        "Matchday", accessor="matchday__number", attrs={"td": {"class": "num sticky"}, "th": {"class": "sticky"}}
    )
    date = DateColumn(accessor="matchday__date")
    # On a phone the game and rounds give way to the ratings; the matchday's page has them.
    game = tables.Column(
        "Game", accessor="matchday__game__name", attrs={"td": {"class": "wide"}, "th": {"class": "wide"}}
    )
    rounds = tables.Column(
        "Rounds",
        accessor="matchday__rounds",
        attrs={"td": {"class": "num wide"}, "th": {"class": "wide"}},
    )

    class Meta:
        orderable = False
        attrs = {"class": "grid"}
        empty_text = "No matchdays yet."

    def render_matchday(self, value):
        return matchday_link(value)

    def value_matchday(self, value):
        return value


def matchday_link(number: int):
    return format_html('<a href="{}">{}</a>', reverse("league:matchday", args=[number]), number)


def grid_table(grid: Grid, names: PlayerNames, *, show_game: bool, ratings: bool) -> MatchdayGridTable:
    formatter = format_rating if ratings else str
    players = [(f"player_{p.pk}", PlayerColumn(p, names, formatter)) for p in grid.players]
    return MatchdayGridTable(grid.rows, extra_columns=players, exclude=() if show_game else ("game",))


class StandingsTable(NamedTable):
    rank = tables.Column("#", attrs={"td": {"class": "num"}})
    player = PlayerNameColumn()
    rating = tables.Column("Rating", attrs={"td": {"class": "num"}})
    played = tables.Column("Matchdays", attrs={"td": {"class": "num"}})
    last_played = DateColumn("Last played", with_year=True)
    last_change = tables.Column("Last change", attrs={"td": {"class": "num"}})

    class Meta:
        orderable = False
        attrs = {"class": "standings"}
        empty_text = "Nobody has played yet."

    def render_player(self, record):
        if record.provisional:
            return format_html(
                '{} <span class="badge" title="Fewer than {} matchdays: the rating is still settling">'
                "provisional</span>",
                self.names.html(record.player),
                settings.LEAGUE_PROVISIONAL_MATCHDAYS,
            )
        return self.names.html(record.player)

    def render_rating(self, value):
        return format_rating(value)

    def render_last_change(self, value):
        return format_change(value)


def _fraction(value) -> str:
    return f"{value:.2f}"


PIECES = ("opponents_mean", "expected", "score", "k")


class ExplainedColumns(tables.Table):
    """The pieces of a rating change, so a member can redo the arithmetic; a table shows only the
    pieces its rating method has (M only for the club formula, K only where there is one)."""

    def __init__(self, *args, method: Method, **kwargs):
        super().__init__(*args, exclude=[p for p in PIECES if p not in method.pieces], **kwargs)

    rating_before = tables.Column("Before", attrs={"td": {"class": "num"}})
    opponents_mean = tables.Column(
        "M", attrs={"td": {"class": "num"}, "th": {"title": "Mean rating of the other players"}}
    )
    expected = tables.Column("Expected", attrs={"td": {"class": "num"}})
    score = tables.Column("Score", attrs={"td": {"class": "num"}})
    k = tables.Column("K", attrs={"td": {"class": "num"}})
    delta = tables.Column("Change", attrs={"td": {"class": "num"}})
    rating_after = tables.Column("After", attrs={"td": {"class": "num"}})

    class Meta:
        orderable = False

    def render_rating_before(self, value):
        return format_rating(value)

    def render_rating_after(self, value):
        return format_rating(value)

    def render_opponents_mean(self, value):
        return format_rating(round(value, 1))

    def render_expected(self, value):
        return _fraction(value)

    def render_score(self, value):
        return _fraction(value)

    def render_k(self, value):
        return format_rating(value)

    def render_delta(self, value):
        return format_change(value)


class EntryTable(ExplainedColumns, NamedTable):
    """One rating table's changes at one matchday."""

    player = PlayerNameColumn()
    placing = tables.Column("Placing", accessor="display_placing", attrs={"td": {"class": "num"}})

    class Meta:
        orderable = False
        attrs = {"class": "explained"}
        sequence = ("player", "placing", "...")


class PlayerEntryTable(ExplainedColumns):
    """Every matchday of one player in one rating table."""

    date = DateColumn(accessor="matchday__date", with_year=True)
    matchday = tables.Column("Matchday", accessor="matchday__number", attrs={"td": {"class": "num"}})
    game = tables.Column("Game", accessor="matchday__game__name")
    placing = tables.Column("Placing", empty_values=(), attrs={"td": {"class": "num"}})

    class Meta:
        orderable = False
        attrs = {"class": "explained"}
        sequence = ("date", "matchday", "game", "placing", "...")

    def render_matchday(self, value):
        return matchday_link(value)

    def value_matchday(self, value):
        return value

    def render_placing(self, record):
        return f"{record.display_placing} of {record.players}"

    def value_placing(self, record):
        return record.display_placing


class HeadToHeadTable(NamedTable):
    opponent = PlayerNameColumn("Opponent", accessor="opponent")
    game = tables.Column("Game", accessor="game__name")
    met = tables.Column("Matchdays", attrs={"td": {"class": "num"}})
    ahead = tables.Column("Finished ahead", attrs={"td": {"class": "num"}})
    behind = tables.Column("Behind", attrs={"td": {"class": "num"}})
    tied = tables.Column("Tied", attrs={"td": {"class": "num"}})

    class Meta:
        orderable = False
        empty_text = "No opponents yet."


class MatchdayResultsTable(NamedTable):
    placing = tables.Column("Placing", accessor="display_placing", attrs={"td": {"class": "num"}})
    player = PlayerNameColumn()
    name = tables.Column("Name", accessor="player__name")
    note = tables.Column("Note")

    class Meta:
        orderable = False
