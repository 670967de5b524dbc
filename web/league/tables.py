"""The league's own tables: the home page's leaders, a matchday's results and each rating table's
changes at it, worked out (the score sheets' tables are in `web.league.points`)."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from ratings.methods import Method
from web.pages.columns import (
    NUM,
    SIDE_COLUMNS,
    ChangeColumn,
    FractionColumn,
    LeftEarlyColumn,
    MeanColumn,
    NumberColumn,
    PlayerNameColumn,
    RatingColumn,
    SideColumn,
    WeightColumn,
)
from web.pages.names import PlayerNames
from web.pages.tables import SiteTable, StandingPlayerColumn

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
