from django.core.management.base import BaseCommand, CommandError

from ratings.models import RatingTable
from ratings.services.recompute import differences, rebuild_all
from web.faults import told


class Command(BaseCommand):
    help = "Rebuild every rating table from the whole history of results (or, with --check, compare)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--check",
            action="store_true",
            help="Change nothing: compare the stored tables with a fresh computation and exit 1 if they differ.",
        )

    def handle(self, check: bool, **options):
        if check:
            with told("Nothing was compared"):
                lines = differences()
            if lines:
                shown = "\n".join(lines[:50]) + (f"\n... and {len(lines) - 50} more" if len(lines) > 50 else "")
                raise CommandError(f"The stored rating tables differ from a fresh computation:\n{shown}")
            self.stdout.write("The stored rating tables agree with a fresh computation.")
            return
        with told("Nothing was recomputed"):
            rows = rebuild_all()
            tables = RatingTable.every.count()  # the seasons' tables too
        self.stdout.write(f"Recomputed {tables} rating tables ({rows} rows).")
