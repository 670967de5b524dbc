"""The grids' pages of matchdays, written out in SQL: the matchdays newest first (all of them, a
game's, or those that count in a rating table) with their games, a page per query.

Through the ORM (a filtered, ordered, sliced `select_related` queryset) a page cost more to compile
than to run, and a home page reads five grids. `tests/test_written_out_reads.py` holds
every page to the ORM's reading of the same matchdays.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection

from league.models import Game, Matchday

from .models import RatingTable

_MATCHDAY_FIELDS = [f.attname for f in Matchday._meta.concrete_fields]
_GAME_FIELDS = [f.attname for f in Game._meta.concrete_fields]
_GAME_ID = _GAME_FIELDS.index("id")
# Only the models' own table and column names are written in; every value is a parameter. The
# columns are named apart (both tables have an id) for the games' union below to order by.
_COLUMNS = [f"m.{f.column}" for f in Matchday._meta.concrete_fields] + [
    f"g.{f.column}" for f in Game._meta.concrete_fields
]
_CHOSEN = ", ".join(f"{column} AS c{n}" for n, column in enumerate(_COLUMNS))
_NEWEST_FIRST = f"c{_COLUMNS.index('m.date')} DESC, c{_COLUMNS.index('m.number')} DESC"
_FROM = f"FROM {Matchday._meta.db_table} m JOIN {Game._meta.db_table} g ON g.id = m.game_id"


class MatchdayPages:
    """Matchdays newest first, as a grid pages them, for a paginator to slice: each slice is one
    query that brings the matchdays' games along. `table`'s matchdays are those of
    `RatingTable.counted`, or those of `games` (ids) when given; `game_id` keeps one game's.

    A table of several games reads its first pages by each game's newest matchdays off the (game,
    date, number) index, merged: filtered by the games' columns, the database may read every
    matchday of the games to sort them. Past `MERGED_ROWS` the filter is cheaper again: a merge sorts
    every game's rows up to the page (figures in docs/performance.md)."""

    MERGED_ROWS = 1000  # bounds the sorting a merge does per game

    def __init__(self, table: RatingTable | None = None, game_id: int | None = None, games: Sequence[int] = ()):
        where, self.params = [], []
        multiple = table is not None and table.scope != RatingTable.Scope.GAME
        self.games = list(games) if multiple and games else None
        if game_id is not None:
            where.append("m.game_id = %s")
            self.params.append(game_id)
        if table is not None and table.scope == RatingTable.Scope.GAME:
            where.append("m.game_id = %s")
            self.params.append(table.game_id)
        elif table is not None and table.scope == RatingTable.Scope.OVERALL:
            where.append("g.official = %s")
            self.params.append(True)
        elif table is not None:  # an unofficial category
            where.append("g.official = %s AND g.category_id = %s")
            self.params += [False, table.category_id]
        self.where = f" WHERE {' AND '.join(where)}" if where else ""

    def count(self) -> int:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*) {_FROM}{self.where}", self.params)  # noqa: S608
            return cursor.fetchone()[0]

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index):
        if not isinstance(index, slice):
            return self[index : index + 1][0]
        start, stop = index.start or 0, index.stop
        if stop is not None and stop <= start:
            return []
        everything = -1 if connection.vendor == "sqlite" else None  # LIMIT's "no limit"
        limit = everything if stop is None else stop - start
        if self.games is None or stop is None or stop > self.MERGED_ROWS:
            sql = f"SELECT {_CHOSEN} {_FROM}{self.where} ORDER BY {_NEWEST_FIRST} LIMIT %s OFFSET %s"  # noqa: S608
            params = [*self.params, limit, start]
        else:  # each game's first `stop` matchdays, merged
            each = f"SELECT * FROM (SELECT {_CHOSEN} {_FROM} WHERE m.game_id = %s ORDER BY {_NEWEST_FIRST} LIMIT %s)"  # noqa: S608
            games = " UNION ALL ".join(f"{each} game_{n}" for n in range(len(self.games)))
            sql = f"SELECT * FROM ({games}) games ORDER BY {_NEWEST_FIRST} LIMIT %s OFFSET %s"  # noqa: S608
            params = [*(value for game in self.games for value in (game, stop)), limit, start]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        games: dict[int, Game] = {}
        width, matchdays = len(_MATCHDAY_FIELDS), []
        for row in rows:
            game_values = row[width:]
            game = games.get(game_values[_GAME_ID])
            if game is None:
                game = games[game_values[_GAME_ID]] = Game.from_db(connection.alias, _GAME_FIELDS, game_values)
            matchday = Matchday.from_db(connection.alias, _MATCHDAY_FIELDS, row[:width])
            Matchday.game.field.set_cached_value(matchday, game)  # as select_related leaves it
            matchdays.append(matchday)
        return matchdays
