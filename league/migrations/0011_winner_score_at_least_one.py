"""A winner's score is at least 1 (blank is a full game): a stored 0 is listed first and the upgrade
stops, changing nothing, as 0006 does for its rules."""

import django.core.validators
from django.core.management.base import CommandError
from django.db import migrations, models


def refuse_a_score_of_zero(apps, schema_editor):
    numbers = list(
        apps.get_model("league", "Matchday").objects.filter(winner_score=0).values_list("number", flat=True)[:20]
    )
    if numbers:
        raise CommandError(
            "A winner's score is now at least 1 (blank means a full game); the matchdays "
            f"{', '.join(map(str, numbers))} have a winner's score of 0, so the upgrade stopped and nothing "
            "was changed. What to do: with the previous version of the site, in the admin, give them the "
            "winner's real score or leave it blank. Then run `manage.py migrate` again."
        )


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0010_revision_token'),
    ]

    operations = [
        migrations.RunPython(refuse_a_score_of_zero, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name='matchday',
            name='league_matchday_winner_score_range',
        ),
        migrations.AlterField(
            model_name='matchday',
            name='winner_score',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Only the table-size method uses it: 19-24 lowers K one step, 12-18 two. Blank: full game.', null=True, validators=[django.core.validators.MinValueValidator(1, "The winner's score must be at least 1."), django.core.validators.MaxValueValidator(1000, "The winner's score must be at most 1,000.")], verbose_name="winner's score"),
        ),
        migrations.AddConstraint(
            model_name='matchday',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('winner_score__gte', 1), ('winner_score__lte', 1000)), ('winner_score__isnull', True), _connector='OR'), name='league_matchday_winner_score_range'),
        ),
    ]
