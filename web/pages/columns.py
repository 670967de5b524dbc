"""The columns of the site's tables (`web.pages.tables`, `web.pages.grid_table` and every feature's
tables): each declares its header, its cells' attributes, `render` (the cell shown) and `value` (the
plain value a download holds)."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from web.pages.formatting import format_change, format_rating, plain_number, table_date

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


class RatingColumn(tables.Column):
    """A rating: "1535", or "1498.3" unrounded; the number itself in downloads."""

    def __init__(self, verbose_name="Rating", attrs=NUM, **kwargs):
        super().__init__(verbose_name, attrs=attrs, **kwargs)

    def render(self, value):
        return format_rating(value)

    def value(self, value):
        return plain_number(value)


class ChangeColumn(RatingColumn):
    """A rating change, "+12" in green or "−7" in red (the sign says it without the colour)."""

    def __init__(self, verbose_name="Change", **kwargs):
        super().__init__(verbose_name, **kwargs)

    def render(self, value):
        return change_html(value)


def change_html(value, text=format_change):
    """A change in the site's colours, written by `text` (`format_change`, or `format_fine_change`
    for ratings of games against deals)."""
    if value is None:
        return ""
    shown = text(value)
    kind = _KINDS.get(shown[0], "level")  # by the sign shown: a change that rounds to nothing is level
    return SafeString(f'<span class="{kind}">{shown}</span>')  # a fixed word and a number


_KINDS = {"+": "up", "\u2212": "down"}


class MeanColumn(tables.Column):
    """The mean rating of a player's opponents, to a tenth; the number itself in downloads."""

    def render(self, value):
        return format_rating(round(value, 1))

    def value(self, value):
        return value


class PlacingOfColumn(tables.Column):
    """Where a player finished and among how many ("2 of 5"); the placing alone in downloads."""

    def __init__(self):
        super().__init__("Placing", empty_values=(), attrs=NUM)

    def render(self, record):
        return f"{record.display_placing} of {record.players}"

    def value(self, record):
        return record.display_placing


class FractionColumn(tables.Column):
    def __init__(self, verbose_name, **kwargs):
        super().__init__(verbose_name, attrs=NUM, **kwargs)

    def render(self, value):
        return f"{value:.2f}"

    def value(self, value):
        return value


class WeightColumn(tables.Column):
    """Partial play: the share of the game a player took part in, shown where below 1; the number
    itself in downloads."""

    def __init__(self):
        super().__init__("Weight", empty_values=(), attrs={**NUM, "th": {"class": "num", "title": WEIGHT_TITLE}})

    def render(self, value):
        return f"{value:g}" if value != 1 else ""

    def value(self, value):
        return plain_number(value)


WEIGHT_TITLE = "The share of the game played, where below 1 (joined late or left early)"


class LeftEarlyColumn(tables.Column):
    """Whether a player left early (rated after everyone who stayed): "yes" on the page, 1 or empty in
    downloads, as the import reads the column."""

    def __init__(self):
        super().__init__("Left early", accessor="left_early", empty_values=())

    def render(self, value):
        return "yes" if value else ""

    def value(self, value):
        return "1" if value else ""


class SideColumn(tables.Column):
    """A player's side at a matchday: its label, and on the page the partners they shared it with
    ("A, with K"); the label alone in downloads (blank: a side of one)."""

    def __init__(self):
        super().__init__("Side", empty_values=())

    def render(self, record):
        partners = getattr(record, "partners", ())
        if not partners:
            return record.side
        return f"{record.side}, with {', '.join(partners)}" if record.side else f"with {', '.join(partners)}"

    def value(self, record):
        return record.side


# A matchday's sides and partial play: shown where a matchday has them (ratings.selectors.sides.in_sides).
SIDE_COLUMNS = ("side", "side_rating", "weight")


class NumberColumn(tables.Column):
    def __init__(self, verbose_name, **kwargs):
        super().__init__(verbose_name, attrs=NUM, **kwargs)


class PlayerNameColumn(tables.Column):
    """A player's name linking to their page with their ratings in a tooltip; the short name in
    downloads."""

    def __init__(self, verbose_name="Player", accessor="player", **kwargs):
        super().__init__(verbose_name, accessor=accessor, empty_values=(), **kwargs)

    def render(self, value, table):
        return table.names.html(value)

    def value(self, value):
        return value.short_name


class DateColumn(tables.Column):
    """A date as the club writes it ("November 3", with its year where the table needs it); ISO 8601
    in downloads."""

    def __init__(self, verbose_name="Date", **kwargs):
        super().__init__(verbose_name, **kwargs)

    def render(self, value, table):
        return table_date(value, table.with_year)

    def value(self, value):
        return value.isoformat() if value else None


def matchday_link(number: int):
    return format_html('<a href="{}">{}</a>', reverse("league:matchday", args=[number]), number)


class MatchdayColumn(tables.Column):
    def __init__(self, verbose_name="Matchday", accessor="matchday__number", **kwargs):
        super().__init__(verbose_name, accessor=accessor, **kwargs)

    def render(self, value):
        return matchday_link(value)

    def value(self, value):
        return value
