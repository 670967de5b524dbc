"""django-tables2 tables: the one declaration of every table on the pages and of its CSV and JSON
download (the matchday grids are in `web.grid_table`, the deal games' in `web.deals.tables`).

A column (`web.pages.columns`) declares its header, its accessor, its cells' attributes, `render` (the cell shown) and
`value` (the plain value a download holds: numbers as numbers, names as text, dates as ISO 8601).
Pages render these tables with django-tables2 through `tables/table.html`; downloads go through
django-tables2's `as_values`. What a cell shows besides its record (the page's names, whether dates
carry their year) it reads from its `table` argument. Cells come from data already loaded: no query
or template per cell.
"""

from __future__ import annotations

import functools

import django_tables2 as tables
from django.conf import settings
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django_tables2.rows import BoundRow, BoundRows
from django_tables2.utils import signature

from ratings.methods import Method
from web.pages.columns import (
    NUM,
    SIDE_COLUMNS,
    ChangeColumn,
    DateColumn,
    FractionColumn,
    LeftEarlyColumn,
    MatchdayColumn,
    MeanColumn,
    NumberColumn,
    PlacingOfColumn,
    PlayerNameColumn,
    RatingColumn,
    SideColumn,
    WeightColumn,
    change_html,
)
from web.pages.formatting import explain_change, format_rating, plain_number
from web.pages.names import PlayerNames


class SiteRow(BoundRow):
    """django-tables2's row, less two costs per cell that grow with the table: finding the cell's
    column by name among all of them (a grid has a column per player, so a grid's row cost the
    square of its width), and inspecting the column's render method's signature again for every
    cell, which cost more than the rest of a cell. Cells are still resolved, defaulted and rendered
    by django-tables2's `_get_and_render_with`, with the arguments `call_with_appropriate` gives."""

    def items(self):
        for column in self._table.shown_columns:
            column.current_value = self._get_and_render_with(column, self._call_render, column.default)
            column.current_record = self._record
            yield column, column.current_value

    def _call_render(self, bound_column, value=None):
        kwargs = self._optional_cell_arguments(bound_column, value)
        args, keywords, given = _render_signature(bound_column.render, kwargs)
        if keywords:
            content = bound_column.render(**kwargs)
        elif given:
            content = bound_column.render(**{name: kwargs[name] for name in args})
        else:  # it wants an argument no cell has
            content = None
        return bound_column.link(content, **kwargs) if bound_column.link else content


def _render_signature(render, kwargs: dict) -> tuple[tuple[str, ...], str | None, bool]:
    """`django_tables2.utils.signature(render)`, and whether `kwargs` has every argument it names,
    worked out once per render method rather than per cell (a cell's arguments are always the same
    six)."""
    function = getattr(render, "__func__", None)  # a method, bound to its column or table
    if function is None:
        args, keywords = signature(render)
        return args, keywords, all(name in kwargs for name in args)
    return _method_signature(function, tuple(kwargs))


@functools.lru_cache(maxsize=512)
def _method_signature(function, names: tuple[str, ...]) -> tuple[tuple[str, ...], str | None, bool]:
    args, keywords = signature(function)
    args = args[1:]  # without self
    return args, keywords, all(name in names for name in args)


class SiteRows(BoundRows):
    """The rows of a site table, as `SiteRow`s."""

    def __iter__(self):
        yield from self.generator_pinned_row(self.pinned_data.get("top"))
        for record in self.data:
            yield SiteRow(record, table=self.table)
        yield from self.generator_pinned_row(self.pinned_data.get("bottom"))


class SiteTable(tables.Table):
    """A table of the site: its player names are rendered by the page's `PlayerNames`, and its dates
    carry their year when `with_year` (see `ratings.selectors.standings.TableSpan.needs_year`). Rendered
    by `as_html(request)` through the tables' template (DJANGO_TABLES2_TEMPLATE)."""

    def __init__(self, data, names: PlayerNames | None = None, *, with_year: bool = False, **kwargs):
        super().__init__(data, **kwargs)
        self.names = names
        self.with_year = with_year
        self.rows = SiteRows(data=self.data, table=self, pinned_data=self.pinned_data)

    class Meta:
        orderable = False

    def as_html(self, request) -> SafeString:
        # The template (Jinja2) escaped every header and cell not marked safe; Django's Jinja2
        # backend returns its text as a plain string, which a page's template would escape again.
        return mark_safe(super().as_html(request))  # noqa: S308

    @functools.cached_property
    def shown_columns(self) -> list:
        """The columns shown, each with its header's and cells' attributes as HTML (`th_attrs`,
        `td_attrs`), which django-tables2's template works out again for every cell. No column of
        the site computes its cells' attributes from the cell, so once per column is the same."""
        columns = list(self.columns)
        for column in columns:
            declared = column.column.attrs
            if any(callable(value) for value in declared.get("td", declared.get("cell", {})).values()):
                raise TypeError(f"{column.name}: its cells' attributes would be worked out per cell")
            attrs = column.attrs  # worked out afresh at each access
            column.th_attrs, column.td_attrs = attrs["th"].as_html(), attrs["td"].as_html()
        return columns


class StandingPlayerColumn(PlayerNameColumn):
    """A standing's player, marked when their rating is still settling: they are listed after the
    ranked players, without a rank (ratings/selectors/boards.py)."""

    def render(self, record, table):
        if record.provisional:
            return format_html(
                '{} <span class="badge" title="Fewer than {} matchdays, or a rating still settling: not ranked yet">'
                "provisional</span>",
                table.names.html(record.player),
                settings.LEAGUE_PROVISIONAL_MATCHDAYS,
            )
        return table.names.html(record.player)


class StandingsTable(SiteTable):
    rank = NumberColumn("#")
    player = StandingPlayerColumn()
    rating = RatingColumn()
    played = NumberColumn("Matchdays")
    last_played = DateColumn("Last played")
    last_change = ChangeColumn("Last change")
    provisional = tables.Column("Provisional", visible=False)  # in downloads; a badge on the page

    class Meta:
        orderable = False
        attrs = {"class": "standings"}
        # What a member reads first, rank, name, rating and change, fits a phone's screen; the rest follows.
        sequence = ("rank", "player", "rating", "last_change", "...")
        empty_text = "Nobody has played yet."


NEW = mark_safe('<span class="new">new</span>')
LEVEL = mark_safe('<span class="level" aria-hidden="true">–</span><span class="sr-only">no change</span>')


class MovementColumn(tables.Column):
    """Places gained or lost at the table's latest matchday: ▲2, ▼1, – or new."""

    def __init__(self):
        super().__init__("Move", empty_values=(), attrs=NUM)

    def render(self, record):
        moved = record.movement
        if record.rank is None:  # provisional: not ranked, so no place to move from
            return ""
        if moved is None:
            return NEW
        if moved == 0:
            return LEVEL
        kind, arrow, words = ("up", "▲", "up") if moved > 0 else ("down", "▼", "down")
        return format_html(
            '<span class="{}"><span aria-hidden="true">{}</span>{}<span class="sr-only"> {} {}</span></span>',
            kind,
            arrow,
            abs(moved),
            words,
            "place" if abs(moved) == 1 else "places",
        )

    def value(self, record):
        return record.movement


class LeaderboardTable(SiteTable):
    """The top of the overall standings on the home page, with each player's move at the latest
    matchday."""

    rank = NumberColumn("#")
    movement = MovementColumn()
    player = StandingPlayerColumn()
    rating = RatingColumn()
    played = NumberColumn("Matchdays")
    provisional = tables.Column("Provisional", visible=False)  # in downloads; a badge on the page

    class Meta:
        orderable = False
        attrs = {"class": "leaderboard"}
        empty_text = "Nobody has played yet."


class LatestResultsTable(SiteTable):
    """One of the latest matchdays on the home page: who played, where they finished, their change."""

    placing = tables.Column("Place", attrs=NUM)
    player = PlayerNameColumn()
    delta = ChangeColumn()

    class Meta:
        orderable = False
        attrs = {"class": "latest"}


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


PIECES = ("opponents_mean", "expected", "score", "k")


class ExplainedColumns(SiteTable):
    """The pieces of a rating change, so a member can redo the arithmetic; a table shows only the
    pieces its rating method has (M only for the club formula, K only where there is one)."""

    def __init__(self, *args, method: Method, sides: bool = False, **kwargs):
        super().__init__(*args, exclude=left_out(method, sides), **kwargs)

    rating_before = RatingColumn("Before")
    opponents_mean = MeanColumn("M", attrs={**NUM, "th": {"class": "num", "title": "Mean rating of the other players"}})
    expected = FractionColumn("Expected")
    score = FractionColumn("Score")
    k = RatingColumn("K")
    delta = ChangeColumn()
    rating_after = RatingColumn("After")

    class Meta:
        orderable = False


def left_out(method: Method, sides: bool) -> list[str]:
    """The columns a table of changes leaves out: the pieces its method lacks, and the sides' columns
    where no matchday shown was played in sides or with partial play."""
    return [p for p in PIECES if p not in method.pieces] + ([] if sides else list(SIDE_COLUMNS))


class EntryTable(ExplainedColumns):
    """One rating table's changes at one matchday; played in sides, grouped by side with each side's
    rating (the weighted mean of its players' ratings before) and each player's weight."""

    player = PlayerNameColumn()
    placing = tables.Column("Placing", accessor="display_placing", attrs=NUM)
    side = SideColumn()
    side_rating = RatingColumn(
        "Side rating", attrs={**NUM, "th": {"class": "num", "title": "Mean rating before of the side's players"}}
    )
    weight = WeightColumn()

    class Meta:
        orderable = False
        attrs = {"class": "explained"}
        # The change and the rating after first, where a phone shows them; then the working.
        sequence = ("player", "placing", "delta", "rating_after", "side", "side_rating", "weight", "rating_before")


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


class MatchdayResultsTable(SiteTable):
    """A matchday's results; played in sides, each player's side and weight (partners share a label);
    scored by points, each player's points; and who left early, where anyone did."""

    placing = tables.Column("Placing", accessor="display_placing", attrs=NUM)
    score = NumberColumn("Points")
    player = PlayerNameColumn()
    name = tables.Column("Name", accessor="player__name")
    side = tables.Column("Side", empty_values=())
    weight = WeightColumn()
    left_early = LeftEarlyColumn()
    note = tables.Column("Note")

    class Meta:
        orderable = False

    def __init__(self, data, names: PlayerNames | None = None, *, sides=False, points=False, left=False, **kwargs):
        super().__init__(data, names, exclude=self.left_out(sides, points, left), **kwargs)

    @staticmethod
    def left_out(sides: bool, points: bool, left: bool = False) -> tuple[str, ...]:
        """The columns a matchday without sides, points or anyone who left early does without."""
        return (
            *(() if sides else ("side", "weight")),
            *(() if points else ("score",)),
            *(() if left else ("left_early",)),
        )
