from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from league import history
from league.models import Write
from web.faults import told
from web.importing import COLUMNS, ImportFailed, import_results
from web.management.clubs import add_club_argument, club_named, in_club
from web.page_cache.ahead import rendered_ahead


class Command(BaseCommand):
    help = (
        "Import matchday results from a CSV file with the columns "
        + ",".join(COLUMNS)
        + ". All or nothing: on any problem nothing is imported."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="CSV file (UTF-8), or - for standard input")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="Replace the results of matchdays that already exist instead of refusing.",
        )
        add_club_argument(parser)

    def handle(self, file: Path, replace: bool, club: str | None, **options):
        club = club_named(club)
        if str(file) == "-":
            import sys

            data = sys.stdin.buffer.read()
        else:
            try:
                data = file.read_bytes()
            except OSError as exc:
                raise CommandError(f"Cannot read {file}: {exc.strerror}; nothing was imported.") from None
        try:
            with (
                told(f"Nothing was imported from {file}"),
                in_club(club),
                history.way_in(Write.Way.IMPORT),
                rendered_ahead(),
            ):
                summary = import_results(data, replace=replace)
        except ImportFailed as exc:
            # One problem on the same line, several one a line below it.
            joined = " " if len(exc.errors) == 1 else "\n"
            raise CommandError(f"Nothing was imported from {file}:{joined}" + "\n".join(exc.errors)) from None
        matchdays = "matchday" if summary.matchdays == 1 else "matchdays"
        self.stdout.write(f"Imported {summary.matchdays} {matchdays} with {summary.results} results.")
        if summary.players_created:
            shown = ", ".join(summary.players_created[:20])
            more = len(summary.players_created) - 20
            self.stdout.write(f"New players: {shown}" + (f" and {more} more" if more > 0 else ""))
        for warning in summary.look_alikes:
            self.stdout.write(f"Check: {warning}.")
        if summary.games_created:
            self.stdout.write("New games (official): " + ", ".join(summary.games_created))
