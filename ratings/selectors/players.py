"""The reads of a player's page: their standings, their history in every table (the points of their
chart and their record) and a page of their matchdays with every table's row in one query.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import NamedTuple

from django.db.models import Count, F, OuterRef, Q, Subquery

from league.models import Game, Matchday, Player, Result, club_setting

from ..models import RatingEntry, RatingTable, Standing
from . import ranks
from .standings import provisional, table_order


class HistoryPoint(NamedTuple):
    """One of a player's matchdays in one table, as their chart and record read it."""

    day: date
    number: int
    rating: float  # after the matchday
    delta: float
    placing: int  # where they finished (partners share their side's)
    matchday_id: int


def played_matchdays(history: dict[int, list[HistoryPoint]]) -> list[tuple[date, int, int]]:
    """(date, number, matchday id) of every matchday in `history` (each table's, from
    `rating_history`), newest first and each once: the rows of the player's one list."""
    seen = {(p.day, p.number, p.matchday_id) for points in history.values() for p in points}
    return sorted(seen, reverse=True)


def matchday_rows(player: Player, matchdays: list[tuple[date, int, int]], games: dict[int, Game]) -> list[RatingEntry]:
    """A row for each of `matchdays` (from `played_matchdays`) in their order: the player's rating
    row there in one of its tables, with `changes`, their row in every table the matchday counted in
    (table id -> row), its matchday and the matchday's game (from `games`,
    every game by id, which the page has read with its tables), the player's `side`, `weight` and
    `points` (on a score sheet; None without one) there, and `players`, the number of sides (a player
    alone is a side of one). One query; the rows' state, which no page shows, is left unread."""
    if not matchdays:
        return []
    ids = [matchday_id for _, _, matchday_id in matchdays]
    alone = Q(side="")
    sides = (
        Result.objects.filter(matchday=OuterRef("matchday_id"))
        .order_by()
        .values("matchday")
        .annotate(n=Count("pk", filter=alone) + Count("side", filter=~alone, distinct=True))
        .values("n")
    )
    # The player's own result at each matchday: one join, shared by the filter and the annotations.
    entries = (
        RatingEntry.objects.filter(player=player, matchday_id__in=ids, matchday__results__player=player)
        .defer("state")
        .select_related("matchday")
        .annotate(
            side=F("matchday__results__side"),
            weight=F("matchday__results__weight"),
            points=F("matchday__results__score"),
            players=Subquery(sides),
        )
    )
    by_matchday: dict[int, list[RatingEntry]] = {}
    for entry in entries:
        by_matchday.setdefault(entry.matchday_id, []).append(entry)
    missing = {found[0].matchday.game_id for found in by_matchday.values()} - games.keys()
    if missing:  # a game without a table of its own (tables are made on the next recompute)
        games = {**games, **Game.objects.in_bulk(missing)}
    rows = []
    for matchday_id in ids:
        found = sorted(by_matchday.get(matchday_id, ()), key=lambda e: e.table_id)
        if not found:
            continue
        row, matchday = found[0], found[0].matchday  # the matchday and its game, once per matchday
        _GAME.set_cached_value(matchday, games[matchday.game_id])
        row.changes = {}
        for entry in found:
            _MATCHDAY.set_cached_value(entry, matchday)
            _PLAYER.set_cached_value(entry, player)
            row.changes[entry.table_id] = entry
        rows.append(row)
    return rows


_GAME = Matchday._meta.get_field("game")
_MATCHDAY, _PLAYER = RatingEntry._meta.get_field("matchday"), RatingEntry._meta.get_field("player")


def player_standings(player: Player, tables: list[RatingTable], today: date) -> list[dict]:
    """The player's rating, rank and field size in every table they have played in, overall first.
    `tables` are every rating table with its game, which the page reads once (the names' tooltips
    need them too). The rank and the field ("#3 of 12") are the table's standings' (`ranks`):
    None where the standings show the player unranked (provisional) or leave them out (inactive).
    One query for the player's standings, one for the latest day, then one per table they are in."""
    by_id = {table.pk: table for table in tables}
    mine = [s for s in Standing.objects.filter(player=player) if s.table_id in by_id]  # not a fresh season's
    latest = ranks.latest_matchday() if mine else None
    below = club_setting("provisional_matchdays")
    rows = []
    for standing in mine:
        table = standing.table = by_id[standing.table_id]
        ranking = ranks.ranking(table, today, latest)
        rank = ranking.rank(player.pk)
        rows.append(
            {
                "table": table,
                "rank": rank,
                "of": ranking.of,
                "standing": standing,
                "provisional": provisional(table, standing, below),
                "inactive": player.pk not in ranking.ranks,
            }
        )
    return sorted(rows, key=lambda row: table_order(row["table"]))


def rating_history(player: Player, table_ids: list[int], until: date | None = None) -> dict[int, list[HistoryPoint]]:
    """Table id -> each of `player`'s matchdays in that table (of `table_ids`), in play order (up to
    `until`, when given): the points of the rating chart, the player's record and the rows of their
    list, read in one query (through the (table, player, date, number) index, one range per table)."""
    history: dict[int, list[HistoryPoint]] = {}
    rows = RatingEntry.objects.filter(player=player, table_id__in=table_ids)
    if until is not None:
        rows = rows.filter(matchday_date__lte=until)
    points: list = []
    for table_id, *point in rows.order_by("table_id", "matchday_date", "matchday_number").values_list(
        "table_id", "matchday_date", "matchday_number", "rating_after", "delta", "placing", "matchday_id"
    ):  # table by table
        if table_id not in history:
            points = history[table_id] = []
        points.append(HistoryPoint(*point))
    return history


RECENT_DAYS = 30  # the record's recent change: over the last month


@dataclass(frozen=True)
class Record:
    """A player's record in one table, as a member checks it down their list of matchdays: wins
    (finished first; partners share their side's placing), podiums (in the first three), the
    highest rating after a matchday, the change at the last matchday, and the sum of the changes at
    the matchdays of the last `RECENT_DAYS` days (today included)."""

    matchdays: int  # or rated attempts, at a game played against deals
    wins: int
    podiums: int | None  # None against deals: an attempt is won or lost
    peak: float
    peak_day: date
    last_change: float
    recent_change: float
    recent_since: date  # the first day counted in the recent change

    @property
    def win_share(self) -> float:
        return self.wins / self.matchdays


def record_of(points: list[HistoryPoint], today: date, *, podiums: bool = True) -> Record | None:
    """The record in `points` (one table's, from `rating_history`, in play order); None without any.
    Without `podiums`, a placing of 1 is a won attempt at a deal and anything else a lost one."""
    if not points:
        return None
    since = today - timedelta(days=RECENT_DAYS - 1)
    peak = max(points, key=lambda p: p.rating)  # the first time it was reached
    return Record(
        matchdays=len(points),
        wins=sum(p.placing == 1 for p in points),
        podiums=sum(p.placing <= 3 for p in points) if podiums else None,
        peak=peak.rating,
        peak_day=peak.day,
        last_change=points[-1].delta,
        recent_change=sum(p.delta for p in points if since <= p.day <= today),
        recent_since=since,
    )
