"""The full recompute done by hand, to show what the project costs beyond the work itself.

Both baselines read the results in play order with plain `sqlite3`, apply the club formula in plain
Python over every rating table, and replace (DELETE, then executemany) the rows the engine writes:
every column of a rating row, and each player's standing.

- `with_indexes`: into the project's own tables, with all their indexes and foreign keys checked,
  as Django's connections check them.
- `bare`: into tables of the same columns that have only an integer primary key: no other index,
  no foreign key. The issue's "bare baseline": the cost of the writes themselves.
"""

from __future__ import annotations

import math
import sqlite3
from collections import Counter

from django.db import connection

from ratings.bulk import ENTRY_COLUMNS, STANDING_COLUMNS

BARE_ENTRIES, BARE_STANDINGS = "bench_bare_entry", "bench_bare_standing"


def _connect() -> sqlite3.Connection:
    db = sqlite3.connect(connection.settings_dict["NAME"])
    # Django turns SQLite's foreign key checks on for every connection; the same work includes them
    # (without them SQLite empties a table by truncation and skips the checks on each row written).
    db.execute("PRAGMA foreign_keys = ON")
    return db


def club_rows(db: sqlite3.Connection) -> tuple[list[tuple], list[tuple]]:
    """Every table's rating rows and standings under the club formula, columns as the engine's."""
    tables = db.execute("SELECT id, scope, game_id, category_id FROM ratings_ratingtable").fetchall()
    results = db.execute(
        "SELECT m.id, m.date, m.number, m.rounds, g.id, g.official, g.category_id, r.player_id,"
        " r.placing, r.rated_placing, r.side, r.weight"
        " FROM league_result r JOIN league_matchday m ON m.id = r.matchday_id"
        " JOIN league_game g ON g.id = m.game_id ORDER BY m.date, m.number, r.id"
    ).fetchall()
    matchdays: dict[int, list[tuple]] = {}
    for row in results:
        matchdays.setdefault(row[0], []).append(row)
    rows, standings = [], []
    for table_id, scope, table_game, table_category in tables:
        last: dict[int, list] = {}  # player -> [rating, state, played, date, number, delta]
        for matchday, group in matchdays.items():
            _, day, number, rounds, game, official, category = group[0][:7]
            if scope == "overall":
                counts = official
            elif scope == "game":
                counts = game == table_game
            else:
                counts = not official and category == table_category
            if not counts:
                continue
            n, k = len(group), 10.0 * rounds
            rated = [r[9] if r[9] is not None else r[8] for r in group]
            before = [last[r[7]][0] if r[7] in last else 1500.0 for r in group]
            if any(r[10] for r in group) or any(r[11] != 1 for r in group):
                figures = _in_sides(group, rated, before, k)
            else:
                tied, total, figures = Counter(rated), sum(before), []
                for place, rating in zip(rated, before, strict=True):
                    span = range(place, place + tied[place])
                    score = sum(1 - (q - 1) / (n - 1) for q in span) / len(span)
                    mean = (total - rating) / (n - 1)
                    expected = 1 / (1 + 10 ** ((mean - rating) / 400))
                    figures.append((mean, expected, score, k * (score - expected)))
            for r, rating, (mean, expected, score, change) in zip(group, before, figures, strict=True):
                player = r[7]
                after = float(math.floor(rating + change + 0.5))
                played = last[player][2] + 1 if player in last else 1
                last[player] = [after, None, played, day, number, after - rating]
                values = (table_id, matchday, player, r[8], r[9], day, number, rating, after, mean, expected, score, k)
                rows.append(_entry_row(values, after - rating, played))
        standings.extend((table_id, player, *state) for player, state in last.items())
    return rows, standings


_COMPUTED = ("table_id", "matchday_id", "player_id", "placing", "rated_placing", "matchday_date", "matchday_number")
_COMPUTED += ("rating_before", "rating_after", "opponents_mean", "expected", "score", "k")


def _entry_row(values: tuple, delta: float, played: int) -> tuple:
    """A rating row's columns in the engine's order (ENTRY_COLUMNS), from the values named in _COMPUTED."""
    named = dict(zip(_COMPUTED, values, strict=True), delta=delta, played=played, state=None)
    return tuple(named[c] for c in ENTRY_COLUMNS)


def _in_sides(group: list[tuple], rated: list[int], before: list[float], k: float) -> list[tuple]:
    """The club formula's M, E, S and change for each player of a matchday played in sides (labelled
    rows): each side at the weighted mean of its players' ratings, each player taking w K (S - E)."""
    sides: dict[str, list[int]] = {}
    for i, row in enumerate(group):
        sides.setdefault(row[10] or f"\0{i}", []).append(i)
    members = list(sides.values())
    ratings = [sum(group[i][11] * before[i] for i in m) / sum(group[i][11] for i in m) for m in members]
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
            figures[i] = (mean, expected, score, group[i][11] * k * (score - expected))
    return figures


def _replace(db: sqlite3.Connection, entries: str, standings: str, rows: list, standing_rows: list) -> None:
    db.execute(f"DELETE FROM {entries}")  # noqa: S608 - our own table names
    db.execute(f"DELETE FROM {standings}")  # noqa: S608
    marks = ", ".join("?" * len(ENTRY_COLUMNS))
    db.executemany(f"INSERT INTO {entries} ({', '.join(ENTRY_COLUMNS)}) VALUES ({marks})", rows)  # noqa: S608
    marks = ", ".join("?" * len(STANDING_COLUMNS))
    db.executemany(
        f"INSERT INTO {standings} ({', '.join(STANDING_COLUMNS)}) VALUES ({marks})",  # noqa: S608
        standing_rows,
    )
    db.commit()


def with_indexes() -> int:
    """Into the project's tables, with their indexes and foreign keys."""
    db = _connect()
    try:
        rows, standings = club_rows(db)
        _replace(db, "ratings_ratingentry", "ratings_standing", rows, standings)
    finally:
        db.close()
    return len(rows)


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
        rows, standings = club_rows(db)
        _replace(db, BARE_ENTRIES, BARE_STANDINGS, rows, standings)
    finally:
        db.close()
    return len(rows)


def bare_checksum() -> dict[int, tuple[int, float]]:
    """Per table id: rows and the sum of ratings in the bare tables."""
    db = _connect()
    try:
        sql = f"SELECT table_id, COUNT(*), SUM(rating_after) FROM {BARE_ENTRIES} GROUP BY table_id"  # noqa: S608
        found = db.execute(sql)
        return {table: (count, round(total, 3)) for table, count, total in found}
    finally:
        db.close()
