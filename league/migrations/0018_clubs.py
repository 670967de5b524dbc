
import django.core.validators
import django.db.models.deletion
import league.models.clubs
from django.conf import settings
from django.db import migrations, models

OWNED = ("category", "game", "matchday", "page", "player", "season")
SITE = "league"  # league.revision.LEAGUE: the one scope before clubs


def into_one_club(apps, schema_editor):
    """An existing league becomes one club named after LEAGUE_NAME, its numbers unchanged; an empty
    database gets no club until something is written."""
    rows = [apps.get_model("league", name).objects for name in OWNED]
    if not any(manager.exists() for manager in rows):
        return
    Club = apps.get_model("league", "Club")
    club = Club.objects.first() or Club.objects.create(
        slug=league.models.clubs.first_club_slug(settings.LEAGUE_NAME), name=settings.LEAGUE_NAME
    )
    for manager in rows:
        manager.update(club=club)


def back_to_one_league(apps, schema_editor):
    """Back to the one league: the clubs' revision rows go, the site's stays (before clubs the
    revision had one row; an older migration on the way back expects no more)."""
    apps.get_model("league", "Revision").objects.exclude(scope=SITE).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0017_revision_scope'),
    ]

    operations = [
        migrations.CreateModel(
            name='Club',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('slug', models.SlugField(help_text='Its address: /<slug>/.', unique=True, validators=[league.models.clubs.refuse_reserved_slug])),
                ('name', models.CharField(max_length=100, validators=[django.core.validators.ProhibitNullCharactersValidator()])),
            ],
            options={
                'ordering': ['name'],
            },
        ),
        migrations.AlterField(
            model_name='category',
            name='name',
            field=models.CharField(max_length=100),
        ),
        migrations.AlterField(
            model_name='category',
            name='slug',
            field=models.SlugField(max_length=100),
        ),
        migrations.AlterField(
            model_name='game',
            name='name',
            field=models.CharField(max_length=100),
        ),
        migrations.AlterField(
            model_name='game',
            name='name_key',
            field=models.CharField(editable=False, max_length=400),
        ),
        migrations.AlterField(
            model_name='game',
            name='slug',
            field=models.SlugField(max_length=100),
        ),
        migrations.AlterField(
            model_name='matchday',
            name='number',
            field=models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1, 'The matchday number must be at least 1.'), django.core.validators.MaxValueValidator(1000000000, 'The matchday number must be at most 1,000,000,000.')]),
        ),
        migrations.AlterField(
            model_name='page',
            name='slug',
            field=models.SlugField(),
        ),
        migrations.AlterField(
            model_name='player',
            name='short_name',
            field=models.CharField(help_text='Shown in table headers, e.g. "GL".', max_length=12),
        ),
        migrations.AlterField(
            model_name='player',
            name='short_name_key',
            field=models.CharField(editable=False, max_length=48),
        ),
        migrations.AlterField(
            model_name='season',
            name='name',
            field=models.CharField(max_length=100, validators=[django.core.validators.ProhibitNullCharactersValidator()]),
        ),
        migrations.AlterField(
            model_name='season',
            name='slug',
            field=models.SlugField(help_text='Its address: /seasons/<slug>/.', max_length=100),
        ),
        migrations.AddField(
            model_name='category',
            name='club',
            field=models.ForeignKey(null=True, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='categories', to='league.club'),
        ),
        migrations.AddField(
            model_name='game',
            name='club',
            field=models.ForeignKey(null=True, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='games', to='league.club'),
        ),
        migrations.AddField(
            model_name='matchday',
            name='club',
            field=models.ForeignKey(null=True, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='matchdays', to='league.club'),
        ),
        migrations.AddField(
            model_name='page',
            name='club',
            field=models.ForeignKey(null=True, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='pages', to='league.club'),
        ),
        migrations.AddField(
            model_name='player',
            name='club',
            field=models.ForeignKey(null=True, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='players', to='league.club'),
        ),
        migrations.AddField(
            model_name='season',
            name='club',
            field=models.ForeignKey(null=True, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='league.club'),
        ),
        migrations.RunPython(into_one_club, back_to_one_league),
        migrations.AlterField(
            model_name='category',
            name='club',
            field=models.ForeignKey(editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='categories', to='league.club'),
        ),
        migrations.AlterField(
            model_name='game',
            name='club',
            field=models.ForeignKey(editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='games', to='league.club'),
        ),
        migrations.AlterField(
            model_name='matchday',
            name='club',
            field=models.ForeignKey(editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='matchdays', to='league.club'),
        ),
        migrations.AlterField(
            model_name='page',
            name='club',
            field=models.ForeignKey(editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='pages', to='league.club'),
        ),
        migrations.AlterField(
            model_name='player',
            name='club',
            field=models.ForeignKey(editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='players', to='league.club'),
        ),
        migrations.AlterField(
            model_name='season',
            name='club',
            field=models.ForeignKey(editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='league.club'),
        ),
        # No database change: the default is for rows written after this one.
        migrations.AlterField(
            model_name='category',
            name='club',
            field=models.ForeignKey(default=league.models.clubs.default_club, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='categories', to='league.club'),
        ),
        # No database change: the default is for rows written after this one.
        migrations.AlterField(
            model_name='game',
            name='club',
            field=models.ForeignKey(default=league.models.clubs.default_club, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='games', to='league.club'),
        ),
        # No database change: the default is for rows written after this one.
        migrations.AlterField(
            model_name='matchday',
            name='club',
            field=models.ForeignKey(default=league.models.clubs.default_club, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='matchdays', to='league.club'),
        ),
        # No database change: the default is for rows written after this one.
        migrations.AlterField(
            model_name='page',
            name='club',
            field=models.ForeignKey(default=league.models.clubs.default_club, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='pages', to='league.club'),
        ),
        # No database change: the default is for rows written after this one.
        migrations.AlterField(
            model_name='player',
            name='club',
            field=models.ForeignKey(default=league.models.clubs.default_club, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='players', to='league.club'),
        ),
        # No database change: the default is for rows written after this one.
        migrations.AlterField(
            model_name='season',
            name='club',
            field=models.ForeignKey(default=league.models.clubs.default_club, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='league.club'),
        ),
        migrations.AddConstraint(
            model_name='category',
            constraint=models.UniqueConstraint(fields=('club', 'name'), name='league_category_name_in_club'),
        ),
        migrations.AddConstraint(
            model_name='category',
            constraint=models.UniqueConstraint(fields=('club', 'slug'), name='league_category_slug_in_club'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.UniqueConstraint(fields=('club', 'name'), name='league_game_name_in_club'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.UniqueConstraint(fields=('club', 'name_key'), name='league_game_name_key_in_club'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.UniqueConstraint(fields=('club', 'slug'), name='league_game_slug_in_club'),
        ),
        migrations.AddConstraint(
            model_name='matchday',
            constraint=models.UniqueConstraint(fields=('club', 'number'), name='league_matchday_number_in_club'),
        ),
        migrations.AddConstraint(
            model_name='page',
            constraint=models.UniqueConstraint(fields=('club', 'slug'), name='league_page_slug_in_club'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(fields=('club', 'short_name'), name='league_player_short_name_in_club'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(fields=('club', 'short_name_key'), name='league_player_short_name_key_in_club'),
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.UniqueConstraint(fields=('club', 'name'), name='league_season_name_in_club'),
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.UniqueConstraint(fields=('club', 'slug'), name='league_season_slug_in_club'),
        ),
    ]
