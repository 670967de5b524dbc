import os
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from league.importing import import_results
from league.models import Category, Game, Matchday, Page
from ratings import services

DEMO = Path(__file__).resolve().parents[2] / "demo"

CONSTITUTION = """\
1. The club meets to play card games and keeps a rating of its players.
2. Official games count in the overall rating; other games may have ratings of their own.
3. The secretary enters every matchday's results.
"""

LAWS = """\
* A player who leaves before the end of a matchday may be rated as if they had finished last;
  the results show this as `4(3)`: finished 3rd, rated as 4th.
* Tied players share the places they span.
"""


class Command(BaseCommand):
    help = (
        "Load the club's November matchdays, its pages and an admin login into an empty database. "
        "Does nothing if there are matchdays already."
    )

    @transaction.atomic
    def handle(self, **options):
        if Matchday.objects.exists():
            self.stdout.write("The database has matchdays already; demo data not loaded.")
            return
        hearts_category, _ = Category.objects.get_or_create(slug="trick-taking", defaults={"name": "Trick-taking"})
        tcg, _ = Category.objects.get_or_create(
            slug="trading-card-games",
            defaults={
                "name": "Trading card games",
                "description": (
                    "We will establish a rating that applies to trading card games like Magic: "
                    "The Gathering and Pokemon. This is not part of the official rating."
                ),
            },
        )
        Game.objects.get_or_create(slug="hearts", defaults={"name": "Hearts", "category": hearts_category})
        for name, slug in [("Magic: The Gathering", "magic"), ("Pokemon", "pokemon")]:
            Game.objects.get_or_create(slug=slug, defaults={"name": name, "category": tcg, "official": False})
        Page.objects.get_or_create(
            slug="constitution",
            defaults={"title": "Constitution", "body": CONSTITUTION, "position": 1},
        )
        Page.objects.get_or_create(slug="laws", defaults={"title": "Laws", "body": LAWS, "position": 2})
        services.sync_tables()
        summary = import_results((DEMO / "club-november.csv").read_bytes())
        self.stdout.write(f"Loaded the club's demo data: {summary.matchdays} matchdays.")

        User = get_user_model()
        if settings.DEBUG and not User.objects.exists():
            password = os.environ.get("DEMO_ADMIN_PASSWORD", "admin")
            User.objects.create_superuser("admin", "", password)
            self.stdout.write(
                self.style.WARNING(f"Admin login for this local demo: admin / {password} (change it in the admin).")
            )
