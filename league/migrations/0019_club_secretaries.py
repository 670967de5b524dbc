
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0018_clubs'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='club',
            name='secretaries',
            field=models.ManyToManyField(blank=True, help_text="Staff who enter and correct this club's results; a superuser needs no club.", related_name='clubs', to=settings.AUTH_USER_MODEL),
        ),
    ]
