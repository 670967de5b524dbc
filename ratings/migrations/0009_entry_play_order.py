"""A past day's standings, inactive players hidden, read the rows of the days of activity from an
index of each table's rows in play order; both that index and the players' one hold what a ranking
reads, so that neither read goes to the rows and SQLite never takes the new one for a player's
history (docs/performance.md)."""

from django.db import migrations, models

RANKED = ["rating_after", "played", "delta"]


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0008_entry_played"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="ratingentry",
            name="ratings_entry_player_order",
        ),
        migrations.AddIndex(
            model_name="ratingentry",
            index=models.Index(
                fields=["table", "player", "matchday_date", "matchday_number", *RANKED],
                name="ratings_entry_player_order",
            ),
        ),
        migrations.AddIndex(
            model_name="ratingentry",
            index=models.Index(
                fields=["table", "matchday_date", "matchday_number", "player", *RANKED],
                name="ratings_entry_play_order",
            ),
        ),
    ]
