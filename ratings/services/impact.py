"""What a write would change before it is made: the write itself, run inside a transaction that is
rolled back, with every table of the club read before and after it. So the preview is exactly what
the save then does, at the cost of the save.

A player's rank is their place among the table's established players, as the standings rank them
with everyone shown (provisional players have none); inactivity is left aside.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date

from django.db import transaction

from league.models import Club, Game, Matchday, Player

from .. import engine
from ..models import RatingTable
from ..selectors.boards import board
from ..selectors.standings import table_order


@dataclass
class Moved:
    """One player's rating and rank in one table, before → after (None: not in the table)."""

    player: Player
    rating: tuple[float | None, float | None]
    rank: tuple[int | None, int | None]


@dataclass
class Impact:
    tables: list[tuple[RatingTable, list[Moved]]]  # only the tables where someone moved
    later_matchdays: int  # matchdays after the earliest one touched, rated again


def impact(club_id: int, write: Callable[[], object], touched: Iterable[tuple[date, int, int]] = ()) -> Impact:
    """The club's tables before and after `write()`, which is undone; `touched` gives the matchdays
    the write changes (date, number, game id), for the count of later matchdays it rates again."""
    touched = list(touched)
    with transaction.atomic():
        before = _boards(club_id)
        players = Player.objects.in_bulk({p for rows in before.values() for p in rows})  # one it deletes too
        write()
        after = _boards(club_id)
        players.update(Player.objects.in_bulk({p for rows in after.values() for p in rows} - players.keys()))
        transaction.set_rollback(True)  # a player it adds was read before this
    tables = {table.pk: table for table in RatingTable.every.filter(club_id=club_id).select_related("season", "game")}
    shown = []
    for pk in sorted(before.keys() | after.keys(), key=lambda pk: table_order(tables[pk]) if pk in tables else ()):
        then, now = before.get(pk, {}), after.get(pk, {})
        moved = [
            Moved(
                players[p],
                (then.get(p, (None, None))[0], now.get(p, (None, None))[0]),
                (then.get(p, (None, None))[1], now.get(p, (None, None))[1]),
            )
            for p in then.keys() | now.keys()
            if then.get(p) != now.get(p)
        ]
        if moved and pk in tables:
            moved.sort(key=lambda m: (m.rank[1] is None, m.rank[1] or 0, -(m.rating[1] or 0), m.player.short_name))
            shown.append((tables[pk], moved))
    return Impact(shown, _later(club_id, touched))


def _boards(club_id: int) -> dict[int, dict[int, tuple[float, int | None]]]:
    """Every table of the club: player id -> (rating, rank)."""
    provisional_below = Club.objects.get(pk=club_id).setting("provisional_matchdays")
    boards = {}
    for table in RatingTable.every.filter(club_id=club_id).select_related("season"):
        boards[table.pk] = {row.player_id: (row.rating, row.rank) for row in board(table, provisional_below).rows}
    return boards


def _later(club_id: int, touched: list[tuple[date, int, int]]) -> int:
    """The matchdays after the earliest touched that count in a table one of them counts in."""
    if not touched:
        return 0
    day, number, _ = min(touched)
    games = Game.objects.filter(pk__in={game for *_, game in touched})
    tables = engine.tables_counting(games)
    counted = [game for game in Game.objects.filter(club_id=club_id) if any(t.counts(game) for t in tables)]
    later = Matchday.objects.filter(club_id=club_id, game__in=counted).from_position(day, number)
    return later.exclude(date=day, number=number).count()
