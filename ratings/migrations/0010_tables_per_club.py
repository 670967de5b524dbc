
import django.db.models.deletion
import league.models.clubs
from django.conf import settings
from django.db import migrations, models


def into_the_club(apps, schema_editor):
    """The tables join the club the league's rows joined (league 0018), or one made for them."""
    tables = apps.get_model("ratings", "RatingTable").objects
    if not tables.exists():
        return
    Club = apps.get_model("league", "Club")
    club = Club.objects.first() or Club.objects.create(
        slug=league.models.clubs.first_club_slug(settings.LEAGUE_NAME), name=settings.LEAGUE_NAME
    )
    tables.update(club=club)


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0018_clubs'),
        ('ratings', '0009_entry_play_order'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='ratingtable',
            name='ratings_table_one_overall',
        ),
        migrations.AddField(
            model_name='ratingtable',
            name='club',
            field=models.ForeignKey(null=True, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='rating_tables', to='league.club'),
        ),
        migrations.RunPython(into_the_club, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='ratingtable',
            name='club',
            field=models.ForeignKey(editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='rating_tables', to='league.club'),
        ),
        # No database change: the default is for rows written after this one.
        migrations.AlterField(
            model_name='ratingtable',
            name='club',
            field=models.ForeignKey(default=league.models.clubs.default_club, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='rating_tables', to='league.club'),
        ),
        migrations.AlterField(
            model_name='ratingtable',
            name='slug',
            field=models.SlugField(max_length=100),
        ),
        migrations.AddConstraint(
            model_name='ratingtable',
            constraint=models.UniqueConstraint(condition=models.Q(('scope', 'overall'), ('season__isnull', True)), fields=('club', 'scope'), name='ratings_table_one_overall_per_club'),
        ),
        migrations.AddConstraint(
            model_name='ratingtable',
            constraint=models.UniqueConstraint(fields=('club', 'slug'), name='ratings_table_slug_in_club'),
        ),
    ]
