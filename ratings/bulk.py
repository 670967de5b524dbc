"""Plain-row writes for the many rows of a recompute or an import, where a model instance per row
costs more than the database does. Used by the engine and the import service only."""

from __future__ import annotations

from django.db import connection

BATCH = 5000  # rows read and written at a time

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
    """Write `rows` (values in the order of `columns`) into `model`'s table with executemany."""
    if not rows:
        return
    quote = connection.ops.quote_name
    sql = "INSERT INTO {} ({}) VALUES ({})".format(  # noqa: S608 - names from the model, values bound
        quote(model._meta.db_table), ", ".join(quote(c) for c in columns), ", ".join(["%s"] * len(columns))
    )
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH):
            cursor.executemany(sql, rows[start : start + BATCH])
