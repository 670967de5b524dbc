"""A player's page's rating rows, all its tables' pages in one written-out query.

The page shows one page of rows per table; read one table at a time through the ORM (a correlated
count of the matchday's players, three joins) the four queries' compilation cost more than running
them: about 16 ms of the busiest player's page at 100,000 matchdays, against 4 ms now.
"""

from __future__ import annotations

from django.db import connection

from league.models import Game, Matchday, Player, Result

from .models import RatingEntry

# Only the models' own table names are written in; tables, player and the page's rows are parameters.
_PAGE = f"""
SELECT e.*, m.rounds AS md_rounds, m.winner_score AS md_winner_score, m.notes AS md_notes, m.game_id AS md_game_id,
       (SELECT COUNT(*) FROM {Result._meta.db_table} r WHERE r.matchday_id = e.matchday_id) AS players
FROM {RatingEntry._meta.db_table} e JOIN {Matchday._meta.db_table} m ON m.id = e.matchday_id
WHERE e.table_id = %s AND e.player_id = %s
ORDER BY e.matchday_date DESC, e.matchday_number DESC LIMIT %s OFFSET %s
"""  # noqa: S608


def entry_pages(player: Player, pages: dict[int, range]) -> dict[int, list[RatingEntry]]:
    """For each table id, the rows at `pages[table id]` (positions newest first, as the page's pager
    counts them) of `player`'s history in that table, newest first. Each row comes with its matchday
    and the matchday's game (`entry.matchday.game`) and `players`, the number of players at the
    matchday. Two queries, whatever the number of tables: the rows, then their games."""
    wanted = [(table_id, rows) for table_id, rows in pages.items() if len(rows)]
    found: dict[int, list[RatingEntry]] = {table_id: [] for table_id in pages}
    if not wanted:
        return found
    sql = " UNION ALL ".join(f"SELECT * FROM ({_PAGE}) page_{n}" for n in range(len(wanted)))  # noqa: S608
    params = [value for table_id, rows in wanted for value in (table_id, player.pk, len(rows), rows.start)]
    entries = list(RatingEntry.objects.raw(sql, params))
    games = Game.objects.in_bulk({e.md_game_id for e in entries})
    fields = [f.attname for f in Matchday._meta.concrete_fields]
    for e in entries:
        known = {
            "id": e.matchday_id,
            "number": e.matchday_number,
            "date": e.matchday_date,
            "game_id": e.md_game_id,
            "rounds": e.md_rounds,
            "winner_score": e.md_winner_score,
            "notes": e.md_notes,
        }
        e.matchday = Matchday.from_db(connection.alias, fields, [known[name] for name in fields])
        e.matchday.game = games[e.md_game_id]
        e.player = player
        found[e.table_id].append(e)
    for rows in found.values():  # each page's order: a union keeps none
        rows.sort(key=lambda e: (e.matchday_date, e.matchday_number), reverse=True)
    return found
