"""The reads of a player's page, written out in SQL: their standings, their history in every table
(the points of their chart and their record) and a page of their matchdays with every table's row in
one query.

Read through the ORM (correlated counts, joins, a query per table) these queries cost more to
compile than to run, and the page shows little of a long history (figures in docs/performance.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import NamedTuple

from django.db import connection
from django.db.models.base import ModelState

from league.models import Game, Matchday, Player, Result

from ..models import RatingEntry, RatingTable, Standing
from .standings import provisional, read_date, table_order

# Only the models' own table names are written in; tables, player and the page's rows are parameters.
# A row's columns but its state, which no page shows, then its matchday's.
_ENTRY_FIELDS = [f for f in RatingEntry._meta.concrete_fields if f.name != "state"]
_MATCHDAY_FIELDS = Matchday._meta.concrete_fields
_ENTRY_NAMES, _MATCHDAY_NAMES = [f.attname for f in _ENTRY_FIELDS], [f.attname for f in _MATCHDAY_FIELDS]
_DATES = [at for at, f in enumerate([*_ENTRY_FIELDS, *_MATCHDAY_FIELDS]) if f.get_internal_type() == "DateField"]
_COLUMNS = ", ".join(  # named apart: both tables have an id
    f"{column} AS c{at}"
    for at, column in enumerate(
        [*(f"e.{f.column}" for f in _ENTRY_FIELDS), *(f"m.{f.column}" for f in _MATCHDAY_FIELDS)]
    )
)
_ROWS = f"""
SELECT {_COLUMNS}, mine.side AS side, mine.weight AS weight, mine.score AS points,
       (SELECT COUNT(DISTINCT CASE WHEN r.side = '' THEN 'p' || r.id ELSE r.side END)
        FROM {Result._meta.db_table} r WHERE r.matchday_id = e.matchday_id) AS players
FROM {RatingEntry._meta.db_table} e JOIN {Matchday._meta.db_table} m ON m.id = e.matchday_id
JOIN {Result._meta.db_table} mine ON mine.matchday_id = e.matchday_id AND mine.player_id = e.player_id
WHERE e.player_id = %s AND e.matchday_id IN ({{marks}})
"""  # noqa: S608


class Played(NamedTuple):
    """One of a player's matchdays in one table, as their chart and record read it."""

    day: date
    number: int
    rating: float  # after the matchday
    delta: float
    placing: int  # where they finished (partners share their side's)
    matchday_id: int


def played_matchdays(history: dict[int, list[Played]]) -> list[tuple[date, int, int]]:
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
    alone is a side of one). One query."""
    if not matchdays:
        return []
    ids = [matchday_id for _, _, matchday_id in matchdays]
    sql = _ROWS.format(marks=", ".join(["%s"] * len(ids)))
    with connection.cursor() as cursor:
        cursor.execute(sql, [player.pk, *ids])
        rows = cursor.fetchall()
    split = len(_ENTRY_NAMES)
    game_at = split + _MATCHDAY_NAMES.index("game_id")
    missing = {row[game_at] for row in rows} - games.keys()
    if missing:  # a game without a table of its own (tables are made on the next recompute)
        games = {**games, **Game.objects.in_bulk(missing)}
    alias, firsts = connection.alias, {}
    for row in rows:
        row = list(row)
        for at in _DATES:  # dates, whether or not the backend converted them (SQLite goes by declared types)
            row[at] = read_date(row[at])
        entry = model_from_row(RatingEntry, alias, _ENTRY_NAMES, row[:split])
        entry.side, entry.weight, entry.points, entry.players = row[-4:]
        first = firsts.get(entry.matchday_id)
        if first is None:  # the matchday's first row: its matchday, read once
            first = firsts[entry.matchday_id] = entry
            matchday = model_from_row(Matchday, alias, _MATCHDAY_NAMES, row[split:-4])
            _GAME.set_cached_value(matchday, games[matchday.game_id])
            entry.changes = {}
        else:
            matchday = _MATCHDAY.get_cached_value(first)
        _MATCHDAY.set_cached_value(entry, matchday)
        _PLAYER.set_cached_value(entry, player)
        first.changes[entry.table_id] = entry
    return [firsts[matchday_id] for matchday_id in ids if matchday_id in firsts]


def model_from_row(model, alias: str, names: list[str], values: list):
    """What `model.from_db(alias, names, values)` makes (a saved instance, the fields it was not given
    deferred), without `Model.__init__`, whose per-field descriptors and init signals cost more than
    the read itself. Only for models whose
    fields are plain values, with no receiver of `pre_init`/`post_init` (tests hold both)."""
    instance = model.__new__(model)
    instance.__dict__.update(zip(names, values, strict=True))
    instance._state = ModelState()
    instance._state.adding, instance._state.db = False, alias
    return instance


_GAME = Matchday._meta.get_field("game")
_MATCHDAY, _PLAYER = RatingEntry._meta.get_field("matchday"), RatingEntry._meta.get_field("player")


_STANDING = Standing._meta.db_table
_STANDINGS = f"""
SELECT s.*,
       (SELECT COUNT(*) FROM {_STANDING} b WHERE b.table_id = s.table_id AND b.rating > s.rating) AS above,
       (SELECT COUNT(*) FROM {_STANDING} f WHERE f.table_id = s.table_id) AS field_size
FROM {_STANDING} s WHERE s.player_id = %s
"""  # noqa: S608


def player_standings(player: Player, tables: list[RatingTable], provisional_below: int = 0) -> list[dict]:
    """The player's rating, rank and field size in every table they have played in, overall first.
    `tables` are every rating table with its game, which the page reads once (the names' tooltips
    need them too). One query, each rank and field size counted off the (table, rating) index."""
    by_id = {table.pk: table for table in tables}
    rows = []
    for standing in Standing.objects.raw(_STANDINGS, [player.pk]):
        if standing.table_id not in by_id:
            continue  # a fresh-start season's table: the season pages' to show
        table = standing.table = by_id[standing.table_id]
        rows.append(
            {
                "table": table,
                "rank": 1 + standing.above,
                "of": standing.field_size,
                "standing": standing,
                "provisional": provisional(table, standing, provisional_below),
            }
        )
    return sorted(rows, key=lambda row: table_order(row["table"]))


_HISTORY = f"""
SELECT e.table_id, e.matchday_date, e.matchday_number, e.rating_after, e.delta, e.placing, e.matchday_id
FROM {RatingEntry._meta.db_table} e WHERE player_id = %s AND table_id IN ({{marks}}){{up_to}}
ORDER BY table_id, matchday_date, matchday_number
"""  # noqa: S608


def rating_history(player: Player, table_ids: list[int], until: date | None = None) -> dict[int, list[Played]]:
    """Table id -> each of `player`'s matchdays in that table (of `table_ids`), in play order (up to
    `until`, when given): the points of the rating chart, the player's record and the rows of their
    list, read in one query (through the (table, player, date, number) index, one range per table)."""
    history: dict[int, list[Played]] = {}
    if not table_ids:
        return history
    marks = ", ".join(["%s"] * len(table_ids))
    with connection.cursor() as cursor:
        up_to, params = ("", []) if until is None else (" AND matchday_date <= %s", [until])
        cursor.execute(_HISTORY.format(marks=marks, up_to=up_to), [player.pk, *table_ids, *params])
        points: list = []
        for table_id, day, *rest in cursor.fetchall():  # table by table
            if table_id not in history:
                points = history[table_id] = []
            points.append(Played(read_date(day), *rest))
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


def record_of(points: list[Played], today: date, *, podiums: bool = True) -> Record | None:
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
