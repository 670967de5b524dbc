from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from web.deals.importing import SEED_COLUMNS, import_seeds
from web.faults import told
from web.importing import ImportFailed
from web.management.clubs import add_club_argument, club_named, in_club
from web.management.commands.import_attempts import read


class Command(BaseCommand):
    help = (
        "Seed deals from their prior records, a CSV file with the columns "
        + ",".join(SEED_COLUMNS)
        + ": each deal's first rating comes from its plays and wins. Recomputes the games from the start. "
        "All or nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="CSV file (UTF-8), or - for standard input")
        add_club_argument(parser)

    def handle(self, file: Path, club: str | None, **options):
        club = club_named(club)
        data = read(file)
        try:
            with told(f"Nothing was imported from {file}"), in_club(club):
                summary = import_seeds(data)
        except ImportFailed as exc:
            raise CommandError(f"Nothing was imported from {file}:\n" + "\n".join(exc.errors)) from None
        n = summary.deals_seeded
        self.stdout.write(f"Seeded {n} deal{'' if n == 1 else 's'} ({summary.deals_created} new).")
        if summary.games_created:
            self.stdout.write("New games (played against deals): " + ", ".join(summary.games_created))
