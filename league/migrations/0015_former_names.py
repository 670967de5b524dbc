import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0014_scores"),
    ]

    operations = [
        migrations.CreateModel(
            name="FormerName",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=100, verbose_name="former name")),
                ("name_key", models.CharField(db_index=True, editable=False, max_length=400)),
                ("until", models.DateField(default=django.utils.timezone.localdate, verbose_name="used until")),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="former_names",
                        to="league.player",
                    ),
                ),
            ],
            options={
                "ordering": ["-until", "-id"],
                "constraints": [
                    models.UniqueConstraint(fields=("player", "name_key"), name="league_formername_once_per_player"),
                    models.CheckConstraint(
                        condition=models.Q(("name_key", ""), _negated=True), name="league_formername_key_not_empty"
                    ),
                ],
            },
        ),
    ]
