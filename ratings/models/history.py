"""The rating history: a row per player per matchday per table, and each player's standing."""

from django.db import models
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django_scopes import ScopedManager

from league.models import Matchday, Player

from .tables import RatingTable


def before(date, number, prefix: str = "matchday_") -> Q:
    """Rows of matchdays played before the position (date, number), by the denormalised columns."""
    return Q(**{f"{prefix}date__lt": date}) | Q(**{f"{prefix}date": date, f"{prefix}number__lt": number})


def from_position(date, number, prefix: str = "matchday_") -> Q:
    """Rows of the matchday at the position (date, number) and after it. Written as a date range
    less that day's earlier numbers, so that the database reads it off an index on (date, number)
    instead of scanning the whole history for "not before"."""
    return Q(**{f"{prefix}date__gte": date}) & ~Q(**{f"{prefix}date": date, f"{prefix}number__lt": number})


class RatingEntryQuerySet(models.QuerySet):
    def in_play_order(self):
        return self.order_by("matchday_date", "matchday_number", "player__short_name")

    def before_position(self, date, number):
        return self.filter(before(date, number))

    def from_position(self, date, number):
        return self.filter(from_position(date, number))

    def latest_per_player(self):
        """Each player's last entry per table (whose `played` counts their entries up to it).

        One query with a window function. The engine uses it to resume before an edited matchday;
        pages read the current standing from `Standing` instead.
        """
        return self.annotate(
            newest_first=Window(
                RowNumber(),
                partition_by=[F("table_id"), F("player_id")],
                order_by=[F("matchday_date").desc(), F("matchday_number").desc()],
            ),
        ).filter(newest_first=1)


_ORDER = ("matchday_date", "matchday_number")  # play order within a table
_RANKED = ("rating_after", "played", "delta")  # what a past day's ranking reads of a row
HISTORY_INDEX = "ratings_entry_player_order"  # a player's rows in a table, in play order
PLAY_ORDER_INDEX = "ratings_entry_play_order"  # a table's rows in play order


class RatingEntry(models.Model):
    """One player's rating change at one matchday in one table. Derived data: rebuilt at will.

    A full recompute writes one row per player per matchday per table, so every index here is
    one the pages or the engine read by (see Meta); a row is written into three B-trees."""

    # The composite indexes lead with the table and the matchday, so neither needs one of its own.
    table = models.ForeignKey(RatingTable, on_delete=models.CASCADE, related_name="entries", db_index=False)
    matchday = models.ForeignKey(Matchday, on_delete=models.CASCADE, related_name="rating_entries", db_index=False)
    # Pages reach a player's rows through (table, player, ...); a player who has rows has results,
    # which protect them from deletion.
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_entries", db_index=False)
    # The placings rated, copied from the result (rewritten with the row whenever the result
    # changes), so that pages explain a change without joining the results.
    placing = models.PositiveSmallIntegerField()
    rated_placing = models.PositiveSmallIntegerField(null=True, blank=True)
    # The matchday's position, copied so that "a player's latest row before a matchday" is an index
    # lookup rather than a join (the engine rewrites rows when a date changes).
    matchday_date = models.DateField()
    matchday_number = models.PositiveIntegerField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    opponents_mean = models.FloatField(
        null=True, blank=True, help_text="M: mean rating of the other players before (club formula only)."
    )
    expected = models.FloatField()
    score = models.FloatField()
    k = models.FloatField(null=True, blank=True, help_text="Empty for methods without K (openskill).")
    delta = models.FloatField()
    # The running count, so that a day's standings tell who was still provisional, and how many
    # matchdays each had played, from the rows they already read (ratings/selectors/as_at.py).
    played = models.PositiveIntegerField(help_text="Matchdays the player had played in this table, this one included.")
    state = models.JSONField(
        null=True,
        blank=True,
        help_text="What the method carries to the player's next matchday besides the rating (openskill: mu and sigma).",
    )

    objects = ScopedManager(club="table__club", _manager_class=models.Manager.from_queryset(RatingEntryQuerySet))

    class Meta:
        verbose_name_plural = "rating entries"
        constraints = [
            # Also how a matchday's rows are found: its page, the grids' pages, the engine's
            # "from this matchday on" (through the matchdays' own (date, number) index), and the
            # database's own check when a matchday is deleted.
            models.UniqueConstraint(fields=["matchday", "table", "player"], name="ratings_entry_one_per_player"),
        ]
        indexes = [
            # A player's history in a table, their latest row before a position, the grids' carry.
            models.Index(fields=["table", "player", *_ORDER, *_RANKED], name=HISTORY_INDEX),
            # A past day's standings, inactive players hidden: the rows of the days of activity in
            # play order (ratings/selectors/as_at.py). Both hold what a ranking reads, so that neither
            # reads the rows, and so that SQLite, which has no statistics of them, never takes this
            # one for a player's history: the other has the player too.
            models.Index(fields=["table", *_ORDER, "player", *_RANKED], name=PLAY_ORDER_INDEX),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.rating_before:.0f}→{self.rating_after:.0f} in {self.table}"

    @property
    def display_placing(self) -> str:
        """The club's notation: "4(3)" is finished 3rd, rated as 4th."""
        if self.rated_placing is not None and self.rated_placing != self.placing:
            return f"{self.rated_placing}({self.placing})"
        return str(self.placing)


class StandingQuerySet(models.QuerySet):
    def ranked(self):
        return self.order_by("-rating", "player__short_name")


class Standing(models.Model):
    """A player's current place in a table: the last row of their history, kept by the engine so
    that standings and tooltips read one row per player instead of the whole history."""

    table = models.ForeignKey(RatingTable, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")
    rating = models.FloatField()
    state = models.JSONField(null=True, blank=True)
    played = models.PositiveIntegerField(help_text="Matchdays played in this table.")
    # The player's last matchday, by position rather than a foreign key: when that matchday is
    # deleted, the engine must still see that this standing came from it and fall back.
    matchday_date = models.DateField()
    matchday_number = models.PositiveIntegerField()
    delta = models.FloatField(help_text="The change at the player's last matchday.")

    objects = ScopedManager(club="table__club", _manager_class=models.Manager.from_queryset(StandingQuerySet))

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="ratings_standing_one_per_player"),
        ]
        indexes = [models.Index(fields=["table", "-rating"], name="ratings_standing_rank")]

    def __str__(self) -> str:
        return f"{self.player} {self.rating:.0f} in {self.table}"


# Ratings of games played against deals (see ratings/methods/deals.py and ratings/deals/engine.py):
# one row per rated attempt, each deal's and each level's current state. Players' current ratings
# are their `Standing` in the game's table. Derived data: rebuilt at will.
