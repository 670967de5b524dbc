import sys

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from league.models import Matchday, Player
from league.services import delete_club
from web.faults import told
from web.management.clubs import club_named


class Command(BaseCommand):
    help = (
        "Delete a club and everything it holds (players, games, matchdays, seasons, sessions, rating tables, "
        "pages), e.g. the demo club once your own is started. Its secretaries stay users. Asks first."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the club's address: /<slug>/")
        parser.add_argument("--no-input", action="store_false", dest="interactive", help="do not ask for confirmation")

    def handle(self, slug: str, interactive: bool, **options):
        club = club_named(slug)
        matchdays = Matchday.objects.filter(club=club).count()
        players = Player.objects.filter(club=club).count()
        if interactive:
            if not sys.stdin.isatty():
                # From cron or a script nobody can answer: refuse rather than read whatever stdin holds.
                raise CommandError(
                    "Nothing was deleted: there is no terminal to ask for confirmation on; "
                    "run it with --no-input to delete without asking."
                )
            try:
                answer = input(
                    f"This deletes {club.name} (/{club.slug}/) with its {matchdays} matchdays and {players} players, "
                    "for good. Type 'yes': "
                )
            except EOFError:
                answer = ""
            if answer != "yes":
                raise CommandError("Nothing was deleted.")
        with told("Nothing was deleted"), transaction.atomic():
            delete_club(club)
        self.stdout.write(f"Deleted {club.name} (/{slug}/): {matchdays} matchdays, {players} players.")
