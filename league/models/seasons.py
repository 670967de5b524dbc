"""Seasons: stretches of the club's calendar that it ranks on their own ("who won 2025?").

A season either carries over (its table is the all-time ratings, seen between its dates) or starts
fresh (every player starts it at the start rating: the ratings app keeps a table of its matchdays
only for each of the club's tables). Seasons never overlap; writes go through
`ratings.services.seasons`, which recomputes what a season changes.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from league.validation import EARLIEST_DAY

from .club import club_reverse, club_rows, owned_by_club
from .rules import NO_NUL, WithinClub, clean_name, unique_in_club


class Season(WithinClub, models.Model):
    class Start(models.TextChoices):
        CARRY_OVER = "carry-over", "Carry over: the all-time ratings, seen between its dates"
        FRESH = "fresh", "Fresh start: everyone starts the season at the start rating"

    club = owned_by_club("seasons")
    name = models.CharField(max_length=100, validators=NO_NUL)
    slug = models.SlugField(max_length=100, help_text="Its address: /seasons/<slug>/.")
    first_day = models.DateField("first day")
    last_day = models.DateField(
        "last day", help_text="The season's matchdays are those from its first day to this one."
    )
    start = models.CharField(max_length=12, choices=Start.choices, default=Start.CARRY_OVER)

    objects = club_rows()

    class Meta:
        ordering = ["-first_day"]
        constraints = [
            models.CheckConstraint(condition=Q(first_day__lte=F("last_day")), name="league_season_days_in_order"),
            *unique_in_club("league_season", "name", "slug"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return club_reverse(self.club_id, "league:season", [self.slug])

    @property
    def fresh(self) -> bool:
        return self.start == self.Start.FRESH

    def holds(self, day) -> bool:
        return self.first_day <= day <= self.last_day

    def clean(self) -> None:
        clean_name(self, "name", "season name", 100)
        early = {
            field: f"{day.isoformat()} is before {EARLIEST_DAY.year}; enter the season's own day."
            for field in ("first_day", "last_day")
            if (day := getattr(self, field)) and day < EARLIEST_DAY  # as a matchday's (league.checked)
        }
        if early:
            raise ValidationError(early)
        if self.first_day and self.last_day:
            if self.last_day < self.first_day:
                raise ValidationError({"last_day": "The last day must not be before the first day."})
            clash = overlapping(self).first()
            if clash is not None:
                raise ValidationError(
                    {"first_day": f"This season overlaps {clash.name} ({clash.first_day} to {clash.last_day})."}
                )


def overlapping(season: Season) -> models.QuerySet:
    """The other seasons sharing at least one day with `season`."""
    others = Season.objects.filter(club_id=season.club_id).exclude(pk=season.pk)
    return others.filter(first_day__lte=season.last_day, last_day__gte=season.first_day)
