"""What deleting matchdays does to the ratings, read before and after: the tables recomputed from
which matchday (for the admin's confirmation page) and the players' ratings that moved (for its
message afterwards, as a save reports its changes)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from league.models import Matchday

from ..models import RatingTable, Standing


@dataclass(frozen=True)
class Recompute:
    table: RatingTable
    later_matchdays: int  # matchdays of the table after the first deleted one, rated again


def recomputed_by_deleting(matchdays: Sequence[Matchday]) -> tuple[Matchday | None, list[Recompute]]:
    """The first of `matchdays` in play order, and each table they count in with how many of its
    other matchdays from there on are rated again (one query per table)."""
    if not matchdays:
        return None, []
    first = min(matchdays, key=lambda m: m.position)
    ids = [m.pk for m in matchdays]
    tables = RatingTable.every.filter(entries__matchday__in=ids).distinct().select_related("season").order_by("pk")
    recomputes = []
    for table in tables:
        # Every matchday a table counts has its rows there: counted off the matchdays' own index.
        later = Matchday.objects.filter(table.counted()).from_position(*first.position).exclude(pk__in=ids).count()
        recomputes.append(Recompute(table, later))
    return first, recomputes


def ratings_now(tables: Iterable[RatingTable]) -> dict[tuple[str, str], float]:
    """{(table name, player short name): current rating} in `tables` (a season's table named with its season)."""
    names = {table.pk: str(table) for table in tables}
    rows = Standing.objects.filter(table__in=list(names)).values_list("table_id", "player__short_name", "rating")
    return {(names[table], player): rating for table, player, rating in rows}


def moved(before: dict, after: dict) -> list[tuple[str, str, float | None, float | None]]:
    """(table, player, rating before, rating after) of every rating that changed or went away, in
    table then player order; None where a player has no rating (any more)."""
    keys = sorted(before.keys() | after.keys())
    return [(t, p, before.get((t, p)), after.get((t, p))) for t, p in keys if before.get((t, p)) != after.get((t, p))]
