"""Rating rows written into three B-trees instead of eight: their placings copied onto them instead of
a foreign key to the result, and only the indexes the pages and the engine read by."""

from django.db import migrations, models

import django.db.models.deletion


def copy_placings(apps, schema_editor):
    RatingEntry = apps.get_model("ratings", "RatingEntry")
    Result = apps.get_model("league", "Result")
    placing = Result.objects.filter(pk=models.OuterRef("result_id"))
    RatingEntry.objects.update(
        placing=models.Subquery(placing.values("placing")[:1]),
        rated_placing=models.Subquery(placing.values("rated_placing")[:1]),
    )


def result_ids(apps, schema_editor):
    RatingEntry = apps.get_model("ratings", "RatingEntry")
    Result = apps.get_model("league", "Result")
    result = Result.objects.filter(matchday_id=models.OuterRef("matchday_id"), player_id=models.OuterRef("player_id"))
    RatingEntry.objects.update(result_id=models.Subquery(result.values("pk")[:1]))


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0010_revision_token"),
        ("ratings", "0004_deal_ratings"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratingentry",
            name="placing",
            field=models.PositiveSmallIntegerField(null=True),
        ),
        migrations.AddField(
            model_name="ratingentry",
            name="rated_placing",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(copy_placings, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="ratingentry",
            name="placing",
            field=models.PositiveSmallIntegerField(),
        ),
        # Backwards (migrating to an older version of the site), the foreign key is filled in again
        # before it is made NOT NULL.
        migrations.AlterField(
            model_name="ratingentry",
            name="result",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rating_entries",
                to="league.result",
            ),
        ),
        migrations.RunPython(migrations.RunPython.noop, result_ids),
        migrations.RemoveField(model_name="ratingentry", name="result"),
        migrations.RemoveIndex(model_name="ratingentry", name="ratings_entry_table_order"),
        migrations.RemoveConstraint(model_name="ratingentry", name="ratings_entry_one_per_player"),
        migrations.AlterField(
            model_name="ratingentry",
            name="table",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="entries",
                to="ratings.ratingtable",
            ),
        ),
        migrations.AlterField(
            model_name="ratingentry",
            name="matchday",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rating_entries",
                to="league.matchday",
            ),
        ),
        migrations.AlterField(
            model_name="ratingentry",
            name="player",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rating_entries",
                to="league.player",
            ),
        ),
        migrations.AddConstraint(
            model_name="ratingentry",
            constraint=models.UniqueConstraint(
                fields=("matchday", "table", "player"), name="ratings_entry_one_per_player"
            ),
        ),
    ]
