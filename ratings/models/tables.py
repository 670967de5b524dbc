"""Rating tables: which matchdays count in each, and its method's parameters."""

from django.db import models
from django.db.models import Q

from league.models import (
    Category,
    Game,
    Matchday,
    Season,
    WithinClub,
    club_reverse,
    club_rows,
    owned_by_club,
    unique_in_club,
)

from .. import methods
from ..methods import club as club_formula


class RatingTableQuerySet(models.QuerySet):
    def in_page_order(self):
        """Overall first, then one table per game, then the unofficial categories."""
        rank = models.Case(models.When(scope="overall", then=0), models.When(scope="game", then=1), default=2)
        return self.select_related("game", "category").order_by(rank, "name")


class AllTimeTables(models.Manager.from_queryset(RatingTableQuerySet)):
    """The club's own tables: every page lists these; a fresh-start season's tables are read
    through `RatingTable.every` or a season's `tables`."""

    def get_queryset(self):
        queryset = super().get_queryset()
        # Django builds a season's `tables` and a parent's `season_tables` from this class: those list
        # the seasons' tables they are named for.
        if getattr(self, "field", None) is not None and self.field.name in ("season", "parent"):
            return queryset
        return queryset.filter(season__isnull=True)


class RatingTable(WithinClub, models.Model):
    """One rating: which matchdays count in it, and the formula's parameters.

    Tables are kept in step with the games by `ratings.engine.sync_tables`, which the services call:
    one overall table for official games, one per game, and one per category of unofficial games.
    """

    class Scope(models.TextChoices):
        OVERALL = "overall", "All official games"
        GAME = "game", "One game"
        CATEGORY = "category", "Unofficial games of one category"

    club = owned_by_club("rating_tables")
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100)
    scope = models.CharField(max_length=10, choices=Scope.choices)
    game = models.OneToOneField(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="rating_table")
    category = models.OneToOneField(
        Category, on_delete=models.CASCADE, null=True, blank=True, related_name="rating_table"
    )
    description = models.TextField(blank=True, help_text="Shown above the table.")
    method = models.CharField(
        max_length=20,
        choices=methods.CHOICES,
        default="club",
        help_text="How ratings are computed; see the site's Methods page. Changing it recomputes the table.",
    )
    start_rating = models.FloatField(default=club_formula.START_RATING)
    k_per_round = models.FloatField(
        "K per round (club formula)",
        default=club_formula.K_PER_ROUND,
        help_text="Club formula only: K is this number times the matchday's rounds.",
    )
    whole_numbers = models.BooleanField(
        default=True,
        help_text="Round ratings to whole numbers after every matchday, as the club does by hand.",
    )
    parameters = models.JSONField(
        default=dict,
        blank=True,
        help_text="The method's other parameters, by name (e.g. {\"k\": 32}); set in the admin's fields.",
    )

    # A fresh-start season's table: the `parent` table's matchdays within the season's dates, rated
    # afresh with the parent's method (ratings.services.seasons keeps them in step).
    season = models.ForeignKey(Season, on_delete=models.CASCADE, null=True, blank=True, related_name="tables")
    parent = models.ForeignKey("self", on_delete=models.CASCADE, null=True, blank=True, related_name="season_tables")

    objects = club_rows(AllTimeTables)
    every = club_rows(models.Manager.from_queryset(RatingTableQuerySet))  # the seasons' tables too

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(season__isnull=True, parent__isnull=True)
                    & (
                        Q(scope="overall", game__isnull=True, category__isnull=True)
                        | Q(scope="game", game__isnull=False, category__isnull=True)
                        | Q(scope="category", game__isnull=True, category__isnull=False)
                    )
                )
                # A season's table names its target through its parent.
                | Q(season__isnull=False, parent__isnull=False, game__isnull=True, category__isnull=True),
                name="ratings_table_scope_matches_target",
            ),
            models.UniqueConstraint(
                fields=["club", "scope"],
                condition=Q(scope="overall", season__isnull=True),
                name="ratings_table_one_overall_per_club",
            ),
            *unique_in_club("ratings_table", "slug"),
            models.UniqueConstraint(fields=["season", "parent"], name="ratings_table_once_per_season"),
        ]

    def __str__(self) -> str:
        return self.name if self.season_id is None else f"{self.season}: {self.name}"

    def get_absolute_url(self) -> str:
        if self.scope == self.Scope.GAME:
            return club_reverse(self.club_id, "league:game", [self.game.slug])
        return club_reverse(self.club_id, "league:home") + f"#{self.slug}"

    # Parameters every method names alike are kept in their own columns; the rest in `parameters`.
    COLUMNS = {"start_rating": "start_rating", "round": "whole_numbers"}

    @property
    def rating_method(self) -> methods.Method:
        return methods.get(self.method)

    def method_params(self) -> dict:
        """The table's method's parameters, parsed, with defaults for any not set."""
        method = self.rating_method
        raw = {}
        for param in method.params:
            if param.name in self.COLUMNS:
                raw[param.name] = getattr(self, self.COLUMNS[param.name])
            elif method.slug == "club" and param.name == "k":
                raw[param.name] = self.k_per_round
            elif param.name in self.parameters:
                raw[param.name] = self.parameters[param.name]
        return method.clean_params(raw)

    @property
    def method_description(self) -> str:
        """The method and its parameters in words, e.g. "Pairwise by placing: start rating 1500, K 32"."""
        method = self.rating_method
        return f"{method.name}: {method.describe(self.method_params())}"

    @property
    def official(self) -> bool:
        """Whether its matchdays are of official games: not a category's, nor an unofficial game's own
        (read with its game, as every page reads its tables)."""
        if self.parent_id is not None:
            return self.parent.official
        if self.scope == self.Scope.GAME:
            return self.game.official
        return self.scope == self.Scope.OVERALL

    @property
    def against_deals(self) -> bool:
        """Whether this is the table of a game played against deals, rated attempt by attempt by
        `ratings.deals.engine` (the matchday engine leaves it alone)."""
        return self.rating_method.against_deals

    def counts(self, game: Game) -> bool:
        """Whether matchdays of this game count in this table. A game played against deals counts
        only in its own table, never in the overall or a category's."""
        if self.parent_id is not None:  # and only those within its season's dates
            return self.parent.counts(game)
        if self.scope == self.Scope.OVERALL:
            return game.club_id == self.club_id and game.official and not game.against_deals
        if self.scope == self.Scope.GAME:
            return self.game_id == game.pk
        return not game.official and not game.against_deals and self.category_id == game.category_id

    def counted(self, prefix: str = "") -> Q:
        """A filter for the matchdays that count in this table; `prefix` reaches a matchday from
        another model (e.g. "matchday__" for results)."""
        if self.parent_id is not None:
            season = self.season
            within = {f"{prefix}date__gte": season.first_day, f"{prefix}date__lte": season.last_day}
            return self.parent.counted(prefix) & Q(**within)
        if self.scope == self.Scope.OVERALL:
            return Q(**{f"{prefix}club_id": self.club_id, f"{prefix}game__official": True})
        if self.scope == self.Scope.GAME:
            return Q(**{f"{prefix}game_id": self.game_id})
        return Q(**{f"{prefix}game__official": False, f"{prefix}game__category_id": self.category_id})

    def matchdays(self):
        """The matchdays that count in this table, in play order."""
        return Matchday.objects.filter(self.counted()).in_play_order()
