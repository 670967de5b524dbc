"""django-tables2 tables of games played against deals: standings, the variant × level grid of average
deal ratings, power rankings and attempts, rendered by django-tables2 like the site's other tables
(`web.pages.tables.SiteTable`); cells come from data already loaded.

Ratings move by fractions of a point here (K = 8), so ratings and changes are shown to two decimals, as
the seed does (`web.pages.formatting.format_fine_rating` and `format_fine_change`), changes in the site's
green and red; each column declares that in `render` and the plain number a download holds in `value`.
"""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html

from ratings.deals.selectors import AttemptRow, LevelGrid
from web.pages.columns import ChangeColumn, DateColumn, PlayerNameColumn, RatingColumn, change_html
from web.pages.formatting import format_fine_change, format_fine_rating, plain_number
from web.pages.tables import SiteTable, StandingsTable

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


def deal_label(deal) -> str:
    return f"deal {deal.number} ({deal.level.variant} level {deal.level.level})"


def deal_link(deal):
    return format_html('<a href="{}">{}</a>', deal.get_absolute_url(), deal_label(deal))


def explain_attempt(row: AttemptRow, link: bool = False) -> str:
    """One line a member can check: "won deal 11982 (8x4 level 5, rated 1000): expected 0.95, +0.43";
    with `link`, HTML in which the deal links to its page."""
    result = "won" if row.won else "lost"
    level = row.deal.level
    what = f"deal {row.deal.number}"
    if row.rated is None:
        rest = f" ({level.variant} level {level.level}): {row.not_rated}"
    else:
        r = row.rated
        rest = (
            f" ({level.variant} level {level.level}, rated {r.deal_before:.0f}): "
            f"expected {r.expected:.2f}, {format_fine_change(r.delta)}"
        )
    if link:
        return format_html('{} <a class="in-text" href="{}">{}</a>{}', result, row.deal.get_absolute_url(), what, rest)
    return f"{result} {what}{rest}"


class TwoDecimalsColumn(tables.Column):
    """A rating or an expected score to two decimals ("1504.00"); the number itself in downloads."""

    def __init__(self, verbose_name, **kwargs):
        super().__init__(verbose_name, attrs=NUM, **kwargs)

    def render(self, value):
        return format_fine_rating(value)

    def value(self, value):
        return plain_number(value)


class SignedColumn(TwoDecimalsColumn):
    """A change to two decimals with its sign ("−4.05"), green or red; the number itself in downloads."""

    def render(self, value):
        return change_html(value, format_fine_change)


class DealRatingColumn(RatingColumn):
    def render(self, value):
        return format_fine_rating(value)


class DealChangeColumn(ChangeColumn):
    def render(self, value):
        return change_html(value, format_fine_change)


class DealStandingsTable(StandingsTable):
    rating = DealRatingColumn()
    played = tables.Column("Attempts", attrs=NUM)
    last_change = DealChangeColumn("Last change")

    class Meta(StandingsTable.Meta):
        pass


class LevelCell(tables.Column):
    """One level's average deal rating in a variant's row; hovering it tells what it stands on."""

    def __init__(self, level: int):
        # The row's levels (a variant's row is the variant and its levels).
        super().__init__(verbose_name=str(level), accessor="1", empty_values=(), orderable=False, attrs=NUM)
        self.level = level

    def render(self, value):
        row = value.get(self.level)
        if row is None:
            return ""
        tip = f"{row.deals} deal{'s' if row.deals != 1 else ''}, {row.attempts} rated attempts"
        return format_html('<span class="played" title="{}">{}</span>', tip, format_fine_rating(row.average))

    def value(self, value):
        row = value.get(self.level)
        return None if row is None else row.average


def level_grid_table(grid: LevelGrid) -> LevelGridTable:
    """Average deal rating per variant (rows) and level (columns), as in the seed's table."""
    columns = [(f"level_{level}", LevelCell(level)) for level in grid.levels]
    return LevelGridTable(grid.rows, extra_columns=columns)


class LevelGridTable(SiteTable):
    variant = tables.Column("Variant", accessor="0", attrs={"td": {"class": "sticky"}, "th": {"class": "sticky"}})

    class Meta:
        orderable = False
        attrs = {"class": "grid"}
        empty_text = "No deals rated yet."


class WinRateColumn(TwoDecimalsColumn):
    """A win rate as a percentage ("92.57%"); the share itself (0.9257...) in downloads."""

    def render(self, value):
        return f"{value:.2%}"


class PowerRankingsTable(SiteTable):
    rank = tables.Column("#", attrs=NUM)
    variant = tables.Column("Variant")
    level = tables.Column("Level", attrs=NUM)
    win_rate = WinRateColumn("Win %")
    average = TwoDecimalsColumn("Average deal rating")
    power = TwoDecimalsColumn("Power ranking")

    class Meta:
        orderable = False
        empty_text = "No rated attempts yet."


class AttemptTable(SiteTable):
    """Attempts with every number of their rating; pages leave out the columns they need not show.
    The player's rating before, change and after read together, then the expected score and the
    deal's ratings (its change is the player's, reversed). Their dates carry the year: sessions are
    few and far between, unlike a club's weekly matchdays."""

    date = DateColumn()
    position = tables.Column("#", attrs=NUM)
    player = PlayerNameColumn()
    deal = tables.Column("Deal")
    # What the two cells are made from: an accessor that resolves (a failed one makes django-tables2
    # write out the record for its error message, deals and players included, a query each).
    result = tables.Column("Result", accessor="won", empty_values=())
    explanation = tables.Column("What happened", accessor="rated", empty_values=())
    player_before = TwoDecimalsColumn("Before", accessor="rated__player_before")
    delta = SignedColumn("Change", accessor="rated__delta")
    player_after = TwoDecimalsColumn("After", accessor="rated__player_after")
    expected = TwoDecimalsColumn("Expected", accessor="rated__expected")
    deal_before = TwoDecimalsColumn("Deal before", accessor="rated__deal_before")
    deal_after = TwoDecimalsColumn("Deal after", accessor="rated__deal_after")

    class Meta:
        orderable = False
        attrs = {"class": "explained"}
        empty_text = "No attempts yet."

    def __init__(self, data, names=None, **kwargs):
        super().__init__(data, names, with_year=True, **kwargs)

    def render_deal(self, value):
        return deal_link(value)

    def value_deal(self, value):
        return deal_label(value)

    def render_result(self, record):
        return ("won" if record.won else "lost") + ("" if record.rated else " (not rated)")

    def render_explanation(self, record):
        return explain_attempt(record, link=True)

    def value_explanation(self, record):
        return explain_attempt(record)
