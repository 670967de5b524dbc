from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from league import revision


class Category(models.Model):
    """A family of games, e.g. "Trick-taking" or "Trading card games"."""

    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)
    description = models.TextField(
        blank=True,
        help_text="Shown above the category's rating table when its games are unofficial.",
    )

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "categories"

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField("full name", max_length=100)
    short_name = models.CharField(max_length=12, unique=True, help_text='Shown in table headers, e.g. "GL".')

    class Meta:
        ordering = ["short_name"]

    def __str__(self) -> str:
        return self.short_name


class Game(models.Model):
    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)
    category = models.ForeignKey(Category, on_delete=models.PROTECT, null=True, blank=True, related_name="games")
    official = models.BooleanField(default=True, help_text="Official games count in the overall rating.")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league:game", args=[self.slug])


class MatchdayQuerySet(models.QuerySet):
    def in_play_order(self):
        """Matchdays in the order ratings are computed: by date, then by number."""
        return self.order_by("date", "number")

    def from_position(self, date, number):
        """This matchday position and everything after it in play order (a date range, less that
        day's earlier numbers, which the (date, number) index serves)."""
        return self.filter(date__gte=date).exclude(date=date, number__lt=number)


class Matchday(models.Model):
    number = models.PositiveIntegerField(unique=True)
    date = models.DateField()
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="matchdays")
    rounds = models.PositiveSmallIntegerField(validators=[MinValueValidator(1, "Rounds must be at least 1.")])
    winner_score = models.PositiveSmallIntegerField(
        "winner's score",
        null=True,
        blank=True,
        help_text="Only the table-size method uses it: 19-24 lowers K one step, 12-18 two. Blank: full game.",
    )
    notes = models.TextField(blank=True)

    objects = MatchdayQuerySet.as_manager()

    class Meta:
        ordering = ["date", "number"]
        indexes = [
            models.Index(fields=["date", "number"], name="league_matchday_play_order"),
            # A game's matchdays in play order (its rating grid) without sorting them all.
            models.Index(fields=["game", "date", "number"], name="league_matchday_game_order"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(rounds__gte=1), name="league_matchday_rounds_positive"),
        ]

    def __str__(self) -> str:
        return f"Matchday {self.number}"

    @property
    def position(self) -> tuple:
        """Where this matchday stands in play order; ratings are computed in this order."""
        return (self.date, self.number)


class Result(models.Model):
    matchday = models.ForeignKey(Matchday, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    placing = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1, "Placings start at 1 (1 is the winner).")]
    )
    rated_placing = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1, "Placings start at 1 (1 is the winner).")],
        help_text="Only for a penalty: the placing used for the rating instead of the real one.",
    )
    note = models.CharField(max_length=200, blank=True, help_text='e.g. "left early"')
    left_early = models.BooleanField(
        default=False,
        help_text="Pairwise-winner method: a player who left early loses to everyone still playing.",
    )
    # The Sedma method's performance counts (two-player games); the other methods ignore them.
    won_by_16 = models.PositiveSmallIntegerField("rounds won by 16", default=0)
    won_by_24 = models.PositiveSmallIntegerField("rounds won by 24", default=0)
    won_by_4_and_last = models.PositiveSmallIntegerField("rounds won with 4 and last", default=0)
    bad_moves = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["matchday", "placing", "player__short_name"]
        constraints = [
            models.UniqueConstraint(fields=["matchday", "player"], name="league_result_one_per_player"),
            models.CheckConstraint(condition=Q(placing__gte=1), name="league_result_placing_positive"),
            models.CheckConstraint(
                condition=Q(rated_placing__isnull=True) | Q(rated_placing__gte=1),
                name="league_result_rated_placing_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.display_placing} at {self.matchday}"

    @property
    def effective_placing(self) -> int:
        return self.rated_placing if self.rated_placing is not None else self.placing

    @property
    def display_placing(self) -> str:
        """The club's notation: "4(3)" is finished 3rd, rated as 4th."""
        if self.rated_placing is not None and self.rated_placing != self.placing:
            return f"{self.rated_placing}({self.placing})"
        return str(self.placing)


class Page(models.Model):
    """An admin-edited text page such as the Constitution or the Laws, written in Markdown."""

    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=100)
    body = models.TextField(blank=True, help_text="Markdown. HTML tags are removed for safety.")
    position = models.PositiveSmallIntegerField(default=0, help_text="Order in the navigation.")

    class Meta:
        ordering = ["position", "title"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("league:page", args=[self.slug])


class Revision(models.Model):
    """One row that changes whenever anything the public pages show changes: the key of their
    cached copies, their ETag and Last-Modified (see league.revision)."""

    number = models.PositiveBigIntegerField(default=0)
    changed_at = models.DateTimeField()
    token = models.CharField(
        max_length=32, default="", help_text="Random, new at every change: a restored backup never reuses one."
    )

    def __str__(self) -> str:
        return f"Revision {self.number} of {self.changed_at:%Y-%m-%d %H:%M:%S}"

    @classmethod
    def current(cls) -> Revision:
        revision = cls.objects.filter(pk=1).first()
        return revision or cls(pk=1, number=0, changed_at=timezone.now().replace(microsecond=0))

    @classmethod
    def bump(cls) -> None:
        """Mark that the league changed (called by every service that writes, and by a restore)."""
        now, token = timezone.now(), revision.new_token()
        if not cls.objects.filter(pk=1).update(number=models.F("number") + 1, changed_at=now, token=token):
            cls.objects.create(pk=1, number=1, changed_at=now, token=token)
        revision.publish(token, now)
