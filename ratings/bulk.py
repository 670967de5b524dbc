"""The statements of ratings that the ORM cannot say, all of them for writing many rows at once (a
recompute, an import): plain rows, the rating rows' indexes set aside around a rebuild, and fresh
planner statistics after a bulk load. Used by the engine and the write services only."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from itertools import chain

from django.db import connection

BATCH = 5000  # rows read and written at a time
ROWS_PER_INSERT = 50  # rows written by one INSERT statement
# Rows written at once past which PostgreSQL is given fresh statistics: an ANALYZE of such tables takes
# milliseconds, and a planner that never saw a transaction's own rows once joined 1,500 attempts by
# nested loops for over half an hour (a test's league, never committed: autovacuum never saw it).
ANALYZED_FROM = 1_000

# The columns of a rating row and of a standing, in the order the engine writes them.
ENTRY_COLUMNS = (
    "table_id",
    "matchday_id",
    "player_id",
    "placing",
    "rated_placing",
    "matchday_date",
    "matchday_number",
    "rating_before",
    "rating_after",
    "opponents_mean",
    "expected",
    "score",
    "k",
    "delta",
    "played",
    "state",
)
STANDING_COLUMNS = (
    "table_id",
    "player_id",
    "rating",
    "state",
    "played",
    "matchday_date",
    "matchday_number",
    "delta",
)


def insert_rows(model, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """Write `rows` (values in the order of `columns`) into `model`'s table, ROWS_PER_INSERT rows to
    a statement: each statement pays once what SQLite does per statement (an AUTOINCREMENT table's
    counter, the foreign keys' bookkeeping), which row by row cost a rebuild more than the rows.
    Written out because the ORM's bulk_create takes a model instance per row, which costs more than
    the database's work at a recompute's 900,000 rows."""
    if not rows:
        return
    quote = connection.ops.quote_name
    head = "INSERT INTO {} ({}) VALUES ".format(  # noqa: S608 - names from the model, values bound
        quote(model._meta.db_table), ", ".join(quote(c) for c in columns)
    )
    one = "({})".format(", ".join(["%s"] * len(columns)))
    whole = len(rows) - len(rows) % ROWS_PER_INSERT
    with connection.cursor() as cursor:
        if whole:
            cursor.executemany(
                head + ", ".join([one] * ROWS_PER_INSERT),
                (list(chain.from_iterable(rows[i : i + ROWS_PER_INSERT])) for i in range(0, whole, ROWS_PER_INSERT)),
            )
        if whole < len(rows):
            cursor.execute(head + ", ".join([one] * (len(rows) - whole)), list(chain.from_iterable(rows[whole:])))


def analyze_after_load(rows: int, *models) -> None:
    """Fresh statistics for `models`' tables on PostgreSQL after `rows` were written in this
    transaction: its planner has none for them, and without them may choose a nested loop that
    rescans a table for every row of the recompute that follows. The ORM has no ANALYZE."""
    if connection.vendor == "postgresql" and rows > ANALYZED_FROM:
        tables = ", ".join(connection.ops.quote_name(model._meta.db_table) for model in models)
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {tables}")


@contextmanager
def indexes_set_aside(model) -> Iterator[None]:
    """`model`'s indexes (its Meta.indexes) dropped while the block runs and built again after it.
    Written out because Django's schema editor cannot be entered inside a transaction on SQLite
    (it turns the foreign key checks off), nor says DROP INDEX IF EXISTS; its SQL for the index is
    used as it is."""
    editor = connection.schema_editor(collect_sql=True)  # for its SQL only: never entered
    with connection.cursor() as cursor:
        for index in model._meta.indexes:
            cursor.execute(f"DROP INDEX IF EXISTS {connection.ops.quote_name(index.name)}")
        yield
        for index in model._meta.indexes:
            cursor.execute(str(index.create_sql(model, editor)))
