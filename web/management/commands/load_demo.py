import os
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from league import services as league_services
from league.models import Category, Club, Game, Matchday, Page
from league.placings import BY_PLACINGS, LOWEST_WINS
from ratings.services.catalogue import save_category, save_game
from web.faults import told
from web.importing import ImportFailed, import_results
from web.management.clubs import add_club_argument, club_named, in_club

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


def _category(slug: str, name: str, description: str = "") -> Category:
    category = Category.objects.filter(slug=slug).first()
    if category is None:
        category = Category(slug=slug, name=name, description=description)
        save_category(category)
    return category


def _game(slug: str, name: str, category: Category, official: bool = True, scoring: str = BY_PLACINGS) -> None:
    if not Game.objects.filter(slug=slug).exists():
        save_game(Game(slug=slug, name=name, category=category, official=official, scoring=scoring))


DEMO_NAME = "Demo club"


def demo_club(slug: str) -> Club:
    """The club --club names, started empty as the demo club when there is none at that address."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        club = Club(slug=slug, name=DEMO_NAME)
        try:
            club.full_clean()
        except ValidationError as exc:
            raise CommandError("The demo data was not loaded: " + " ".join(exc.messages)) from None
        club.save()
    return club


class Command(BaseCommand):
    help = (
        "Load a card club's November matchdays, its pages and an admin login into a club without matchdays "
        f"(with --club, that club, started as {DEMO_NAME!r} if there is none at its address). "
        "Does nothing if the club has matchdays already."
    )

    def add_arguments(self, parser):
        add_club_argument(parser)
        parser.add_argument(
            "--if-no-clubs",
            action="store_true",
            help="only on a site without any club yet (make run): a demo deleted stays deleted, and a site of "
            "real clubs gets no demo beside them",
        )

    def handle(self, club: str | None, if_no_clubs: bool = False, **options):
        if if_no_clubs and Club.objects.exists():
            self.stdout.write("The site has clubs already; demo data not loaded.")
            return
        try:
            with told("The demo data was not loaded"), transaction.atomic():
                found = demo_club(club) if club is not None else club_named(None)
                with in_club(found):
                    self._load()
        except (ImportFailed, ValidationError) as refused:  # the club's own games or names stand in the way
            errors = refused.errors if isinstance(refused, ImportFailed) else refused.messages
            raise CommandError("The demo data was not loaded: " + " ".join(errors)) from None

    def _load(self) -> None:
        if Matchday.objects.exists():
            self.stdout.write("The club has matchdays already; demo data not loaded.")
            return
        hearts_category = _category("trick-taking", "Trick-taking")
        tcg = _category(
            "trading-card-games",
            "Trading card games",
            "We will establish a rating that applies to trading card games like Magic: "
            "The Gathering and Pokemon. This is not part of the official rating.",
        )
        # Hearts is won with the fewest points: a score sheet typed in gives the placings. The
        # November file gives placings, which stay as they are.
        _game("hearts", "Hearts", hearts_category, scoring=LOWEST_WINS)
        for name, slug in [("Magic: The Gathering", "magic"), ("Pokemon", "pokemon")]:
            _game(slug, name, tcg, official=False)
        for slug, title, body, position in [
            ("constitution", "Constitution", CONSTITUTION, 1),
            ("laws", "Laws", LAWS, 2),
        ]:
            if not Page.objects.filter(slug=slug).exists():
                league_services.save_page(Page(slug=slug, title=title, body=body, position=position))
        summary = import_results((DEMO / "club-november.csv").read_bytes())
        self.stdout.write(f"Loaded the club's demo data: {summary.matchdays} matchdays.")

        User = get_user_model()
        if settings.DEBUG and not User.objects.exists():
            password = os.environ.get("DEMO_ADMIN_PASSWORD", "admin")
            User.objects.create_superuser("admin", "", password)
            self.stdout.write(
                self.style.WARNING(f"Admin login for this local demo: admin / {password} (change it in the admin).")
            )
