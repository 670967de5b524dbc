"""Seasons, written here (not in `league`) because a fresh-start season has rating tables of its own:
saving or deleting one creates or deletes them and rates them again from the earliest day it moved.
"""

from __future__ import annotations

from datetime import date

from django.db import transaction

import league.history as history
from league.models import Matchday, Revision, Season

from .. import engine
from ..models import RatingTable


@transaction.atomic
def save_season(season: Season, *, old: Season | None = None) -> list[RatingTable]:
    """Add or change a season (refused, on its fields, when it overlaps another), keep its tables
    in step and rate them again from the earliest day of its old and new dates. `old` is the season
    as stored before the change, read here when not given. Returns the tables recomputed."""
    # Two seasons saved at once would each find no overlap with the other: season writes wait for
    # each other here (a new season has no row of its own to lock).
    engine.wait_for_table_writes(season.club_id)
    season.full_clean()
    if old is None and season.pk is not None:
        old = Season.objects.filter(pk=season.pk).first()
    season.save()
    engine.sync_tables(season.club_id)
    tables = []
    if season.fresh and _rated_differently(old, season):
        days = [season.first_day] + ([old.first_day] if old is not None and old.fresh else [])
        tables = list(season.tables.select_related("season", "parent"))
        _recompute(tables, min(days))
    history.record(season.club_id, [history.saved("season", season, history.fields_of(old))])
    Revision.bump(season.club_id)
    return tables


@transaction.atomic
def delete_season(season: Season) -> None:
    """Delete a season; a fresh-start season's tables and their rows go with it."""
    engine.wait_for_table_writes(season.club_id)
    history.record(season.club_id, history.deleted("season", Season.objects.filter(pk=season.pk)))
    Season.objects.filter(pk=season.pk).delete()
    engine.sync_tables(season.club_id)
    Revision.bump(season.club_id)


def _rated_differently(old: Season | None, new: Season) -> bool:
    """Whether the season's tables hold other matchdays than before (its name and slug rate nothing)."""
    return old is None or (old.first_day, old.last_day, old.start) != (new.first_day, new.last_day, new.start)


def _recompute(tables: list[RatingTable], day: date) -> None:
    """Rate `tables` again from the first matchday on or after `day` (none: no rows to change)."""
    first = Matchday.objects.filter(date__gte=day).in_play_order().first()
    if first is not None:
        engine.recompute(tables, since=first.position)
