"""Each rating row keeps the running count of its player's matchdays in its table, so that a past
day's standings read who was provisional from the rows they already read."""

from django.db import migrations, models

BATCH = 5000


def count_played(apps, schema_editor):
    """Number each player's rows in play order, a table at a time (read whole before writing, as
    SQLite does not isolate a read from writes on its own connection)."""
    entries = apps.get_model("ratings", "RatingEntry").objects.using(schema_editor.connection.alias)
    table = schema_editor.quote_name(entries.model._meta.db_table)
    update = f"UPDATE {table} SET played = %s WHERE id = %s"  # noqa: S608 - the model's own table
    for table_id in entries.order_by().values_list("table_id", flat=True).distinct():
        rows = entries.filter(table_id=table_id).order_by("player_id", "matchday_date", "matchday_number")
        counts, owner, changes = 0, None, []
        for pk, player_id in rows.values_list("pk", "player_id"):
            counts = counts + 1 if player_id == owner else 1
            owner = player_id
            changes.append((counts, pk))
        with schema_editor.connection.cursor() as cursor:
            for start in range(0, len(changes), BATCH):
                cursor.executemany(update, changes[start : start + BATCH])


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0007_seasons"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratingentry",
            name="played",
            field=models.PositiveIntegerField(
                default=0, help_text="Matchdays the player had played in this table, this one included."
            ),
            preserve_default=False,
        ),
        migrations.RunPython(count_played, migrations.RunPython.noop),
    ]
