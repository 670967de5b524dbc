from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone


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
    against_deals = models.BooleanField(
        "played against deals",
        default=False,
        help_text="Solitaire or patience: players play numbered deals in dated sessions, and players and deals "
        "are rated against each other (never in the overall rating). Set it before the first session.",
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league:game", args=[self.slug])

    def clean(self):
        """A game keeps its kind once played: matchdays and sessions are rated differently."""
        if self.pk is None:
            return
        was = Game.objects.filter(pk=self.pk).values_list("against_deals", flat=True).first()
        if self.against_deals and not was and self.matchdays.exists():
            raise ValidationError(
                {"against_deals": f"{self.name} has matchdays, so it cannot be played against deals."}
            )
        if was and not self.against_deals and DealLevel.objects.filter(game=self).exists():
            raise ValidationError(
                {"against_deals": f"{self.name} has deals and sessions, so it must stay played against deals."}
            )


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
    """One row that changes whenever anything the public pages show changes: their ETag and
    Last-Modified, so that browsers and proxies can reuse a page until the league changes."""

    number = models.PositiveBigIntegerField(default=0)
    changed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"Revision {self.number} of {self.changed_at:%Y-%m-%d %H:%M:%S}"

    @classmethod
    def current(cls) -> Revision:
        revision = cls.objects.filter(pk=1).first()
        return revision or cls(pk=1, number=0, changed_at=timezone.now().replace(microsecond=0))

    @classmethod
    def bump(cls) -> None:
        """Mark that the league changed (called by every write path: recompute and the admin)."""
        now = timezone.now()
        if not cls.objects.filter(pk=1).update(number=models.F("number") + 1, changed_at=now):
            cls.objects.create(pk=1, number=1, changed_at=now)


# Games played against deals (solitaire, patience, puzzles): dated sessions of attempts at numbered
# deals. A deal is a numbered game of a variant at a difficulty level, e.g. "8x4", level 5, deal 11982.
# Their ratings are derived in `ratings` (player against deal).


class DealLevel(models.Model):
    """One difficulty level of one variant of a game played against deals ("8x4", level 5): its deals
    share a rating offset that moves whenever any of them is played."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deal_levels")
    variant = models.CharField(max_length=20, help_text='e.g. "8x4"')
    level = models.PositiveSmallIntegerField()

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

    class Meta:
        ordering = ["level", "number"]
        constraints = [
            models.UniqueConstraint(fields=["level", "number"], name="league_deal_one_per_number"),
        ]

    def __str__(self) -> str:
        return f"deal {self.number} ({self.level})"

    def get_absolute_url(self) -> str:
        level = self.level
        return reverse("league:deal", args=[level.game.slug, level.variant, level.level, self.number])


class DealSeed(models.Model):
    """A deal's record before the club rated it (plays and wins), which sets its first rating."""

    deal = models.OneToOneField(Deal, on_delete=models.CASCADE, related_name="seed")
    plays = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()

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


class Attempt(models.Model):
    """One player's try at one deal, won or lost; `rated` is off for play that should not count."""

    session = models.ForeignKey(DealSession, on_delete=models.CASCADE, related_name="attempts")
    position = models.PositiveIntegerField(help_text="Order within the session: the order of play.")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="attempts")
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="attempts")
    won = models.BooleanField()
    rated = models.BooleanField(default=True)

    class Meta:
        ordering = ["session", "position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "position"], name="league_attempt_one_per_position"),
        ]

    def __str__(self) -> str:
        deal = self.deal if self.deal_id else "a deal"  # the admin names new rows before their deal exists
        return f"{self.player} {'won' if self.won else 'lost'} {deal}"
