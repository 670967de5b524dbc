"""Plain-row writes for the many rows of a recompute or an import, where a model instance per row
costs more than the database does. Used by the engine and the import service only."""

from __future__ import annotations

from itertools import chain

from django.db import connection

BATCH = 5000  # rows read and written at a time
ROWS_PER_INSERT = 50  # rows written by one INSERT statement

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
    counter, the foreign keys' bookkeeping), which row by row cost a rebuild more than the rows."""
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
