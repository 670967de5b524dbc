"""The grids' pages of matchdays, written out in SQL: the matchdays newest first (all of them, a
game's, or those that count in a rating table) with their games, a page per query.

Through the ORM (a filtered, ordered, sliced `select_related` queryset) a page cost more to compile
than to run: about 1.3 ms a grid, five grids a home page. `tests/test_written_out_reads.py` holds
every page to the ORM's reading of the same matchdays.
"""

from __future__ import annotations

from django.db import connection

from league.models import Game, Matchday

from .models import RatingTable

_MATCHDAY_FIELDS = [f.attname for f in Matchday._meta.concrete_fields]
_GAME_FIELDS = [f.attname for f in Game._meta.concrete_fields]
_GAME_ID = _GAME_FIELDS.index("id")
# Only the models' own table and column names are written in; every value is a parameter.
_CHOSEN = ", ".join(
    [f"m.{f.column}" for f in Matchday._meta.concrete_fields] + [f"g.{f.column}" for f in Game._meta.concrete_fields]
)
_FROM = f"FROM {Matchday._meta.db_table} m JOIN {Game._meta.db_table} g ON g.id = m.game_id"


class MatchdayPages:
    """Matchdays newest first, as a grid pages them, for a paginator to slice: each slice is one
    query that brings the matchdays' games along. `table`'s matchdays are those of
    `RatingTable.counted`; `game_id` keeps one game's."""

    def __init__(self, table: RatingTable | None = None, game_id: int | None = None):
        where, self.params = [], []
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
        sql = f"SELECT {_CHOSEN} {_FROM}{self.where} ORDER BY m.date DESC, m.number DESC LIMIT %s OFFSET %s"  # noqa: S608
        limit = -1 if stop is None and connection.vendor == "sqlite" else None if stop is None else stop - start
        with connection.cursor() as cursor:
            cursor.execute(sql, [*self.params, limit, start])
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
