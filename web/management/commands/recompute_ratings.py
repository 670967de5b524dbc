from django.core.management.base import BaseCommand, CommandError

from ratings.models import RatingTable
from ratings.services.recompute import differences, rebuild_all
from web.faults import told
from web.management.clubs import add_club_argument, club_named, in_club


class Command(BaseCommand):
    help = "Rebuild every rating table of the club from the whole history of its results (or, with --check, compare)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--check",
            action="store_true",
            help="Change nothing: compare the stored tables with a fresh computation and exit 1 if they differ.",
        )
        add_club_argument(parser)

    def handle(self, check: bool, club: str | None, **options):
        club = club_named(club)
        if check:
            with told("Nothing was compared"), in_club(club):
                lines = differences(club)
            if lines:
                shown = "\n".join(lines[:50]) + (f"\n... and {len(lines) - 50} more" if len(lines) > 50 else "")
                raise CommandError(f"The stored rating tables differ from a fresh computation:\n{shown}")
            self.stdout.write("The stored rating tables agree with a fresh computation.")
            return
        with told("Nothing was recomputed"), in_club(club):
            rows = rebuild_all(club)
            tables = RatingTable.every.count()  # the seasons' tables too
        self.stdout.write(f"Recomputed {tables} rating tables ({rows} rows).")
