"""When every rating row is written from nothing (a full rebuild, a league's first import), SQLite
builds the rows' indexes (players' histories, play order) after the rows; a write that keeps rows
never drops them, and a rebuild that fails leaves them as they were."""

import pytest
from django.db import connection
from django_scopes import scope

from league.models import Club
from ratings import engine
from ratings.models import HISTORY_INDEX, RatingEntry, RatingTable
from ratings.services.rating_tables import save_rating_table
from ratings.services.recompute import differences, rebuild_all
from tests.conftest import CLUB_CSV
from web.importing import import_results

pytestmark = pytest.mark.skipif(connection.vendor != "sqlite", reason="the index is rebuilt on SQLite only")


INDEXES = [index.name for index in RatingEntry._meta.indexes]


def indexes_sql() -> list[str | None]:
    """Each index's SQL as SQLite keeps it (None where it is missing)."""
    with connection.cursor() as cursor:
        found = []
        for name in INDEXES:
            cursor.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = %s", [name])
            row = cursor.fetchone()
            found.append(row and row[0])
    return found


class Statements:
    def __init__(self):
        self.sql = []

    def __call__(self, execute, sql, params, many, context):
        self.sql.append(sql)
        return execute(sql, params, many, context)

    def dropped(self) -> bool:
        """Whether every index of the rows was dropped (and none otherwise)."""
        drops = [name for name in INDEXES for s in self.sql if s.startswith("DROP INDEX") and f'"{name}"' in s]
        assert drops in ([], INDEXES), drops
        return bool(drops)


def test_a_full_rebuild_builds_the_history_index_after_its_rows(club):
    before, rows = indexes_sql(), RatingEntry.objects.count()
    assert None not in before
    statements = Statements()
    with connection.execute_wrapper(statements):
        rebuild_all()
    assert statements.dropped()
    last_insert = max(i for i, s in enumerate(statements.sql) if s.startswith("INSERT INTO") and "ratingentry" in s)
    for name in INDEXES:
        creates = [i for i, s in enumerate(statements.sql) if s.startswith("CREATE INDEX") and f'"{name}"' in s]
        assert creates and creates[0] > last_insert, name
    assert indexes_sql() == before  # the same indexes, built again
    assert RatingEntry.objects.count() == rows
    assert differences() == []
    # ... and the pages' reads use it again.
    with connection.cursor() as cursor:
        cursor.execute(
            "EXPLAIN QUERY PLAN SELECT rating_after FROM ratings_ratingentry"
            " WHERE table_id = 1 AND player_id = 1 ORDER BY matchday_date, matchday_number"
        )
        plan = " ".join(str(row) for row in cursor.fetchall())
    assert HISTORY_INDEX in plan


def test_a_rebuild_that_fails_leaves_the_index_and_the_rows(club, monkeypatch):
    before, rows = indexes_sql(), sorted(RatingEntry.objects.values_list("pk", "rating_after"))

    def failing(runs, rated, **options):
        next(iter(rated))
        raise engine.RecomputeError("stopped halfway")

    monkeypatch.setattr(engine, "_write_entries", failing)
    with pytest.raises(engine.RecomputeError):
        rebuild_all()
    assert indexes_sql() == before
    assert sorted(RatingEntry.objects.values_list("pk", "rating_after")) == rows


def test_edits_and_one_tables_rebuild_keep_the_index(club, make_matchday):
    statements = Statements()
    with connection.execute_wrapper(statements):
        make_matchday(7, "2025-11-20", {"I": 1, "J": 2, "K": 3})  # recomputes from matchday 7 on
        table = RatingTable.objects.get(slug="hearts")
        table.whole_numbers = False
        save_rating_table(table)  # one table rebuilt from nothing: the others' rows remain
    assert not statements.dropped()
    assert differences() == []


def test_one_clubs_first_file_and_rebuild_keep_the_index_of_every_clubs_rows(club):
    """The indexes hold every club's rows: a club's first file, or a rebuild of its tables alone,
    keeps them rather than building them again over the other clubs' rows."""
    north = Club.objects.create(slug="north", name="North")
    statements = Statements()
    with connection.execute_wrapper(statements), scope(club=north.pk):
        import_results(CLUB_CSV.read_bytes())
        rebuild_all(north)
    assert not statements.dropped()
    assert differences() == []


def test_a_leagues_first_import_builds_the_index_after_its_rows(db):
    before = indexes_sql()
    statements = Statements()
    with connection.execute_wrapper(statements):
        import_results(CLUB_CSV.read_bytes())
    assert statements.dropped()
    assert indexes_sql() == before
    assert differences() == []
    statements = Statements()
    with connection.execute_wrapper(statements):
        import_results(CLUB_CSV.read_bytes(), replace=True)  # every row from matchday 1 on: all of them
    assert statements.dropped()
    statements = Statements()
    later = "\n".join(
        [
            "matchday,date,game,rounds,player,placing,rated_placing",
            "7,2025-11-20,Hearts,3,I,1,",
            "7,2025-11-20,Hearts,3,J,2,",
        ]
    )
    with connection.execute_wrapper(statements):
        import_results(later.encode())  # the rows before matchday 7 stay
    assert not statements.dropped()
    assert differences() == []
