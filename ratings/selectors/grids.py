"""The grids: a rating table's or the results' matchdays as columns and the players as rows.

Their pages of matchdays are written out in SQL: the matchdays newest first (all of them, a
game's, or those that count in a rating table) with their games, a page per query.

Through the ORM (a filtered, ordered, sliced `select_related` queryset) a page cost more to compile
than to run, and a home page reads five grids. `tests/test_written_out_reads.py` holds
every page to the ORM's reading of the same matchdays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import NamedTuple

from django.core.paginator import Page
from django.db import connection

from league.models import Game, Matchday, Player, Result

from ..models import RatingEntry, RatingTable
from .players import model_from_row
from .standings import Span, read_date

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

    def __init__(
        self,
        table: RatingTable | None = None,
        game_id: int | None = None,
        games: Sequence[int] = (),
        until: date | None = None,
        since: date | None = None,
    ):
        where, self.params = [], []
        if table is not None and table.parent_id is not None:  # a season's table: its parent's, within its days
            season = table.season
            since, until = (
                max(since or season.first_day, season.first_day),
                min(until or season.last_day, season.last_day),
            )
            table = table.parent
        # The first and last days shown (a season, a page as at a day), through the (game, date, number) index.
        self.since, self.until = since, until
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
        where.extend(condition for condition, _ in self._bounds())
        self.params.extend(value for _, value in self._bounds())
        self.where = f" WHERE {' AND '.join(where)}" if where else ""

    def _bounds(self) -> list[tuple[str, date]]:
        bounds = [("m.date >= %s", self.since)] if self.since is not None else []
        return bounds + ([("m.date <= %s", self.until)] if self.until is not None else [])

    def newest(self) -> tuple[str, list]:
        """A subquery for the id of the newest of these matchdays, and its parameters."""
        return f"SELECT m.id {_FROM}{self.where} ORDER BY m.date DESC, m.number DESC LIMIT 1", list(self.params)  # noqa: S608

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
            of_game = " AND ".join(["m.game_id = %s", *(condition for condition, _ in self._bounds())])
            each = f"SELECT * FROM (SELECT {_CHOSEN} {_FROM} WHERE {of_game} ORDER BY {_NEWEST_FIRST} LIMIT %s)"  # noqa: S608
            games = " UNION ALL ".join(f"{each} game_{n}" for n in range(len(self.games)))
            sql = f"SELECT * FROM ({games}) games ORDER BY {_NEWEST_FIRST} LIMIT %s OFFSET %s"  # noqa: S608
            days = [value for _, value in self._bounds()]
            each_params = [[game, *days, stop] for game in self.games]
            params = [*(value for values in each_params for value in values), limit, start]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        games: dict[int, Game] = {}
        width, matchdays = len(_MATCHDAY_FIELDS), []
        for row in rows:
            game_values = row[width:]
            game = games.get(game_values[_GAME_ID])
            if game is None:
                game = games[game_values[_GAME_ID]] = model_from_row(Game, connection.alias, _GAME_FIELDS, game_values)
            matchday = model_from_row(Matchday, connection.alias, _MATCHDAY_FIELDS, row[:width])
            Matchday.game.field.set_cached_value(matchday, game)  # as select_related leaves it
            matchdays.append(matchday)
        return matchdays


def in_join_order(players, table: RatingTable | None = None) -> list[Player]:
    """`players` (or their ids), ordered by their first matchday (in `table`, or anywhere), then by
    the order their results were entered: the column order of the club's tables. One query (two
    for "anywhere"), each player's first matchday in a table one lookup in the index of rating rows
    by (table, player, date, number). Every matchday counts in its game's table, so a player's
    first matchday anywhere is the first of their firsts in the games' tables."""
    ids = [getattr(p, "pk", p) for p in players]
    if not ids:
        return []
    concrete = Player._meta.concrete_fields
    fields = [f.attname for f in concrete]
    with connection.cursor() as cursor:
        if table is not None:
            tables = [table.pk]
        else:
            cursor.execute(_GAME_TABLES, [RatingTable.Scope.GAME])
            tables = [pk for (pk,) in cursor.fetchall()]
        sql = _firsts_sql([f.column for f in concrete], len(tables), len(ids))
        cursor.execute(sql, [t for t in tables for _ in _FIRST] + ids)
        rows = cursor.fetchall()
    width, by_name = len(fields), fields.index("short_name")

    def joined(row):
        starts = []
        for n in range(width, len(row), len(_FIRST)):
            day, number, pk = row[n : n + len(_FIRST)]
            if day is not None:
                starts.append((read_date(day), number, pk))
        return min(starts, default=(date.max, 0, 0)), row[by_name]

    # Plain rows, then players (without `Model.__init__`, see `model_from_row`): a raw queryset's
    # per-row work cost more than the query itself.
    return [model_from_row(Player, connection.alias, fields, row[:width]) for row in sorted(rows, key=joined)]


_GAME_TABLES = f"SELECT id FROM {RatingTable._meta.db_table} WHERE scope = %s"  # noqa: S608


_FIRST = ("matchday_date", "matchday_number", "id")


def _firsts_sql(columns: list[str], tables: int, players: int) -> str:
    """The players, each with the date, number and id of their first rating row in each of `tables`
    tables. Written out: the ORM's version of these subqueries cost more to compile than to run
    (SQLite returns the date as text)."""
    entries, people = RatingEntry._meta.db_table, Player._meta.db_table
    # Only the models' table names, column names and numbers are written in; values are parameters.
    firsts = ", ".join(
        f"(SELECT e.{name} FROM {entries} e WHERE e.table_id = %s AND e.player_id = p.id"  # noqa: S608
        f" ORDER BY e.matchday_date, e.matchday_number LIMIT 1) AS first_{n}_{name}"  # numbers are unique
        for n in range(tables)
        for name in _FIRST
    )
    chosen = ", ".join(f"p.{name}" for name in columns)
    return f"SELECT {chosen}, {firsts} FROM {people} p WHERE p.id IN ({', '.join(['%s'] * players)})"  # noqa: S608


class CellNote(NamedTuple):
    """What explains a rating earned at a matchday: the change and the pieces it came from. A named
    tuple: a grid makes one per rating earned on its page, and a frozen dataclass sets every field
    through `object.__setattr__`."""

    delta: float
    rated_placing: int
    placing: int
    players: int
    expected: float
    k: float | None


@dataclass
class GridRow:
    matchday: Matchday
    cells: dict[int, object] = field(default_factory=dict)  # player id -> value shown
    notes: dict[int, CellNote] = field(default_factory=dict)  # player id -> why it changed (played)


@dataclass
class Grid:
    players: list[Player]
    rows: list[GridRow]


def grid_matchdays(
    table: RatingTable, span: Span, until: date | None = None, since: date | None = None
) -> MatchdayPages:
    """The table's matchdays newest first (from `since`, up to `until`), as a grid pages them (with
    their games); `span` is the table's, from `spans`, which names the games played in it."""
    return MatchdayPages(table, games=span.games, until=until, since=since)


# Through the unique (matchday, table, player) index. Only the model's table and column names are
# written in; columns are qualified, since PostgreSQL reserves "placing" as a bare name.
_GRID_COLUMNS = ("matchday_id", "player_id", "rating_before", "rating_after", "delta", "expected", "k", "placing")
_GRID_ENTRIES = (
    f"SELECT {', '.join(f'e.{name}' for name in _GRID_COLUMNS)}, e.rated_placing"  # noqa: S608
    f" FROM {RatingEntry._meta.db_table} e WHERE e.table_id = %s AND e.matchday_id IN ({{}})"
)


def rating_grid(table: RatingTable, page: Page) -> Grid:
    """The rating of everyone who played in `page`'s matchdays (a page of `grid_matchdays`) after
    each of them, in play order, players in the order they joined the table.

    A player's rating is carried through the matchdays they missed, and shows the start rating
    before their first, as on the club's page: before a player's first matchday on the page, the
    rating they brought to it. Each rating earned at a matchday comes with its explanation. Two
    queries whatever the length of the history: the page's rating rows, and its players.
    """
    matchdays = list(page.object_list)[::-1]  # pages run newest first, each read in play order
    if not matchdays:
        return Grid([], [])
    played: dict[int, dict[int, tuple]] = {}
    with connection.cursor() as cursor:  # written out: the ORM's compiling cost more than the query
        cursor.execute(_GRID_ENTRIES.format(", ".join(["%s"] * len(matchdays))), [table.pk, *(m.pk for m in matchdays)])
        for matchday_id, player_id, *rest in cursor.fetchall():
            played.setdefault(matchday_id, {})[player_id] = rest
    brought: dict[int, float] = {}  # each player's rating before their first matchday on the page
    for matchday in matchdays:
        for player_id, (rating_before, *_) in played.get(matchday.pk, {}).items():
            brought.setdefault(player_id, rating_before)
    ratings = dict(brought)
    rows = []
    for matchday in matchdays:
        day = played.get(matchday.pk, {})
        notes = {}
        for player_id, (_before, after, delta, expected, k, placing, rated) in day.items():
            rated_placing = rated if rated is not None else placing
            notes[player_id] = CellNote(delta, rated_placing, placing, len(day), expected, k)
            ratings[player_id] = after
        rows.append(GridRow(matchday, dict(ratings), notes))
    return Grid(in_join_order(brought, table), rows)


def results_matchdays(game: Game | None = None, until: date | None = None) -> MatchdayPages:
    """Every matchday (or `game`'s, up to `until`) newest first, as a results grid pages them."""
    return MatchdayPages(game_id=None if game is None else game.pk, until=until)


def results_grid(page: Page, table: RatingTable | None = None) -> Grid:
    """The placing in the club's notation of everyone who played at the matchdays of `page` (a
    page of `results_matchdays`), in play order; players in the order they joined (`table`, or
    the club), absent players have no cell. Points from a score sheet follow the placing ("1 · 26
    pts"), a player on a side names their partners ("1 with K"), and one who played part of the game
    their weight ("2 ×0.5"). Two queries."""
    rows = [GridRow(m) for m in reversed(page.object_list)]
    by_matchday = {row.matchday.pk: row for row in rows}
    results = list(
        Result.objects.filter(matchday__in=list(by_matchday)).only(
            "matchday_id", "player_id", "placing", "rated_placing", "side", "weight", "score"
        )
    )
    sides: dict[tuple[int, str], list[int]] = {}
    for result in results:
        by_matchday[result.matchday_id].cells[result.player_id] = with_points(result.display_placing, result.score)
        if result.side:
            sides.setdefault((result.matchday_id, result.side), []).append(result.player_id)
    players = in_join_order({pk for row in rows for pk in row.cells}, table) if results else []
    if sides or any(r.weight != 1 for r in results):
        names = {p.pk: p.short_name for p in players}
        for result in results:
            side = sides.get((result.matchday_id, result.side), ())
            partners = sorted(names[pk] for pk in side if pk != result.player_id)
            by_matchday[result.matchday_id].cells[result.player_id] = placing_with_side(
                with_points(result.display_placing, result.score), partners, result.weight
            )
    return Grid(players, rows)


def with_points(placing: str, score: int | None) -> str:
    """A placing with the points that gave it, where the score sheet's points were entered ("1 · 26 pts")."""
    return placing if score is None else f"{placing} · {score:,} pts"


def placing_with_side(placing: str, partners: Sequence[str], weight: float) -> str:
    """A results cell: the placing, the partners it was shared with and a weight below 1 ("1 with K, L ×0.5")."""
    text = f"{placing} with {', '.join(partners)}" if partners else placing
    return f"{text} ×{weight:g}" if weight != 1 else text
