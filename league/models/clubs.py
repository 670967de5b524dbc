"""The clubs a site holds, and what every row a club owns is made with: its `club` key, its
manager (scoped by django-scopes to the club a request or command works in), its public address,
and the club's own settings; and the revisions that tell every page and cache when a club changed.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType

import django_scopes.state
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.urls import get_urlconf, reverse
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.text import slugify
from django_scopes import ScopedManager

from league import revision
from league.validation import INACTIVITY_WINDOW, PAGE_SIZES, PROVISIONAL_MATCHDAYS

from .rules import NO_NUL, in_span

# Slugs that would hide a path of the site's own under /<club-slug>/.
RESERVED_SLUGS = frozenset({"admin", "static", "api", "accounts", "media", "healthz", "robots.txt", "favicon.ico"})


def refuse_reserved_slug(value: str) -> None:
    if value.lower() in RESERVED_SLUGS:
        raise ValidationError(f"{value!r} is a path of the site itself; choose another address.")


# A club's own choices (its fields), each with the site's setting that stands in while it is blank.
CLUB_SETTINGS = {
    "provisional_matchdays": "LEAGUE_PROVISIONAL_MATCHDAYS",
    "inactive_days": "LEAGUE_INACTIVE_DAYS",
    "grid_page_size": "LEAGUE_GRID_PAGE_SIZE",
    "home_grid_page_size": "LEAGUE_HOME_GRID_PAGE_SIZE",
    "standings_page_size": "LEAGUE_STANDINGS_PAGE_SIZE",
}


class Club(models.Model):
    """A club, society or café group: its league is its own players, games, matchdays, seasons and
    rating tables, shown under /<slug>/."""

    slug = models.SlugField(
        max_length=50, unique=True, validators=[refuse_reserved_slug], help_text="Its address: /<slug>/."
    )
    name = models.CharField(max_length=100, validators=NO_NUL)
    # The club's own choices; blank, the site's (its environment variables: docs/operations.md).
    provisional_matchdays = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=in_span(PROVISIONAL_MATCHDAYS, "Provisional matchdays"),
        help_text="Matchdays a player is provisional for (listed after the ranked).",
    )
    inactive_days = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=in_span(INACTIVITY_WINDOW, "Inactive days"),
        help_text="Leaderboards hide players with no matchday in this many days (0: nobody).",
    )
    grid_page_size = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=in_span(PAGE_SIZES, "Grid page size"),
        help_text="Matchdays per page of a rating grid.",
    )
    home_grid_page_size = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=in_span(PAGE_SIZES, "Home grid page size"),
        help_text="Matchdays of each grid on the home page.",
    )
    standings_page_size = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=in_span(PAGE_SIZES, "Standings page size"),
        help_text="Players per page of the standings.",
    )
    secretaries = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="clubs",
        help_text="Staff who enter and correct this club's results; a superuser needs no club.",
    )

    class Meta:
        ordering = ["name"]
        constraints = [  # /North/ beside /north/ would be two clubs a member cannot tell apart
            models.UniqueConstraint(Lower("slug"), name="club_slug_unique_in_any_case"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        adding = self._state.adding
        super().save(*args, **kwargs)
        others = _the_one_other(self.pk) if adding else ()
        Revision.renew(revision.CLUBS, revision.LEAGUE, revision.of_club(self.pk), *others)  # every worker's addresses

    def delete(self, *args, **kwargs):
        pk = self.pk
        deleted = super().delete(*args, **kwargs)
        Revision.renew(revision.CLUBS, revision.LEAGUE, revision.of_club(pk), *_the_one_other(pk))
        return deleted

    def validate_unique(self, exclude=None) -> None:
        """An address taken in any case is refused on the field, naming the club that has it."""
        exclude = set(exclude or ())
        taken = None
        if "slug" not in exclude and self.slug:
            taken = Club.objects.filter(slug__iexact=self.slug).exclude(pk=self.pk).first()
        try:
            super().validate_unique(exclude | {"slug"} if taken else exclude)
        except ValidationError as exc:
            errors = exc.error_dict
        else:
            errors = {}
        if taken is not None:
            message = f"/{taken.slug}/ is the address of {taken.name} already, and addresses are read in any case; "
            errors.setdefault("slug", []).append(ValidationError(message + "choose another."))
        if errors:
            raise ValidationError(errors)

    def validate_constraints(self, exclude=None) -> None:
        # the address in any case is validate_unique's, which says it on the field
        super().validate_constraints({*(exclude or ()), "slug"})

    def setting(self, name: str) -> int:
        """The club's choice, else the site's."""
        value = getattr(self, name)
        return value if value is not None else getattr(settings, CLUB_SETTINGS[name])


def _the_one_other(pk: int) -> tuple[str, ...]:
    """The scope of the site's one club beside club `pk`, when there is exactly one: a club's pages
    link to the list of clubs only while there are others (web.context_processors: `nav_clubs`), so
    the second club made, or the last but one deleted, changes the other's pages; a third leaves
    them as they were."""
    others = list(Club.objects.exclude(pk=pk).values_list("pk", flat=True)[:2])
    return (revision.of_club(others[0]),) if len(others) == 1 else ()


_answering: ContextVar = ContextVar("answering", default=None)


@contextmanager
def answering(club: Club):
    """While a page of `club` is answered: `club_setting` reads its choices."""
    token = _answering.set(club)
    try:
        yield
    finally:
        _answering.reset(token)


def club_setting(name: str) -> int:
    """One of `CLUB_SETTINGS`: the choice of the club whose page is being answered, else the site's."""
    club = _answering.get()
    return club.setting(name) if club is not None else getattr(settings, CLUB_SETTINGS[name])


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


def owned_by_club(related_name: str, *, db_index: bool = True):
    """The foreign key every row a club owns carries (`db_index=False` where the model's own indexes
    begin with the club)."""
    return models.ForeignKey(
        Club,
        on_delete=models.CASCADE,
        related_name=related_name,
        default=default_club,
        editable=False,
        db_index=db_index,
    )


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
        scopes = revision.renewed_now(scopes)
        if not scopes:
            return
        now = timezone.now()
        # The rows in one order, the clubs' first and the site's last, as every write takes them: two
        # writes never each hold a row the other waits for.
        for scope in sorted(set(scopes), key=lambda scope: (scope == revision.LEAGUE, scope == revision.CLUBS, scope)):
            token = revision.new_token()
            if not cls.objects.filter(scope=scope).update(changed_at=now, token=token):
                cls.objects.create(scope=scope, changed_at=now, token=token)
        revision.wait_out_leases()


# Games played against deals (solitaire, patience, puzzles): dated sessions of attempts at numbered
# deals. A deal is a numbered game of a variant at a difficulty level, e.g. "8x4", level 5, deal 11982.
# Their ratings are derived in `ratings` (player against deal).
