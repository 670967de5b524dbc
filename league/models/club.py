"""A club's league: its players (and their former names), games and their categories, and text
pages. Each row belongs to one club (league.models.clubs), and every rule of uniqueness holds
within its club.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django_scopes import ScopedManager

from league import validation
from league.placings import BY_PLACINGS, SCORINGS
from league.validation import (
    NAME_LENGTH,
    SHORT_NAME_LENGTH,
    name_key,
)

from .clubs import club_reverse, club_rows, owned_by_club
from .rules import NO_NUL, KeyedByName, WithinClub, clean_name, refuse_same_key, unique_in_club


class Category(WithinClub, models.Model):
    """A family of games, e.g. "Trick-taking" or "Trading card games"."""

    club = owned_by_club("categories")
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100)
    description = models.TextField(
        blank=True,
        validators=NO_NUL,
        help_text="Shown above the category's rating table when its games are unofficial.",
    )

    objects = club_rows()

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "categories"
        constraints = unique_in_club("league_category", "name", "slug")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        clean_name(self, "name", "name", self._meta.get_field("name").max_length)


def unranked(via: str = "") -> Q:
    """The players rated but never ranked (`Player.ranked`), reached through `via` ("player__")."""
    return Q(**{f"{via}guest": True}) | Q(**{f"{via}stands_for__isnull": False})


class Player(WithinClub, KeyedByName, models.Model):
    KEY_FIELD = "short_name_key"

    club = owned_by_club("players")
    name = models.CharField("full name", max_length=NAME_LENGTH)
    short_name = models.CharField(max_length=SHORT_NAME_LENGTH, help_text='Shown in table headers, e.g. "GL".')
    # How the short name is compared (league.validation.name_key), kept by save(): unique, so that
    # "GL", "gl" and "ＧＬ" cannot be three players of a club.
    short_name_key = models.CharField(max_length=SHORT_NAME_LENGTH * validation.KEY_LENGTH_FACTOR, editable=False)
    # A guest is rated and shown on matchday pages, but left out of the standings, the leaders and the
    # movers until the admin makes them a member (one click: web/admin/catalogue.py).
    guest = models.BooleanField(
        default=False, help_text="Rated, but not on the standings, leaders or movers until made a member."
    )
    # A game's own rating, against which players win or lose together (co-op, solo): rated as a
    # player is, never listed as one (ratings.services.against_game).
    stands_for = models.OneToOneField(
        "Game", null=True, blank=True, editable=False, on_delete=models.CASCADE, related_name="stand_in"
    )

    objects = club_rows()

    class Meta:
        ordering = ["short_name"]
        constraints = [
            models.CheckConstraint(condition=~Q(short_name_key=""), name="league_player_short_name_key_not_empty"),
            *unique_in_club("league_player", "short_name", "short_name_key"),
        ]

    def __str__(self) -> str:
        return self.short_name

    def save(self, *args, **kwargs) -> None:
        self.short_name_key = name_key(self.short_name)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        if self.stands_for_id is not None:  # a game's own rating is shown on the game's page
            return self.stands_for.get_absolute_url()
        return club_reverse(self.club_id, "league:player", [self.pk])

    def clean(self) -> None:
        clean_name(self, "short_name", "short name", SHORT_NAME_LENGTH)
        clean_name(self, "name", "full name", NAME_LENGTH)
        refuse_same_key(self, "short_name", "short_name_key", "player")

    @property
    def ranked(self) -> bool:
        """Whether the player is on the standings, leaders and movers: a guest or a game's stand-in
        is rated, never ranked (`unranked` is the same for a query)."""
        return not self.guest and self.stands_for_id is None


class FormerName(models.Model):
    """A name a player went by before a rename (short or full name), kept so that the entry page, the
    import and the search still find them by it, and their page says "formerly". Filled by
    league.services.save_player; two members may each have been "Farid", so the key is not unique."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="former_names")
    name = models.CharField("former name", max_length=NAME_LENGTH)
    # How the name is compared (league.validation.name_key), kept by save().
    name_key = models.CharField(max_length=NAME_LENGTH * validation.KEY_LENGTH_FACTOR, editable=False, db_index=True)
    until = models.DateField("used until", default=timezone.localdate)

    # A name is looked up by its key among a club's former names (the import, the entry page).
    objects = ScopedManager(club="player__club")

    class Meta:
        ordering = ["-until", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "name_key"], name="league_formername_once_per_player"),
            models.CheckConstraint(condition=~Q(name_key=""), name="league_formername_key_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = name_key(self.name)
        super().save(*args, **kwargs)

    def validate_constraints(self, exclude=None):
        # The key is set by save(); clean() refuses the same name twice with a message on the name.
        super().validate_constraints(exclude={*(exclude or ()), "name_key"})

    def clean(self) -> None:
        clean_name(self, "name", "former name", NAME_LENGTH)
        same = FormerName.objects.filter(player_id=self.player_id, name_key=name_key(self.name)).exclude(pk=self.pk)
        if self.player_id is not None and same.exists():
            raise ValidationError({"name": f"{self.name!r} is already one of this player's former names."})


class Game(WithinClub, KeyedByName, models.Model):
    KEY_FIELD = "name_key"

    club = owned_by_club("games")
    name = models.CharField(max_length=NAME_LENGTH)
    # How the name is compared (league.validation.name_key), kept by save(): unique, like players'.
    name_key = models.CharField(max_length=NAME_LENGTH * validation.KEY_LENGTH_FACTOR, editable=False)
    slug = models.SlugField(max_length=100)
    category = models.ForeignKey(Category, on_delete=models.PROTECT, null=True, blank=True, related_name="games")
    official = models.BooleanField(default=True, help_text="Official games count in the overall rating.")
    against_deals = models.BooleanField(
        "played against deals",
        default=False,
        help_text="Solitaire or patience: players play numbered deals in dated sessions, and players and deals "
        "are rated against each other (never in the overall rating). Set it before the first session.",
    )
    cooperative = models.BooleanField(
        "co-operative",
        default=False,
        help_text="The players win or lose together against the game, which has a rating of its own.",
    )
    scoring = models.CharField(
        "scored by",
        max_length=8,
        choices=list(SCORINGS.items()),
        default=BY_PLACINGS,
        help_text="With a score, the placings follow from the points entered (equal points share a place).",
    )

    objects = club_rows()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=~Q(name_key=""), name="league_game_name_key_not_empty"),
            models.CheckConstraint(condition=Q(scoring__in=list(SCORINGS)), name="league_game_scoring_known"),
            *unique_in_club("league_game", "name", "name_key", "slug"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = name_key(self.name)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return club_reverse(self.club_id, "league:game", [self.slug])

    def clean(self) -> None:
        clean_name(self, "name", "name", NAME_LENGTH)
        refuse_same_key(self, "name", "name_key", "game")
        self._keeps_its_kind()
        self._keeps_its_scoring()

    def _keeps_its_kind(self) -> None:
        """A game keeps its kind once played: matchdays and sessions are rated differently."""
        if self.pk is None:
            return
        was = Game.objects.filter(pk=self.pk).values_list("against_deals", flat=True).first()
        if self.against_deals and not was and self.matchdays.exists():
            raise ValidationError(
                {"against_deals": f"{self.name} has matchdays, so it cannot be played against deals."}
            )
        if was and not self.against_deals and self.deal_levels.exists():
            raise ValidationError(
                {"against_deals": f"{self.name} has deals and sessions, so it must stay played against deals."}
            )

    def _keeps_its_scoring(self) -> None:
        """Placings worked out from points stay as they were worked out: a game whose results hold
        points keeps its scoring (one without points may switch, its placings being as typed)."""
        if self.pk is None:
            return
        was = Game.objects.filter(pk=self.pk).values_list("scoring", flat=True).first()
        if was != self.scoring and self.matchdays.filter(results__score__isnull=False).exists():
            raise ValidationError(
                {"scoring": f"{self.name} has results with points, whose placings follow from its scoring; keep it."}
            )


class Page(WithinClub, models.Model):
    """An admin-edited text page such as the Constitution or the Laws, written in Markdown."""

    club = owned_by_club("pages")
    slug = models.SlugField()
    title = models.CharField(max_length=100, validators=NO_NUL)
    body = models.TextField(blank=True, validators=NO_NUL, help_text="Markdown. HTML tags are removed for safety.")
    position = models.PositiveSmallIntegerField(default=0, help_text="Order in the navigation.")

    objects = club_rows()

    class Meta:
        ordering = ["position", "title"]
        constraints = unique_in_club("league_page", "slug")

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return club_reverse(self.club_id, "league:page", [self.slug])
