"""Recomputing the rating tables: from a position on after an edit, everything at once, and a check
that the stored tables agree with a fresh computation.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from league.models import Club, Game, Revision

from .. import engine
from ..deals import engine as deal_engine
from ..models import AttemptRating, DealRating, LevelRating, RatingEntry, RatingTable, Standing

RecomputeError = engine.RecomputeError  # a method that cannot rate a matchday it was given


@transaction.atomic
def rebuild_all(club: Club | None = None) -> int:
    """Rebuild every rating table of the club (of every club when None) from the whole history; the
    rows written."""
    clubs = [club.pk] if club is not None else list(Club.objects.values_list("pk", flat=True))
    tables = _every_table(clubs)
    written = engine.recompute(tables)  # the tables of matchdays
    for table in tables:
        if table.against_deals:
            written += deal_engine.recompute(table)
    Revision.bump(*clubs)
    return written


def _every_table(clubs: list[int]) -> list[RatingTable]:
    """The clubs' tables, the seasons' too, made in step with their games and seasons first."""
    engine.sync_tables(*clubs)
    return list(RatingTable.every.filter(club__in=clubs).select_related("season"))


# What each kind of stored figure is found by (the table's club and slug first), and what it holds.
_FIGURES = {
    "row": (RatingEntry, ("matchday__number", "player__short_name"), ("rating_before", "rating_after", "delta")),
    "standing": (Standing, ("player__short_name",), ("rating", "played", "matchday_number", "matchday_date")),
    "attempt": (
        AttemptRating,
        ("session_date", "position"),
        ("player_after", "deal_after", "level_offset_after"),
    ),
    "deal": (DealRating, ("deal_id",), ("base", "played", "wins", "first_date")),
    "level": (LevelRating, ("level_id",), ("offset", "deals", "average", "attempts", "wins")),
}


def _snapshot(clubs: list[int]) -> dict[str, dict]:
    figures = {}
    for kind, (model, key, values) in _FIGURES.items():
        key = ("table__club__slug", "table__slug", *key)
        rows = model.objects.filter(table__club__in=clubs).values_list(*key, *values)
        figures[kind] = {row[: len(key)]: row[len(key) :] for row in rows}
    return figures


def differences(club: Club | None = None) -> list[str]:
    """How the club's stored tables (every club's when None) differ from a fresh computation of the
    whole history, one line per difference; empty when they agree. Writes nothing (the fresh
    computation is rolled back)."""
    clubs = [club.pk] if club is not None else list(Club.objects.values_list("pk", flat=True))
    with transaction.atomic():
        stored = _snapshot(clubs)
        tables = _every_table(clubs)
        engine.recompute(tables)
        for table in tables:
            if table.against_deals:
                deal_engine.recompute(table)
        fresh = _snapshot(clubs)
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
    games = list(games)
    clubs = {game.club_id for game in games}
    tables = engine.tables_to_recompute(games)
    # A season that ended before `position` has nothing from there on to rate again.
    tables = [t for t in tables if t.season is None or t.season.last_day >= position[0]]
    engine.recompute(tables, since=position)
    Revision.bump(*clubs)
    return tables
