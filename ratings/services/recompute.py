"""Recomputing the rating tables: from a position on after an edit, everything at once, and a check
that the stored tables agree with a fresh computation.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from league.models import Game, Revision

from .. import engine
from ..deals import engine as deal_engine
from ..models import AttemptRating, DealRating, LevelRating, RatingEntry, RatingTable, Standing

RecomputeError = engine.RecomputeError  # a method that cannot rate a matchday it was given


@transaction.atomic
def rebuild_all() -> int:
    """Rebuild every rating table from the whole history; the rows written."""
    engine.sync_tables()
    tables = list(RatingTable.every.select_related("season"))  # the seasons' tables too
    written = engine.recompute(tables)  # the tables of matchdays
    for table in tables:
        if table.against_deals:
            written += deal_engine.recompute(table)
    Revision.bump()
    return written


def differences() -> list[str]:
    """How the stored tables differ from a fresh computation of the whole history, one line per
    difference; empty when they agree. Writes nothing (the fresh computation is rolled back)."""

    def keyed(queryset, fields: tuple[str, ...], key: int) -> dict:
        return {row[:key]: row[key:] for row in queryset.values_list(*fields)}

    def snapshot():
        return {
            "row": keyed(
                RatingEntry.objects,
                ("table__slug", "matchday__number", "player__short_name", "rating_before", "rating_after", "delta"),
                3,
            ),
            "standing": keyed(
                Standing.objects,
                ("table__slug", "player__short_name", "rating", "played", "matchday_number", "matchday_date"),
                2,
            ),
            "attempt": keyed(
                AttemptRating.objects,
                ("table__slug", "session_date", "position", "player_after", "deal_after", "level_offset_after"),
                3,
            ),
            "deal": keyed(DealRating.objects, ("table__slug", "deal_id", "base", "played", "wins", "first_date"), 2),
            "level": keyed(
                LevelRating.objects, ("table__slug", "level_id", "offset", "deals", "average", "attempts", "wins"), 2
            ),
        }

    with transaction.atomic():
        stored = snapshot()
        engine.sync_tables()
        tables = list(RatingTable.every.select_related("season"))  # the seasons' tables too
        engine.recompute(tables)
        for table in tables:
            if table.against_deals:
                deal_engine.recompute(table)
        fresh = snapshot()
        transaction.set_rollback(True)
    lines = []
    for kind in stored:
        old, new = stored[kind], fresh[kind]
        for key in sorted(old.keys() | new.keys(), key=str):
            if old.get(key) != new.get(key):
                where = " ".join(str(part) for part in key)
                lines.append(f"{kind} {where}: stored {old.get(key)}, fresh {new.get(key)}")
    return lines


def recompute_from(position: engine.Position, games: Iterable[Game]) -> list[RatingTable]:
    """Recompute, from `position` on, every table that a matchday of any of `games` counts in, and
    move the revision on. Pass the games as they were before an edit as well as after it (an edit
    can move a matchday to another game, or make a game unofficial), so that tables it left are
    corrected too."""
    engine.sync_tables()
    # A season that ended before `position` has nothing from there on to rate again.
    tables = [t for t in engine.tables_counting(games) if t.season is None or t.season.last_day >= position[0]]
    engine.recompute(tables, since=position)
    Revision.bump()
    return tables
