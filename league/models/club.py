"""The club: its players, games and their categories, its text pages, and the revision that tells
every page and cache when anything changed. A site can hold several clubs (`Club`); each row of
theirs belongs to one, and every rule of uniqueness holds within a club.
"""

from __future__ import annotations

from contextvars import ContextVar
from types import MappingProxyType

import django_scopes.state
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import get_urlconf, reverse
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.text import slugify
from django_scopes import ScopedManager

from league import revision, validation
from league.placings import BY_PLACINGS, SCORINGS
from league.validation import (
    NAME_LENGTH,
    SHORT_NAME_LENGTH,
    name_key,
)

from .rules import NO_NUL, KeyedByName, WithinClub, clean_name, refuse_same_key, unique_in_club

# Slugs that would hide a path of the site's own under /<club-slug>/.
RESERVED_SLUGS = frozenset({"admin", "static", "api", "accounts", "media", "healthz", "robots.txt", "favicon.ico"})


def refuse_reserved_slug(value: str) -> None:
    if value.lower() in RESERVED_SLUGS:
        raise ValidationError(f"{value!r} is a path of the site itself; choose another address.")


class Club(models.Model):
    """A club, society or café group: its league is its own players, games, matchdays, seasons and
    rating tables, shown under /<slug>/."""

    slug = models.SlugField(
        max_length=50, unique=True, validators=[refuse_reserved_slug], help_text="Its address: /<slug>/."
    )
    name = models.CharField(max_length=100, validators=NO_NUL)
    secretaries = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="clubs",
        help_text="Staff who enter and correct this club's results; a superuser needs no club.",
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        super().save(*args, **kwargs)
        Revision.renew(revision.CLUBS, revision.LEAGUE, revision.of_club(self.pk))  # every worker's addresses

    def delete(self, *args, **kwargs):
        pk = self.pk
        deleted = super().delete(*args, **kwargs)
        Revision.renew(revision.CLUBS, revision.LEAGUE, revision.of_club(pk))
        return deleted


def default_club() -> int | None:
    """The club a row belongs to when its writer names none: the club whose scope is active (a
    request for its pages, a command given --club), else the site's one club, started from
    LEAGUE_NAME on a database without any (so a one-club site starts as it always did). With several
    clubs and none in scope there is no default, and the database refuses a row without its club."""
    scoped = django_scopes.state.get_scope().get("club")
    if isinstance(scoped, (list, tuple)) and len(scoped) == 1:
        scoped = scoped[0]  # a secretary of one club, in the admin
    if isinstance(scoped, int):
        return scoped
    clubs = list(Club.objects.values_list("pk", flat=True)[:2])
    if len(clubs) == 1:
        return clubs[0]
    if clubs:
        return None
    return Club.objects.create(slug=first_club_slug(settings.LEAGUE_NAME), name=settings.LEAGUE_NAME).pk


def first_club_slug(name: str) -> str:
    """The address of the club a one-club site starts with, made from its name."""
    slug = slugify(name)[:50] or "league"
    return "league" if slug in RESERVED_SLUGS else slug


def club_rows(manager_class=models.Manager):
    """The manager of rows a club owns: inside `django_scopes.scope(club=...)` (every request for a
    club's page, a command given --club) it reads and writes that club's rows only; inside a scope
    without a club it raises ScopeError rather than read every club's."""
    return ScopedManager(club="club", _manager_class=manager_class)


# Outside any scope (the site's own work: migrations, forms built at import, the admin until it is
# scoped per secretary) the whole site is read, in every thread: django-scopes' default is to refuse.
django_scopes.state.state = ContextVar("state", default=MappingProxyType({"_enabled": False}))


def club_reverse(club_id: int, name: str, args=()) -> str:
    """The address of one of a club's pages: as the page being answered names it when that page is
    the club's own, else (the admin, another club's page, a command) under that club's address
    (settings.CLUB_URLCONF gives a club's addresses)."""
    current = get_urlconf()
    if getattr(current, "club_id", None) != club_id:
        slug = Club.objects.values_list("slug", flat=True).get(pk=club_id)
        current = import_string(settings.CLUB_URLCONF)(slug, club_id)
    return reverse(name, args=args, urlconf=current)


def owned_by_club(related_name: str):
    """The foreign key every row a club owns carries."""
    return models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name=related_name, default=default_club, editable=False
    )


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


class Player(WithinClub, KeyedByName, models.Model):
    KEY_FIELD = "short_name_key"

    club = owned_by_club("players")
    name = models.CharField("full name", max_length=NAME_LENGTH)
    short_name = models.CharField(max_length=SHORT_NAME_LENGTH, help_text='Shown in table headers, e.g. "GL".')
    # How the short name is compared (league.validation.name_key), kept by save(): unique, so that
    # "GL", "gl" and "ＧＬ" cannot be three players of a club.
    short_name_key = models.CharField(max_length=SHORT_NAME_LENGTH * validation.KEY_LENGTH_FACTOR, editable=False)

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
        return club_reverse(self.club_id, "league:player", [self.pk])

    def clean(self) -> None:
        clean_name(self, "short_name", "short name", SHORT_NAME_LENGTH)
        clean_name(self, "name", "full name", NAME_LENGTH)
        refuse_same_key(self, "short_name", "short_name_key", "player")


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


class Revision(models.Model):
    """A row per scope (the site, and each club) that changes whenever anything its public pages
    show changes: the `version` of their cached copies and their ETag (see league.revision)."""

    scope = models.SlugField(unique=True, default=revision.LEAGUE, help_text="Whose pages the row stands for.")
    changed_at = models.DateTimeField()
    token = models.CharField(
        max_length=32, default="", help_text="Random, new at every change: a restored backup never reuses one."
    )

    def __str__(self) -> str:
        return f"Revision of {self.scope} of {self.changed_at:%Y-%m-%d %H:%M:%S}"

    @classmethod
    def bump(cls, *clubs) -> None:
        """Mark that the clubs (or their ids) changed: every service that writes calls it with the
        clubs it wrote in, a restore with every club. The site's own row changes too: it keys the
        pages every club shares."""
        cls.renew(revision.LEAGUE, *(revision.of_club(getattr(club, "pk", club)) for club in clubs))

    @classmethod
    def renew(cls, *scopes: str) -> None:
        now = timezone.now()
        for scope in scopes:
            token = revision.new_token()
            if not cls.objects.filter(scope=scope).update(changed_at=now, token=token):
                cls.objects.create(scope=scope, changed_at=now, token=token)


# Games played against deals (solitaire, patience, puzzles): dated sessions of attempts at numbered
# deals. A deal is a numbered game of a variant at a difficulty level, e.g. "8x4", level 5, deal 11982.
# Their ratings are derived in `ratings` (player against deal).
