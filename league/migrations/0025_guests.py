from django.db import migrations, models


class Migration(migrations.Migration):
    """A player may be a guest: rated, but left out of the standings, leaders and movers (issue 40)."""

    dependencies = [("league", "0024_club_slug_unique_in_any_case")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="guest",
            field=models.BooleanField(
                default=False, help_text="Rated, but not on the standings, leaders or movers until made a member."
            ),
        ),
    ]
