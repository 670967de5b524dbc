
import django.db.models.deletion
import league.models.clubs
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0020_club_settings'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='matchday',
            name='league_matchday_game_order',
        ),
        migrations.AlterField(
            model_name='matchday',
            name='club',
            field=models.ForeignKey(db_index=False, default=league.models.clubs.default_club, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='matchdays', to='league.club'),
        ),
        migrations.AddIndex(
            model_name='matchday',
            index=models.Index(fields=['club', 'date', 'number'], name='league_matchday_club_order'),
        ),
        migrations.AddIndex(
            model_name='matchday',
            index=models.Index(fields=['game', 'date', 'number', 'club'], name='league_matchday_game_club'),
        ),
    ]
