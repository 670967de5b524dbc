"""The reads of a player's page, written out in SQL: their standings, the points of their chart and
all their tables' pages of rows in one query.

Read through the ORM (correlated counts, joins, a query per table) these queries cost more to
compile than to run, and the page shows little of a long history (figures in docs/performance.md).
"""

from __future__ import annotations

from datetime import date

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
_COLUMNS = ", ".join(  # named apart: both tables have an id, and a union's subqueries are read by *
    f"{column} AS c{at}"
    for at, column in enumerate(
        [*(f"e.{f.column}" for f in _ENTRY_FIELDS), *(f"m.{f.column}" for f in _MATCHDAY_FIELDS)]
    )
)
_PAGE = f"""
SELECT {_COLUMNS}, mine.side AS side, mine.weight AS weight,
       (SELECT COUNT(DISTINCT CASE WHEN r.side = '' THEN 'p' || r.id ELSE r.side END)
        FROM {Result._meta.db_table} r WHERE r.matchday_id = e.matchday_id) AS players
FROM {RatingEntry._meta.db_table} e JOIN {Matchday._meta.db_table} m ON m.id = e.matchday_id
JOIN {Result._meta.db_table} mine ON mine.matchday_id = e.matchday_id AND mine.player_id = e.player_id
WHERE e.table_id = %s AND e.player_id = %s
ORDER BY e.matchday_date DESC, e.matchday_number DESC LIMIT %s OFFSET %s
"""  # noqa: S608
# A page as at a day: only the rows up to it.
_PAGE_UNTIL = _PAGE.replace("AND e.player_id = %s", "AND e.player_id = %s AND e.matchday_date <= %s")


def entry_pages(
    player: Player, pages: dict[int, range], games: dict[int, Game], until: date | None = None
) -> dict[int, list[RatingEntry]]:
    """For each table id, the rows at `pages[table id]` (positions newest first, as the page's pager
    counts them) of `player`'s history in that table, newest first. Each row comes with its matchday
    and the matchday's game (`entry.matchday.game`, from `games`, every game by id, which the page
    has read with its tables), the player's `side` and `weight` there, and `players`, the number of
    sides at the matchday (a player alone is a side of one: without partners, the players). One query,
    whatever the number of tables. With `until`, the history ends that day."""
    wanted = [(table_id, rows) for table_id, rows in pages.items() if len(rows)]
    found: dict[int, list[RatingEntry]] = {table_id: [] for table_id in pages}
    if not wanted:
        return found
    each = _PAGE if until is None else _PAGE_UNTIL
    sql = " UNION ALL ".join(f"SELECT * FROM ({each}) page_{n}" for n in range(len(wanted)))  # noqa: S608
    mine = [player.pk] if until is None else [player.pk, until]
    params = [value for table_id, rows in wanted for value in (table_id, *mine, len(rows), rows.start)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    split = len(_ENTRY_NAMES)
    game_at = split + _MATCHDAY_NAMES.index("game_id")
    missing = {row[game_at] for row in rows} - games.keys()
    if missing:  # a game without a table of its own (tables are made on the next recompute)
        games = {**games, **Game.objects.in_bulk(missing)}
    alias = connection.alias
    for row in rows:
        row = list(row)
        for at in _DATES:  # dates, whether or not the backend converted them (SQLite goes by declared types)
            row[at] = read_date(row[at])
        entry = model_from_row(RatingEntry, alias, _ENTRY_NAMES, row[:split])
        matchday = model_from_row(Matchday, alias, _MATCHDAY_NAMES, row[split:-3])
        _GAME.set_cached_value(matchday, games[matchday.game_id])
        _MATCHDAY.set_cached_value(entry, matchday)
        _PLAYER.set_cached_value(entry, player)
        entry.side, entry.weight, entry.players = row[-3:]
        found[entry.table_id].append(entry)
    for entries in found.values():  # each page's order: a union keeps none
        entries.sort(key=lambda e: (e.matchday_date, e.matchday_number), reverse=True)
    return found


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
            continue  # a fresh-start season's table: the season's page shows it
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


def rating_history(
    player: Player, table_ids: list[int], until: date | None = None
) -> dict[int, list[tuple[date, int, float]]]:
    """Table id -> (date, matchday number, rating after) of each of `player`'s matchdays in each of
    `table_ids`, in play order (up to `until`, when given): the points of the rating chart, read as
    plain tuples in one query (through the (table, player, date, number) index, one range per table)."""
    history: dict[int, list[tuple[date, int, float]]] = {}
    if not table_ids:
        return history
    marks = ", ".join(["%s"] * len(table_ids))
    up_to, params = ("", []) if until is None else (" AND matchday_date <= %s", [until])
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT table_id, matchday_date, matchday_number, rating_after FROM {RatingEntry._meta.db_table}"  # noqa: S608
            f" WHERE player_id = %s AND table_id IN ({marks}){up_to} ORDER BY table_id, matchday_date, matchday_number",
            [player.pk, *table_ids, *params],
        )
        points: list = []
        for table_id, day, number, rating in cursor.fetchall():  # table by table
            if table_id not in history:
                points = history[table_id] = []
            points.append((read_date(day), number, rating))
    return history
