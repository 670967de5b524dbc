"""The full recompute done by a plain script, to show what the project costs beyond the work itself:
the tools' only statements written out, as a plain script's point is to run without the ORM.

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

`deal_baseline` does the same for a game played against deals (`manage.py benchmark --solitaire`):
seeds, then every attempt in play order, into the project's tables with their indexes.
"""

from __future__ import annotations

import json
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


def settle() -> None:
    """Start each timed run from the same state: on SQLite, the write-ahead log folded into the
    database, so that neither the project nor the baseline pays for the other's checkpoint."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")


# A game played against deals.


def _exact_add(partials: list[float], x: float) -> None:
    """Shewchuk's exact running sum, as the project keeps each level's sum of deal bases."""
    i = 0
    for y in partials:
        if abs(x) < abs(y):
            x, y = y, x
        high = x + y
        low = y - (high - x)
        if low:
            partials[i] = low
            i += 1
        x = high
    partials[i:] = [x]


def deal_baseline() -> int:
    """A full recompute of the solitaire table with plain sqlite3 and the seed's maths inline."""
    db = sqlite3.connect(connection.settings_dict["NAME"])
    db.execute("PRAGMA foreign_keys = ON")  # as Django's connections have it
    table_id, game_id, params = db.execute(
        "SELECT t.id, t.game_id, t.parameters FROM ratings_ratingtable t WHERE t.method = 'player-vs-deal'"
    ).fetchone()
    params = json.loads(params) if isinstance(params, str) else params
    start, k, boost = 1500.0, float(params.get("k", 8.0)), float(params.get("level_boost", 0.03))
    assert not params.get("first_attempt_only"), "the baseline rates every rated attempt"
    for name in ("ratings_attemptrating", "ratings_dealrating", "ratings_levelrating"):
        db.execute(f"DELETE FROM {name} WHERE table_id = ?", (table_id,))  # noqa: S608 - our own names
    db.execute("DELETE FROM ratings_standing WHERE table_id = ?", (table_id,))
    levels, deals = _raw_seeds(db, game_id, start)
    rows, players = _raw_rate(db, table_id, game_id, (start, k, boost), levels, deals)
    _raw_write(db, table_id, rows, players, deals, levels)
    db.commit()
    db.close()
    return len(rows)


def _raw_seeds(db, game_id: int, start: float) -> tuple[dict[int, list], dict[int, list]]:
    """The levels and deals as their seeds start them."""
    levels: dict[int, list] = {}  # level -> [offset, known, partials, attempts, wins, last]
    deals: dict[int, list] = {}  # deal -> [level, base, seeded, played, wins, first, last]
    seeds: dict[int, list[tuple]] = {}
    for deal, level, plays, wins in db.execute(
        "SELECT s.deal_id, d.level_id, s.plays, s.wins FROM league_dealseed s JOIN league_deal d ON d.id = s.deal_id"
        " JOIN league_deallevel l ON l.id = d.level_id WHERE l.game_id = ?",
        (game_id,),
    ):
        seeds.setdefault(level, []).append((deal, plays, wins))
    for level, records in seeds.items():
        average = sum(w for _, _, w in records) / sum(p for _, p, _ in records)
        state = levels.setdefault(level, [0.0, 0, [], 0, 0, None])
        for deal, plays, wins in records:
            rate = min(max((wins + 5 * average) / (plays + 5), 0.001), 0.999)
            rating = start + 400 * math.log10((1 - rate) / rate)
            deals[deal] = [level, rating, rating, 0, 0, None, None]
            state[1] += 1
            _exact_add(state[2], rating)
    return levels, deals


def _raw_rate(db, table_id: int, game_id: int, maths: tuple, levels: dict, deals: dict) -> tuple[list, dict]:
    """Every attempt rated in play order: the rows to write and the players' standings."""
    start, k, boost = maths
    players: dict[int, list] = {}  # player -> [rating, played, last, delta]
    rows = []
    for attempt, day, position, player, deal, level, won, rated in db.execute(
        "SELECT a.id, s.date, a.position, a.player_id, a.deal_id, d.level_id, a.won, a.rated FROM league_attempt a"
        " JOIN league_dealsession s ON s.id = a.session_id JOIN league_deal d ON d.id = a.deal_id"
        " WHERE s.game_id = ? ORDER BY s.date, a.position",
        (game_id,),
    ):
        me = players.get(player)
        if not rated:
            if me:
                me[2] = day
            continue
        lv = levels.setdefault(level, [0.0, 0, [], 0, 0, None])
        dl = deals.get(deal)
        if dl is None:
            base = math.fsum(lv[2]) / lv[1] if lv[1] else start - lv[0]
            dl = deals[deal] = [level, base, None, 0, 0, day, None]
            lv[1] += 1
            _exact_add(lv[2], base)
        rating = me[0] if me else start
        base, offset = dl[1], lv[0]
        deal_rating = base + offset
        chance = 1 / (1 + 10 ** ((deal_rating - rating) / 400))
        delta = k * ((1.0 if won else 0.0) - chance)
        shared = boost * -delta
        new_base = base + (-delta - shared)
        _exact_add(lv[2], -base)
        _exact_add(lv[2], new_base)
        lv[0] = offset = offset + shared
        lv[3], lv[4], lv[5] = lv[3] + 1, lv[4] + won, day
        dl[1], dl[3], dl[4], dl[6] = new_base, dl[3] + 1, dl[4] + won, day
        players[player] = [rating + delta, me[1] + 1 if me else 1, day, delta]
        rows.append(
            (table_id, attempt, player, deal, level, day, position, won, rating, rating + delta, deal_rating,
             new_base + offset, new_base, offset, chance, k, delta)
        )  # fmt: skip
    return rows, players


def _raw_write(db, table_id: int, rows: list, players: dict, deals: dict, levels: dict) -> None:
    db.executemany(
        "INSERT INTO ratings_attemptrating (table_id, attempt_id, player_id, deal_id, level_id, session_date, position,"
        " won, player_before, player_after, deal_before, deal_after, deal_base_after, level_offset_after, expected, k,"
        " delta) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        rows,
    )
    db.executemany(
        "INSERT INTO ratings_standing (table_id, player_id, rating, played, matchday_date, matchday_number, delta)"
        " VALUES (?,?,?,?,?,0,?)",
        [(table_id, p, *state) for p, state in players.items()],
    )
    db.executemany(
        "INSERT INTO ratings_dealrating (table_id, deal_id, level_id, base, seeded, played, wins, first_date,"
        " last_date) VALUES (?,?,?,?,?,?,?,?,?)",
        [(table_id, d, *state) for d, state in deals.items()],
    )
    db.executemany(
        "INSERT INTO ratings_levelrating (table_id, level_id, offset, deals, base_sum, average, attempts, wins,"
        " last_date) VALUES (?,?,?,?,?,?,?,?,?)",
        [
            (table_id, lv, s[0], s[1], json.dumps(s[2]), math.fsum(s[2]) / s[1] + s[0], s[3], s[4], s[5])
            for lv, s in levels.items()
            if s[1]
        ],
    )
