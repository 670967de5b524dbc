"""A matchday of a game and its players' results."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django_scopes import ScopedManager

from league import results
from league.checked import date_problem
from league.validation import (
    MATCHDAY_NUMBERS,
    PLACINGS,
    ROUNDS,
    SCORES,
    SEDMA_COUNTS,
    SIDE_LENGTH,
    WEIGHTS,
    WINNER_SCORES,
)

from .club import Game, Player, club_reverse, club_rows, owned_by_club
from .rules import NO_NUL, RangesInValidators, WithinClub, in_span, span_check, unique_in_club


class MatchdayQuerySet(models.QuerySet):
    def in_play_order(self):
        """Matchdays in the order ratings are computed: by date, then by number."""
        return self.order_by("date", "number")

    def from_position(self, date, number):
        """This matchday position and everything after it in play order (a date range, less that
        day's earlier numbers, which the (date, number) index serves)."""
        return self.filter(date__gte=date).exclude(date=date, number__lt=number)


class Matchday(WithinClub, RangesInValidators, models.Model):
    # Indexed by the indexes below, which begin with it: a lone index of the club would tempt the
    # planner to read every matchday of the club and sort them (docs/performance.md).
    club = owned_by_club("matchdays", db_index=False)
    number = models.PositiveIntegerField(validators=in_span(MATCHDAY_NUMBERS, "The matchday number"))
    date = models.DateField(
        help_text="YYYY-MM-DD, e.g. 2025-11-03: the day it was played, not after today nor before 1900."
    )
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
    # The play it was imported from ("bgstats:<uuid>"): a file imported again adds only its new plays.
    source = models.CharField(max_length=80, blank=True, editable=False)

    objects = club_rows(models.Manager.from_queryset(MatchdayQuerySet))

    class Meta:
        ordering = ["date", "number"]
        indexes = [
            models.Index(fields=["date", "number"], name="league_matchday_play_order"),
            # A club's matchdays in play order: every page of a club reads them so, in its scope.
            models.Index(fields=["club", "date", "number"], name="league_matchday_club_order"),
            # A game's matchdays in play order (its rating grid) without sorting them all; the club
            # last, so that counting a game's matchdays in its club's scope reads the index only.
            models.Index(fields=["game", "date", "number", "club"], name="league_matchday_game_club"),
        ]
        constraints = [
            span_check("number", MATCHDAY_NUMBERS, "league_matchday_number_range"),
            span_check("rounds", ROUNDS, "league_matchday_rounds_range"),
            span_check("winner_score", WINNER_SCORES, "league_matchday_winner_score_range", nullable=True),
            *unique_in_club("league_matchday", "number"),
            models.UniqueConstraint(
                fields=["club", "source"], condition=~Q(source=""), name="league_matchday_source_in_club"
            ),
        ]

    def __str__(self) -> str:
        return f"Matchday {self.number}"

    def get_absolute_url(self) -> str:
        return club_reverse(self.club_id, "league:matchday", [self.number])

    def clean(self) -> None:
        # Every way in (the entry page, the admin, the import) saves through full_clean(): a year
        # typed wrong (2052 for 2025) is refused here rather than shown as the league's newest night.
        problem = date_problem(self.date, timezone.localdate()) if self.date is not None else None
        if problem:
            raise ValidationError({"date": problem})

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
    side = models.CharField(
        max_length=SIDE_LENGTH,
        blank=True,
        validators=NO_NUL,
        help_text="Partners share a label (A, B ...) and their side's placing; blank: a side of one.",
    )
    weight = models.FloatField(
        default=1.0,
        validators=in_span(WEIGHTS, "Weight"),
        help_text="Partial play: the share of the game played, 0 to 1 (0.5 joined halfway). 1: all of it.",
    )
    score = models.IntegerField(
        "points",
        null=True,
        blank=True,
        validators=in_span(SCORES, "Points"),
        help_text="The score sheet's points (partners share them). In a scored game they give the placing.",
    )

    objects = ScopedManager(club="matchday__club")  # a club's request reads its own results only

    class Meta:
        ordering = ["matchday", "placing", "player__short_name"]
        constraints = [
            models.UniqueConstraint(fields=["matchday", "player"], name="league_result_one_per_player"),
            span_check("placing", PLACINGS, "league_result_placing_range"),
            span_check("rated_placing", PLACINGS, "league_result_rated_placing_range", nullable=True),
            *(span_check(name, SEDMA_COUNTS, f"league_result_{name}_range") for name in results.SEDMA_FIELDS),
            span_check("weight", WEIGHTS, "league_result_weight_range"),
            span_check("score", SCORES, "league_result_score_range", nullable=True),
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
