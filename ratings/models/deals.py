"""Ratings of games played against deals: a row per rated attempt, and each deal's and level's rating."""

from django.db import models
from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber
from django_scopes import ScopedManager

from league.models import Attempt, Deal, DealLevel, Player

from .tables import RatingTable


class AttemptRatingQuerySet(models.QuerySet):
    def in_play_order(self):
        return self.order_by("session_date", "position")

    def before_date(self, day):
        return self.filter(session_date__lt=day)

    def latest_per(self, key: str):
        """Each `key`'s (player, deal or level) last row, annotated with `rows`, its number of rows,
        and `wins`, how many of them the player won. One query with window functions."""
        partition = [F("table_id"), F(key)]
        return self.annotate(
            newest_first=Window(
                RowNumber(), partition_by=partition, order_by=[F("session_date").desc(), F("position").desc()]
            ),
            rows=Window(Count("pk"), partition_by=partition),
            wins=Window(Count("pk", filter=Q(won=True)), partition_by=partition),
        ).filter(newest_first=1)


class AttemptRating(models.Model):
    """One rated attempt: the player's and the deal's rating before and after, and the level's offset
    after it."""

    table = models.ForeignKey(RatingTable, on_delete=models.CASCADE, related_name="attempt_ratings")
    attempt = models.OneToOneField(Attempt, on_delete=models.CASCADE, related_name="rating")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="attempt_ratings")
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="ratings")
    level = models.ForeignKey(DealLevel, on_delete=models.CASCADE, related_name="attempt_ratings")
    # The attempt's place in play order, copied so that "from this session on" is an index range.
    session_date = models.DateField()
    position = models.PositiveIntegerField()
    won = models.BooleanField()
    player_before = models.FloatField()
    player_after = models.FloatField()
    deal_before = models.FloatField()
    deal_after = models.FloatField()
    deal_base_after = models.FloatField(help_text="The deal's own part of its rating; the rest is its level's offset.")
    level_offset_after = models.FloatField()
    expected = models.FloatField(help_text="The player's chance to win.")
    k = models.FloatField()
    delta = models.FloatField(help_text="The player's change; the deal's is the opposite.")

    objects = ScopedManager(club="table__club", _manager_class=models.Manager.from_queryset(AttemptRatingQuerySet))

    class Meta:
        indexes = [
            models.Index(fields=["table", "session_date", "position"], name="ratings_attempt_play_order"),
            models.Index(fields=["table", "player", "session_date", "position"], name="ratings_attempt_player_order"),
            models.Index(fields=["table", "deal", "session_date", "position"], name="ratings_attempt_deal_order"),
            models.Index(fields=["table", "level", "session_date", "position"], name="ratings_attempt_level_order"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.player_before:.0f}→{self.player_after:.0f} on {self.deal}"


class DealRating(models.Model):
    """A deal's current state: its base (its rating is the base plus its level's offset), its seeded
    rating if it was seeded, and its rated attempts."""

    table = models.ForeignKey(RatingTable, on_delete=models.CASCADE, related_name="deal_ratings")
    deal = models.OneToOneField(Deal, on_delete=models.CASCADE, related_name="rating")
    level = models.ForeignKey(DealLevel, on_delete=models.CASCADE, related_name="deal_ratings")
    base = models.FloatField()
    seeded = models.FloatField(null=True, blank=True, help_text="The rating its prior record gave it.")
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0, help_text="Attempts the player won.")
    first_date = models.DateField(null=True, blank=True, help_text="Its first rated attempt; empty when seeded.")
    last_date = models.DateField(null=True, blank=True)

    objects = ScopedManager(club="table__club")

    class Meta:
        indexes = [models.Index(fields=["table", "last_date"], name="ratings_dealrating_last")]

    def __str__(self) -> str:
        return f"{self.deal}: base {self.base:.0f}"


class LevelRating(models.Model):
    """A variant and level's current state: its offset, its known deals (seeded or played) and the
    exact sum of their bases, their average rating, and its rated attempts."""

    table = models.ForeignKey(RatingTable, on_delete=models.CASCADE, related_name="level_ratings")
    level = models.OneToOneField(DealLevel, on_delete=models.CASCADE, related_name="rating")
    offset = models.FloatField(default=0)
    deals = models.PositiveIntegerField(help_text="Known deals: seeded, or played.")
    base_sum = models.JSONField(help_text="The exact sum of the known deals' bases, as float partials.")
    average = models.FloatField(help_text="The known deals' average rating, offset included.")
    attempts = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    last_date = models.DateField(null=True, blank=True)

    objects = ScopedManager(club="table__club")

    class Meta:
        indexes = [models.Index(fields=["table", "last_date"], name="ratings_levelrating_last")]

    def __str__(self) -> str:
        return f"{self.level}: average {self.average:.0f}"

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.attempts if self.attempts else None
