from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, ProhibitNullCharactersValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from league import results, revision, validation
from league.validation import (
    MATCHDAY_NUMBERS,
    NAME_LENGTH,
    PLACINGS,
    ROUNDS,
    SEDMA_COUNTS,
    SHORT_NAME_LENGTH,
    WINNER_SCORES,
    Span,
    name_key,
)

# Text that PostgreSQL cannot store (a NUL byte) is refused before it gets there, on SQLite too.
NO_NUL = [ProhibitNullCharactersValidator()]


def in_span(span: Span, what: str) -> list:
    """Validators for a number field that keeps `span` (the messages name the field)."""
    return [
        MinValueValidator(span.lowest, f"{what} must be at least {span.lowest}."),
        MaxValueValidator(span.highest, f"{what} must be at most {span.highest:,}."),
    ]


def span_check(field: str, span: Span, name: str, *, nullable: bool = False) -> models.CheckConstraint:
    """The database's copy of a field's range, as a named check constraint."""
    condition = Q(**{f"{field}__gte": span.lowest, f"{field}__lte": span.highest})
    if nullable:
        condition |= Q(**{f"{field}__isnull": True})
    return models.CheckConstraint(condition=condition, name=name)


def clean_name(instance: models.Model, field: str, what: str, longest: int) -> None:
    """Trim a name and refuse it, on its field, if it cannot be a name."""
    value = getattr(instance, field).strip()
    setattr(instance, field, value)
    problem = validation.name_problem(value, what, longest)
    if problem:
        raise ValidationError({field: problem[0].upper() + problem[1:] + "."})


class RangesInValidators:
    """A model whose check constraints repeat its fields' validators (league.validation's ranges).
    full_clean() runs the validators, with messages on the fields; it leaves the constraints to the
    database, where they cost nothing, instead of evaluating each in a query of its own per row (six
    checks for each of up to 500 results)."""

    def get_constraints(self):
        return [
            (model, [c for c in constraints if not isinstance(c, models.CheckConstraint)])
            for model, constraints in super().get_constraints()
        ]


class KeyedByName:
    """A model whose `KEY_FIELD` holds the comparison key of a name, set by save(). Its rules (unique,
    not empty) are checked by clean() with messages on the name itself, so full_clean() leaves the key
    to clean() instead of repeating them on a field nobody types; the database keeps them as well."""

    KEY_FIELD = ""

    def validate_unique(self, exclude=None):
        super().validate_unique(exclude={*(exclude or ()), self.KEY_FIELD})

    def validate_constraints(self, exclude=None):
        super().validate_constraints(exclude={*(exclude or ()), self.KEY_FIELD})


def refuse_same_key(instance: models.Model, field: str, key_field: str, what: str) -> None:
    """Refuse a name whose key is another row's: e.g. the players "GL" and "gl" cannot both exist."""
    key = name_key(getattr(instance, field))
    other = type(instance).objects.filter(**{key_field: key}).exclude(pk=instance.pk).first()
    if other is not None:
        raise ValidationError(
            {
                field: f"{getattr(instance, field)!r} is the same {what} as {getattr(other, field)!r}, "
                "which exists already: names are compared ignoring case, width, accents' form and "
                "invisible characters."
            }
        )


class Category(models.Model):
    """A family of games, e.g. "Trick-taking" or "Trading card games"."""

    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)
    description = models.TextField(
        blank=True,
        validators=NO_NUL,
        help_text="Shown above the category's rating table when its games are unofficial.",
    )

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "categories"

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        clean_name(self, "name", "name", self._meta.get_field("name").max_length)


class Player(KeyedByName, models.Model):
    KEY_FIELD = "short_name_key"

    name = models.CharField("full name", max_length=NAME_LENGTH)
    short_name = models.CharField(
        max_length=SHORT_NAME_LENGTH, unique=True, help_text='Shown in table headers, e.g. "GL".'
    )
    # How the short name is compared (league.validation.name_key), kept by save(): unique, so that
    # "GL", "gl" and "ＧＬ" cannot be three players.
    short_name_key = models.CharField(
        max_length=SHORT_NAME_LENGTH * validation.KEY_LENGTH_FACTOR, unique=True, editable=False
    )

    class Meta:
        ordering = ["short_name"]
        constraints = [
            models.CheckConstraint(condition=~Q(short_name_key=""), name="league_player_short_name_key_not_empty"),
        ]

    def __str__(self) -> str:
        return self.short_name

    def save(self, *args, **kwargs) -> None:
        self.short_name_key = name_key(self.short_name)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("league:player", args=[self.pk])

    def clean(self) -> None:
        clean_name(self, "short_name", "short name", SHORT_NAME_LENGTH)
        clean_name(self, "name", "full name", NAME_LENGTH)
        refuse_same_key(self, "short_name", "short_name_key", "player")


class Game(KeyedByName, models.Model):
    KEY_FIELD = "name_key"

    name = models.CharField(max_length=NAME_LENGTH, unique=True)
    # How the name is compared (league.validation.name_key), kept by save(): unique, like players'.
    name_key = models.CharField(max_length=NAME_LENGTH * validation.KEY_LENGTH_FACTOR, unique=True, editable=False)
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
        constraints = [
            models.CheckConstraint(condition=~Q(name_key=""), name="league_game_name_key_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = name_key(self.name)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("league:game", args=[self.slug])

    def clean(self) -> None:
        clean_name(self, "name", "name", NAME_LENGTH)
        refuse_same_key(self, "name", "name_key", "game")
        self._keeps_its_kind()

    def _keeps_its_kind(self) -> None:
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


class Matchday(RangesInValidators, models.Model):
    number = models.PositiveIntegerField(unique=True, validators=in_span(MATCHDAY_NUMBERS, "The matchday number"))
    date = models.DateField(help_text="YYYY-MM-DD, e.g. 2025-11-03: the day it was played, not after today.")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="matchdays")
    rounds = models.PositiveSmallIntegerField(validators=in_span(ROUNDS, "Rounds"))
    winner_score = models.PositiveSmallIntegerField(
        "winner's score",
        null=True,
        blank=True,
        validators=in_span(WINNER_SCORES, "The winner's score"),
        help_text="Only the table-size method uses it: 19-24 lowers K one step, 12-18 two. Blank: full game.",
    )
    notes = models.TextField(blank=True, validators=NO_NUL)

    objects = MatchdayQuerySet.as_manager()

    class Meta:
        ordering = ["date", "number"]
        indexes = [
            models.Index(fields=["date", "number"], name="league_matchday_play_order"),
            # A game's matchdays in play order (its rating grid) without sorting them all.
            models.Index(fields=["game", "date", "number"], name="league_matchday_game_order"),
        ]
        constraints = [
            span_check("number", MATCHDAY_NUMBERS, "league_matchday_number_range"),
            span_check("rounds", ROUNDS, "league_matchday_rounds_range"),
            span_check("winner_score", WINNER_SCORES, "league_matchday_winner_score_range", nullable=True),
        ]

    def __str__(self) -> str:
        return f"Matchday {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("league:matchday", args=[self.number])

    def clean(self) -> None:
        # Every way in (the entry page, the admin, the import) saves through full_clean(): a year
        # typed wrong (2052 for 2025) is refused here rather than shown as the league's newest night.
        if self.date is not None and self.date > timezone.localdate():
            raise ValidationError(
                {"date": f"{self.date:%Y-%m-%d} is after today; enter the date the matchday was played."}
            )

    @property
    def position(self) -> tuple:
        """Where this matchday stands in play order; ratings are computed in this order."""
        return (self.date, self.number)


PLACING_VALIDATORS = [
    MinValueValidator(PLACINGS.lowest, "Placings start at 1 (1 is the winner)."),
    MaxValueValidator(PLACINGS.highest, f"A placing is at most {PLACINGS.highest}, the most players a matchday has."),
]


def sedma_count(name: str) -> models.PositiveSmallIntegerField:
    """A Sedma count's column, named and ranged as league.results declares it (blank in the admin is 0)."""
    label = results.LABELS[name]
    named = {} if label.lower() == name.replace("_", " ") else {"verbose_name": label.lower()}  # as migrated
    return models.PositiveSmallIntegerField(**named, default=0, validators=in_span(SEDMA_COUNTS, label))


class Result(RangesInValidators, models.Model):
    """One player's result at one matchday: the fields of `league.results.Play` (a test holds them
    alike), with the player and a note."""

    matchday = models.ForeignKey(Matchday, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    placing = models.PositiveSmallIntegerField(validators=PLACING_VALIDATORS)
    rated_placing = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=PLACING_VALIDATORS,
        help_text="Only for a penalty: the placing used for the rating instead of the real one.",
    )
    note = models.CharField(max_length=200, blank=True, validators=NO_NUL, help_text='e.g. "left early"')
    left_early = models.BooleanField(
        default=False,
        help_text="Pairwise-winner method: a player who left early loses to everyone still playing.",
    )
    # The Sedma method's performance counts (two-player games); the other methods ignore them.
    won_by_16 = sedma_count("won_by_16")
    won_by_24 = sedma_count("won_by_24")
    won_by_4_and_last = sedma_count("won_by_4_and_last")
    bad_moves = sedma_count("bad_moves")

    class Meta:
        ordering = ["matchday", "placing", "player__short_name"]
        constraints = [
            models.UniqueConstraint(fields=["matchday", "player"], name="league_result_one_per_player"),
            span_check("placing", PLACINGS, "league_result_placing_range"),
            span_check("rated_placing", PLACINGS, "league_result_rated_placing_range", nullable=True),
            *(span_check(name, SEDMA_COUNTS, f"league_result_{name}_range") for name in results.SEDMA_FIELDS),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.display_placing} at {self.matchday}"

    @property
    def effective_placing(self) -> int:
        return self.rated_placing if self.rated_placing is not None else self.placing

    def play(self) -> results.Play:
        """The result as the league's record of it (league.results), without the player and note."""
        return results.Play(*results.values(self))

    @property
    def display_placing(self) -> str:
        """The club's notation: "4(3)" is finished 3rd, rated as 4th."""
        if self.rated_placing is not None and self.rated_placing != self.placing:
            return f"{self.rated_placing}({self.placing})"
        return str(self.placing)


class Page(models.Model):
    """An admin-edited text page such as the Constitution or the Laws, written in Markdown."""

    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=100, validators=NO_NUL)
    body = models.TextField(blank=True, validators=NO_NUL, help_text="Markdown. HTML tags are removed for safety.")
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
    def bump(cls) -> None:
        """Mark that the league changed (called by every service that writes, and by a restore)."""
        now, token = timezone.now(), revision.new_token()
        if not cls.objects.filter(pk=1).update(number=models.F("number") + 1, changed_at=now, token=token):
            cls.objects.create(pk=1, number=1, changed_at=now, token=token)
        revision.publish(token, now)


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


# Saved previews' one-time tokens: a model of this app, kept with the logic that uses it.
from league.submissions import Submission  # noqa: E402, F401
