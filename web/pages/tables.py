"""django-tables2 tables: what every table of the site is (`SiteTable`), and the tables several
features show (the standings, a matchday's results in brief, the biggest movers). Each feature
declares its own tables beside its views (`web.league.tables`, `web.players.tables`,
`web.deals.tables`, ...); the matchday grids are in `web.pages.grid_table`.

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
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django_tables2.rows import BoundRow, BoundRows
from django_tables2.utils import signature

from league.models import club_setting
from web.pages.columns import (
    NUM,
    ChangeColumn,
    DateColumn,
    NumberColumn,
    PlayerNameColumn,
    RatingColumn,
)
from web.pages.names import PlayerNames


class SiteRow(BoundRow):
    """django-tables2's row, less two costs per cell that grow with the table: finding the cell's
    column by name among all of them (a grid has a column per player, so a grid's row cost the
    square of its width), and inspecting the column's render method's signature again for every
    cell, which cost more than the rest of a cell. Cells are still resolved, defaulted and rendered
    by django-tables2's `_get_and_render_with`, with the arguments `call_with_appropriate` gives.
    A download's values (`as_values`) are read the same way: a player's matchdays in a club of 150
    games has 300 columns, whose download took half a minute looking each cell's column up by name."""

    def items(self):
        for column in self._table.shown_columns:
            column.current_value = self._get_and_render_with(column, self._call_render, column.default)
            column.current_record = self._record
            yield column, column.current_value

    def _call_render(self, bound_column, value=None):
        kwargs = self._optional_cell_arguments(bound_column, value)
        content = _called(bound_column.render, kwargs)
        return bound_column.link(content, **kwargs) if bound_column.link else content

    def get_cell_value(self, name):
        column = self._table.columns_by_name[name]
        return self._get_and_render_with(column, self._call_value, None)

    def _call_value(self, bound_column, value=None):
        return _called(bound_column.value, self._optional_cell_arguments(bound_column, value))


def _called(method, kwargs: dict):
    """`call_with_appropriate(method, kwargs)`, with the method's signature read once."""
    args, keywords, given = _render_signature(method, kwargs)
    if keywords:
        return method(**kwargs)
    if given:
        return method(**{name: kwargs[name] for name in args})
    return None  # it wants an argument no cell has


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
    def columns_by_name(self) -> dict:
        return {column.name: column for column in self.columns.iterall()}

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
                club_setting("provisional_matchdays"),
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


class LatestResultsTable(SiteTable):
    """One of the latest matchdays on the home page: who played, where they finished, their change."""

    placing = tables.Column("Place", attrs=NUM)
    player = PlayerNameColumn()
    delta = ChangeColumn()

    class Meta:
        orderable = False
        attrs = {"class": "latest"}


class MoversTable(SiteTable):
    """Each rating table's biggest movers, over a game night (web.nights) or a season (web.seasons)."""

    player = PlayerNameColumn()
    matchdays = NumberColumn("Matchdays")
    change = ChangeColumn()

    class Meta:
        orderable = False
        attrs = {"class": "movers"}
        empty_text = "Nobody's rating moved."
