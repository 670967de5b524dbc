"""Games played against deals (solitaire): the deals by level, their seeds, the sessions and their
attempts.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django_scopes import ScopedManager

from league.checked import date_problem

from .club import Game, Player, club_reverse


class DealLevel(models.Model):
    """One difficulty level of one variant of a game played against deals ("8x4", level 5): its deals
    share a rating offset that moves whenever any of them is played."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deal_levels")
    variant = models.CharField(max_length=20, help_text='e.g. "8x4"')
    level = models.PositiveSmallIntegerField()

    objects = ScopedManager(club="game__club")

    class Meta:
        ordering = ["game", "variant", "level"]
        constraints = [
            models.UniqueConstraint(fields=["game", "variant", "level"], name="league_deallevel_one_per_variant_level"),
        ]

    def __str__(self) -> str:
        return f"{self.variant} level {self.level}"


class Deal(models.Model):
    level = models.ForeignKey(DealLevel, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()

    objects = ScopedManager(club="level__game__club")

    class Meta:
        ordering = ["level", "number"]
        constraints = [
            models.UniqueConstraint(fields=["level", "number"], name="league_deal_one_per_number"),
        ]

    def __str__(self) -> str:
        return f"deal {self.number} ({self.level})"

    def get_absolute_url(self) -> str:
        level = self.level
        return club_reverse(
            level.game.club_id, "league:deal", [level.game.slug, level.variant, level.level, self.number]
        )


class DealSeed(models.Model):
    """A deal's record before the club rated it (plays and wins), which sets its first rating."""

    deal = models.OneToOneField(Deal, on_delete=models.CASCADE, related_name="seed")
    plays = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()

    objects = ScopedManager(club="deal__level__game__club")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(plays__gte=1), name="league_dealseed_plays_positive"),
            models.CheckConstraint(condition=Q(wins__lte=models.F("plays")), name="league_dealseed_wins_at_most_plays"),
        ]

    def __str__(self) -> str:
        return f"{self.deal}: {self.wins} wins in {self.plays} plays"


class DealSession(models.Model):
    """One evening (or day) of attempts at deals of one game; attempts are rated by date, then in the
    order they were entered."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="deal_sessions")
    date = models.DateField()
    notes = models.TextField(blank=True)

    # Its club is its game's: the admin lists a secretary's clubs' sessions only.
    objects = ScopedManager(club="game__club")

    class Meta:
        ordering = ["date", "game"]
        verbose_name = "solitaire session"
        constraints = [
            models.UniqueConstraint(
                fields=["game", "date"],
                name="league_dealsession_one_per_day",
                violation_error_message="This game already has a session on that date: add the attempts to it.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} session of {self.date:%Y-%m-%d}"

    def clean(self) -> None:
        # As a matchday's (Matchday.clean): the admin and the services save through full_clean().
        problem = date_problem(self.date, timezone.localdate(), "session") if self.date is not None else None
        if problem:
            raise ValidationError({"date": problem})


class Attempt(models.Model):
    """One player's try at one deal, won or lost; `rated` is off for play that should not count."""

    session = models.ForeignKey(DealSession, on_delete=models.CASCADE, related_name="attempts")
    position = models.PositiveIntegerField(help_text="Order within the session: the order of play.")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="attempts")
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="attempts")
    won = models.BooleanField()
    rated = models.BooleanField(default=True)

    objects = ScopedManager(club="session__game__club")

    class Meta:
        ordering = ["session", "position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "position"], name="league_attempt_one_per_position"),
        ]

    def __str__(self) -> str:
        deal = self.deal if self.deal_id else "a deal"  # the admin names new rows before their deal exists
        return f"{self.player} {'won' if self.won else 'lost'} {deal}"
