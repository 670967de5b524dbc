"""Standings as they stood at the end of a day, read from the stored rating rows, and the moves
between two days.

A player's standing at a day is their last rating row on or before it: the engine carries nothing
else from one matchday to the next (ratings/engine.py resumes from those rows too), so it equals a
rating of only the matchdays up to that day. Each read is one query per table, never a scan of the
history: everyone's standing is one step per player down the (table, player, date, number) index
to their last row; the standings with inactive players hidden read instead the rows of the days of
activity from the (table, date, number) index, which holds what a ranking needs. Seasons read their
tables through these too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db import connection
from django.db.models import Q

from league.models import Attempt, DealSession, FormerName, Matchday, Player

from ..models import PLAY_ORDER_INDEX, AttemptRating, RatingEntry, RatingTable, Standing
from .overview import DirectoryRow
from .standings import StandingRow, judges_from_state, provisional, read_date, settling, table_order


@dataclass
class Rated:
    """A player's standing in one table at a day, shaped like `Standing` (`provisional` reads it)."""

    player_id: int
    rating: float
    state: dict | None
    matchday_date: date  # their last matchday (or session) on or before the day
    delta: float  # the change at that matchday
    played: int | None  # matchdays up to the day (a deal game's rows: counted by `count_played`)
    rank: int | None = 0  # None: provisional, listed after the ranked players


# Only the models' table and column names are written in; the day and the table are parameters.
# The inner SELECT finds each player's last row by the history index; the outer reads those rows
# by their ids, best first (ties by short name, as the current standings). SQLite plans this as a
# seek per player; PostgreSQL would hash the whole history for the IN, so it gets a LATERAL join
# (a backward index scan per player) instead.
_LAST_ROWS = """
SELECT e.player_id, e.{rating}, {state}, {last}, e.delta, {played}
FROM {rows} e JOIN {players} p ON p.id = e.player_id
WHERE e.id IN (
  SELECT (SELECT x.id FROM {rows} x
          WHERE x.table_id = s.table_id AND x.player_id = s.player_id AND x.{day} <= %s
          ORDER BY x.{day} DESC, x.{order} DESC LIMIT 1)
  FROM {standings} s WHERE s.table_id = %s
)
ORDER BY e.{rating} DESC, p.short_name
"""
_LAST_ROWS_LATERAL = """
SELECT e.player_id, e.{rating}, {state}, {last}, e.delta, {played}
FROM {standings} s JOIN {players} p ON p.id = s.player_id
CROSS JOIN LATERAL (
  SELECT * FROM {rows} x
  WHERE x.table_id = s.table_id AND x.player_id = s.player_id AND x.{day} <= %s
  ORDER BY x.{day} DESC, x.{order} DESC LIMIT 1
) e
WHERE s.table_id = %s
ORDER BY e.{rating} DESC, p.short_name
"""
_MATCHDAY_COLUMNS = {
    "rows": RatingEntry._meta.db_table,
    "players": Player._meta.db_table,
    "standings": Standing._meta.db_table,
    "rating": "rating_after",
    "state": "e.state",
    "last": "e.matchday_date",
    "day": "matchday_date",
    "order": "matchday_number",
    "played": "e.played",
}
# A game played against deals keeps a row per rated attempt; its standings carry no state or number,
# and a player's last day is that of their last attempt, rated or not (ratings/deals/engine.py).
_ATTEMPT_COLUMNS = {
    **_MATCHDAY_COLUMNS,
    "rows": AttemptRating._meta.db_table,
    "rating": "player_after",
    "state": "NULL",
    "last": f"(SELECT MAX(d.date) FROM {Attempt._meta.db_table} a JOIN {DealSession._meta.db_table} d"  # noqa: S608
    " ON d.id = a.session_id WHERE a.player_id = e.player_id AND d.game_id = %s AND d.date <= %s)",
    "day": "session_date",
    "order": "position",
    "played": "NULL",
}
MATCHDAY_LAST_ROWS, ATTEMPT_LAST_ROWS = (_LAST_ROWS.format(**c) for c in (_MATCHDAY_COLUMNS, _ATTEMPT_COLUMNS))
LATERAL = {_LAST_ROWS.format(**c): _LAST_ROWS_LATERAL.format(**c) for c in (_MATCHDAY_COLUMNS, _ATTEMPT_COLUMNS)}
_STATE = RatingEntry._meta.get_field("state")


def last_rows_sql(table: RatingTable) -> str:
    """The read of each player's last row in `table`, as the database plans it best."""
    sql = ATTEMPT_LAST_ROWS if table.against_deals else MATCHDAY_LAST_ROWS
    return LATERAL[sql] if connection.vendor == "postgresql" else sql


def ratings_at(table: RatingTable, day: date) -> list[Rated]:
    """Every player rated in `table` by the end of `day`, best first (equal ratings by short name),
    unranked. One query."""
    params = [table.game_id, day, day, table.pk] if table.against_deals else [day, table.pk]
    with connection.cursor() as cursor:
        cursor.execute(last_rows_sql(table), params)
        found = cursor.fetchall()
    return rated(found)


def rated(found: list[tuple]) -> list[Rated]:
    """`Rated` of rows read as (player, rating, state, last day, change, matchdays)."""
    read_state = _STATE.from_db_value
    return [
        Rated(player, rating, state if state is None else read_state(state, None, connection), read_date(on), delta, n)
        for player, rating, state, on, delta, n in found
    ]


@dataclass
class Ranking:
    rows: list[Rated]  # best first, ranked
    hidden: bool = False  # whether players were left out as inactive


def ranked_at(
    table: RatingTable, day: date, active_since: date | None = None, provisional_below: int | None = None
) -> Ranking:
    """The table's ranking at the end of `day`, best first; with `active_since`, players whose last
    matchday is older are left out and not ranked, as the standings hide them. Equal ratings share
    a rank (1, 2, 2, 4). With `provisional_below`, the players provisional that day come after the
    ranked ones, unranked, as today's boards list them (`boards.split`). One query (two for a
    matchday table's active players)."""
    if active_since is not None and not table.against_deals:
        rows, hidden = active_ratings_at(table, active_since, day), anyone_inactive(table, active_since, day)
    else:
        everyone = ratings_at(table, day)
        rows = everyone if active_since is None else [row for row in everyone if row.matchday_date >= active_since]
        hidden = len(rows) < len(everyone)
    settling = []
    if provisional_below is not None and not table.against_deals:
        provisional = provisional_players(table, rows, provisional_below)
        settling = [row for row in rows if row.player_id in provisional]
        rows = [row for row in rows if row.player_id not in provisional]
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and rows[i - 1].rating == row.rating else i + 1
    for row in settling:
        row.rank = None
    return Ranking([*rows, *settling], hidden)


# Each player's last row in the days of activity, the one with the highest running count, read
# from the (table, date, number) index alone: it holds all a ranking reads but the state (read from
# the rows where the method judges provisional from it). Reading the window costs less than a seek
# per player (docs/performance.md). SQLite takes a bare column from the row of its MAX();
# PostgreSQL says the same with DISTINCT ON. Best first, ties by short name, as `_LAST_ROWS`.
_ROWS, _STANDINGS = RatingEntry._meta.db_table, Standing._meta.db_table
_WINDOW_ROWS = """
SELECT w.player_id, w.rating_after, w.state, w.matchday_date, w.delta, w.played
FROM ({last}) w JOIN {players} p ON p.id = w.player_id
ORDER BY w.rating_after DESC, p.short_name
"""
_LAST_IN_WINDOW = {
    # Told which index: for its GROUP BY, SQLite would rather walk the player's index through the whole table.
    "sqlite": "SELECT e.player_id, e.rating_after, {state} AS state, e.matchday_date, e.delta, MAX(e.played) AS played"
    " FROM {rows} e INDEXED BY {index} WHERE e.table_id = %s AND e.matchday_date >= %s AND e.matchday_date <= %s"
    " GROUP BY e.player_id",
    "postgresql": "SELECT DISTINCT ON (e.player_id) e.player_id, e.rating_after, {state} AS state, e.matchday_date,"
    " e.delta, e.played FROM {rows} e WHERE e.table_id = %s AND e.matchday_date >= %s AND e.matchday_date <= %s"
    " ORDER BY e.player_id, e.played DESC",
}
WINDOW_ROWS = {
    (vendor, judged): _WINDOW_ROWS.format(
        last=last.format(rows=_ROWS, state="e.state" if judged else "NULL", index=PLAY_ORDER_INDEX),
        players=Player._meta.db_table,
    )
    for vendor, last in _LAST_IN_WINDOW.items()
    for judged in (False, True)
}
# Whether anyone is hidden: a player of the table with a row before the window and none in it.
ANYONE_INACTIVE = f"""
SELECT EXISTS (SELECT 1 FROM {_STANDINGS} s WHERE s.table_id = %s
  AND s.player_id NOT IN (
    SELECT w.player_id FROM {_ROWS} w WHERE w.table_id = %s AND w.matchday_date >= %s AND w.matchday_date <= %s)
  AND EXISTS (
    SELECT 1 FROM {_ROWS} x WHERE x.table_id = s.table_id AND x.player_id = s.player_id AND x.matchday_date < %s))
"""  # noqa: S608


def active_ratings_at(table: RatingTable, since: date, day: date) -> list[Rated]:
    """The players of a matchday table who played between `since` and `day`, at the end of `day`,
    best first (equal ratings by short name), unranked. One query."""
    vendor = "postgresql" if connection.vendor == "postgresql" else "sqlite"
    sql = WINDOW_ROWS[vendor, judges_from_state(table.rating_method)]
    with connection.cursor() as cursor:
        cursor.execute(sql, [table.pk, since, day])
        return rated(cursor.fetchall())


def anyone_inactive(table: RatingTable, since: date, day: date) -> bool:
    """Whether a player of the matchday table had played by `day` but not since `since`. One query."""
    with connection.cursor() as cursor:
        cursor.execute(ANYONE_INACTIVE, [table.pk, table.pk, since, day, since])
        return bool(cursor.fetchone()[0])


def provisional_players(table: RatingTable, rows: list[Rated], below: int) -> set[int]:
    """The players of `rows` (a day's last rows) provisional at the end of that day: by the method's
    own say from their state then, or else with fewer than `below` matchdays by then."""
    method, params = table.rating_method, table.method_params()
    return {row.player_id for row in rows if settling(method, params, row.state, row.played, below)}


_PLAYED = (
    "SELECT player_id, COUNT(*) FROM {rows} WHERE table_id = %s AND {day} <= %s AND player_id IN ({ids})"
    " GROUP BY player_id"
)


def count_played(table: RatingTable, day: date, rows: list[Rated]) -> None:
    """Set `played` (rated attempts up to `day`) on `rows` of a deal game, the few a page shows: one
    query counting their part of the history index. A matchday's row carries its own count."""
    if not rows or not table.against_deals:
        return
    sql = _PLAYED.format(rows=AttemptRating._meta.db_table, day="session_date", ids=", ".join(["%s"] * len(rows)))
    with connection.cursor() as cursor:
        cursor.execute(sql, [table.pk, day, *(row.player_id for row in rows)])
        counts = dict(cursor.fetchall())
    for row in rows:
        row.played = counts.get(row.player_id, 0)


def standing_rows_at(table: RatingTable, day: date, rows: list[Rated], provisional_below: int = 0) -> list[StandingRow]:
    """`rows` (a page of `ranked_at`) as the standings show them, each player's matchdays and
    provisional mark those of `day`. One query for the players (and one counting a deal game's attempts)."""
    count_played(table, day, rows)
    players = Player.objects.in_bulk([row.player_id for row in rows])
    return [
        StandingRow(
            row.rank,
            players[row.player_id],
            row.rating,
            row.played,
            row.matchday_date,
            row.delta,
            provisional(table, row, provisional_below),
        )
        for row in rows
    ]


@dataclass
class ComparedRow(StandingRow):
    """A standing with its move since an earlier day: `change` of rating and `movement` in places
    (up is positive); both None for a player not in the earlier day's standings."""

    change: float | None = None
    movement: int | None = None


def compared(rows: list[StandingRow], earlier: list[Rated]) -> list[ComparedRow]:
    """`rows` (a later day's standings) with each player's change since `earlier` (the earlier day's
    `ranked_at`)."""
    before = {row.player_id: row for row in earlier}
    out = []
    for row in rows:
        then = before.get(row.player.pk)
        out.append(
            ComparedRow(
                **vars(row),
                change=None if then is None else row.rating - then.rating,
                movement=None if then is None or None in (then.rank, row.rank) else then.rank - row.rank,
            )
        )
    return out


def first_day() -> date | None:
    """The day of the league's first matchday or solitaire session (two index lookups)."""
    days = [
        Matchday.objects.order_by("date").values_list("date", flat=True).first(),
        DealSession.objects.order_by("date").values_list("date", flat=True).first(),
    ]
    return min((d for d in days if d is not None), default=None)


def player_standings_at(player: Player, tables: list[RatingTable], day: date, provisional_below: int = 0) -> list[dict]:
    """The player's rating, rank, field size and provisional mark at the end of `day` in every table
    they had played in by then, overall first: the shape of `players.player_standings`, whose
    `standing` is here a `Rated`. One query per table (two for a deal game's, counting attempts)."""
    rows = []
    for table in tables:
        ranking = ranked_at(table, day).rows
        mine = next((row for row in ranking if row.player_id == player.pk), None)
        if mine is None:
            continue
        count_played(table, day, [mine])
        rows.append(
            {
                "table": table,
                "rank": mine.rank,
                "of": len(ranking),
                "standing": mine,
                "provisional": provisional(table, mine, provisional_below),
            }
        )
    return sorted(rows, key=lambda row: table_order(row["table"]))


_PLAYED_BY = """
SELECT player_id, COUNT(*), MAX({day}) FROM {rows} WHERE table_id IN ({tables}) AND {day} <= %s GROUP BY player_id
"""


def directory_at(search: str, order: str, day: date) -> list[DirectoryRow]:
    """The players directory at the end of `day`: everyone who had played by then whose full, short
    or former name contains `search` (any case), in `order` (a key of `overview.DIRECTORY_ORDER`),
    with their overall rating and rank, matchdays (every game's), attempts at deals and last day. Reads
    every rating row up to the day once (a directory is not a page the club reads often as at a day)."""
    tables = list(RatingTable.objects.filter(scope=RatingTable.Scope.GAME).select_related("game"))
    played: dict[int, list] = {}  # player id -> [matchdays, attempts at deals, last day]
    for kind, source, column in (
        (False, RatingEntry._meta.db_table, "matchday_date"),
        (True, AttemptRating._meta.db_table, "session_date"),
    ):
        ids = [t.pk for t in tables if t.against_deals == kind]
        if not ids:
            continue
        sql = _PLAYED_BY.format(rows=source, day=column, tables=", ".join(["%s"] * len(ids)))
        with connection.cursor() as cursor:
            cursor.execute(sql, [*ids, day])
            for player, count, last in cursor.fetchall():
                counts = played.setdefault(player, [0, 0, None])
                counts[kind] += count  # attempts at deals counted apart, as today's directory does
                last = read_date(last)
                counts[2] = last if counts[2] is None else max(counts[2], last)
    overall = RatingTable.objects.filter(scope=RatingTable.Scope.OVERALL).first()
    ranks = {row.player_id: row for row in ranked_at(overall, day).rows} if overall else {}
    players = Player.objects.filter(pk__in=list(played))
    if search:
        former = FormerName.objects.filter(name__icontains=search).values("player_id")
        players = players.filter(Q(name__icontains=search) | Q(short_name__icontains=search) | Q(pk__in=former))
    rows = []
    for p in players:
        rated = ranks.get(p.pk)
        rows.append(DirectoryRow(p, rated and rated.rating, rated and rated.rank, *played[p.pk]))
    by_name = sorted(rows, key=lambda r: (r.player.name, r.player.short_name))
    if order == "rating":  # stable sorts: the name breaks ties
        return sorted(by_name, key=lambda r: (r.rating is None, -(r.rating or 0)))
    if order == "last-played":
        return sorted(by_name, key=lambda r: (r.last_played is None, -(r.last_played or date.min).toordinal()))
    return by_name
