"""The full recompute done by a plain script, to show what the project costs beyond the work itself.

Both baselines are the same few lines of plain `sqlite3` and Python: read the results in play order,
rate each matchday with the club formula as it comes (each matchday scored once, whatever the
number of tables it counts in), and write every column of a rating row as the rows come
(`executemany` over a generator, nothing held in memory), then each player's standing.

- `bare`: into tables of the same columns with only an integer primary key: no other index, no
  foreign key. The plain minimum, the issue's "bare baseline".
- `with_indexes`: into the project's own tables, replacing their rows (DELETE, then the inserts),
  with all their indexes and foreign keys kept up row by row, as Django's connections check them.

docs/performance.md says why the bare baseline was rewritten (issue 36): it held every result and
every row in lists before writing, and took twice the plain script's time.
"""

from __future__ import annotations

import math
import sqlite3
from collections import Counter
from collections.abc import Iterator
from itertools import groupby

from django.db import connection

from ratings.bulk import ENTRY_COLUMNS, STANDING_COLUMNS

BARE_ENTRIES, BARE_STANDINGS = "bench_bare_entry", "bench_bare_standing"
# The results in play order, with what a matchday's rating needs of it.
RESULTS = (
    "SELECT r.matchday_id, m.date, m.number, m.rounds, m.game_id, r.player_id, r.placing, r.rated_placing,"
    " r.side, r.weight FROM league_result r JOIN league_matchday m ON m.id = r.matchday_id"
    " ORDER BY m.date, m.number, r.id"
)


def _connect() -> sqlite3.Connection:
    db = sqlite3.connect(connection.settings_dict["NAME"])
    # Django turns SQLite's foreign key checks on for every connection; the project's tables are
    # written with them (the bare tables have none to check).
    db.execute("PRAGMA foreign_keys = ON")
    return db


def _counting(db: sqlite3.Connection) -> dict[int, list[int]]:
    """Each game's tables: overall (official games), its own, and its category's (unofficial ones)."""
    tables = db.execute("SELECT id, scope, game_id, category_id FROM ratings_ratingtable").fetchall()
    return {
        game: [
            table
            for table, scope, table_game, table_category in tables
            if (scope == "overall" and official)
            or (scope == "game" and table_game == game)
            or (scope == "category" and not official and table_category == category)
        ]
        for game, official, category in db.execute("SELECT id, official, category_id FROM league_game")
    }


def club_rows(db: sqlite3.Connection, last: dict[int, dict[int, tuple]]) -> Iterator[tuple]:
    """Every table's rating rows under the club formula (ENTRY_COLUMNS), as the matchdays come;
    `last` is filled with each table's players' standings (STANDING_COLUMNS after the player)."""
    counting = _counting(db)
    for table in {table for tables in counting.values() for table in tables}:
        last[table] = {}
    for matchday, group in groupby(db.execute(RESULTS), key=lambda r: r[0]):
        group = list(group)
        _, day, number, rounds, game = group[0][:5]
        n, k = len(group), 10.0 * rounds
        rated = [r[7] if r[7] is not None else r[6] for r in group]
        in_sides = any(r[8] for r in group) or any(r[9] != 1 for r in group)
        tied = Counter(rated)
        scores = [sum(1 - (q - 1) / (n - 1) for q in range(p, p + tied[p])) / tied[p] for p in rated]
        for table in counting[game]:
            standings = last[table]
            before = [standings[r[5]][0] if r[5] in standings else 1500.0 for r in group]
            total = sum(before)
            figures = _in_sides(group, rated, before, k) if in_sides else scores
            for r, rating, figure in zip(group, before, figures, strict=True):
                if in_sides:
                    mean, expected, score, change = figure
                else:
                    score, mean = figure, (total - rating) / (n - 1)
                    expected = 1 / (1 + 10 ** ((mean - rating) / 400))
                    change = k * (score - expected)
                after = float(math.floor(rating + change + 0.5))
                played = standings[r[5]][2] + 1 if r[5] in standings else 1
                standings[r[5]] = (after, None, played, day, number, after - rating)
                yield (
                    (table, matchday, r[5], r[6], r[7], day, number, rating, after)
                    + (mean, expected, score, k, after - rating, played, None)
                )


def _in_sides(group: list[tuple], rated: list[int], before: list[float], k: float) -> list[tuple]:
    """The club formula's M, E, S and change for each player of a matchday played in sides (labelled
    rows): each side at the weighted mean of its players' ratings, each player taking w K (S - E)."""
    sides: dict[str, list[int]] = {}
    for i, row in enumerate(group):
        sides.setdefault(row[8] or f"\0{i}", []).append(i)
    members = list(sides.values())
    ratings = [sum(group[i][9] * before[i] for i in m) / sum(group[i][9] for i in m) for m in members]
    places = [rated[m[0]] for m in members]
    n, tied, total = len(members), Counter(places), sum(ratings)
    by_side = []
    for place, rating in zip(places, ratings, strict=True):
        span = range(place, place + tied[place])
        score = sum(1 - (q - 1) / (n - 1) for q in span) / len(span)
        mean = (total - rating) / (n - 1)
        expected = 1 / (1 + 10 ** ((mean - rating) / 400))
        by_side.append((mean, expected, score))
    figures: list[tuple] = [()] * len(group)
    for m, (mean, expected, score) in zip(members, by_side, strict=True):
        for i in m:
            figures[i] = (mean, expected, score, group[i][9] * k * (score - expected))
    return figures


def _replace(db: sqlite3.Connection, entries: str, standings: str) -> int:
    """Every rating row and standing written afresh into `entries` and `standings`; the rows written."""
    db.execute(f"DELETE FROM {entries}")  # noqa: S608 - our own table names
    db.execute(f"DELETE FROM {standings}")  # noqa: S608
    last: dict[int, dict[int, tuple]] = {}
    marks = ", ".join("?" * len(ENTRY_COLUMNS))
    rows = db.executemany(
        f"INSERT INTO {entries} ({', '.join(ENTRY_COLUMNS)}) VALUES ({marks})",  # noqa: S608
        club_rows(db, last),
    ).rowcount
    # STANDING_COLUMNS: the table, the player, then what `club_rows` keeps of each (rating, state,
    # played, date, number, delta).
    marks = ", ".join("?" * len(STANDING_COLUMNS))
    db.executemany(
        f"INSERT INTO {standings} ({', '.join(STANDING_COLUMNS)}) VALUES ({marks})",  # noqa: S608
        ((table, player, *standing) for table, players in last.items() for player, standing in players.items()),
    )
    db.commit()
    return rows


def with_indexes() -> int:
    """Into the project's tables, with their indexes and foreign keys."""
    db = _connect()
    try:
        return _replace(db, "ratings_ratingentry", "ratings_standing")
    finally:
        db.close()


def prepare_bare() -> None:
    """The bare tables: the rating rows' and standings' columns, an integer primary key, nothing else."""
    db = _connect()
    try:
        for name, columns in ((BARE_ENTRIES, ENTRY_COLUMNS), (BARE_STANDINGS, STANDING_COLUMNS)):
            db.execute(f"DROP TABLE IF EXISTS {name}")
            db.execute(f"CREATE TABLE {name} (id INTEGER PRIMARY KEY, {', '.join(columns)})")
        db.commit()
    finally:
        db.close()


def bare() -> int:
    """Into the bare tables (made by `prepare_bare`)."""
    db = _connect()
    try:
        return _replace(db, BARE_ENTRIES, BARE_STANDINGS)
    finally:
        db.close()


def bare_checksum() -> dict[int, tuple[int, float]]:
    """Per table id: rows and the sum of ratings in the bare tables."""
    db = _connect()
    try:
        sql = f"SELECT table_id, COUNT(*), SUM(rating_after) FROM {BARE_ENTRIES} GROUP BY table_id"  # noqa: S608
        found = db.execute(sql)
        return {table: (count, round(total, 3)) for table, count, total in found}
    finally:
        db.close()
