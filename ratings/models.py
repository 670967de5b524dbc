from django.db import models
from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber
from django.urls import reverse

from league.models import Attempt, Category, Deal, DealLevel, Game, Matchday, Player

from . import methods
from .methods import club


class RatingTableQuerySet(models.QuerySet):
    def in_page_order(self):
        """Overall first, then one table per game, then the unofficial categories."""
        rank = models.Case(models.When(scope="overall", then=0), models.When(scope="game", then=1), default=2)
        return self.select_related("game", "category").order_by(rank, "name")


class RatingTable(models.Model):
    """One rating: which matchdays count in it, and the formula's parameters.

    Tables are kept in step with the games by `ratings.engine.sync_tables`, which the services call:
    one overall table for official games, one per game, and one per category of unofficial games.
    """

    class Scope(models.TextChoices):
        OVERALL = "overall", "All official games"
        GAME = "game", "One game"
        CATEGORY = "category", "Unofficial games of one category"

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100, unique=True)
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
    start_rating = models.FloatField(default=club.START_RATING)
    k_per_round = models.FloatField(
        "K per round (club formula)",
        default=club.K_PER_ROUND,
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

    objects = RatingTableQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(scope="overall", game__isnull=True, category__isnull=True)
                    | Q(scope="game", game__isnull=False, category__isnull=True)
                    | Q(scope="category", game__isnull=True, category__isnull=False)
                ),
                name="ratings_table_scope_matches_target",
            ),
            models.UniqueConstraint(fields=["scope"], condition=Q(scope="overall"), name="ratings_table_one_overall"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        if self.scope == self.Scope.GAME:
            return reverse("league:game", args=[self.game.slug])
        return reverse("league:home") + f"#{self.slug}"

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
        if self.scope == self.Scope.OVERALL:
            return game.official and not game.against_deals
        if self.scope == self.Scope.GAME:
            return self.game_id == game.pk
        return not game.official and not game.against_deals and self.category_id == game.category_id

    def counted(self, prefix: str = "") -> Q:
        """A filter for the matchdays that count in this table; `prefix` reaches a matchday from
        another model (e.g. "matchday__" for results)."""
        if self.scope == self.Scope.OVERALL:
            return Q(**{f"{prefix}game__official": True})
        if self.scope == self.Scope.GAME:
            return Q(**{f"{prefix}game_id": self.game_id})
        return Q(**{f"{prefix}game__official": False, f"{prefix}game__category_id": self.category_id})

    def matchdays(self):
        """The matchdays that count in this table, in play order."""
        return Matchday.objects.filter(self.counted()).in_play_order()


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
        """Each player's last entry per table, annotated with `played`, their number of entries.

        One query with window functions. The engine uses it to resume before an edited matchday;
        pages read the current standing from `Standing` instead.
        """
        per_player = [F("table_id"), F("player_id")]
        return self.annotate(
            newest_first=Window(
                RowNumber(),
                partition_by=per_player,
                order_by=[F("matchday_date").desc(), F("matchday_number").desc()],
            ),
            played=Window(Count("pk"), partition_by=per_player),
        ).filter(newest_first=1)


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
    state = models.JSONField(
        null=True,
        blank=True,
        help_text="What the method carries to the player's next matchday besides the rating (openskill: mu and sigma).",
    )

    objects = RatingEntryQuerySet.as_manager()

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
            models.Index(
                fields=["table", "player", "matchday_date", "matchday_number"],
                name="ratings_entry_player_order",
            ),
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

    objects = StandingQuerySet.as_manager()

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

    objects = AttemptRatingQuerySet.as_manager()

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

    class Meta:
        indexes = [models.Index(fields=["table", "last_date"], name="ratings_levelrating_last")]

    def __str__(self) -> str:
        return f"{self.level}: average {self.average:.0f}"

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.attempts if self.attempts else None
