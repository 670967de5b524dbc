
import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0019_club_secretaries'),
    ]

    operations = [
        migrations.AddField(
            model_name='club',
            name='grid_page_size',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Matchdays per page of a rating grid.', null=True, validators=[django.core.validators.MinValueValidator(1)]),
        ),
        migrations.AddField(
            model_name='club',
            name='home_grid_page_size',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Matchdays of each grid on the home page.', null=True, validators=[django.core.validators.MinValueValidator(1)]),
        ),
        migrations.AddField(
            model_name='club',
            name='inactive_days',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Leaderboards hide players with no matchday in this many days (0: nobody).', null=True),
        ),
        migrations.AddField(
            model_name='club',
            name='provisional_matchdays',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Matchdays a player is provisional for (listed after the ranked).', null=True),
        ),
        migrations.AddField(
            model_name='club',
            name='standings_page_size',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Players per page of the standings.', null=True, validators=[django.core.validators.MinValueValidator(1)]),
        ),
    ]
